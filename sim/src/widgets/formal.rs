//! Formal properties of the foundation widgets (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the FIFO at depths 1, 2, 3, 6 and 8 (powers of two and not).
use super::rr_arbiter::RefArbiter;
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::widgets::stream_fifo::StreamFifo;
use rust_hdl::prelude::*;

/// The FIFO's properties. k = DEPTH + 5: the base case and each mutant's BMC reach a full
/// FIFO, a stalled write and its effect after the reset cycle; the helper invariants make every
/// property inductive well within it. On ABC: the five depths take 17 s in all (Z3 took 160 s,
/// 19 s for depth 8's ORDER alone), the mutants caught at the same steps.
fn fifo_properties(depth: u32) -> Vec<Property> {
    let k = depth + 5;
    vec![
        Property {
            name: "FILL",
            claim: "fill == pushes - pops since reset, never above DEPTH",
            mode: Mode::Prove { k },
            why: "inductive with the pointer/count helper invariants",
            mutant: Mutant {
                what: "a pop does not decrement the count",
                find: r"count\$d = count\$q - \d+'h1;",
                replace: "count$$d = count$$q;",
            },
        },
        Property {
            name: "FULL_EMPTY",
            claim: "wr_ready exactly when not full, rd_valid exactly when not empty",
            mode: Mode::Prove { k },
            why: "inductive with the helper invariants",
            mutant: Mutant {
                what: "off-by-one full flag (ready at DEPTH)",
                find: r"wr_ready = count\$q != depth;",
                replace: "wr_ready = count$$q != depth + 1;",
            },
        },
        Property {
            name: "STABLE",
            claim: "rd_valid and rd_data stable while rd_valid && !rd_ready",
            mode: Mode::Prove { k },
            why: "inductive with the helper invariants",
            mutant: Mutant {
                what: "slot 0 written on wr_valid without the handshake",
                find: r"push & \(wr_ptr\$q == slot_index\$0\)",
                replace: "wr_valid & (wr_ptr$$q == slot_index$$0)",
            },
        },
        Property {
            name: "ORDER",
            claim: "two tracked words leave with their values, in the order they entered",
            mode: Mode::Prove { k },
            why: "inductive with the tracked words' slot invariants",
            mutant: Mutant {
                what: "slot 0 stores the inverted word",
                find: r"slots\$0\$d = wr_data;",
                replace: "slots$$0$$d = ~wr_data;",
            },
        },
    ]
}

fn fifo<const D: usize, const PW: usize, const CW: usize>() -> FormalCheck {
    FormalCheck {
        unit: "stream_fifo",
        props: "stream_fifo",
        variant: format!("depth {}", D),
        verilog: Box::new(|| {
            verilog_of(StreamFifo::<Bits<16>, D, PW, CW>::default(), "stream_fifo")
        }),
        defines: vec![
            ("DEPTH".into(), D.to_string()),
            ("CW".into(), CW.to_string()),
            ("PW".into(), PW.to_string()),
        ],
        flatten: false,
        solver: Solver::Abc,
        properties: fifo_properties(D as u32),
    }
}

/// The arbiter's properties (N = 4).
fn arbiter() -> FormalCheck {
    FormalCheck {
        unit: "rr_arbiter",
        props: "rr_arbiter",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(RefArbiter::default(), "rr_arbiter")),
        defines: vec![],
        flatten: false,
        solver: Solver::Z3,
        properties: vec![
            Property {
                name: "ONE_GRANT",
                claim: "a grant names one valid requester and its payload; only it is ready; a grant whenever any requester is valid",
                mode: Mode::Prove { k: 4 },
                why: "combinational given the state; inductive with the held-choice invariants",
                mutant: Mutant {
                    what: "requester 2 made ready whatever is granted",
                    find: r"req_ready\$2 = grant_ready & req_valid\$2 & \|\(grant & source_bit\$2\);",
                    replace: "req_ready$$2 = grant_ready & req_valid$$2;",
                },
            },
            Property {
                name: "HOLD",
                claim: "an offered grant is held (requester, payload) until taken",
                mode: Mode::Prove { k: 4 },
                why: "inductive with the held-choice invariants",
                mutant: Mutant {
                    what: "the choice is not held while the grant waits",
                    find: r"held\$d = chosen_valid & ~grant_ready;",
                    replace: "held$$d = 1'b0;",
                },
            },
            Property {
                name: "FAIR",
                claim: "a requester holding valid sees at most N-1 = 3 transfers to others before its own",
                mode: Mode::ProveMutantDeeper {
                    k: 2,
                    mutant_depth: 12,
                },
                why: "inductive with the round-robin distance invariant (a waiting requester's transfers waited plus the requesters before it from the last one served stay within N-1; a held choice made while it waits comes before it); the mutant's BMC to 2N+4 = 12 reaches N transfers to others",
                mutant: Mutant {
                    what: "the round-robin mask is never advanced (lowest index always first)",
                    find: r"rr_mask\$d = ~\(\(grant << 4'h1\) - 4'h1\);",
                    replace: "rr_mask$$d = 4'h0;",
                },
            },
        ],
    }
}

/// The foundation's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        arbiter(),
        fifo::<1, 1, 1>(),
        fifo::<2, 1, 2>(),
        fifo::<3, 2, 2>(),
        fifo::<6, 3, 3>(),
        fifo::<8, 3, 4>(),
    ]
}
