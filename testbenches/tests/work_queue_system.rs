//! Work-queue system testbench (WQ-3..WQ-8, WQ-10, section 4 scenario and trace): the figures
//! 6A-6F sequence as a directed test with waves, bad scenarios (exit 2), an acquire never
//! released in time (watchdog, exit 1), ring exhaustion with refused allocations retried, and
//! random thread trees — every trace checked by the golden WQ-8 checker, which is written from
//! the specification independently of the RTL. Lint and co-simulation of `wq_cluster`:
//! tests/verilog.rs.
use ppu_sim::registry::run_value;
use ppu_sim::repo_root;
use ppu_sim::scenario::{RunError, RunOptions};
use ppu_sim::trace::read_trace;
use ppu_sim::work_queue::golden::check_trace;
use ppu_sim::work_queue::scenario::builtin;
use ppu_sim::work_queue::system::{self, Mode};
use proptest::prelude::*;
use serde_json::{json, Value};

fn run_traced(v: &Value, name: &str) -> Result<Vec<Value>, RunError> {
    let dir = std::env::temp_dir().join(format!("ppu-wq-{}-{}", std::process::id(), name));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("t.jsonl");
    let opts = RunOptions {
        trace: Some(trace.clone()),
        ..RunOptions::default()
    };
    run_value(v, &opts)?;
    Ok(read_trace(&trace).unwrap())
}

fn position(events: &[Value], pred: impl Fn(&Value) -> bool) -> usize {
    events
        .iter()
        .position(pred)
        .unwrap_or_else(|| panic!("event not found"))
}

fn is(e: &Value, event: &str, fields: Value) -> bool {
    e["event"] == event
        && fields
            .as_object()
            .unwrap()
            .iter()
            .all(|(k, v)| e.get(k) == Some(v))
}

