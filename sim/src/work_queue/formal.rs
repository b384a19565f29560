//! Formal properties of the work-queue ring (`synth/formal/gp_fifo_props.sv`, run by
//! `ppu formal`): `gp_fifo` (AND-form wrap) and `gp_fifo_compare` (compare-form wrap), each at
//! the exported `IDX_BITS` = 8 and every legal ring size (`ring_entries` is a free constant).
//! Both forms use the one props file: `COMPARE_FORM` defined selects `gp_fifo_compare` as the
//! module under test and the compare form's wrap. The semaphore memory
//! (`synth/formal/semaphore_memory_props.sv`): a read answers the value after the writes of
//! the cycle after it, whatever the bypasses and the block RAM do (WQ-5, WQ-6), and the clear
//! sweep after reset.
use super::tb::RefGpFifo;
use crate::eda::export::verilog_of;
use crate::eda::formal::{abstract_block_rams, FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use ppu_hdl::work_queue::semaphore_memory::SemaphoreMemory;
use ppu_hdl::work_queue::soft_put_allocator::SoftPutAllocator;

/// The ring's properties, the same for both forms (the props file defines the form's wrap).
/// k = 6: the helper invariants make every property inductive in one step (the `$past`
/// checks need two); the mutants' BMC reaches a wrapped GP_GET by step 4 (a ring of 2: reset,
/// write GP_PUT, advance twice).
fn ring_properties() -> Vec<Property> {
    let prove = Mode::Prove { k: 6 };
    vec![
        Property {
            name: "EMPTY_FULL",
            claim: "empty exactly when GP_GET == GP_PUT, full exactly when GP_GET == (GP_PUT + 1) mod ENTRIES (WQ-1), every size",
            mode: prove,
            why: "inductive with the helper invariants (pointers below ENTRIES, the kept successor/predecessor registers)",
            mutant: Mutant {
                what: "a written GP_PUT's successor is GP_PUT + 2 (full one entry late)",
                find: r"put_value_next = put_value \+ 8'h1;",
                replace: "put_value_next = put_value + 8'h2;",
            },
        },
        Property {
            name: "WRAP",
            claim: "GP_GET advances to wrap(GP_GET + 1) (refused when empty), a following GP_PUT is wrap(GP_GET - 1), fill is wrap(GP_PUT - GP_GET), wrap as WQ-2 defines the form",
            mode: prove,
            why: "inductive with the helper invariants; the step checks compare with the previous cycle only",
            mutant: Mutant {
                what: "the successor of the last index is 1, not 0",
                find: r"get_next_next = 8'h0;",
                replace: "get_next_next = 8'h1;",
            },
        },
    ]
}

/// On ABC: 1 to 4 s a property (Z3 took 7 to 21 s), the mutants caught at the same steps.
fn ring(unit: &'static str, form: WrapForm) -> FormalCheck {
    let mut defines = vec![];
    if form == WrapForm::Compare {
        defines.push(("COMPARE_FORM".to_string(), "1".to_string()));
    }
    FormalCheck {
        unit,
        props: "gp_fifo",
        variant: String::new(),
        verilog: Box::new(move || verilog_of(RefGpFifo::with_form(form), unit)),
        defines,
        flatten: false,
        solver: Solver::Abc,
        properties: ring_properties(),
    }
}

/// `SemaphoreMemory` with `SB` index bits, its block RAM abstracted ([`abstract_block_rams`]:
/// `semaphore_memory_props.sv` constrains a read of the tracked semaphore to the word last
/// written there).
fn semaphore_verilog<const SB: usize>() -> String {
    let v = verilog_of(SemaphoreMemory::<SB>::default(), "semaphore_memory");
    abstract_block_rams(&v, 1).expect("semaphore_memory")
}

/// READ at 4 semaphores (`SEM_BITS` = 2): the read path (three write bypasses, the registered
/// RAM word, the pending write) is the same logic at every width, and the clear sweep of 4
/// words lets the mutant's BMC reach a served read by step 7. On ABC (bit level; the helper
/// invariants tie the tracked semaphore's value to the sweep, the pending write and the RAM
/// word); k = 3 covers the read's two cycles to its answer.
fn semaphore_read() -> FormalCheck {
    FormalCheck {
        unit: "semaphore_memory",
        props: "semaphore_memory",
        variant: "4 semaphores".into(),
        verilog: Box::new(semaphore_verilog::<2>),
        defines: vec![("SB".into(), "2".into())],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![Property {
            name: "READ",
            claim: "a read of semaphore T (any) in cycle t answers in t+2 the value after the writes of t+1: the host's write when ready (it always wins), else a thread write taken, else the last earlier one, 0 after the reset's sweep; a read issued while not ready or in reset, a reset before its answer, and every reset cycle answer 0 (WQ-5, WQ-6)",
            mode: Mode::ProveMutantDeeper {
                k: 3,
                mutant_depth: 12,
            },
            why: "3-inductive with the sweep, pending-write and RAM-word helper invariants; the mutant's BMC runs past the 4-cycle sweep to a write followed by reads",
            mutant: Mutant {
                what: "the bypass of the write reaching the RAM in the read's cycle dropped (the block RAM's undefined read-during-write reaches the answer)",
                find: r"answer_from_tm1\$d = hit_before\$q & ~hit_read_cycle\$q & ~hit_now;",
                replace: "answer_from_tm1$$d = 1'b0;",
            },
        }],
    }
}

/// SWEEP on the unit as exported (512 semaphores, `SEM_BITS` = 9). k = 2: the helper
/// invariant ties `clearing` and the sweep's index to the cycles since reset.
fn semaphore_sweep() -> FormalCheck {
    FormalCheck {
        unit: "semaphore_memory",
        props: "semaphore_memory",
        variant: "512 semaphores".into(),
        verilog: Box::new(semaphore_verilog::<9>),
        defines: vec![("SB".into(), "9".into())],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![Property {
            name: "SWEEP",
            claim: "after a reset ready is low for exactly 2^SEM_BITS cycles (the clear sweep) and then high until the next reset; a thread write is taken only while ready and the host does not write; a host write while not ready, and only that, raises violation (WQ-6)",
            mode: Mode::Prove { k: 2 },
            why: "inductive with the sweep-position helper invariant",
            mutant: Mutant {
                what: "a thread write is offered ready during the sweep",
                find: r"thread_wr_ready = ~clearing\$q & ~host_wr_en;",
                replace: "thread_wr_ready = ~host_wr_en;",
            },
        }],
    }
}

/// The acquire conditions (WQ-4) on every input: k = 3 (the unit's state is its last two
/// cycles' inputs, so the induction needs no helper invariant); the mutants' BMC runs to 5 steps
/// (a reset, then checks answered from step 3).
fn acquire_check() -> FormalCheck {
    FormalCheck {
        unit: "acquire_check",
        props: "acquire_check",
        variant: String::new(),
        verilog: Box::new(|| {
            verilog_of(
                ppu_hdl::work_queue::acquire_check::AcquireCheck::default(),
                "acquire_check",
            )
        }),
        defines: vec![],
        flatten: false,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "COND",
                claim: "the check of cycle t answers in t+2: satisfied exactly when its condition holds (0 sem == value, 1 sem >= value unsigned, 2 sem - value as a signed 32-bit number >= 0, 3 (sem AND value) != 0, 4 NOT(sem OR value) != 0), cond_legal exactly for codes 0..4 (WQ-4)",
                mode: Mode::ProveMutantDeeper {
                    k: 3,
                    mutant_depth: 5,
                },
                why: "the unit's state is its last two cycles' inputs: inductive at k = 3 with no helper; the mutant's BMC reaches the answer to the second check after reset (step 4)",
                mutant: Mutant {
                    what: "the circular >= compared unsigned (sem >= value), wrong across the wrap",
                    find: r"is_circ_geq\$d = difference < sign_bit;",
                    replace: "is_circ_geq$$d = sem_value >= value;",
                },
            },
            Property {
                name: "RESET",
                claim: "a reset in cycle t+1 answers not satisfied and legal in t+2 (no acquire passes on a check cut by a reset)",
                mode: Mode::ProveMutantDeeper {
                    k: 3,
                    mutant_depth: 5,
                },
                why: "the unit's state is its last two cycles' inputs: inductive at k = 3 with no helper; the mutant's BMC reaches the answer to the second check after reset (step 4)",
                mutant: Mutant {
                    what: "a reset does not clear the answer",
                    find: r"satisfied_reg\$d = 1'b0;\s*cond_legal_reg\$d = 1'b1;\s*end",
                    replace: "cond_legal_reg$$d = 1'b1;\n        end",
                },
            },
        ],
    }
}

