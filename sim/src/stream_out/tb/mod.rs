//! Stream-output testbench drivers (SPEC SO-1..SO-13): SSYNC driven by scripted SO units and a
//! WDU command stream, checked every cycle against the golden model
//! ([`super::golden`]); the SO unit, batch-ID generator and crossbar each against a
//! reference model; export units with their co-simulation traces.
use super::golden::{self, Golden, Packet};
use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use ppu_hdl::stream_out::batch_id_gen::BatchIdGen;
use ppu_hdl::stream_out::so_crossbar::SoCrossbar;
use ppu_hdl::stream_out::so_unit::SoUnit;
use ppu_hdl::stream_out::ssync::{self, Ssync};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::{HashMap, VecDeque};

/// Reference SSYNC of the export: 4 SO units, operation FIFO of 4 entries.
pub type RefSsync = Ssync<4, 2, 4, 2, 3>;
/// Reference batch-ID generator of the export: 16 IDs in flight.
pub type RefBatchIdGen = BatchIdGen<16, 4>;
/// Reference crossbar of the export: 4 SO units.
pub type RefCrossbar = SoCrossbar<4, 2>;

fn cosim_out() -> TbOutput<'static> {
    TbOutput {
        vcd: None,
        record_ports: true,
    }
}

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "ssync",
            mechanism: "stream-out",
            summary: "stream synchronization unit, SO_UNITS=4, operation FIFO of 4",
            verilog: || verilog_of(RefSsync::default(), "ssync"),
            cosim_trace: || {
                let mut tb = SsyncTb::random(4, 0x5eed, 80, 3);
                tb.resp_ready_prob = 0.5;
                let r = run_ssync::<4, 2, 4, 2, 3>(&tb, &cosim_out())?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
        Unit {
            name: "so_unit",
            mechanism: "stream-out",
            summary: "stream output unit: requests, byte counts, buffer writes",
            verilog: || verilog_of(SoUnit::default(), "so_unit"),
            cosim_trace: || {
                let r = run_so_unit(&SoUnitTb::random(3, 24), &cosim_out())?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
        Unit {
            name: "batch_id_gen",
            mechanism: "stream-out",
            summary: "WDU batch-ID generator, 14-bit IDs, 16 in flight",
            verilog: || verilog_of(RefBatchIdGen::default(), "batch_id_gen"),
            cosim_trace: || {
                let r = run_batch_id_gen(&IdGenTb::random(5, 600), &cosim_out())?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
        Unit {
            name: "so_crossbar",
            mechanism: "stream-out",
            summary: "crossbar of 4 SO units to SSYNC and responses back",
            verilog: || verilog_of(RefCrossbar::default(), "so_crossbar"),
            cosim_trace: || {
                let r = run_crossbar(7, 500, &cosim_out())?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
    ]
}

// ---------------------------------------------------------------------------------------------
// SSYNC
// ---------------------------------------------------------------------------------------------

/// A WDU command of the SSYNC testbench. Work tokens get consecutive batch IDs from
/// [`SsyncTb::first_id`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    Work,
    Enable,
    Disable,
    Offset([u32; 4]),
}

/// One batch/task handled by a scripted SO unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoJob {
    pub unit: usize,
    /// Index of the work token (0 = first `Work` command).
    pub batch: usize,
    pub task: u16,
    pub last: bool,
    pub sbbn: [u32; 4],
    /// Earliest cycle of the first request.
    pub first_at: u64,
    /// Send the second request this many cycles after the first request went out, without
    /// waiting for the response (SO-8); `None`: after the response.
    pub second_early: Option<u64>,
    /// Cycles between the response and the second request (when not early).
    pub second_delay: u64,
    /// Bad input (SO-13): not part of the golden stream, need not finish.
    pub bogus: bool,
    /// Bad input: send only the second request (at `first_at`), never the first.
    pub no_first: bool,
}

/// A scripted SSYNC run.
#[derive(Debug, Clone)]
pub struct SsyncTb {
    pub cmds: Vec<Cmd>,
    pub first_id: u16,
    /// Jobs, each SO unit handling its own in list order, one at a time (SO-9).
    pub jobs: Vec<SoJob>,
    pub sizes: [u32; 4],
    pub seed: u64,
    /// Probability that an SO unit takes an offered response in a cycle.
    pub resp_ready_prob: f64,
    /// Probability that the WDU takes an offered retire message in a cycle.
    pub retire_ready_prob: f64,
    pub max_cycles: u64,
    /// Bad-input runs: violations are recorded instead of failing the run, and jobs may remain.
    pub expect_violations: bool,
}

impl SsyncTb {
    /// Random traffic: `batches` batches over `units` SO units, random task splits, offset
    /// bundles and enable/disable, random arrival order and either order of response and
    /// second request.
    pub fn random(units: usize, seed: u64, batches: usize, ops: usize) -> SsyncTb {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cmds = vec![];
        let mut jobs = vec![];
        let mut batch = 0usize;
        let mut cursor = vec![0u64; units];
        let per_op = batches.div_ceil(ops.max(1));
        for _ in 0..ops.max(1) {
            if rng.gen_bool(0.5) {
                cmds.push(Cmd::Offset(std::array::from_fn(|_| {
                    rng.gen_range(0..64) * 4
                })));
            }
            for _ in 0..rng.gen_range(0..3) {
                cmds.push(Cmd::Work);
                batch += 1;
            }
            cmds.push(Cmd::Enable);
            for _ in 0..per_op {
                cmds.push(Cmd::Work);
                let tasks = if rng.gen_bool(0.3) {
                    rng.gen_range(2..4)
                } else {
                    1
                };
                for t in 0..tasks {
                    let unit = rng.gen_range(0..units);
                    cursor[unit] += rng.gen_range(0..6);
                    jobs.push(SoJob {
                        unit,
                        batch,
                        task: t as u16,
                        last: t + 1 == tasks,
                        sbbn: std::array::from_fn(|_| rng.gen_range(0..5) * 16),
                        first_at: cursor[unit],
                        second_early: if rng.gen_bool(0.5) {
                            Some(rng.gen_range(0..4))
                        } else {
                            None
                        },
                        second_delay: rng.gen_range(0..3),
                        bogus: false,
                        no_first: false,
                    });
                }
                batch += 1;
            }
            cmds.push(Cmd::Disable);
        }
        cmds.push(Cmd::Work);
        SsyncTb {
            cmds,
            first_id: rng.gen_range(0..1 << 14) as u16,
            jobs,
            sizes: [1 << 16, 1 << 16, 1 << 12, 1 << 16],
            seed,
            resp_ready_prob: 0.8,
            retire_ready_prob: 0.8,
            max_cycles: 5000,
            expect_violations: false,
        }
    }

    /// The batch ID of work token `k`.
    pub fn batch_id(&self, k: usize) -> u16 {
        ((self.first_id as usize + k) & 0x3fff) as u16
    }

    /// The golden model's view of the command stream and jobs.
    pub fn golden(&self) -> Golden {
        let mut packets = vec![];
        let mut k = 0;
        for c in &self.cmds {
            packets.push(match c {
                Cmd::Work => {
                    let mut tasks: Vec<(u16, [u32; 4])> = self
                        .jobs
                        .iter()
                        .filter(|j| j.batch == k && !j.bogus)
                        .map(|j| (j.task, j.sbbn))
                        .collect();
                    tasks.sort();
                    k += 1;
                    Packet::Batch {
                        batch_id: self.batch_id(k - 1),
                        tasks: tasks.into_iter().map(|t| t.1).collect(),
                    }
                }
                Cmd::Enable => Packet::Enable,
                Cmd::Disable => Packet::Disable,
                Cmd::Offset(o) => Packet::Offset(*o),
            });
        }
        golden::golden(&packets, self.sizes)
    }
}

/// What an SSYNC run saw.
#[derive(Debug, Clone, Default)]
pub struct SsyncTbResult {
    pub cycles: u64,
    /// (cycle, unit, batch ID, task, offsets) of every response.
    pub responses: Vec<(u64, usize, u16, u16, [u32; 4])>,
    pub retired: Vec<u16>,
    /// (cycle, code) of every violation.
    pub violations: Vec<(u64, u64)>,
    pub final_ssobo: [u32; 4],
    pub overflow_count: u64,
    /// Cycles from a first request that was current on arrival to its response.
    pub in_order_latency: Vec<u64>,
    /// Most responses in any window of 8 consecutive cycles.
    pub peak_responses_per_8: usize,
    pub cmd_stall_cycles: u64,
    /// Cycles a first request was offered and back-pressured (its unit's entry still held).
    pub first_stall_cycles: u64,
    pub outstanding_seen: bool,
    pub jobs_done: usize,
    pub ports: Option<PortTrace>,
}

#[derive(Debug, Clone, Default)]
struct UnitState {
    job: Option<usize>,
    first_cycle: Option<u64>,
    resp_cycle: Option<u64>,
    second_sent: bool,
}

/// Run SSYNC against scripted SO units; every response is compared with the golden model
/// (offsets, order), retire messages must come in stream order, overflow commits must match,
/// and at the end the SSOBOs and statistics must equal the golden model's.
pub fn run_ssync<
    const N: usize,
    const S: usize,
    const O: usize,
    const OB: usize,
    const F: usize,
>(
    tb: &SsyncTb,
    out: &TbOutput,
) -> Result<SsyncTbResult, String> {
    let mut h = harness(
        Ssync::<N, S, O, OB, F>::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "ssync",
    )?;
    for j in &tb.jobs {
        if j.unit >= N {
            return Err(format!("job for SO unit {} of {}", j.unit, N));
        }
    }
    let g = tb.golden();
    let mut rng = ChaCha8Rng::seed_from_u64(tb.seed ^ 0xabcd);
    let mut queues: Vec<VecDeque<usize>> = vec![VecDeque::new(); N];
    for (k, j) in tb.jobs.iter().enumerate() {
        queues[j.unit].push_back(k);
    }
    let mut units: Vec<UnitState> = vec![UnitState::default(); N];
    let mut cmd_pos = 0usize;
    let mut work_count = 0usize;
    let mut next_task = 0usize; // golden index of the next expected response
    let mut committed = 0usize;
    let mut res = SsyncTbResult::default();
    let mut resp_cycles: VecDeque<u64> = VecDeque::new();
    let mut rr = 0usize;
    let mut current_on_arrival: HashMap<usize, u64> = HashMap::new();
    let mut done_cycles = 0u64;
    for cycle in 0..tb.max_cycles {
        let reset = cycle == 0;
        // SO units pick up their next job.
        for (u, st) in units.iter_mut().enumerate() {
            if st.job.is_none() && !reset {
                if let Some(k) = queues[u].pop_front() {
                    *st = UnitState {
                        job: Some(k),
                        ..UnitState::default()
                    };
                }
            }
        }
        // Offer one first and one second request (rotating priority among the units).
        let mut first: Option<usize> = None;
        let mut second: Option<usize> = None;
        for k in 0..N {
            let u = (rr + k) % N;
            let st = &units[u];
            let Some(j) = st.job.map(|j| &tb.jobs[j]) else {
                continue;
            };
            if first.is_none() && st.first_cycle.is_none() && cycle >= j.first_at && !j.no_first {
                first = Some(u);
            }
            if second.is_none() && !st.second_sent && j.no_first && cycle >= j.first_at {
                second = Some(u);
            }
            if second.is_none() && !st.second_sent && !j.no_first {
                if let Some(fc) = st.first_cycle {
                    let due = match j.second_early {
                        Some(d) => Some(fc + 1 + d),
                        None => st.resp_cycle.map(|r| r + 1 + j.second_delay),
                    };
                    if due.is_some_and(|d| cycle >= d) {
                        second = Some(u);
                    }
                }
            }
        }
        rr = (rr + 1) % N;
        let cmd = if reset { None } else { tb.cmds.get(cmd_pos) };
        let resp_ready = !reset && rng.gen_bool(tb.resp_ready_prob);
        let retire_ready = !reset && rng.gen_bool(tb.retire_ready_prob);
        {
            let u = &mut h.uut;
            u.reset.next = reset;
            u.buffer_size.next = Msg128Fields(tb.sizes).to_hw();
            u.cmd_valid.next = cmd.is_some();
            u.cmd_kind.next = bits::<2>(match cmd {
                Some(Cmd::Enable) => ssync::CMD_ENABLE,
                Some(Cmd::Disable) => ssync::CMD_DISABLE,
                Some(Cmd::Offset(_)) => ssync::CMD_OFFSET,
                _ => ssync::CMD_WORK,
            });
            u.cmd_batch_id.next = bits::<14>(tb.batch_id(work_count) as u64);
            u.cmd_offsets.next = match cmd {
                Some(Cmd::Offset(o)) => Msg128Fields(*o).to_hw(),
                _ => Msg128::default(),
            };
            u.first_valid.next = first.is_some();
            u.first_source.next = bits::<S>(first.unwrap_or(0) as u64);
            u.first_data.next = match first.and_then(|f| units[f].job) {
                Some(k) => {
                    let j = &tb.jobs[k];
                    FirstRequestFields {
                        batch_id: tb.batch_id(j.batch),
                        task: j.task,
                        last: j.last,
                    }
                    .to_hw()
                }
                None => FirstRequest::default(),
            };
            u.second_valid.next = second.is_some();
            u.second_source.next = bits::<S>(second.unwrap_or(0) as u64);
            u.second_data.next = match second.and_then(|s| units[s].job) {
                Some(k) => Msg128Fields(tb.jobs[k].sbbn).to_hw(),
                None => Msg128::default(),
            };
            u.resp_ready.next = resp_ready;
            u.retire_ready.next = retire_ready;
        }
        h.settle().map_err(|e| e.to_string())?;
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        let u = &h.uut;
        if reset {
            h.step().map_err(|e| e.to_string())?;
            continue;
        }
        if u.violation.val() {
            let code = u.violation_code.val().index() as u64;
            if !tb.expect_violations {
                return fail(format!("violation code {} on good input", code));
            }
            res.violations.push((cycle, code));
        }
        res.outstanding_seen |= u.outstanding.val();
        // Commands
        let cmd_fire = cmd.is_some() && u.cmd_ready.val();
        if cmd.is_some() && !u.cmd_ready.val() {
            res.cmd_stall_cycles += 1;
        }
        // First request arrival: note whether it is current (for the latency figure).
        if first.is_some() && !u.first_ready.val() {
            res.first_stall_cycles += 1;
        }
        let first = first.filter(|_| u.first_ready.val());
        if let Some(f) = first {
            let k = units[f].job.unwrap_or(0);
            let j = &tb.jobs[k];
            if g.tasks.get(next_task).is_some_and(|t| {
                t.batch_id == tb.batch_id(j.batch)
                    && t.task == j.task
                    && u.current_batch_id.val().index() as u16 == t.batch_id
                    && u.current_task.val().index() as u16 == t.task
                    && u.op_active.val()
            }) {
                current_on_arrival.insert(k, cycle);
            }
        }
        // Response
        let resp = if u.resp_valid.val() && resp_ready {
            let dest = u.resp_dest.val().index();
            let offsets = Msg128Fields::from_hw(u.resp_data.val()).0;
            Some((dest, offsets))
        } else {
            None
        };
        if let Some((dest, offsets)) = resp {
            let Some(k) = units.get(dest).and_then(|s| s.job) else {
                return fail(format!("response to SO unit {} which has no job", dest));
            };
            let j = &tb.jobs[k];
            if units[dest].first_cycle.is_none() || units[dest].resp_cycle.is_some() {
                return fail(format!("unexpected response to SO unit {}", dest));
            }
            let Some(exp) = g.tasks.get(next_task) else {
                return fail("more responses than streamed batch/tasks".into());
            };
            let bid = tb.batch_id(j.batch);
            if (exp.batch_id, exp.task) != (bid, j.task) {
                return fail(format!(
                    "response for batch {} task {} but the golden order expects batch {} task {}",
                    bid, j.task, exp.batch_id, exp.task
                ));
            }
            if exp.offsets != offsets {
                return fail(format!(
                    "batch {} task {}: offsets {:?}, golden {:?}",
                    bid, j.task, offsets, exp.offsets
                ));
            }
            next_task += 1;
            res.responses.push((cycle, dest, bid, j.task, offsets));
            if let Some(c) = current_on_arrival.remove(&k) {
                res.in_order_latency.push(cycle - c);
            }
            resp_cycles.push_back(cycle);
            while resp_cycles.front().is_some_and(|&c| c + 8 <= cycle) {
                resp_cycles.pop_front();
            }
            res.peak_responses_per_8 = res.peak_responses_per_8.max(resp_cycles.len());
        }
        if u.commit.val() {
            let Some(exp) = g.tasks.get(committed) else {
                return fail("commit beyond the streamed batch/tasks".into());
            };
            if u.commit_overflow.val() != exp.overflow {
                return fail(format!(
                    "batch {} task {}: overflow {} but golden {}",
                    exp.batch_id,
                    exp.task,
                    u.commit_overflow.val(),
                    exp.overflow
                ));
            }
            committed += 1;
        }
        if u.retire_valid.val() && retire_ready {
            let id = u.retire_batch_id.val().index() as u16;
            if g.retired.get(res.retired.len()) != Some(&id) {
                return fail(format!(
                    "retire of batch {}, expected {:?}",
                    id,
                    g.retired.get(res.retired.len())
                ));
            }
            res.retired.push(id);
        }
        // Advance the scripted SO units.
        if let Some(f) = first {
            units[f].first_cycle = Some(cycle);
        }
        if let Some(s) = second {
            units[s].second_sent = true;
        }
        if let Some((dest, _)) = resp {
            units[dest].resp_cycle = Some(cycle);
        }
        for st in units.iter_mut() {
            let no_first = st.job.is_some_and(|k| tb.jobs[k].no_first);
            if st.job.is_some() && (st.resp_cycle.is_some() || no_first) && st.second_sent {
                *st = UnitState::default();
                res.jobs_done += 1;
            }
        }
        if cmd_fire {
            if cmd == Some(&Cmd::Work) {
                work_count += 1;
            }
            cmd_pos += 1;
        }
        h.step().map_err(|e| e.to_string())?;
        res.cycles = cycle + 1;
        let good_jobs = tb.jobs.iter().filter(|j| !j.bogus).count();
        let all_done = res.jobs_done >= good_jobs
            && cmd_pos == tb.cmds.len()
            && res.retired.len() == g.retired.len();
        if all_done {
            done_cycles += 1;
            if done_cycles > 4 {
                break;
            }
        }
    }
    let u = &h.uut;
    res.final_ssobo = Msg128Fields::from_hw(u.ssobo.val()).0;
    res.overflow_count = u.overflow_count.val().index() as u64;
    if !tb.expect_violations {
        if res.jobs_done != tb.jobs.len() || res.retired.len() != g.retired.len() {
            return Err(format!(
                "did not finish in {} cycles: {} of {} jobs, {} of {} retires",
                tb.max_cycles,
                res.jobs_done,
                tb.jobs.len(),
                res.retired.len(),
                g.retired.len()
            ));
        }
        if res.final_ssobo != g.final_ssobo {
            return Err(format!(
                "final SSOBOs {:?}, golden {:?}",
                res.final_ssobo, g.final_ssobo
            ));
        }
        let written = Msg128Fields::from_hw(u.stat_written.val()).0;
        let needed = Msg128Fields::from_hw(u.stat_needed.val()).0;
        for i in 0..4 {
            if written[i] as u64 != g.written[i] & 0xffff_ffff
                || needed[i] as u64 != g.needed[i] & 0xffff_ffff
            {
                return Err(format!(
                    "statistics: written {:?} needed {:?}, golden {:?} {:?}",
                    written, needed, g.written, g.needed
                ));
            }
        }
        if res.overflow_count != g.overflows {
            return Err(format!(
                "overflow count {}, golden {}",
                res.overflow_count, g.overflows
            ));
        }
    }
    res.ports = finish_waves(h, out, |vars| {
        let t = "ssync";
        vec![
            Group::new("control").sigs(t, &["clock", "reset", "violation", "violation_code"], vars),
            Group::new("WDU commands").sigs(
                t,
                &[
                    "cmd_valid",
                    "cmd_ready",
                    "cmd_kind",
                    "cmd_batch_id",
                    "op_fill",
                    "op_full",
                ],
                vars,
            ),
            Group::new("current").sigs(
                t,
                &[
                    "op_active",
                    "current_batch_id",
                    "current_task",
                    "ssobo$lane0",
                    "ssobo$lane2",
                    "outstanding",
                ],
                vars,
            ),
            Group::new("first requests").sigs(
                t,
                &[
                    "first_valid",
                    "first_source",
                    "first_data$batch_id",
                    "first_data$task_number",
                    "first_data$last",
                ],
                vars,
            ),
            Group::new("second requests").sigs(
                t,
                &["second_valid", "second_source", "second_data$lane0"],
                vars,
            ),
            Group::new("responses").sigs(
                t,
                &[
                    "resp_valid",
                    "resp_ready",
                    "resp_dest",
                    "resp_data$lane0",
                    "commit",
                ],
                vars,
            ),
            Group::new("retire").sigs(
                t,
                &[
                    "retire_valid",
                    "retire_ready",
                    "retire_batch_id",
                    "overflow_count",
                ],
                vars,
            ),
        ]
    })?;
    Ok(res)
}

// ---------------------------------------------------------------------------------------------
// SO unit
// ---------------------------------------------------------------------------------------------

/// One batch/task given to the SO unit under test.
#[derive(Debug, Clone)]
pub struct UnitJob {
    pub batch_id: u16,
    pub task: u16,
    pub last: bool,
    /// Attribute writes to L1 (buffer, bytes), counted by the SO unit.
    pub attrs: Vec<(usize, u32)>,
    /// Cycles from the batch packet to the first attribute write (shader latency).
    pub latency: u64,
    /// Cycles the emulated SSYNC waits before answering the first request.
    pub resp_delay: u64,
}

/// A scripted SO-unit run: the testbench is MPC, SSYNC and memory.
#[derive(Debug, Clone)]
pub struct SoUnitTb {
    pub jobs: Vec<UnitJob>,
    pub bytes_per_cycle: u32,
    pub sizes: [u32; 4],
    pub wr_ready_prob: f64,
    pub seed: u64,
    pub max_cycles: u64,
}

impl SoUnitTb {
    pub fn random(seed: u64, n: usize) -> SoUnitTb {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let jobs = (0..n)
            .map(|k| UnitJob {
                batch_id: ((seed as usize * 977 + k) & 0x3fff) as u16,
                task: 0,
                last: true,
                attrs: (0..rng.gen_range(0..5))
                    .map(|_| (rng.gen_range(0..4), rng.gen_range(0..80)))
                    .collect(),
                latency: rng.gen_range(0..6),
                resp_delay: rng.gen_range(0..8),
            })
            .collect();
        SoUnitTb {
            jobs,
            bytes_per_cycle: rng.gen_range(1..40),
            sizes: [600, 400, 1 << 16, 300],
            wr_ready_prob: 0.7,
            seed,
            max_cycles: 4000,
        }
    }
}

/// What an SO-unit run saw.
#[derive(Debug, Clone, Default)]
pub struct SoUnitTbResult {
    pub cycles: u64,
    pub bytes_written: u64,
    pub overflows: u64,
    pub ports: Option<PortTrace>,
}

/// Drive one SO unit: check its first request (SO-5), its second request against the bytes the
/// shader wrote (SO-7), and that its writes cover exactly `[offset, offset + bytes)` of each
/// buffer in order with at most `bytes_per_cycle` per transfer (SO-11), nothing for a job that
/// does not fit (SO-12), payload stable while the memory stalls.
pub fn run_so_unit(tb: &SoUnitTb, out: &TbOutput) -> Result<SoUnitTbResult, String> {
    let mut h = harness(
        SoUnit::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "so_unit",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(tb.seed);
    let mut res = SoUnitTbResult::default();
    let mut ssobo = [0u32; 4];
    // MPC side
    let mut next_batch = 0usize;
    let mut attr_job: Option<(usize, u64, usize)> = None; // job, start cycle, attrs sent
    let mut end_pending: Option<usize> = None;
    // SSYNC side: the job whose first request came, when, whether answered / second seen.
    let mut first_seen: Option<(usize, u64)> = None;
    let mut resp_sent = false;
    let mut second_seen = false;
    let mut next_first = 0usize;
    // memory side: expected (job, buffer, offset, bytes) still to write
    let mut expect_writes: VecDeque<(usize, usize, u32, u32)> = VecDeque::new();
    let mut written_in_part = 0u32;
    let mut stalled: Option<(usize, u32, u32)> = None;
    let mut jobs_finished = 0usize;
    let mut placement: Vec<Option<([u32; 4], bool)>> = vec![None; tb.jobs.len()];
    for cycle in 0..tb.max_cycles {
        let reset = cycle == 0;
        let batch_offer = (!reset && next_batch < tb.jobs.len()).then_some(next_batch);
        let attr_offer = attr_job.and_then(|(k, start, sent)| {
            (cycle >= start + tb.jobs[k].latency)
                .then(|| tb.jobs[k].attrs.get(sent).copied())
                .flatten()
        });
        let end_offer = end_pending.is_some()
            && attr_job.is_some_and(|(k, _, sent)| sent == tb.jobs[k].attrs.len());
        let resp_offer = first_seen
            .filter(|(k, c)| !resp_sent && cycle >= c + tb.jobs[*k].resp_delay)
            .map(|(k, _)| k);
        let wr_ready = !reset && rng.gen_bool(tb.wr_ready_prob);
        {
            let u = &mut h.uut;
            u.reset.next = reset;
            u.bytes_per_cycle.next = bits::<32>(tb.bytes_per_cycle as u64);
            u.buffer_size.next = Msg128Fields(tb.sizes).to_hw();
            u.batch_valid.next = batch_offer.is_some();
            u.batch_data.next = batch_offer
                .map(|k| {
                    let j = &tb.jobs[k];
                    FirstRequestFields {
                        batch_id: j.batch_id,
                        task: j.task,
                        last: j.last,
                    }
                    .to_hw()
                })
                .unwrap_or_default();
            u.attr_valid.next = attr_offer.is_some();
            u.attr_buffer.next = bits::<2>(attr_offer.map(|a| a.0 as u64).unwrap_or(0));
            u.attr_bytes.next = bits::<32>(attr_offer.map(|a| a.1 as u64).unwrap_or(0));
            u.end_valid.next = end_offer;
            u.first_ready.next = !reset && rng.gen_bool(0.8);
            u.second_ready.next = !reset && rng.gen_bool(0.8);
            u.resp_valid.next = resp_offer.is_some();
            u.resp_data.next = Msg128Fields(ssobo).to_hw();
            u.wr_ready.next = wr_ready;
        }
        h.settle().map_err(|e| e.to_string())?;
        if reset {
            h.step().map_err(|e| e.to_string())?;
            continue;
        }
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        let u = &h.uut;
        if let Some(k) = batch_offer {
            if u.batch_ready.val() {
                attr_job = Some((k, cycle + 1, 0));
                end_pending = Some(k);
                next_batch += 1;
            }
        }
        if attr_offer.is_some() && u.attr_ready.val() {
            if let Some((_, _, sent)) = attr_job.as_mut() {
                *sent += 1;
            }
        }
        if end_offer && u.end_ready.val() {
            end_pending = None;
        }
        if u.first_valid.val() && u.first_ready.val() {
            let f = FirstRequestFields::from_hw(u.first_data.val());
            let k = next_first;
            let Some(j) = tb.jobs.get(k) else {
                return fail("first request with no job".into());
            };
            if first_seen.is_some() {
                return fail("a second first request while one is outstanding (SO-9)".into());
            }
            if (f.batch_id, f.task, f.last) != (j.batch_id, j.task, j.last) {
                return fail(format!("first request {:?} for job {}", f, k));
            }
            first_seen = Some((k, cycle));
            next_first += 1;
        }
        if resp_offer.is_some() && u.resp_ready.val() {
            resp_sent = true;
        }
        if u.second_valid.val() && u.second_ready.val() {
            let Some((k, _)) = first_seen else {
                return fail("second request before first".into());
            };
            if second_seen {
                return fail("two second requests for one job".into());
            }
            let mut want = [0u32; 4];
            for &(b, n) in &tb.jobs[k].attrs {
                want[b] += n;
            }
            let got = Msg128Fields::from_hw(u.second_data.val()).0;
            if got != want {
                return fail(format!("second request {:?}, shader wrote {:?}", got, want));
            }
            second_seen = true;
        }
        // The emulated SSYNC accounts a job once it has answered it and has its second request.
        if let (Some((k, _)), true, true) = (first_seen, resp_sent, second_seen) {
            let mut sbbn = [0u32; 4];
            for &(b, n) in &tb.jobs[k].attrs {
                sbbn[b] += n;
            }
            let fit = golden::fits(ssobo, sbbn, tb.sizes);
            placement[k] = Some((ssobo, fit));
            if fit {
                for i in 0..4 {
                    if sbbn[i] > 0 {
                        expect_writes.push_back((k, i, ssobo[i], sbbn[i]));
                    }
                    ssobo[i] += sbbn[i];
                }
            }
            first_seen = None;
            resp_sent = false;
            second_seen = false;
        }
        if u.overflow.val() {
            res.overflows += 1;
            let k = jobs_finished;
            if placement.get(k).and_then(|p| *p).map(|p| p.1) != Some(false) {
                return fail(format!("overflow pulse for job {} which fits", k));
            }
        }
        if u.job_done.val() {
            jobs_finished += 1;
        }
        if let Some(s) = stalled {
            if !u.wr_valid.val()
                || (
                    u.wr_buffer.val().index(),
                    u.wr_offset.val().to_u32(),
                    u.wr_bytes.val().to_u32(),
                ) != s
            {
                return fail("write payload changed while stalled".into());
            }
        }
        stalled = None;
        if u.wr_valid.val() {
            let (b, off, n) = (
                u.wr_buffer.val().index(),
                u.wr_offset.val().to_u32(),
                u.wr_bytes.val().to_u32(),
            );
            let Some(&(k, eb, eoff, ebytes)) = expect_writes.front() else {
                return fail(format!("unexpected write to buffer {} at {}", b, off));
            };
            let j = &tb.jobs[k];
            let left = ebytes - written_in_part;
            if b != eb
                || off != eoff + written_in_part
                || n != left.min(tb.bytes_per_cycle)
                || u.wr_index.val().to_u32() != written_in_part
                || u.wr_batch_id.val().index() as u16 != j.batch_id
            {
                return fail(format!(
                    "write buffer {} offset {} bytes {}, expected buffer {} offset {} bytes {}",
                    b,
                    off,
                    n,
                    eb,
                    eoff + written_in_part,
                    left.min(tb.bytes_per_cycle)
                ));
            }
            if wr_ready {
                written_in_part += n;
                res.bytes_written += n as u64;
                if written_in_part == ebytes {
                    expect_writes.pop_front();
                    written_in_part = 0;
                }
            } else {
                stalled = Some((b, off, n));
            }
        }
        h.step().map_err(|e| e.to_string())?;
        res.cycles = cycle + 1;
        if jobs_finished == tb.jobs.len() {
            break;
        }
    }
    if jobs_finished != tb.jobs.len() || !expect_writes.is_empty() {
        return Err(format!(
            "{} of {} jobs finished, {} writes missing",
            jobs_finished,
            tb.jobs.len(),
            expect_writes.len()
        ));
    }
    res.ports = finish_waves(h, out, |vars| {
        let t = "so_unit";
        vec![
            Group::new("control").sigs(t, &["clock", "reset", "busy", "writing"], vars),
            Group::new("MPC").sigs(
                t,
                &[
                    "batch_valid",
                    "batch_ready",
                    "batch_data$batch_id",
                    "attr_valid",
                    "attr_buffer",
                    "attr_bytes",
                    "end_valid",
                    "end_ready",
                ],
                vars,
            ),
            Group::new("SSYNC").sigs(
                t,
                &[
                    "first_valid",
                    "first_ready",
                    "second_valid",
                    "second_ready",
                    "second_data$lane0",
                    "resp_valid",
                    "resp_ready",
                    "resp_data$lane0",
                ],
                vars,
            ),
            Group::new("memory").sigs(
                t,
                &[
                    "wr_valid",
                    "wr_ready",
                    "wr_buffer",
                    "wr_offset",
                    "wr_bytes",
                    "overflow",
                    "job_done",
                ],
                vars,
            ),
        ]
    })?;
    Ok(res)
}

// ---------------------------------------------------------------------------------------------
// Batch-ID generator
// ---------------------------------------------------------------------------------------------

/// A random batch-ID generator run.
#[derive(Debug, Clone)]
pub struct IdGenTb {
    pub seed: u64,
    pub cycles: u64,
    pub take_prob: f64,
    pub retire_prob: f64,
    /// Probability of a retire message for an ID not in flight (bad input, SO-13).
    pub bogus_prob: f64,
}

impl IdGenTb {
    pub fn random(seed: u64, cycles: u64) -> IdGenTb {
        IdGenTb {
            seed,
            cycles,
            take_prob: 0.7,
            retire_prob: 0.5,
            bogus_prob: 0.02,
        }
    }
}

/// What a batch-ID generator run saw.
#[derive(Debug, Clone, Default)]
pub struct IdGenTbResult {
    pub handed_out: u64,
    pub stall_cycles: u64,
    pub violations: u64,
    pub wraps: u64,
    pub ports: Option<PortTrace>,
}

/// Drive [`RefBatchIdGen`] against a model: consecutive 14-bit IDs (SO-1), an ID handed out
/// only while its window slot is free (stall otherwise), retire in any order over both
/// channels frees it (SO-2), a retire of an ID not in flight raises `violation` (SO-13).
pub fn run_batch_id_gen(tb: &IdGenTb, out: &TbOutput) -> Result<IdGenTbResult, String> {
    const W: usize = 16;
    let mut h = harness(
        RefBatchIdGen::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "batch_id_gen",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(tb.seed);
    let mut next: u16 = 0;
    let mut in_flight: Vec<u16> = vec![];
    let mut res = IdGenTbResult::default();
    for cycle in 0..tb.cycles {
        let reset = cycle == 0;
        let take = !reset && rng.gen_bool(tb.take_prob);
        let pick = |rng: &mut ChaCha8Rng, inf: &mut Vec<u16>| -> Option<(u16, bool)> {
            if reset {
                return None;
            }
            if rng.gen_bool(tb.bogus_prob) {
                let bogus = (next.wrapping_add(rng.gen_range(1..100))) & 0x3fff;
                if !inf.contains(&bogus) {
                    return Some((bogus, true));
                }
            }
            if !inf.is_empty() && rng.gen_bool(tb.retire_prob) {
                let i = rng.gen_range(0..inf.len());
                return Some((inf.swap_remove(i), false));
            }
            None
        };
        let retire = pick(&mut rng, &mut in_flight);
        let done = pick(&mut rng, &mut in_flight);
        let u = &mut h.uut;
        u.reset.next = reset;
        u.id_ready.next = take;
        u.retire_valid.next = retire.is_some();
        u.retire_batch_id.next = bits::<14>(retire.map(|r| r.0 as u64).unwrap_or(0));
        u.done_valid.next = done.is_some();
        u.done_batch_id.next = bits::<14>(done.map(|r| r.0 as u64).unwrap_or(0));
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        if !reset {
            let slot_busy = in_flight
                .iter()
                .chain(retire.iter().filter(|r| !r.1).map(|r| &r.0))
                .chain(done.iter().filter(|r| !r.1).map(|r| &r.0))
                .any(|&id| id as usize % W == next as usize % W);
            if u.id_valid.val() == slot_busy || u.stall.val() != slot_busy {
                return fail(format!(
                    "id_valid {} but the slot of {} is {}",
                    u.id_valid.val(),
                    next,
                    if slot_busy { "busy" } else { "free" }
                ));
            }
            if u.id_batch_id.val().index() as u16 != next {
                return fail(format!(
                    "id {} but the model's next ID is {}",
                    u.id_batch_id.val().index(),
                    next
                ));
            }
            let bogus = retire.is_some_and(|r| r.1) || done.is_some_and(|r| r.1);
            if u.violation.val() != bogus {
                return fail(format!(
                    "violation {} for bogus retire {}",
                    u.violation.val(),
                    bogus
                ));
            }
            res.violations += bogus as u64;
            if slot_busy {
                res.stall_cycles += 1;
            }
            if u.id_valid.val() && take {
                in_flight.push(next);
                res.handed_out += 1;
                if next == 0x3fff {
                    res.wraps += 1;
                }
                next = (next + 1) & 0x3fff;
            }
        }
        h.step().map_err(|e| e.to_string())?;
    }
    res.ports = finish_waves(h, out, |vars| {
        let t = "batch_id_gen";
        vec![
            Group::new("control").sigs(t, &["clock", "reset", "stall", "violation"], vars),
            Group::new("IDs").sigs(t, &["id_valid", "id_ready", "id_batch_id"], vars),
            Group::new("retire").sigs(
                t,
                &[
                    "retire_valid",
                    "retire_batch_id",
                    "done_valid",
                    "done_batch_id",
                ],
                vars,
            ),
        ]
    })?;
    Ok(res)
}

// ---------------------------------------------------------------------------------------------
// Crossbar
// ---------------------------------------------------------------------------------------------

/// What a crossbar run saw.
#[derive(Debug, Clone, Default)]
pub struct XbarTbResult {
    pub firsts: u64,
    pub seconds: u64,
    pub responses: u64,
    pub ports: Option<PortTrace>,
}

/// Drive [`RefCrossbar`] with random traffic from 4 SO units: every message arrives once, in
/// per-unit order, with the right source index, a waiting unit is served within 4 transfers;
/// responses reach exactly the addressed unit and take its ready.
pub fn run_crossbar(seed: u64, cycles: u64, out: &TbOutput) -> Result<XbarTbResult, String> {
    const N: usize = 4;
    let mut h = harness(
        RefCrossbar::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "so_crossbar",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut firsts: [Option<FirstRequestFields>; N] = [None; N];
    let mut seconds: [Option<[u32; 4]>; N] = [None; N];
    let mut seq = [0u16; N];
    let mut got_seq = [0u16; N];
    let mut wait = [[0u32; N]; 2];
    let mut res = XbarTbResult::default();
    for cycle in 0..cycles {
        let reset = cycle == 0;
        for i in 0..N {
            if !reset && firsts[i].is_none() && rng.gen_bool(0.4) {
                firsts[i] = Some(FirstRequestFields {
                    batch_id: (seq[i] * 4 + i as u16) & 0x3fff,
                    task: rng.gen_range(0..1024),
                    last: rng.gen_bool(0.5),
                });
                seq[i] += 1;
            }
            if !reset && seconds[i].is_none() && rng.gen_bool(0.4) {
                seconds[i] = Some([i as u32, rng.gen(), rng.gen(), cycle as u32]);
            }
        }
        let first_ready = !reset && rng.gen_bool(0.7);
        let second_ready = !reset && rng.gen_bool(0.7);
        let resp = (!reset && rng.gen_bool(0.5)).then(|| rng.gen_range(0..N));
        let so_ready: [bool; N] = std::array::from_fn(|_| rng.gen_bool(0.6));
        let word = [rng.gen(), rng.gen(), rng.gen(), rng.gen()];
        let u = &mut h.uut;
        u.reset.next = reset;
        for i in 0..N {
            u.so_first_valid[i].next = firsts[i].is_some();
            u.so_first_data[i].next = firsts[i].map(|f| f.to_hw()).unwrap_or_default();
            u.so_second_valid[i].next = seconds[i].is_some();
            u.so_second_data[i].next = seconds[i]
                .map(|s| Msg128Fields(s).to_hw())
                .unwrap_or_default();
            u.so_resp_ready[i].next = so_ready[i];
        }
        u.first_ready.next = first_ready;
        u.second_ready.next = second_ready;
        u.resp_valid.next = resp.is_some();
        u.resp_dest.next = bits::<2>(resp.unwrap_or(0) as u64);
        u.resp_data.next = Msg128Fields(word).to_hw();
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        if reset {
            h.step().map_err(|e| e.to_string())?;
            continue;
        }
        if u.violation.val() {
            return fail("violation on good traffic".into());
        }
        if u.first_valid.val() != firsts.iter().any(Option::is_some) {
            return fail("first_valid does not reflect the requesters".into());
        }
        if u.first_valid.val() {
            let s = u.first_source.val().index();
            if firsts[s].map(|f| f.to_hw()) != Some(u.first_data.val()) {
                return fail(format!("first request not from source {}", s));
            }
            if first_ready {
                let f = FirstRequestFields::from_hw(u.first_data.val());
                if f.batch_id != (got_seq[s] * 4 + s as u16) & 0x3fff {
                    return fail(format!("unit {}'s first requests out of order", s));
                }
                got_seq[s] += 1;
                firsts[s] = None;
                res.firsts += 1;
                for (i, w) in wait[0].iter_mut().enumerate() {
                    *w = if i == s || firsts[i].is_none() {
                        0
                    } else {
                        *w + 1
                    };
                }
            }
        }
        if u.second_valid.val() {
            let s = u.second_source.val().index();
            if seconds[s].map(|x| Msg128Fields(x).to_hw()) != Some(u.second_data.val()) {
                return fail(format!("second request not from source {}", s));
            }
            if second_ready {
                seconds[s] = None;
                res.seconds += 1;
                for (i, w) in wait[1].iter_mut().enumerate() {
                    *w = if i == s || seconds[i].is_none() {
                        0
                    } else {
                        *w + 1
                    };
                }
            }
        }
        if wait.iter().flatten().any(|&w| w > N as u32) {
            return fail("a waiting SO unit was passed over more than N times".into());
        }
        for i in 0..N {
            let want = resp == Some(i);
            if u.so_resp_valid[i].val() != want {
                return fail(format!(
                    "so_resp_valid[{}] is {}",
                    i,
                    u.so_resp_valid[i].val()
                ));
            }
            if want && Msg128Fields::from_hw(u.so_resp_data[i].val()).0 != word {
                return fail(format!("response data to unit {} corrupted", i));
            }
        }
        if let Some(d) = resp {
            if u.resp_ready.val() != so_ready[d] {
                return fail("resp_ready is not the addressed unit's ready".into());
            }
            res.responses += so_ready[d] as u64;
        }
        h.step().map_err(|e| e.to_string())?;
    }
    res.ports = finish_waves(h, out, |vars| {
        let t = "so_crossbar";
        vec![
            Group::new("control").sigs(t, &["clock", "reset", "violation"], vars),
            Group::new("first").sigs(
                t,
                &[
                    "first_valid",
                    "first_ready",
                    "first_source",
                    "first_data$batch_id",
                ],
                vars,
            ),
            Group::new("second").sigs(t, &["second_valid", "second_ready", "second_source"], vars),
            Group::new("response").sigs(t, &["resp_valid", "resp_ready", "resp_dest"], vars),
        ]
    })?;
    Ok(res)
}
