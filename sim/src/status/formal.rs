//! Formal properties of the status units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the state machine against the ST-3 table, and the roll-up and command trees
//! against their `TREE_STAGES` delay, the front-end monitor's context switch against ST-5's order.
use super::tb::{RefCommandTree, RefMonitor, RefRollupTree, REF_CHAINS, REF_STAGES};
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::status::status_fsm::StatusFsm;

fn status_fsm() -> FormalCheck {
    // k = 6: every state is reached within 4 cycles of reset (EMPTY, ACTIVE, then STALLED,
    // QUIESCENT or HALTED), so the base case and the mutants see every row taken.
    let prove = Mode::Prove { k: 6 };
    FormalCheck {
        unit: "status_fsm",
        props: "status_fsm",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(StatusFsm::default(), "status_fsm")),
        defines: vec![],
        flatten: false,
        solver: Solver::Z3,
        properties: vec![
            Property {
                name: "LEGAL",
                claim: "the reported code is always one of the five (ST-1)",
                mode: prove,
                why: "inductive: every row of the table leads to a legal code",
                mutant: Mutant {
                    what: "STALLED without out_blocked goes to code 2",
                    find: r"else if \(out_blocked\) begin\s+status_reg\$d = code_stalled;\s+end\s+else begin\s+status_reg\$d = code_active;",
                    replace: "else if (out_blocked) begin status_reg$$d = code_stalled; end else begin status_reg$$d = 3'h2;",
                },
            },
            Property {
                name: "TABLE",
                claim: "every transition is the first matching row of the ST-3 table",
                mode: prove,
                why: "a function of the previous state and inputs: inductive with the legal-code invariant",
                mutant: Mutant {
                    what: "ACTIVE checks out_blocked before nack",
                    find: r"else if \(nack\) begin",
                    replace: "else if (nack & ~out_blocked) begin",
                },
            },
            Property {
                name: "FLAGS",
                claim: "halted, empty, not_stalled, not_quiescent decode the state (ST-4)",
                mode: prove,
                why: "combinational from the state register",
                mutant: Mutant {
                    what: "not_quiescent decodes STALLED",
                    find: r"not_quiescent = status_reg\$q != code_quiescent;",
                    replace: "not_quiescent = status_reg$$q != code_stalled;",
                },
            },
            Property {
                name: "VIOLATION",
                claim: "violation exactly on out_blocked without out_valid (ST-2)",
                mode: prove,
                why: "combinational from the inputs",
                mutant: Mutant {
                    what: "violation never raised",
                    find: r"violation = out_blocked & ~out_valid;",
                    replace: "violation = 1'b0;",
                },
            },
        ],
    }
}

fn rollup_tree() -> FormalCheck {
    let mut defines = vec![("S".to_string(), REF_STAGES.to_string())];
    for (g, c) in REF_CHAINS.iter().enumerate() {
        defines.push((format!("CHAIN{}", g), format!("8'd{}", c)));
    }
    let k = REF_STAGES as u32 + 3;
    FormalCheck {
        unit: "rollup_tree",
        props: "rollup_tree",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(RefRollupTree::new(&REF_CHAINS), "rollup_tree")),
        defines,
        flatten: false,
        solver: Solver::Z3,
        properties: vec![
            Property {
                name: "DELAY",
                claim: "each connection's flags are its chain's AND of the units' flags exactly TREE_STAGES cycles earlier (EMPTY's after a reset)",
                mode: Mode::Prove { k },
                why: "k > TREE_STAGES: every stage register is determined by inputs inside the induction window",
                mutant: Mutant {
                    what: "a reset loads connection 0's halted stages with 1",
                    find: r"conn_halted_stages\$0\$d = 3'h0;",
                    replace: "conn_halted_stages$$0$$d = 3'h7;",
                },
            },
            Property {
                name: "FRONT_END",
                claim: "all_halted, all_empty, none_stalled, none_quiescent are the AND of the connections",
                mode: Mode::Prove { k },
                why: "combinational from the last stages",
                mutant: Mutant {
                    what: "connection 0 left out of all_halted",
                    find: r"all_halted_acc = all_halted_acc & conn_halted\$0;",
                    replace: "all_halted_acc = all_halted_acc;",
                },
            },
        ],
    }
}

fn command_tree() -> FormalCheck {
    let k = REF_STAGES as u32 + 3;
    FormalCheck {
        unit: "command_tree",
        props: "command_tree",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(RefCommandTree::default(), "command_tree")),
        defines: vec![("S".to_string(), REF_STAGES.to_string())],
        flatten: false,
        solver: Solver::Z3,
        properties: vec![Property {
            name: "DELAY",
            claim: "every unit sees the broadcast command OR its own line exactly TREE_STAGES cycles later, all in the same cycle; nothing in flight after a reset",
            mode: Mode::Prove { k },
            why: "k > TREE_STAGES: every stage register is determined by inputs inside the induction window",
            mutant: Mutant {
                what: "a reset leaves a broadcast reset in flight",
                find: r"cmd_reset_stages\$d = 3'h0;",
                replace: "cmd_reset_stages$$d = 3'h7;",
            },
        }],
    }
}