/// `SoftPutAllocator` (compare-form wrap, as exported) at `IB` index bits, every ring size
/// 2..=2^IB (`ring_entries` a free constant), on ABC: a model of the atomic operation in
/// WQ-5/WQ-6's words against the responses, pointers and `violation`
/// (`synth/formal/soft_put_allocator_props.sv`). At 3 index bits: every operation of the unit is
/// an adder, a compare or a multiplexer whose width is the parameter, so the logic is the same
/// at every width; at the exported 8 bits the base case alone takes minutes (Z3 and ABC: 20 s
/// at step 3, over a minute at step 4), at 3 bits seconds. k = 4: the helper invariants (the
/// kept soft GP_PUT, free count and lap equal the model one cycle earlier; the ring constants)
/// leave only the two pipeline stages, which four steps cover; the mutants need a set-up, a
/// grant and a second request (RESP), a set-up and a passing update two cycles ahead of its
/// flag (PASSED), a reset with a shadow update and a request after it (RESET): all within 8
/// steps.
fn soft_put_allocator<const IB: usize, const XB: usize>() -> FormalCheck {
    let mode = Mode::ProveMutantDeeper {
        k: 4,
        mutant_depth: 8,
    };
    FormalCheck {
        unit: "soft_put_allocator",
        props: "soft_put_allocator",
        variant: format!("idx_bits {}", IB),
        verilog: Box::new(|| {
            verilog_of(
                SoftPutAllocator::<IB, XB>::with_form(WrapForm::Compare),
                "soft_put_allocator",
            )
        }),
        defines: vec![("IDX".to_string(), IB.to_string())],
        flatten: false,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "RESP",
                claim: "the answer to an allocation in t comes in t+2: ok exactly when 1 <= count <= wrap(shadow - soft) with that cycle's shadow update, then the old soft GP_PUT and lap; soft_gp_put and shadow_gp_put follow the model; set-up wins; every ring size (WQ-5, WQ-6)",
                mode,
                why: "inductive at k = 4 with the helper invariants (the kept soft GP_PUT, free count and lap equal the model one cycle earlier)",
                mutant: Mutant {
                    what: "after a grant the decision reads the not-granted free count",
                    find: r"fits = fits_granted;",
                    replace: "fits = fits_kept;",
                },
            },
            Property {
                name: "PASSED",
                claim: "violation in the cycle of a count of 0 or an index outside the ring, and two cycles after a shadow update leaving more than n - 1 free entries; never in reset (WQ-6, WQ-10)",
                mode,
                why: "inductive at k = 4 with the same helper invariants; checked until the first passing update after a reset or set-up",
                mutant: Mutant {
                    what: "a passing update is not flagged when the last allocation was refused",
                    find: r"shadow_passed_soft\$d = req_shadow\$q & passed_kept;",
                    replace: "shadow_passed_soft$$d = 1'b0;",
                },
            },
            Property {
                name: "RESET",
                claim: "a shadow update seen in reset moves nothing: an allocation in the first cycle out of reset is refused",
                mode,
                why: "inductive at k = 4 with the same helper invariants",
                mutant: Mutant {
                    what: "a reset does not clear the shadow move registered in its cycle",
                    find: r"(req_shadow\$d = 1'b0;\s*)req_shadow_delta\$d = \d+'h0;",
                    replace: "${1}",
                },
            },
        ],
    }
}

