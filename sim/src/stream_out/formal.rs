//! Formal properties of the stream-output units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the batch-ID generator at its smallest legal window (2 slots), and
//! CONSECUTIVE at the exported window (16).
//!
//! Not checked: IN_FLIGHT at window 16. Its mutant (no stall) needs WINDOW + 1 = 17 IDs handed
//! out, a BMC of about 20 steps, and cvc5 doubles its time a step (step 6 at 20 s, step 7 at
//! 54 s; Z3 does not leave step 0 in 90 s). Its induction step does not finish either: with the
//! slot invariants (each busy slot's ID among the last WINDOW, written as a distance or as the
//! high bits of the next ID) neither cvc5 (default or `--bv-solver=bitblast-internal`) nor Z3
//! returns within 100 s at k = 2 or 3. Next tries: a narrower ID (a parameter of the unit) or a
//! props wrapper that starts from a reachable state with most slots busy.
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::stream_out::batch_id_gen::BatchIdGen;

/// SO-1's CONSECUTIVE: `k` = 4 lets the mutant's BMC hand out two IDs.
fn consecutive() -> Property {
    Property {
        name: "CONSECUTIVE",
        claim: "the IDs handed out are 0, 1, 2, ... mod 2^14 after reset, one per handshake (SO-1)",
        mode: Mode::Prove { k: 4 },
        why: "inductive: the ID register equals the props' own count; k = 4 lets the mutant's BMC hand out two IDs",
        mutant: Mutant {
            what: "the ID register steps by 2",
            find: r"id_batch_id_reg\$d = id_batch_id_reg\$q \+ 14'h1;",
            replace: "id_batch_id_reg$$d = id_batch_id_reg$$q + 14'h2;",
        },
    }
}

/// `BatchIdGen` at WINDOW = `W`, with `properties`. The IDs are 14 bits at every window, so
/// the claims are about the real ID space.
fn batch_id_gen<const W: usize, const WB: usize>(
    solver: Solver,
    properties: Vec<Property>,
) -> FormalCheck {
    FormalCheck {
        unit: "batch_id_gen",
        props: "batch_id_gen",
        variant: format!("window {}", W),
        verilog: Box::new(|| verilog_of(BatchIdGen::<W, WB>::default(), "batch_id_gen")),
        defines: vec![("W".into(), W.to_string()), ("WB".into(), WB.to_string())],
        // Hierarchical, Z3 does not finish even the first step's assumptions.
        flatten: true,
        solver,
        properties,
    }
}

/// At window 2 (the smallest legal window: the slot logic is one loop over the slots, the same
/// at every window), both properties on Z3.
fn batch_id_gen_window_2() -> FormalCheck {
    batch_id_gen::<2, 1>(
        Solver::Z3,
        vec![
            consecutive(),
            Property {
                name: "IN_FLIGHT",
                claim: "a tracked ID in flight (handed out, no retire/done naming it since) is not handed out again and is among the last WINDOW handed out: at most WINDOW <= 2^13 in flight (SO-1)",
                mode: Mode::Prove { k: 2 + 4 },
                why: "inductive with the slot invariants (busy slot i holds an ID = i mod WINDOW among the last WINDOW); k = WINDOW + 4 lets the mutant's BMC hand out WINDOW + 1 IDs with none retired",
                mutant: Mutant {
                    what: "the next ID is offered even when its slot is busy (no stall)",
                    find: r"id_valid = ~next_slot_busy;",
                    replace: "id_valid = 1'b1;",
                },
            },
        ],
    )
}

/// At the exported window (16), CONSECUTIVE only (IN_FLIGHT: see the module's doc). cvc5: Z3
/// does not finish the induction step in 100 s; cvc5 takes under 2 s (base case and step).
fn batch_id_gen_window_16() -> FormalCheck {
    batch_id_gen::<16, 4>(Solver::Cvc5, vec![consecutive()])
}

/// The stream-output mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![batch_id_gen_window_2(), batch_id_gen_window_16()]
}
