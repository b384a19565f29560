//! Formal properties of the stream-output units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the batch-ID generator at its smallest legal window (2 slots) and at the
//! exported window (16: on ABC, see [`batch_id_gen_window_16`]); SSYNC at 2 SO units and 2
//! operation entries (RESPOND, ORDER, RETIRE: SO-2, SO-3, SO-6, SO-9, SO-10, see [`ssync`];
//! SSOBO: SO-6, SO-7, SO-12 on ABC, see [`ssync_ssobo`]).
use super::tb::so_crossbar::RefCrossbar;
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::stream_out::batch_id_gen::BatchIdGen;
use ppu_hdl::stream_out::so_unit::SoUnit;
use ppu_hdl::stream_out::ssync::Ssync;

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
/// SO-1's IN_FLIGHT, proved with `mode`.
fn in_flight(mode: Mode, why: &'static str) -> Property {
    Property {
        name: "IN_FLIGHT",
        claim: "a tracked ID in flight (handed out, no retire/done naming it since) is not handed out again and is among the last WINDOW handed out: at most WINDOW <= 2^13 in flight (SO-1)",
        mode,
        why,
        mutant: Mutant {
            what: "the next ID is offered even when its slot is busy (no stall)",
            find: r"id_valid = ~next_slot_busy;",
            replace: "id_valid = 1'b1;",
        },
    }
}

fn batch_id_gen_window_2() -> FormalCheck {
    batch_id_gen::<2, 1>(
        Solver::Z3,
        vec![
            consecutive(),
            in_flight(
                Mode::Prove { k: 2 + 4 },
                "inductive with the slot invariants (busy slot i holds an ID = i mod WINDOW among the last WINDOW); k = WINDOW + 4 lets the mutant's BMC hand out WINDOW + 1 IDs with none retired",
            ),
        ],
    )
}

/// At the exported window (16), on ABC (bit level): the SMT solvers do not return from
/// IN_FLIGHT's induction step (cvc5 and Z3, k = 2 or 3, 100 s) nor reach its mutant (17 IDs
/// handed out, step 18: cvc5 doubles its time a step from step 6). ABC's `ind` closes the
/// induction at k = 2 with the slot invariants (not at 1: the registered message matches hold
/// the slots' tags against the message of the cycle before), and `bmc3` finds
/// the mutant's counterexample at step 18 in a fraction of a second.
fn batch_id_gen_window_16() -> FormalCheck {
    batch_id_gen::<16, 4>(
        Solver::Abc,
        vec![
            consecutive(),
            in_flight(
                Mode::ProveMutantDeeper {
                    k: 2,
                    mutant_depth: 16 + 4,
                },
                "2-inductive with the slot invariants; the mutant's BMC runs to WINDOW + 4 = 20 steps, so that WINDOW + 1 IDs are handed out with none retired",
            ),
        ],
    )
}

/// The stream-output mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        batch_id_gen_window_2(),
        batch_id_gen_window_16(),
        ssync(),
        ssync_ssobo(),
        so_crossbar(),
        so_unit(),
    ]
}

