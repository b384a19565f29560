//! The `ppu` command line: exit statuses, error messages naming the field, no panic
//! on any scenario file, subcommands and --help.
use ppu_sim::registry;
use ppu_sim::scenario::{RunError, RunOptions};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

fn ppu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ppu"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = ppu_sim::repo_root().join("target").join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn x6_every_subcommand_has_help() {
    for sub in ["run", "bench", "export", "synth", "waves"] {
        let (code, out, _) = ppu(&[sub, "--help"]);
        assert_eq!(code, 0, "{} --help", sub);
        assert!(out.contains("Usage: ppu"), "{}: {}", sub, out);
    }
}

#[test]
fn x5_malformed_scenario_files_exit_2_naming_the_problem() {
    let cases: Vec<(&str, &str, &str)> = vec![
        ("empty.json", "", "not valid JSON"),
        ("garbage.json", "{\"unit\": ", "not valid JSON"),
        ("binary.json", "\u{0}\u{1}\u{2}", "not valid JSON"),
        ("array.json", "[1,2,3]", "must be a JSON object"),
        ("nounit.json", "{\"config\":{}}", "unit"),
        (
            "badunit.json",
            "{\"unit\":\"teapot\",\"config\":{}}",
            "unknown unit `teapot`",
        ),
        (
            "typeunit.json",
            "{\"unit\":7,\"config\":{}}",
            "unit: must be a string",
        ),
        // serde_json keeps the last of two equal names: this once ran as a stream-out scenario.
        (
            "dupunit.json",
            "{\"unit\":\"status-fsm\",\"config\":{},\"cycles\":[{}],\"unit\":\"stream-out\"}",
            "unit: given twice",
        ),
        (
            "dupdeep.json",
            "{\"unit\":\"status-fsm\",\"config\":{},\"cycles\":[{},{\"halt\":1,\"halt\":0}]}",
            "cycles[1].halt: given twice",
        ),
    ];
    for (name, text, needle) in cases {
        let p = scratch(name, text);
        let (code, _, err) = ppu(&["run", "--scenario", p.to_str().unwrap()]);
        assert_eq!(code, 2, "{}: {}", name, err);
        assert!(
            err.contains(needle),
            "{}: message `{}` lacks `{}`",
            name,
            err,
            needle
        );
        assert!(!err.contains("panicked"), "{}", err);
    }
    let (code, _, err) = ppu(&["run", "--scenario", "/nonexistent/scenario.json"]);
    assert_eq!(code, 2, "{}", err);
    assert!(err.contains("/nonexistent/scenario.json"));
}

/// The message of a scenario's exit 2 (a test fails on any other outcome).
fn invalid(v: &Value) -> String {
    match registry::run_value(v, &RunOptions::default()) {
        Err(RunError::Invalid(m)) => m,
        other => panic!("expected exit 2 for {}: {:?}", v, other),
    }
}

/// the message names the field, also deep inside a scenario: a `null` anywhere, a wrong
/// type inside a barrier command (its commands are tagged by `kind`), a screen whose cache-tile
/// count overflows 64 bits (it once wrapped to 0 and panicked), a thread tree nested past the
/// JSON parser's depth (once "not valid JSON").
#[test]
fn x5_errors_deep_in_a_scenario_name_their_field() {
    let pa = ppu_sim::primitive_attributes::scenario::builtin();
    let mut v = pa.clone();
    v["config"]["swizzle_format"] = json!(null);
    assert!(invalid(&v).contains("config.swizzle_format"));
    let mut v = pa;
    v["prims"][1]["mask"] = json!(null);
    assert!(invalid(&v).contains("prims[1].mask"));
    let barrier = ppu_sim::barrier::scenario::builtin();
    for (cmd, field, value, named) in [
        (
            2,
            "prims",
            json!([{"id": -1, "bbox": [0, 0, 1, 1]}]),
            "commands[2].prims[0].id",
        ),
        (
            0,
            "prims",
            json!([{"id": 7, "bbox": [0.5, 0, 1, 1]}]),
            "commands[0].prims[0].bbox[0]",
        ),
        (
            0,
            "prims",
            json!([{"id": 7, "bbox": [0, 0, 1]}]),
            "commands[0].prims[0].bbox",
        ),
        (1, "tiled", json!(1), "commands[1].tiled"),
        (1, "kind", json!("flush"), "commands[1].kind"),
        (1, "prims", json!([]), "commands[1].prims"),
    ] {
        let mut v = barrier.clone();
        v["commands"][cmd][field] = value;
        let m = invalid(&v);
        assert!(m.contains(named), "`{}` lacks `{}`", m, named);
    }
    let mut v = barrier.clone();
    v["config"]["screen"] = json!([64u64 << 32, 64u64 << 32]);
    assert!(invalid(&v).contains("config.screen"));
    // A work-queue thread tree: `levels` levels of `children` below one top-level thread.
    let nested = |levels: usize| {
        let mut t = json!({"start": 1, "blocks": 1, "block_cycles": 1});
        for _ in 0..levels {
            t = json!({"start": 1, "blocks": 1, "block_cycles": 1, "children": [t]});
        }
        let mut v = ppu_sim::work_queue::scenario::builtin();
        v["threads"] = json!([t]);
        v.to_string()
    };
    let deepest = ppu_sim::scenario::MAX_CHILDREN_NESTING;
    let ok = scratch("nest-ok.json", &nested(deepest));
    assert!(ppu_sim::scenario::read(&ok).is_ok());
    let deep = scratch("nest-deep.json", &nested(deepest + 1));
    let (code, _, err) = ppu(&["run", "--scenario", deep.to_str().unwrap()]);
    assert_eq!(code, 2, "{}", err);
    assert!(err.contains("levels of `children`"), "{}", err);
}