/// `HostInterface` as exported (IDX_BITS = 8), on ABC: the stop rule of WQ-10, the advance
/// rule (an entry leaves only after a command of it started, never on a stopped channel) and
/// the launch channel's valid/ready rule (`synth/formal/host_interface_props.sv`); every
/// configuration, memory word and semaphore value free. The helper invariants tie the host's
/// step to the served channel (module doc of the props file); k = 4 then suffices. The mutants:
/// a malformed entry does not stop its channel (caught at step 6: reset, pick, three fetch
/// steps, the error), a malformed entry also advances GP_GET (step 7), a launch leaves without
/// the handshake (step 10: an entry and a command fetched and executed): BMC to 16.
fn host_interface() -> FormalCheck {
    let mode = Mode::ProveMutantDeeper {
        k: 4,
        mutant_depth: 16,
    };
    FormalCheck {
        unit: "host_interface",
        props: "host_interface",
        variant: String::new(),
        verilog: Box::new(|| {
            verilog_of(
                super::system::SysHost::default(),
                "host_interface",
            )
        }),
        defines: vec![],
        flatten: false,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "STOP",
                claim: "stopped[c] stays high until a reset and rises exactly when error pulses for the served channel c (WQ-10)",
                mode,
                why: "inductive at k = 4 with the helper invariants (outside PICK the served channel is not stopped; error shows in PICK)",
                mutant: Mutant {
                    what: "a malformed entry of channel 0 does not stop it",
                    find: r"chan_stopped\$0\$d = 1'b1;",
                    replace: "chan_stopped$$0$$d = chan_stopped$$0$$q;",
                },
            },
            Property {
                name: "ADVANCE",
                claim: "chan_advance[c] only for a channel not stopped, only after a command of its entry started since its last advance, never both channels at once; a command starts only on a channel not stopped, at its GP_GET (WQ-3, WQ-9, WQ-10)",
                mode,
                why: "inductive at k = 4 with the helper invariants (a started command marks its channel; a pending acquire's channel has started one)",
                mutant: Mutant {
                    what: "a malformed entry of channel 1 also advances GP_GET",
                    find: r"chan_stopped\$1\$d = 1'b1;",
                    replace: "chan_stopped$$1$$d = 1'b1; advance_pulse$$1$$d = 1'b1;",
                },
            },
            Property {
                name: "LAUNCH",
                claim: "a kernel launch offered and not taken stays offered with the same kernel and channel in the next cycle, unless a reset (X-2)",
                mode,
                why: "inductive at k = 4 with the helper invariants",
                mutant: Mutant {
                    what: "the launch step leaves without the handshake",
                    find: r"(launch_valid = 1'b1;\s*)if \(launch_ready\) begin",
                    replace: "${1}if (1'b1) begin",
                },
            },
        ],
    }
}

/// The work queue's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        acquire_check(),
        soft_put_allocator::<3, 5>(),
        host_interface(),
        ring("gp_fifo", WrapForm::Pow2),
        ring("gp_fifo_compare", WrapForm::Compare),
        semaphore_read(),
        semaphore_sweep(),
    ]
}