/// The SO unit as exported (it has no parameters), on ABC; every input but reset free (the
/// claims need no handshake rule of the MPC, the shader, SSYNC or the memory). HANDSHAKE is a
/// claim over two cycles (k = 2) with a settled job's flags as helper invariant (a job is
/// handed over only with both requests sent and its response in). ORDER is
/// 1-inductive with the request stage's flags against the props' (second request and response
/// owed); COUNT with the second request's register equal to the props' per-buffer sums while a
/// batch is in the request stage. ADVANCE is 3-inductive with the write slots' helper
/// invariants: the write order the hand-over reads is registered twice from the counts (the
/// set of buffers with bytes, then the order), and a settled job has held its counts for that
/// long; at k = 2 ABC finds no proof. The mutants' BMC: reset (step 0), a
/// batch packet taken (step 1), the first request, a count and the end packet taken (step 2),
/// the second request and the response taken (step 3), the hand-over (step 5), the job's
/// transfers from step 6.
fn so_unit() -> FormalCheck {
    FormalCheck {
        unit: "so_unit",
        props: "so_unit",
        variant: String::new(),
        verilog: Box::new(|| verilog_of(SoUnit::default(), "so_unit")),
        defines: vec![],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "HANDSHAKE",
                claim: "a first request, a second request and a write transfer once offered stay offered with the same payload until taken (SO-5, SO-7, SO-11, valid/ready)",
                mode: Mode::ProveMutantDeeper {
                    k: 2,
                    mutant_depth: 6,
                },
                why: "2-inductive (a claim over two cycles) with the settled-job helper invariant (the output registers change only when taken or idle); the mutant's BMC reaches a second batch packet taken while the first request waits",
                mutant: Mutant {
                    what: "a batch packet is taken while a batch is in the request stage (its first request overwritten)",
                    find: MUTANT_SO_HANDSHAKE_FIND,
                    replace: MUTANT_SO_HANDSHAKE_REPLACE,
                },
            },
            Property {
                name: "ORDER",
                claim: "per batch the second request goes out only after its first request was taken (before or after the response: SO-8); a response is taken only for a first request taken and not yet answered, once; a new first request only after the previous batch's second request and response (SO-5, SO-7, SO-8, SO-9)",
                mode: Mode::ProveMutantDeeper {
                    k: 1,
                    mutant_depth: 6,
                },
                why: "1-inductive with the request stage's flags against the props' owed second request and response; the mutant's BMC reaches an end packet taken before the first request (step 3)",
                mutant: Mutant {
                    what: "the second request is offered while the first is still pending",
                    find: MUTANT_SO_ORDER_FIND,
                    replace: MUTANT_SO_ORDER_REPLACE,
                },
            },
            Property {
                name: "COUNT",
                claim: "the second request carries per buffer the sum mod 2^32 of the bytes reported for that buffer since its batch packet was taken (SO-7)",
                mode: Mode::ProveMutantDeeper {
                    k: 1,
                    mutant_depth: 6,
                },
                why: "1-inductive with the second request's register equal to the props' sums while a batch is in the request stage; the mutant's BMC reaches a count taken and the second request offered (step 4)",
                mutant: Mutant {
                    what: "buffer 1's bytes are added to lane 1 from lane 0's count",
                    find: MUTANT_SO_COUNT_FIND,
                    replace: MUTANT_SO_COUNT_REPLACE,
                },
            },
            Property {
                name: "ADVANCE",
                claim: "inside a job (up to its job_done) the buffers are written in ascending order, each in one run; a buffer's first transfer has wr_index 0 and each later one the offset and index of the one before plus the bytes it wrote: no gap, no overlap (SO-11)",
                mode: Mode::ProveMutantDeeper {
                    k: 3,
                    mutant_depth: 12,
                },
                why: "3-inductive with the slot helper invariants (no slot when idle, ascending valid slots, slot 0's offset and start against the last transfer): the write order read at the hand-over is two registers behind the counts, which a settled job has held for that long (not 2-inductive); the mutant's BMC reaches a job's second transfer to one buffer",
                mutant: Mutant {
                    what: "slot 0's offset advances one byte more than a full transfer",
                    find: r"slot_offset\$0\$d = slot_offset\$0\$q \+ job_bpc\$q;",
                    replace: "slot_offset$$0$$d = slot_offset$$0$$q + job_bpc$$q + 32'h1;",
                },
            },
            Property {
                name: "REGION",
                claim: "every write transfer lies inside its job's granted region: for buffer b, wr_offset is the job's response SSOBO[b] plus wr_index, and wr_index + wr_bytes is at most the bytes its second request counted for b, at least one byte a transfer; a transfer's job is the oldest complete one whose job_done has not pulsed, its response and counts as taken on the ports (SO-6, SO-11)",
                mode: Mode::ProveMutantDeeper {
                    k: 3,
                    mutant_depth: 12,
                },
                why: "3-inductive (as ADVANCE: the write order read at the hand-over is two registers behind the counts) with helper invariants tying the props' request-stage flags and data and their queue of complete jobs to stage A's registers, its prepared figures (excess, last, write order) to its counts once settled, and stage B's valid slots to the queue's head job; the mutant's BMC reaches a job's first transfer to buffer 1",
                mutant: Mutant {
                    what: "buffer 1's write offset taken from buffer 0's SSOBO in the response",
                    find: r"job_offset\$1 = request_offsets\$q\[32\+:32\];",
                    replace: "job_offset$$1 = request_offsets$$q[0+:32];",
                },
            },
        ],
    }
}