/// where the SPEC has an object, a JSON array is refused naming it (serde reads an array
/// positionally into a struct: `"config":[4,16,64,...]` once ran as the object); inside a
/// stream-out packet an error names its field, not only the packet.
#[test]
fn x5_arrays_in_place_of_objects_and_fields_inside_packets_are_named() {
    let mut checked = 0;
    for m in registry::scenario_runners() {
        let base = (m.builtin)();
        // Every object below the top, one at a time, given as the array of its values.
        let mut paths = vec![];
        node_paths(&base, &mut vec![], &mut paths);
        for path in paths {
            let mut node = &base;
            for &k in &path {
                node = match node {
                    Value::Object(o) => o.values().nth(k).unwrap(),
                    Value::Array(a) => &a[k],
                    _ => unreachable!(),
                };
            }
            let Some(fields) = node.as_object() else {
                continue;
            };
            let as_array = Value::Array(fields.values().cloned().collect());
            let mut v = base.clone();
            mutate(&mut v, &path, &as_array, false);
            let msg = invalid(&v);
            assert!(msg.contains("must be a JSON object"), "{}: {}", m.unit, msg);
            checked += 1;
        }
    }
    assert!(checked > 20, "{} objects", checked);
    let so = ppu_sim::stream_out::scenario::builtin();
    let work = so["packets"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["batches"].is_array())
        .expect("the built-in scenario has explicit batches");
    for (field, value, named) in [
        ("vertices", json!(-5), format!("packets[{}].vertices", work)),
        (
            "batches",
            json!([{"tasks": [{"so_unit": "1", "bytes": [0, 0, 0, 0], "latency": 1}]}]),
            format!("packets[{}].batches[0].tasks[0].so_unit", work),
        ),
        (
            "batches",
            json!([{"tasks": [{"so_unit": 0, "bytes": [0, 0, 0, 0]}]}]),
            format!(
                "packets[{}].batches[0].tasks[0]: missing field `latency`",
                work
            ),
        ),
        ("kind", json!("flush"), format!("packets[{}].kind", work)),
    ] {
        let mut v = so.clone();
        v["packets"][work][field] = value;
        let m = invalid(&v);
        assert!(m.contains(&named), "`{}` lacks `{}`", m, named);
    }
}

