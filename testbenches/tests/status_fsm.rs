//! StatusFsm testbench (ST-1, ST-2, ST-3): every row of the ST-3 table by a directed test, random
//! input vectors against the golden next-state function, reset from every state, waves.
//! Lint and co-simulation of the exported `status_fsm`: tests/verilog.rs.
use ppu_sim::repo_root;
use ppu_sim::status::golden::{next_state, From, Inputs, State, TABLE};
use ppu_sim::status::tb::{random_vectors, run_status_fsm};
use ppu_sim::tb::TbOutput;
use proptest::prelude::*;

fn reset() -> Inputs {
    Inputs {
        reset: true,
        ..Inputs::default()
    }
}

/// Input vectors that bring the FSM from power-on into `s` (checked by the golden model).
fn path_to(s: State) -> Vec<Inputs> {
    let active = Inputs {
        in_active: true,
        ..Inputs::default()
    };
    let mut v = vec![reset()];
    match s {
        State::Empty => {}
        State::Active => v.push(active),
        State::Quiescent => v.extend([
            active,
            Inputs {
                nack: true,
                ..Inputs::default()
            },
        ]),
        State::Stalled => v.extend([
            active,
            Inputs {
                out_valid: true,
                out_blocked: true,
                ..Inputs::default()
            },
        ]),
        State::Halted => v.push(Inputs {
            halt: true,
            can_halt: true,
            ..Inputs::default()
        }),
    }
    let mut st = State::Empty;
    for i in &v {
        st = next_state(st, i).1;
    }
    assert_eq!(st, s, "path to {} is wrong", s);
    v
}

/// The first input vector (in counting order) whose first matching row from `from` is `row`.
fn vector_for_row(from: State, row: usize) -> Option<Inputs> {
    (0u16..2048)
        .map(Inputs::from_bits)
        .find(|i| next_state(from, i).0 == row)
}

#[test]
fn st3_every_row_of_the_table() {
    let mut hit = vec![false; TABLE.len()];
    for (k, row) in TABLE.iter().enumerate() {
        let froms: Vec<State> = match row.from {
            From::Any => State::ALL.to_vec(),
            From::Only(s) => vec![s],
        };
        for from in froms {
            let Some(v) = vector_for_row(from, k) else {
                panic!(
                    "row {} ({:?} | {}) cannot be reached",
                    k, row.from, row.condition
                );
            };
            let mut vectors = path_to(from);
            vectors.push(v);
            // One more cycle so that the driver checks the RTL in the row's target state.
            vectors.push(Inputs::default());
            let run = run_status_fsm(&vectors, &TbOutput::default())
                .unwrap_or_else(|e| panic!("row {} from {}: {}", k, from, e));
            let n = vectors.len();
            assert_eq!(run.rows[n - 2], k, "row {} from {}", k, from);
            // The RTL's own report: in `from` before the row's cycle, in the row's target after.
            assert_eq!(run.states[n - 3], from, "row {} from {}", k, from);
            assert_eq!(
                run.states[n - 2],
                row.to,
                "row {} ({} | {}) from {}",
                k,
                from,
                row.condition,
                from
            );
            hit[k] = true;
        }
    }
    assert_eq!(hit.len(), 20);
    assert!(hit.iter().all(|h| *h));
}

#[test]
fn st3_reset_from_every_state_gives_empty() {
    for s in State::ALL {
        let mut v = path_to(s);
        // Reset wins over every other input, all of them raised.
        v.push(Inputs::from_bits(0x7ff));
        v.push(Inputs::default());
        let run = run_status_fsm(&v, &TbOutput::default()).unwrap();
        assert_eq!(run.states[v.len() - 3], s);
        assert_eq!(run.states[v.len() - 2], State::Empty, "reset from {}", s);
        assert_eq!(run.rows[v.len() - 2], 0);
    }
}

#[test]
fn st1_codes_reported_every_cycle_and_waves() {
    let vcd = repo_root().join("waves").join("status_fsm.vcd");
    let run = run_status_fsm(
        &random_vectors(400, 11),
        &TbOutput {
            vcd: Some(&vcd),
            record_ports: false,
            engine: ppu_sim::verilator::Engine::Harness,
        },
    )
    .unwrap();
    for s in State::ALL {
        assert!(run.states.contains(&s), "{} never reached", s);
    }
    let rows: std::collections::BTreeSet<usize> = run.rows.iter().copied().collect();
    assert!(rows.len() >= 18, "random vectors hit only rows {:?}", rows);
}

#[test]
fn st2_out_blocked_without_output_raises_violation() {
    // The driver checks `violation` against its definition in every cycle, for both values.
    let v = vec![
        reset(),
        Inputs {
            out_blocked: true,
            ..Inputs::default()
        },
        Inputs {
            out_blocked: true,
            out_valid: true,
            ..Inputs::default()
        },
    ];
    // The driver checks `violation` every cycle; here the RTL's states too: the inconsistent
    // vector leaves EMPTY unchanged (EMPTY looks at in_active only), the consistent one too.
    let run = run_status_fsm(&v, &TbOutput::default()).unwrap();
    assert_eq!(run.states, vec![State::Empty; 3]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn st3_property_random_vectors_match_golden(raw in proptest::collection::vec(0u16..2048, 1..300)) {
        let mut v: Vec<Inputs> = vec![reset()];
        v.extend(raw.iter().map(|&b| Inputs::from_bits(b)));
        let run = run_status_fsm(&v, &TbOutput::default());
        prop_assert!(run.is_ok(), "{:?}", run.err());
        // The states the RTL reported, against the table applied here, cycle by cycle.
        let run = run.unwrap();
        prop_assert_eq!(run.states.len(), v.len());
        let mut st = State::Empty;
        for (k, i) in v.iter().enumerate() {
            st = next_state(st, i).1;
            prop_assert_eq!(run.states[k], st, "cycle {}", k);
        }
    }
}