/// The front-end monitor's context switch (ST-5, issue #12). With S = TREE_STAGES and a round
/// trip RT = 2S+1, the fastest switch is: reset (step 0), the switch taken (1), WAIT from step 2
/// until its counter reaches RT (step RT+2), the first store request at step RT+3, RESET, then
/// RESET_WAIT for S+1 cycles, RESTORE at step RT+S+6 and halt dropped at step RT+S+7 (17 at
/// S = 3). Each property's k puts that event of the real design inside the base case (STORE:
/// k = RT+4; RELEASE: k = RT+S+8), and its mutant's failure before it. Both close by induction
/// at the first step tried (the helper invariants tie the observers to the phase). Z3 4.8.12
/// does not leave step 0 (base case or induction, flat or hierarchical); cvc5 on the
/// hierarchical model took 13 s a step by step 12; flattened, cvc5 does the 20-step base case in
/// 85 s and the induction step in under a second; ABC (the solver now) proves each property
/// in under 2 s and catches the mutants at the same steps as cvc5.
///
/// WATCHDOG (ST-7): k = [`WATCHDOG_K`]. The helper invariants close the induction at once; the
/// base case's depth is what the mutant needs: with a threshold of 2, after the reset (step 0) a
/// connection with all-low flags (a QUIESCENT unit, flags equal to the cleared ones) is stuck
/// from step 1, the mutant fires in step 2 (the real unit in step 3). k = 3 (steps 0..2): the
/// base case's step 3 alone took cvc5 31 s (the induction step 3 s).
fn front_end_monitor() -> FormalCheck {
    let s = REF_STAGES as u32;
    let rt = 2 * s + 1;
    FormalCheck {
        unit: "front_end_monitor",
        props: "front_end_monitor",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(RefMonitor::new(&REF_CHAINS), "front_end_monitor")),
        defines: vec![("S".to_string(), REF_STAGES.to_string())],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "STORE",
                claim: "a context is stored only while halt is held (drain: the feed stopped) and after the roll-up showed every connection HALTED (drain: EMPTY) a full round trip (2*TREE_STAGES+1) or more after halt was raised (ST-5, issue #12)",
                mode: Mode::Prove { k: rt + 4 },
                why: "inductive with the helper invariants tying the hold's age to the WAIT counter and the seen flag to the phases after WAIT",
                mutant: Mutant {
                    what: "WAIT trusts the roll-up after TREE_STAGES cycles (one way), not a round trip",
                    find: r"\(phase_cycles\$q >= round_trip\) & target_met",
                    replace: "(phase_cycles$$q >= reset_settle) & target_met",
                },
            },
            Property {
                name: "STORE_DRAIN",
                claim: "with drain mode on, a context is stored only while the feed is stopped and after the roll-up showed every connection EMPTY a full round trip (2*TREE_STAGES+1) or more after the feed stopped (ST-5, ST-9, issue #12)",
                mode: Mode::Prove { k: rt + 4 },
                why: "STORE's proof with drain mode held; inductive with the same helper invariants",
                mutant: Mutant {
                    what: "drain mode waits for all HALTED instead of all EMPTY",
                    find: r"target_met = all_empty_now;",
                    replace: "target_met = all_halted_now;",
                },
            },
            Property {
                name: "WATCHDOG",
                claim: "connection g's watchdog pulse (deadlock; line_resume to g's units if g shows a QUIESCENT unit, else line_reset) comes exactly in the first cycle beyond deadlock_threshold cycles in which g showed a QUIESCENT or STALLED unit and did not move (no progress of its units, flags unchanged) while the watchdog runs (IDLE, drain WAIT), counted since g last moved or was pulsed: never earlier, never otherwise; progress of other connections does not count; threshold 0: never (ST-7)",
                mode: Mode::Prove { k: WATCHDOG_K },
                why: "inductive with the helper invariants tying each connection's counter and reached bit to the stuck run, and the previous flags and threshold - 1 to the observer's",
                mutant: Mutant {
                    what: "connection 0 fires one stuck cycle early (its reached bit set at threshold - 1)",
                    find: r"watchdog_reached\$0\$d = watchdog_cycles\$0\$q >= threshold_minus_one\$q;",
                    replace: "watchdog_reached$$0$$d = watchdog_cycles$$0$$q + 16'h1 >= threshold_minus_one$$q;",
                },
            },
            Property {
                name: "RELEASE",
                claim: "halt (drain: the feed stop) is dropped, other than by a reset of the monitor, only after a store, then a reset, then a restore completed while it was held (ST-5, issue #12)",
                mode: Mode::Prove { k: rt + s + 8 },
                why: "inductive with the helper invariants tying the steps done to the phase",
                mutant: Mutant {
                    what: "RESET_WAIT goes to RELEASE (the restore skipped)",
                    find: r"phase_reg\$d = phase_restore;",
                    replace: "phase_reg$$d = phase_release;",
                },
            },
        ],
    }
}

/// The induction depth of the front-end monitor's WATCHDOG (see [`front_end_monitor`]).
const WATCHDOG_K: u32 = 3;

/// The status mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        status_fsm(),
        rollup_tree(),
        command_tree(),
        front_end_monitor(),
    ]
}