/// The crossbar as exported (4 SO units), on ABC. DELIVER tracks one request per channel (the
/// first handed over while the free `pick_*` input is high): it must leave next, unchanged,
/// with its SO unit's index, and the occupancy (handed over - left) stays 0 or 1, the output
/// register valid exactly at 1; with the arbiters' choice one requester (its one-hot vector and
/// its index agree) this is inductive at k = 2. ROUTE is combinational.
/// The mutants' BMC: a request valid in step 1 is chosen, taken in step 2 and offered from
/// step 3.
fn so_crossbar() -> FormalCheck {
    FormalCheck {
        unit: "so_crossbar",
        props: "so_crossbar",
        variant: "4 SO units".into(),
        verilog: Box::new(|| verilog_of(RefCrossbar::default(), "so_crossbar")),
        defines: vec![],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "DELIVER",
                claim: "on each request channel every request an SO unit hands over leaves towards SSYNC once, unchanged, with that unit's index as its source, in the order handed over; nothing leaves that was not handed over; at most one request inside, the output valid exactly while it holds one (SO-5, SO-7)",
                mode: Mode::ProveMutantDeeper {
                    k: 2,
                    mutant_depth: 6,
                },
                why: "2-inductive with the arbiters' choice helper and the tracked request held in the output register until it leaves; the mutant's BMC reaches the first request offered (step 3)",
                mutant: Mutant {
                    what: "the first-request arbiter takes unit 2's payload when unit 3 is chosen",
                    find: r"(?s)(module so_crossbar\$first_arb\(.*?)out_data\$d = req_data\$3;",
                    replace: "${1}out_data$$d = req_data$$2;",
                },
            },
            Property {
                name: "ROUTE",
                claim: "SSYNC's response reaches exactly the SO unit resp_dest names, with its payload, and SSYNC sees that unit's ready (SO-9)",
                mode: Mode::ProveMutantDeeper {
                    k: 1,
                    mutant_depth: 2,
                },
                why: "combinational: holds in every state; the mutant's BMC checks the cycle after reset",
                mutant: Mutant {
                    what: "SSYNC sees SO unit 2's ready for a response to unit 3",
                    find: r"resp_ready = so_resp_ready\$3;",
                    replace: "resp_ready = so_resp_ready$$2;",
                },
            },
        ],
    }
}

/// A textual abstraction of the formal copy of `Ssync`'s Verilog: `find` (a regular expression)
/// must match `count` times and every match is replaced.
struct Abstraction {
    find: &'static str,
    replace: &'static str,
    count: usize,
}

/// The abstractions of `Ssync` for the proofs, each an over-approximation (what holds for any
/// value of the freed signal holds for the real one):
/// - the two block RAMs (the operation FIFO's offset-bundle words, the message table's SBBNs):
///   every read returns a free value ($anyseq) and nothing is stored; `ssync_props.sv` models
///   both RAMs from their write ports where a property needs the words (a read of the address
///   written at the same edge stays free, as in the block RAM without read-write check);
/// - the causes of a bad entry (SO-13) other than an unstreamed work token: the operation
///   FIFO's probe (`probe_issued`, `probe_covered`, 14-bit ring compares per entry) and the
///   "behind the current batch/task" test are free, so any entry may be found bad in any
///   cycle; the props exclude only an entry flagged in the cycle it is accounted, which the real
///   tests never flag (it holds the current batch/task, inside the operation being served).
///   Without this the BMC of the unit doubles its time per step from step 4 (depth 7: 27 s).
const SSYNC_ABSTRACTIONS: [Abstraction; 5] = [
    Abstraction {
        find: r"read_data <= mem\[read_address\];\s*if \(write_enable\) begin\s*mem\[write_address\] <= write_data;\s*end",
        replace: "read_data <= $$anyseq;",
        count: 2,
    },
    Abstraction {
        find: r"probe_issued_reg\$d = decoder_any_work\$q & \(probe_back != 14'h0\) & \(probe_back <= half_window\);",
        replace: "probe_issued_reg$$d = $$anyseq;",
        count: 1,
    },
    Abstraction {
        find: r"probe_open_hit\$d = probe_in_open;",
        replace: "probe_open_hit$$d = $$anyseq;",
        count: 1,
    },
    Abstraction {
        find: r"probe_hit\$(\d)\$d = probe_in_entry\$\d;",
        replace: "probe_hit$$${1}$$d = $$anyseq;",
        count: 2,
    },
    Abstraction {
        find: r"stale\$(\d) = started & \(.*;",
        replace: "stale$$${1} = $$anyseq;",
        count: 2,
    },
];