/// X-5, X-6: an output path that is a folder is an output error (exit 1, "cannot write
/// output"), not a violation, for every unit; an invalid scenario (exit 2) leaves an existing
/// trace as it was, and is the error reported when the output is a folder too (the scenario is
/// what X-5 gives a status for).
#[test]
fn x5_output_errors_and_invalid_scenarios_leave_outputs_alone() {
    let dir = ppu_sim::repo_root().join("target").join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let good = scratch(
        "status-fsm.json",
        &ppu_sim::status::scenario::builtin_fsm().to_string(),
    );
    let (code, _, err) = ppu(&[
        "run",
        "--scenario",
        good.to_str().unwrap(),
        "--vcd",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{}", err);
    assert!(
        err.contains("cannot write output") && !err.contains("violation"),
        "{}",
        err
    );
    for m in registry::scenario_runners() {
        let trace = dir.join(format!("kept-{}.jsonl", m.unit));
        std::fs::write(&trace, "an earlier trace\n").unwrap();
        let mut v = (m.builtin)();
        v["config"] = json!([]);
        let bad = scratch(&format!("bad-{}.json", m.unit), &v.to_string());
        let (code, _, err) = ppu(&[
            "run",
            "--scenario",
            bad.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{}: {}", m.unit, err);
        assert_eq!(
            std::fs::read_to_string(&trace).unwrap(),
            "an earlier trace\n",
            "{}",
            m.unit
        );
        let (code, _, err) = ppu(&[
            "run",
            "--scenario",
            bad.to_str().unwrap(),
            "--trace",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(
            code, 2,
            "{}: an invalid scenario into a folder: {}",
            m.unit, err
        );
        assert!(err.contains("config"), "{}: {}", m.unit, err);
        for output in ["--trace", "--vcd"] {
            let (code, _, err) = ppu(&["run", m.unit, output, dir.to_str().unwrap()]);
            assert_eq!(code, 1, "{} {}: {}", m.unit, output, err);
            assert!(
                err.contains("cannot write output") && err.contains("is a directory"),
                "{} {}: {}",
                m.unit,
                output,
                err
            );
        }
    }
}

#[test]
fn x5_unknown_fields_are_rejected_with_their_name_for_every_unit() {
    for m in registry::scenario_runners() {
        let mut top = (m.builtin)();
        top.as_object_mut()
            .unwrap()
            .insert("surprise".into(), json!(1));
        let e = registry::run_value(&top, &RunOptions::default()).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{}: {}", m.unit, e);
        assert!(e.to_string().contains("surprise"), "{}: {}", m.unit, e);
        let mut cfg = (m.builtin)();
        cfg["config"]
            .as_object_mut()
            .unwrap()
            .insert("bogus_knob".into(), json!(true));
        let e = registry::run_value(&cfg, &RunOptions::default()).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{}: {}", m.unit, e);
        assert!(e.to_string().contains("bogus_knob"), "{}: {}", m.unit, e);
    }
}

#[test]
fn x5_builtin_scenarios_run_and_write_ordered_traces() {
    for m in registry::scenario_runners() {
        let trace = ppu_sim::repo_root()
            .join("target")
            .join(format!("cli-{}.jsonl", m.unit));
        let (code, out, err) = ppu(&["run", m.unit, "--trace", trace.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {}{}", m.unit, out, err);
        let events = ppu_sim::trace::read_trace(&trace).unwrap();
        ppu_sim::trace::check_trace(&events).unwrap();
    }
}

/// Mutations of a valid scenario: a value replaced by another type or an extreme number, or a
/// field removed.
fn mutate(v: &mut Value, path: &[usize], replacement: &Value, remove: bool) {
    let Some((&k, rest)) = path.split_first() else {
        *v = replacement.clone();
        return;
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(k % m.len()).cloned().unwrap();
            if rest.is_empty() && remove {
                m.remove(&key);
            } else if let Some(child) = m.get_mut(&key) {
                mutate(child, rest, replacement, remove);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = k % a.len();
            if rest.is_empty() && remove {
                a.remove(i);
            } else {
                mutate(&mut a[i], rest, replacement, remove);
            }
        }
        other => *other = replacement.clone(),
    }
}

fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(u64::MAX)),
        Just(json!(1e300)),
        Just(json!("x")),
        Just(json!([])),
        Just(json!({})),
        Just(json!(true)),
        Just(json!(4096)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn x5_mutated_scenarios_never_panic(
        unit in 0usize..8,
        path in proptest::collection::vec(0usize..16, 1..5),
        rep in replacement(),
        remove in any::<bool>(),
    ) {
        let mechs = registry::scenario_runners();
        if mechs.is_empty() {
            return Ok(());
        }
        let m = &mechs[unit % mechs.len()];
        let mut v = (m.builtin)();
        mutate(&mut v, &path, &rep, remove);
        let result = std::panic::catch_unwind(|| registry::run_value(&v, &RunOptions::default()));
        prop_assert!(result.is_ok(), "{} panicked on {}", m.unit, v);
        if let Ok(Err(e)) = result {
            prop_assert!(matches!(e, RunError::Invalid(_) | RunError::Violation(_)), "{}", e);
            prop_assert!(!checker_refused_the_scenario(&e), "exit 1 for an input problem: {}", e);
        }
    }
}

#[test]
fn x4_export_writes_one_file_per_unit_with_its_module_name() {
    let dir = ppu_sim::repo_root().join("target").join("cli-export");
    let (code, out, err) = ppu(&["export", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{}", err);
    for u in ppu_sim::registry::units() {
        let text = std::fs::read_to_string(dir.join(format!("{}.v", u.name))).unwrap();
        assert!(text.contains(&format!("module {}(", u.name)));
        assert!(out.contains(&format!("{}.v", u.name)));
    }
    let (code, _, err) = ppu(&["export", "no_such_unit"]);
    assert_eq!(code, 2);
    assert!(err.contains("no_such_unit"));
}

#[test]
fn x3_bench_harness_quick_reports_every_engine() {
    let (code, out, err) = ppu(&["bench", "harness", "--quick"]);
    assert_eq!(code, 0, "{}", err);
    assert!(
        out.contains("rust-hdl `Simulation`")
            && out.contains("| ppu-sim `Harness`")
            && out.contains("| Verilator -O3")
            && out.contains("vs Verilator"),
        "{}",
        out
    );
    let (code, _, err) = ppu(&["bench", "nonesuch"]);
    assert_eq!(code, 2);
    assert!(err.contains("nonesuch"));
}

#[test]
fn x6_waves_render_draws_an_svg_from_a_real_vcd() {
    let dir = ppu_sim::repo_root().join("target").join("cli-waves");
    let (code, _, err) = ppu(&["waves", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{}", err);
    let svg = dir.join("fifo.svg");
    let vcd = dir.join("stream_fifo.vcd");
    let (code, _, err) = ppu(&[
        "waves",
        "--render",
        vcd.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--signals",
        "stream_fifo.clock,stream_fifo.wr_valid,stream_fifo.rd_data",
        "--until",
        "300",
    ]);
    assert_eq!(code, 0, "{}", err);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("wr_valid") && text.contains("rd_data"));
    let (code, _, err) = ppu(&[
        "waves",
        "--render",
        vcd.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--signals",
        "nope.x",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("nope.x"));
    // A file that is not a VCD (a save file) is named as such, exit 2.
    let not_vcd = dir.join("not_a_vcd.vcd");
    std::fs::write(&not_vcd, "[dumpfile] \"x.vcd\"\n1.5 not a header\n").unwrap();
    let (code, _, err) = ppu(&[
        "waves",
        "--render",
        not_vcd.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{}", err);
    assert!(
        err.contains("not_a_vcd.vcd: not a valid VCD file"),
        "{}",
        err
    );
    // A window with nothing in it: reversed, or starting after the VCD's last time.
    for window in [
        &["--from", "400", "--until", "100"][..],
        &["--from", "999999999"][..],
    ] {
        let mut args = vec![
            "waves",
            "--render",
            vcd.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ];
        args.extend(window);
        let (code, _, err) = ppu(&args);
        assert_eq!(code, 2, "{:?}: {}", window, err);
        assert!(err.contains("nothing to draw"), "{:?}: {}", window, err);
    }
}

#[test]
fn x5_example_scenarios_in_docs_run_and_match_the_builtins() {
    let dir = ppu_sim::repo_root().join("docs").join("scenarios");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let trace = ppu_sim::repo_root().join("target").join(format!(
            "docs-{}.jsonl",
            p.file_stem().unwrap().to_str().unwrap()
        ));
        let (code, out, err) = ppu(&[
            "run",
            "--scenario",
            p.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{}: {}{}", p.display(), out, err);
        ppu_sim::trace::check_trace(&ppu_sim::trace::read_trace(&trace).unwrap()).unwrap();
        ran += 1;
    }
    assert!(ran >= 3);
    for m in registry::scenario_runners() {
        let file = dir.join(format!("{}.json", m.unit));
        let text = std::fs::read_to_string(&file).unwrap_or_else(|_| {
            panic!(
                "{} missing: cargo run -- run {} --print > it",
                file.display(),
                m.unit
            )
        });
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            (m.builtin)(),
            "{} differs from the built-in scenario",
            file.display()
        );
    }
}

#[test]
fn x6_outputs_go_under_the_checkout_or_the_current_folder() {
    // Inside the checkout (cargo runs tests from the package folder `sim/`): its root.
    assert_eq!(ppu_sim::work_root(), ppu_sim::repo_root());
    // From a folder outside any checkout, an installed `ppu` writes there.
    let dir = std::env::temp_dir().join(format!("ppu-cwd-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ppu"))
        .args(["export", "stream_fifo"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = dir.join("synth").join("verilog").join("stream_fifo.v");
    assert!(
        std::fs::read_to_string(&written)
            .unwrap()
            .contains("module stream_fifo"),
        "{} not written",
        written.display()
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&written.display().to_string())
            && !stdout.contains(&ppu_sim::repo_root().display().to_string()),
        "ppu named another folder: {}",
        stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bench's sweep runs its points on worker threads that build large RTL blocks on their
/// stacks: `ppu` must not depend on the RUST_MIN_STACK that `cargo` sets for this workspace (an
/// installed `ppu` runs without it).
#[test]
fn x6_bench_sweeps_run_without_a_larger_default_stack() {
    let out_dir = ppu_sim::repo_root()
        .join("target")
        .join("cli-tests")
        .join("bench-stack");
    let out = Command::new(env!("CARGO_BIN_EXE_ppu"))
        .args(["bench", "stream-out", "--quick", "--out"])
        .arg(&out_dir)
        .env_remove("RUST_MIN_STACK")
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("| SO units |"));
}

/// Every path to a node of a built-in scenario, in the order `mutate` indexes them.
fn node_paths(v: &Value, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let n = match v {
        Value::Object(m) => m.len(),
        Value::Array(a) => a.len(),
        _ => 0,
    };
    for k in 0..n {
        prefix.push(k);
        out.push(prefix.clone());
        let child = match v {
            Value::Object(m) => m.values().nth(k).unwrap(),
            Value::Array(a) => &a[k],
            _ => unreachable!(),
        };
        node_paths(child, prefix, out);
        prefix.pop();
    }
}

/// A run's violation that is the golden checker refusing the scenario itself: the checkers read
/// the scenario from the SPEC's words, so a scenario the parser accepted and a checker refuses
/// (a `null` taken as absent, an id of 2^63 read as i64) is an input problem that exited 1.
fn checker_refused_the_scenario(e: &RunError) -> bool {
    matches!(e, RunError::Violation(m) if m.contains("golden check") && m.contains(": scenario: "))
}

/// X-5, exhaustively for single changes: every node of every built-in scenario replaced by each
/// extreme value or wrong type, and removed. The random test above combines changes; this one
/// makes sure no single change is left to chance (an overflow on `blocks: u64::MAX` once was).
/// A change gives a run, exit 2, or a violation found in the run, never one where the golden
/// checker and the parser read the scenario differently.
#[test]
fn x5_every_single_change_to_a_builtin_scenario_is_handled() {
    let reps = [
        json!(null),
        json!(-1),
        json!(0),
        json!(1),
        json!(u64::MAX),
        json!(1u64 << 63),
        json!(u32::MAX),
        json!(1e300),
        json!(0.5),
        json!("x"),
        json!([]),
        json!({}),
        json!(true),
        json!(4096),
    ];
    let opts = RunOptions::default();
    let mut variants = vec![];
    for m in registry::scenario_runners() {
        let base = (m.builtin)();
        let mut paths = vec![];
        node_paths(&base, &mut vec![], &mut paths);
        for path in &paths {
            for (i, rep) in reps.iter().enumerate() {
                for remove in [false, true] {
                    if remove && i > 0 {
                        continue;
                    }
                    let mut v = base.clone();
                    mutate(&mut v, path, rep, remove);
                    variants.push((m.unit, v));
                }
            }
        }
    }
    let runs = variants.len();
    // Each variant is an independent run: one per core.
    use rayon::prelude::*;
    let failures: Vec<String> = variants
        .par_iter()
        .filter_map(
            |(unit, v)| match std::panic::catch_unwind(|| registry::run_value(v, &opts)) {
                Err(_) => Some(format!("{} panicked on {}", unit, v)),
                Ok(Err(e)) if checker_refused_the_scenario(&e) => Some(format!(
                    "{} on {}: exit 1 for an input problem: {}",
                    unit, v, e
                )),
                Ok(Err(RunError::Invalid(_) | RunError::Violation(_))) | Ok(Ok(_)) => None,
                Ok(Err(e)) => Some(format!("{} on {}: {}", unit, v, e)),
            },
        )
        .collect();
    assert!(runs > 100, "{} runs", runs);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `ppu bench NAME --out DIR` writes its result page into DIR and leaves the README, which
/// quotes the pages in docs/results, as it was (a run into a scratch folder once replaced the
/// README's tables with its own figures).
#[test]
fn x6_bench_into_another_folder_leaves_the_readme_alone() {
    let readme = ppu_sim::repo_root().join("README.md");
    let before = std::fs::read(&readme).unwrap();
    let out_dir = ppu_sim::repo_root()
        .join("target")
        .join("cli-tests")
        .join("bench-out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let (code, out, err) = ppu(&[
        "bench",
        "primitive-attributes",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{}", err);
    assert!(!out.contains("updated the README"), "{}", out);
    let page = std::fs::read_to_string(out_dir.join("primitive-attributes.md")).unwrap();
    assert!(page.contains("| topology |"), "{}", page);
    assert!(
        std::fs::read(&readme).unwrap() == before,
        "the README changed"
    );
}

/// `ppu` with its standard output going to `stdout` (a pipe closed early, or `/dev/full`).
fn ppu_to(args: &[&str], stdout: std::process::Stdio) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ppu"))
        .args(args)
        .stdout(stdout)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn x5_standard_output_that_cannot_be_written_is_an_output_error_not_a_panic() {
    // A full disk: exit 1 with the reason.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        for args in [
            &["run", "status-fsm"][..],
            &["run", "status-fsm", "--print"][..],
            &["export", "--list"][..],
        ] {
            let (code, err) = ppu_to(args, full.try_clone().unwrap().into());
            assert_eq!(code, 1, "{:?}: {}", args, err);
            assert!(
                err.contains("cannot write output: standard output"),
                "{}",
                err
            );
            assert!(!err.contains("panicked"), "{:?}: {}", args, err);
        }
    }
    // A reader that went away: a closed pipe ends the command quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ppu"))
        .args(["run", "status-system", "--print"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{}", err);
    assert_ne!(out.status.code(), Some(101), "{}", err);
}

#[test]
fn x5_a_run_refuses_outputs_that_would_overwrite_its_scenario_or_each_other() {
    let dir = ppu_sim::repo_root().join("target").join("cli-paths");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("my.json");
    let text = serde_json::to_string(&(registry::scenario_runners()[0].builtin)()).unwrap();
    std::fs::write(&scenario, &text).unwrap();
    let s = scenario.to_str().unwrap();
    let other = dir.join("..").join("cli-paths").join("my.json");
    let d = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--scenario".into(), s.into(), "--trace".into(), s.into()],
            "would overwrite the scenario",
        ),
        (
            vec![
                "--scenario".into(),
                s.into(),
                "--trace".into(),
                other.to_str().unwrap().into(),
            ],
            "would overwrite the scenario",
        ),
        (
            vec!["--scenario".into(), s.into(), "--vcd".into(), d("x.gtkw")],
            "are the same file",
        ),
        (
            vec![
                "--scenario".into(),
                s.into(),
                "--vcd".into(),
                d("same"),
                "--trace".into(),
                d("same"),
            ],
            "are the same file",
        ),
        (
            vec![
                "--scenario".into(),
                s.into(),
                "--vcd".into(),
                d("a.vcd"),
                "--trace".into(),
                d("a.gtkw"),
            ],
            "are the same file",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["run"];
        all.extend(args.iter().map(String::as_str));
        let (code, _, err) = ppu(&all);
        assert_eq!(code, 2, "{:?}: {}", all, err);
        assert!(err.contains(want), "{:?}: {}", all, err);
    }
    assert_eq!(std::fs::read_to_string(&scenario).unwrap(), text);
    let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(written.len(), 1, "a refused run wrote {:?}", written);
    // A folder that does not exist: the trace and the VCD alike are output errors (exit 1).
    for flag in ["--trace", "--vcd"] {
        let missing = d("no-such-folder/out");
        let (code, _, err) = ppu(&["run", "status-fsm", flag, &missing]);
        assert_eq!(code, 1, "{}: {}", flag, err);
        assert!(err.contains("does not exist"), "{}: {}", flag, err);
        assert!(
            !dir.join("no-such-folder").exists(),
            "{} created the folder",
            flag
        );
    }
}

#[test]
fn x5_every_run_with_a_vcd_writes_its_gtkwave_save_file_beside_it() {
    let dir = ppu_sim::repo_root().join("target").join("cli-gtkw");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for m in registry::scenario_runners() {
        let vcd = dir.join(format!("{}.vcd", m.unit));
        let (code, _, err) = ppu(&["run", m.unit, "--vcd", vcd.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {}", m.unit, err);
        let save = std::fs::read_to_string(vcd.with_extension("gtkw"))
            .unwrap_or_else(|e| panic!("{}: no save file: {}", m.unit, e));
        assert!(
            save.contains(&format!("[dumpfile] \"{}.vcd\"", m.unit)),
            "{}: {}",
            m.unit,
            save
        );
    }
}

#[test]
fn x5_scenario_encodings_and_number_errors_are_named_in_the_users_terms() {
    let fsm = "{\"unit\":\"status-fsm\",\"config\":{},\"cycles\":[{}]}";
    // A UTF-8 byte-order mark (Windows editors) is read as UTF-8.
    let bom = scratch("bom.json", &format!("\u{feff}{}", fsm));
    let (code, _, err) = ppu(&["run", "--scenario", bom.to_str().unwrap()]);
    assert_eq!(code, 0, "{}", err);
    // UTF-16 (PowerShell's `>`) is refused saying so.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(fsm.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let p16 = ppu_sim::repo_root()
        .join("target")
        .join("cli-tests")
        .join("utf16.json");
    std::fs::write(&p16, utf16).unwrap();
    let (code, _, err) = ppu(&["run", "--scenario", p16.to_str().unwrap()]);
    assert_eq!(code, 2, "{}", err);
    assert!(err.contains("UTF-16"), "{}", err);
    // An integer beyond 64 bits reaches serde as a float: the message says what is wrong.
    let big = scratch(
        "bigint.json",
        "{\"unit\":\"status-fsm\",\"config\":{},\"cycles\":[{\"reset\":99999999999999999999999}]}",
    );
    let (code, _, err) = ppu(&["run", "--scenario", big.to_str().unwrap()]);
    assert_eq!(code, 2, "{}", err);
    assert!(
        err.contains("cycles[0].reset: 1e+23 is not a whole number from 0 to 255"),
        "{}",
        err
    );
    // A field missing at the top level is named (not `.`).
    let nocycles = scratch("nocycles.json", "{\"unit\":\"status-fsm\",\"config\":{}}");
    let (code, _, err) = ppu(&["run", "--scenario", nocycles.to_str().unwrap()]);
    assert_eq!(code, 2, "{}", err);
    assert!(err.contains("cycles: missing field `cycles`"), "{}", err);
    // Nesting beyond the parser's limit names work-queue's `children` only for work-queue.
    let deep = format!(
        "{{\"unit\":\"status-fsm\",\"config\":{{}},\"cycles\":{}1{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let deep = scratch("deep.json", &deep);
    let (code, _, err) = ppu(&["run", "--scenario", deep.to_str().unwrap()]);
    assert_eq!(code, 2, "{}", err);
    assert!(err.contains("nested deeper than 128"), "{}", err);
    assert!(!err.contains("children"), "{}", err);
}

#[test]
fn x6_flags_that_would_be_ignored_are_refused() {
    let barrier = ppu_sim::repo_root()
        .join("docs")
        .join("scenarios")
        .join("barrier.json");
    let (code, _, err) = ppu(&["run", "--scenario", barrier.to_str().unwrap(), "--print"]);
    assert_eq!(code, 2, "{}", err);
    let (code, _, err) = ppu(&["run", "barrier", "--print", "--trace", "t.jsonl"]);
    assert_eq!(code, 2, "{}", err);
    for args in [
        &["waves", "--from", "5"][..],
        &["waves", "--signals", "foo"][..],
        &["waves", "--render", "a.vcd", "--svg", "a.svg", "--dir", "x"][..],
    ] {
        let (code, _, err) = ppu(args);
        assert_eq!(code, 2, "{:?}: {}", args, err);
    }
    // An output folder that is a file.
    let file = scratch("not-a-folder", "");
    for sub in ["waves", "export"] {
        let flag = if sub == "waves" { "--dir" } else { "--out" };
        let (code, _, err) = ppu(&[sub, flag, file.to_str().unwrap()]);
        assert_eq!(code, 1, "{}: {}", sub, err);
        assert!(err.contains("is a file, not a folder"), "{}: {}", sub, err);
    }
}
