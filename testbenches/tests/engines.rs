//! The Verilator engine against the harness (SPEC X-3): every built-in scenario of every
//! mechanism, and stream-out variants over every cluster size, give byte-identical traces on
//! both engines; a bench run on either engine gives the same results; waves are refused on
//! the Verilator engine. Skipped without Verilator unless `PPU_REQUIRE_EDA=1`.
use ppu_sim::eda::tools;
use ppu_sim::registry;
use ppu_sim::scenario::{RunError, RunOptions};
use ppu_sim::verilator::{bench as engines, Engine};
use serde_json::Value;
use std::path::PathBuf;

fn have_verilator() -> bool {
    tools::tool_for_test("verilator", "the Verilator engine").is_some()
}

fn scratch(name: &str) -> PathBuf {
    tools::scratch_dir(name).unwrap()
}

/// Run `scenario` on `engine`; returns the trace file's bytes.
fn trace_of(scenario: &Value, engine: Engine, dir: &std::path::Path, tag: &str) -> Vec<u8> {
    let path = dir.join(format!("{}-{}.jsonl", tag, engine));
    let opts = RunOptions {
        trace: Some(path.clone()),
        seed: 3,
        engine,
        ..Default::default()
    };
    registry::run_value(scenario, &opts)
        .unwrap_or_else(|e| panic!("{} on the {} engine: {}", tag, engine, e));
    std::fs::read(&path).unwrap()
}

fn assert_same_traces(scenario: &Value, tag: &str) {
    let dir = scratch("engines");
    let h = trace_of(scenario, Engine::Harness, &dir, tag);
    let v = trace_of(scenario, Engine::Verilator, &dir, tag);
    assert!(h.len() > 100, "{}: the harness trace is empty", tag);
    if h != v {
        let (hs, vs) = (String::from_utf8_lossy(&h), String::from_utf8_lossy(&v));
        let line = hs
            .lines()
            .zip(vs.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(hs.lines().count().min(vs.lines().count()));
        panic!(
            "{}: traces differ from line {}:\n  harness:   {}\n  verilator: {}",
            tag,
            line + 1,
            hs.lines().nth(line).unwrap_or("<end>"),
            vs.lines().nth(line).unwrap_or("<end>")
        );
    }
}

#[test]
fn x3_every_builtin_scenario_gives_byte_identical_traces_on_both_engines() {
    if !have_verilator() {
        return;
    }
    use rayon::prelude::*;
    let runners = registry::scenario_runners();
    assert!(runners.len() >= 6);
    // Independent runs (each model built once, cached): one per core.
    runners
        .par_iter()
        .for_each(|r| assert_same_traces(&(r.builtin)(), r.unit));
}

#[test]
fn x3_stream_out_on_every_cluster_size_gives_byte_identical_traces() {
    if !have_verilator() {
        return;
    }
    let runner = registry::scenario_runners()
        .into_iter()
        .find(|r| r.unit == "stream-out")
        .unwrap();
    // 1, 2, 3 (the 4-unit cluster with one idle), 8 and 16 SO units: every cluster type, and
    // the shader model (few shaders, small output buffers) on one of them.
    use rayon::prelude::*;
    let sizes = [
        (1, None),
        (2, Some(2)),
        (3, None),
        (8, Some(11)),
        (16, None),
    ];
    sizes
        .par_iter()
        .for_each(|&(units, shaders): &(u64, Option<u64>)| {
            let mut sc = (runner.builtin)();
            sc["config"]["so_units"] = units.into();
            let mut next = 0u64;
            spread_so_units(&mut sc["packets"], units, &mut next);
            if let Some(s) = shaders {
                sc["config"]["shaders"] = s.into();
                sc["config"]["shader_out_batches"] = 1.into();
            }
            assert_same_traces(&sc, &format!("stream-out-{}", units));
        });
}

/// Give the tasks of `v` SO units 0, 1, .. in turn, modulo `units`.
fn spread_so_units(v: &mut Value, units: u64, next: &mut u64) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "so_unit" {
                    *x = (*next % units).into();
                    *next += 1;
                } else {
                    spread_so_units(x, units, next);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| spread_so_units(x, units, next)),
        _ => {}
    }
}

/// The quickest bench (primitive attributes, about 9 k cycles): the engines' agreement on each
/// mechanism's system is the trace tests' job; this one checks a bench's run, its sweep and its
/// result table, on both (the work-queue bench's 512 k cycles took 45 s more on the harness).
#[test]
fn x3_a_bench_gives_the_same_results_on_both_engines() {
    if !have_verilator() {
        return;
    }
    let bench = registry::benches()
        .into_iter()
        .find(|b| b.name == "primitive-attributes")
        .unwrap();
    let h = engines::run_on(&bench, Engine::Harness).unwrap();
    let v = engines::run_on(&bench, Engine::Verilator).unwrap();
    assert!(h.markdown.contains('|'), "no result table");
    assert_eq!(h.markdown, v.markdown);
}

#[test]
fn x3_waves_are_refused_on_the_verilator_engine() {
    if !have_verilator() {
        return;
    }
    let runner = registry::scenario_runners()
        .into_iter()
        .find(|r| r.unit == "barrier")
        .unwrap();
    let dir = scratch("engines-vcd");
    let opts = RunOptions {
        vcd: Some(dir.join("x.vcd")),
        engine: Engine::Verilator,
        ..Default::default()
    };
    let e = registry::run_value(&(runner.builtin)(), &opts).unwrap_err();
    assert!(matches!(e, RunError::Output(_)), "{:?}", e);
    assert!(e.to_string().contains("--engine harness"), "{}", e);
    assert!(!dir.join("x.vcd").exists());
}

#[test]
fn x3_engine_names_parse_and_unknown_ones_are_named() {
    assert_eq!(Engine::parse("harness"), Ok(Engine::Harness));
    assert_eq!(Engine::parse("verilator"), Ok(Engine::Verilator));
    let e = Engine::parse("iverilog").unwrap_err();
    assert!(
        e.contains("iverilog") && e.contains("harness, verilator"),
        "{}",
        e
    );
    // A bench scope applies to runs that name the default engine, and ends with the scope.
    assert_eq!(Engine::Harness.resolve(), Engine::Harness);
    ppu_sim::verilator::with_engine(Engine::Verilator, || {
        assert_eq!(Engine::Harness.resolve(), Engine::Verilator);
    });
    assert_eq!(Engine::Harness.resolve(), Engine::Harness);
}