/// `Ssync` at 2 SO units and 2 operation-FIFO entries with [`SSYNC_ABSTRACTIONS`] applied.
fn ssync_verilog() -> String {
    let mut v = verilog_of(Ssync::<2, 1, 2, 1, 2>::default(), "ssync");
    for a in &SSYNC_ABSTRACTIONS {
        let re = regex::Regex::new(a.find).expect("static regex");
        assert_eq!(re.find_iter(&v).count(), a.count, "ssync: `{}`", a.find);
        v = re.replace_all(&v, a.replace).into_owned();
    }
    v
}

/// `Ssync` with SO_UNITS = 2 and OPS = 2, on ABC (3 s a property; cvc5 took 5 to 25 s, and Z3
/// 4.8 does not leave step 0's assumptions in 5 minutes). 2 SO units: the smallest table where
/// the hit is a choice between entries (the one-hot hit, the selected unit, a duplicate batch/task from another unit); every entry is
/// the same unrolled logic at any count. 2 operation entries: the FIFO's minimum (`OPS` >= 2:
/// an open operation and a bundle behind it); the slot logic (write/read slots wrapping at
/// `OPS`, the head multiplexer, the merge into the tail bundle) is the same loop at any depth.
/// RESPOND, RETIRE and RETIRE_AFTER are 1-inductive with the message table's helper invariants
/// (the match bits against last cycle's current batch/task, the selects, unique keys, each
/// valid entry holding its unit's last accepted first request, the response and retire queues'
/// contents, the responses owed and, for the tracked retire, its age and the responses owed
/// ahead of it);
/// ORDER with the FIFO's (fill, slots, valid bits, the tracked entry at its slot with its word
/// in the RAM model, the active operation at the head). Their mutants fail at the first
/// response (step 5: reset, `E`, the work token pushed, the operation loaded, matched), the
/// second bundle's exit (step 5), the first retire (step 9: it leaves three cycles after its
/// decision) and a retire offered while its response is held back (step 8).
///
fn ssync() -> FormalCheck {
    FormalCheck {
        unit: "ssync",
        props: "ssync",
        variant: "2 SO units, 2 ops".into(),
        verilog: Box::new(ssync_verilog),
        defines: vec![],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![
            Property {
                name: "RESPOND",
                claim: "a response to SO unit U (any) is decided only while an operation is served, for U's last accepted first request, and only when its batch/task is the current one; at most one per accepted first request; every response leaving to U was decided for U and not yet sent (SO-6, SO-9, SO-10)",
                mode: Mode::ProveMutantDeeper { k: 1, mutant_depth: 6 },
                why: "1-inductive with the message table and response-queue helper invariants; the mutant BMC reaches the first response (step 5)",
                mutant: Mutant {
                    what: "entry 0 is the hit when it holds (b, t+1) while (b, t) is current (its match_task bit under sel_same)",
                    find: r"hit\$0 = \(sel_same & match_same\$0\$q\)",
                    replace: "hit$$0 = (sel_same & match_task$$0$$q)",
                },
            },
            Property {
                name: "ORDER",
                claim: "the operation FIFO never loses or reorders an entry: a tracked entry (any push) leaves by the pop after the entries ahead of it, with its kind, an operation's start, an offset bundle's word (the last merged into it); no pop when empty, no push when full (SO-3)",
                mode: Mode::ProveMutantDeeper { k: 1, mutant_depth: 6 },
                why: "1-inductive with the FIFO-slot, tracked-entry and RAM-word helper invariants; the mutant BMC reaches the second bundle's exit (step 5)",
                mutant: Mutant {
                    what: "the read slot does not advance on a pop from slot 0",
                    find: r"next_read_slot = read_slot\$q \+ 1'h1;",
                    replace: "next_read_slot = read_slot$$q;",
                },
            },
            Property {
                name: "RETIRE",
                claim: "a retire message follows the accounting of the last task of a streamed batch and carries its batch ID, exactly once: the N-th retire sent is for the N-th last task accounted, none without one (SO-2, SO-10)",
                mode: Mode::ProveMutantDeeper { k: 1, mutant_depth: 10 },
                why: "1-inductive with the message table, response-count and retire-queue helper invariants; the mutant BMC reaches the first retire",
                mutant: Mutant {
                    what: "a retire is queued after every accounted task, not only the last",
                    find: r"retire_queue\$decide = msg_table\$commit_last;",
                    replace: "retire_queue$$decide = msg_table$$commit_now;",
                },
            },
            Property {
                name: "RETIRE_AFTER",
                claim: "a retire message leaves only after its batch's last task is accounted for and answered: in the third cycle after the decision or later (the cycle of that task's commit) and after every response decided up to the decision has left the response port (SO-2)",
                mode: Mode::ProveMutantDeeper { k: 1, mutant_depth: 10 },
                why: "1-inductive with the same helper invariants (the tracked retire's age and the responses owed ahead of it, held, queued or offered); the mutant BMC reaches a retire offered while its response is held back",
                mutant: Mutant {
                    what: "the queue's head leaves whatever responses it still owes",
                    find: r"head_moves = head_valid & \(\(head_owed == 3'h0\) \|",
                    replace: "head_moves = head_valid & ((1'b1) |",
                },
            },
        ],
    }
}