#[test]
fn wq5_wq7_figures_6a_to_6f_sequence_with_waves() {
    let vcd = repo_root().join("waves").join("work_queue_system.vcd");
    let dir = std::env::temp_dir().join(format!("ppu-wq-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("t.jsonl");
    let opts = RunOptions {
        trace: Some(trace.clone()),
        vcd: Some(vcd.clone()),
        ..RunOptions::default()
    };
    run_value(&builtin(), &opts).unwrap();
    assert!(vcd.with_extension("gtkw").exists());
    let ev = read_trace(&trace).unwrap();
    let facts = check_trace(&builtin(), &ev).unwrap();
    assert_eq!(facts.cpu_interactions, 1);
    // 6A: the CPU channel launches the kernel and waits for it.
    let launch = position(&ev, |e| {
        is(e, "exec", json!({"channel":0,"command":"launch"}))
    });
    let wfi = position(&ev, |e| is(e, "exec", json!({"channel":0,"command":"wfi"})));
    // 6B/6C: the threads fill the GPU channel; release X lets the GPU channel start.
    let first_written = position(&ev, |e| e["event"] == "written");
    let release_x = position(&ev, |e| is(e, "release", json!({"channel":0,"sem":"X"})));
    let acquire_x = position(&ev, |e| {
        is(e, "acquire_done", json!({"channel":1,"sem":"X"}))
    });
    let wait_y = position(&ev, |e| {
        is(e, "acquire_wait", json!({"channel":0,"sem":"Y"}))
    });
    // 6D/6E: created blocks execute on the GPU channel, guards in between.
    let gpu_launch = position(&ev, |e| {
        is(e, "exec", json!({"channel":1,"command":"launch"}))
    });
    // 6F: the return block releases Y, the CPU channel continues, the GPU channel blocks on X.
    let release_y = position(&ev, |e| is(e, "release", json!({"channel":1,"sem":"Y"})));
    let done_y = position(&ev, |e| {
        is(e, "acquire_done", json!({"channel":0,"sem":"Y"}))
    });
    let rewait_x = ev
        .iter()
        .rposition(|e| is(e, "acquire_wait", json!({"channel":1,"sem":"X"})))
        .unwrap();
    assert!(launch < wfi && wfi < release_x && first_written < release_x);
    assert!(release_x < acquire_x && acquire_x < gpu_launch && wait_y < gpu_launch);
    assert!(gpu_launch < release_y && release_y < done_y && release_y < rewait_x);
    assert_eq!(ev.last().unwrap()["event"], "done");
}

fn bad(v: Value) -> String {
    match run_value(&v, &RunOptions::default()) {
        Err(e @ RunError::Invalid(_)) => {
            assert_eq!(e.exit_code(), 2);
            e.to_string()
        }
        other => panic!("expected an invalid scenario, got {:?}", other),
    }
}

#[test]
fn wq10_bad_scenarios_name_the_field() {
    let mut v = builtin();
    v["config"]["entries"] = json!(3);
    assert!(bad(v).contains("config.entries"));
    let mut v = builtin();
    v["config"]["entries"] = json!(257);
    assert!(bad(v).contains("config.entries"));
    let mut v = builtin();
    v["config"]["entries"] = json!(8);
    v["threads"] =
        json!([{"start":1,"blocks":3,"block_cycles":1},{"start":1,"blocks":2,"block_cycles":1}]);
    assert!(bad(v).contains("threads"), "1 + 4 + 3 > 7");
    let mut v = builtin();
    v["threads"][0]["children"][0]["colour"] = json!(1);
    assert!(bad(v).contains("threads[0].children[0]"));
    let mut v = builtin();
    v["config"].as_object_mut().unwrap().remove("bus_latency");
    assert!(bad(v).contains("bus_latency"));
    let mut v = builtin();
    v["threads"][0]["blocks"] = json!(0);
    assert!(bad(v).contains("threads[0].children"));
    let mut v = builtin();
    v["threads"] = json!([]);
    assert!(bad(v).contains("threads"));
    let mut v = builtin();
    v["config"]["watchdog_cycles"] = json!(0);
    assert!(bad(v).contains("config.watchdog_cycles"));
}

#[test]
fn wq10_an_acquire_waiting_past_the_watchdog_is_a_violation() {
    // The CPU channel's acquire of Y waits for all the created work: with a long kernel it
    // waits past the watchdog.
    let mut v = builtin();
    v["config"]["watchdog_cycles"] = json!(300);
    v["threads"][0]["block_cycles"] = json!(2000);
    match run_value(&v, &RunOptions::default()) {
        Err(e @ RunError::Violation(_)) => {
            assert_eq!(e.exit_code(), 1);
            assert!(e.to_string().contains("watchdog"), "{}", e);
        }
        other => panic!("expected a watchdog violation, got {:?}", other),
    }
    // The same scenario with the default watchdog runs.
    v["config"]
        .as_object_mut()
        .unwrap()
        .remove("watchdog_cycles");
    run_value(&v, &RunOptions::default()).unwrap();
}

/// WQ-10's words, at the boundary: an acquire waiting *longer than* `watchdog_cycles` is a
/// violation. The built-in scenario's longest wait (`acquire_wait` to `acquire_done` of the
/// same channel) as the limit runs; one cycle less is a violation naming the watchdog.
#[test]
fn wq10_the_watchdog_fires_only_for_a_wait_longer_than_its_limit() {
    let events = run_traced(&builtin(), "watchdog-boundary").unwrap();
    let mut since: [Option<u64>; 2] = [None, None];
    let mut longest = 0;
    for e in &events {
        let cycle = e["cycle"].as_u64().unwrap();
        match (e["event"].as_str().unwrap(), e["channel"].as_u64()) {
            ("acquire_wait", Some(c)) => since[c as usize] = Some(cycle),
            ("acquire_done", Some(c)) => {
                if let Some(w) = since[c as usize].take() {
                    longest = longest.max(cycle - w);
                }
            }
            _ => {}
        }
    }
    assert!(
        longest > 1,
        "the built-in scenario has an acquire that waits"
    );
    let mut v = builtin();
    v["config"]["watchdog_cycles"] = json!(longest);
    run_value(&v, &RunOptions::default()).unwrap();
    v["config"]["watchdog_cycles"] = json!(longest - 1);
    match run_value(&v, &RunOptions::default()) {
        Err(e @ RunError::Violation(_)) => assert!(e.to_string().contains("watchdog"), "{}", e),
        other => panic!(
            "a wait of {} past a limit of {}: {:?}",
            longest,
            longest - 1,
            other
        ),
    }
}

#[test]
fn wq10_ring_exhaustion_refuses_and_retries_without_overwriting() {
    // A ring of 8: the top-level thread takes 1+3 entries; its child kernel's four threads
    // each want 4 more, so allocations are refused until the host has moved on.
    let v = json!({"unit":"work-queue",
        "config":{"entries":8,"bus_latency":50,"host_cycles_per_command":2,"retry_cycles":7},
        "threads":[{"start":1,"blocks":2,"block_cycles":10,"children":[
            {"start":0,"blocks":3,"block_cycles":60},{"start":0,"blocks":3,"block_cycles":60},
            {"start":1,"blocks":3,"block_cycles":60},{"start":2,"blocks":3,"block_cycles":60}]}]});
    let ev = run_traced(&v, "exhaust").unwrap();
    let facts = check_trace(&v, &ev).unwrap();
    assert!(facts.allocations_refused > 0, "{:?}", facts);
    assert_eq!(facts.allocations_ok, 6);
}

#[test]
fn wq11_baseline_goes_to_the_cpu_once_per_level() {
    let cfg = ppu_sim::work_queue::scenario::system_config(&builtin()).unwrap();
    let (gpu, _) = system::run(&cfg, None).unwrap();
    let mut base = cfg.clone();
    base.mode = Mode::CpuMediated;
    let (cpu, _) = system::run(&base, None).unwrap();
    // Two levels of nested work: submission + 2 round trips.
    assert_eq!(gpu.cpu_interactions, 1);
    assert_eq!(cpu.cpu_interactions, 1 + 2 * 2);
    assert!(
        gpu.cycles + 2 * cfg.bus_latency < cpu.cycles,
        "{:?} {:?}",
        gpu,
        cpu
    );
    assert_eq!(gpu.kernels_launched, cpu.kernels_launched);
}

fn thread_tree(depth: u32) -> impl Strategy<Value = Value> {
    let leaf = (0u64..40, 0u64..3, 1u64..80)
        .prop_map(|(s, b, c)| json!({"start":s,"blocks":b,"block_cycles":c}));
    leaf.prop_recursive(depth, 12, 3, |inner| {
        (
            0u64..40,
            1u64..3,
            1u64..80,
            prop::collection::vec(inner, 1..3),
        )
            .prop_map(|(s, b, c, ch)| json!({"start":s,"blocks":b,"block_cycles":c,"children":ch}))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
    #[test]
    fn wq8_random_thread_trees_keep_every_invariant(
        top in prop::collection::vec(thread_tree(3), 1..4),
        entries in 10u64..40,
        bus in 0u64..300,
        host in 0u64..5,
        retry in 0u64..30,
    ) {
        let v = json!({"unit":"work-queue",
            "config":{"entries":entries,"bus_latency":bus,"host_cycles_per_command":host,
                      "retry_cycles":retry},
            "threads":top});
        match run_traced(&v, "prop") {
            Ok(ev) => { check_trace(&v, &ev).map_err(TestCaseError::fail)?; }
            Err(RunError::Invalid(m)) => prop_assume!(false, "{}", m),
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        }
    }
}

#[test]
fn wq10_malformed_entries_stop_their_channel_and_the_other_goes_on() {
    use ppu_sim::work_queue::tb::{run_bad_input, BadEntry};
    for bad in [
        BadEntry::EmptyBlock,
        BadEntry::OddLength,
        BadEntry::UnknownOpcode,
        BadEntry::SemaphoreOutsideRing,
    ] {
        let r = run_bad_input(bad, 5, 1200, &ppu_sim::tb::TbOutput::default()).unwrap();
        assert_eq!(r.errors, 1, "{:?}: {:?}", bad, r);
        assert!(r.cpu_stopped && r.cpu_gp_get == 0, "{:?}: {:?}", bad, r);
        assert_eq!(r.gpu_releases, vec![100, 101, 102, 103, 104], "{:?}", bad);
        assert_eq!(r.gpu_gp_get, 5);
    }
}

#[test]
fn wq10_an_acquire_never_released_fires_the_watchdog_and_nothing_else_breaks() {
    use ppu_sim::work_queue::tb::{run_bad_input, BadEntry};
    let vcd = repo_root().join("waves").join("wq_cluster_watchdog.vcd");
    let out = ppu_sim::tb::TbOutput {
        vcd: Some(&vcd),
        record_ports: false,
        engine: ppu_sim::verilator::Engine::Harness,
    };
    let r = run_bad_input(BadEntry::NeverReleased, 6, 1200, &out).unwrap();
    assert_eq!((r.watchdogs, r.errors), (1, 0), "{:?}", r);
    // WQ-10: the pulse comes once the acquire has waited `watchdog_limit` cycles, counted from
    // the cycle its condition was first found false (`acquire_wait`), whichever channel the
    // host serves meanwhile.
    let waited = r
        .first_cpu_acquire_wait
        .expect("the CPU channel's acquire waits");
    assert_eq!(
        r.watchdog_cycles,
        vec![waited + ppu_sim::work_queue::tb::BAD_INPUT_WATCHDOG_LIMIT],
        "{:?}",
        r
    );
    assert!(!r.cpu_stopped && r.cpu_gp_get == 0);
    assert_eq!(r.gpu_releases, vec![100, 101, 102, 103, 104, 105]);
    assert_eq!(r.gpu_gp_get, 6);
}

/// X-5 / WQ-8: a valid scenario is not stopped for being long. A chain of nested kernels waits
/// level after level: a thread allocates `start` cycles after its kernel's launch, and its
/// child kernel launches with its first block, so 62 levels with a `start` of 1,000,000 (both
/// within the format's limits) need more than 62,000,000 cycles: the scenario's cycle cap lies
/// above that, and a short chain of the same shape shows the sequential time it extrapolates (a
/// fixed 50,000,000-cycle cap would have stopped the long one with a violation).
#[test]
fn wq8_the_cycle_cap_of_a_scenario_lies_above_its_chain_of_kernels() {
    let scenario = |levels: usize, start: u64| {
        let mut thread = json!({"start":start,"blocks":1,"block_cycles":10});
        for _ in 1..levels {
            thread = json!({"start":start,"blocks":1,"block_cycles":10,"children":[thread]});
        }
        json!({"unit":"work-queue",
            "config":{"entries":16,"bus_latency":50,"host_cycles_per_command":2,"retry_cycles":7},
            "threads":[thread]})
    };
    let long = ppu_sim::work_queue::scenario::system_config(&scenario(62, 1_000_000)).unwrap();
    assert!(
        long.cycle_cap() > 62 * 1_000_000,
        "cap {} below the chain's 62,000,000 cycles",
        long.cycle_cap()
    );
    let short = ppu_sim::work_queue::scenario::system_config(&scenario(6, 20_000)).unwrap();
    let (r, _) = system::run(&short, None).unwrap();
    assert!(
        r.cycles >= 6 * 20_000 && r.cycles < short.cycle_cap(),
        "6 levels starting 20,000 cycles after their launch in {} cycles (cap {})",
        r.cycles,
        short.cycle_cap()
    );
}