/// SSYNC's SSOBO (SO-6, SO-7, SO-12), the same abstracted unit on ABC (bit level): the SSOBOs
/// change only by an accounted batch/task, which adds its SBBN (its second request) when every
/// lane fits (SBBN[i] = 0 or SSOBO[i] + SBBN[i] <= size[i], no wrap-around) and leaves them with
/// `commit_overflow` otherwise, or by an offset bundle taken from the FIFO head, which replaces
/// them; each 4 cycles after its decision (`commit` 3), in decision order. The environment keeps
/// the buffer sizes steady (API state set before streaming) and the SO units the SO-7 protocol
/// (a unit's second request follows its first). ABC's `ind` closes the induction at k = 1 in
/// about 30 s with the accounting stages' helper invariants (the stages against the props'
/// pipeline, the headroom registers as size - `ssobo_next` per lane, the stored SBBNs); cvc5
/// and Z3 did not return from k = 1 in 5 minutes (the 4 x 32-bit headroom and fit arithmetic
/// over free 128-bit state), nor cvc5's BMC from step 8. The mutant's BMC runs to 10 steps: the
/// first accounted batch/task reaches `commit` at step 8 and the SSOBOs at step 9.
fn ssync_ssobo() -> FormalCheck {
    FormalCheck {
        unit: "ssync",
        props: "ssync",
        variant: "2 SO units, 2 ops".into(),
        verilog: Box::new(ssync_verilog),
        defines: vec![],
        flatten: true,
        solver: Solver::Abc,
        properties: vec![Property {
            name: "SSOBO",
            claim: "the SSOBOs change only by an accounted batch/task, which adds its SBBN when every lane fits (SBBN[i] = 0 or SSOBO[i] + SBBN[i] <= size[i], no wrap-around) and flags commit_overflow otherwise, or by the offset bundle at the FIFO head, which replaces them: each 4 cycles after its decision, in decision order (SO-6, SO-7, SO-12)",
            mode: Mode::ProveMutantDeeper {
                k: 1,
                mutant_depth: 10,
            },
            why: "1-inductive with the accounting-stage, headroom and stored-SBBN helper invariants; the mutant's BMC reaches the first accounted batch/task's SSOBOs (step 9)",
            mutant: Mutant {
                what: "lane 0's headroom after an idle cycle or an offset bundle one byte too large (an SBBN one byte past the buffer's end fits)",
                find: r"room_keep\$d\[0\+:32\] = size_reg\$q\[0\+:32\] - base\[0\+:32\];",
                replace: "room_keep$$d[0+:32] = size_reg$$q[0+:32] - base[0+:32] + 32'h1;",
            },
        }],
    }
}

/// `so_unit`'s mutants (patterns of the exported Verilog).
const MUTANT_SO_HANDSHAKE_FIND: &str = r"if \(batch_valid & ~request_busy\$q\) begin";
const MUTANT_SO_HANDSHAKE_REPLACE: &str = "if (batch_valid) begin";
const MUTANT_SO_ORDER_FIND: &str =
    r"second_valid = request_busy\$q & request_second_pending\$q & ~request_first_pending\$q;";
const MUTANT_SO_ORDER_REPLACE: &str = "second_valid = request_busy$$q & request_second_pending$$q;";
const MUTANT_SO_COUNT_FIND: &str =
    r"second_data_reg\$d\[32\+:32\] = second_data_reg\$q\[32\+:32\] \+ attr_bytes;";
const MUTANT_SO_COUNT_REPLACE: &str =
    "second_data_reg$$d[32+:32] = second_data_reg$$q[0+:32] + attr_bytes;";
