//! SSYNC testbench (SPEC SO-2..SO-10, SO-12, SO-13): SSYNC driven by scripted SO units and a
//! scripted WDU command stream; everything SSYNC does — responses (order, offsets), overflow
//! decisions, retire order, final SSOBOs and statistics — is checked by the
//! [`SsyncScoreboard`] of the golden model.
use crate::harness::{Harness, PortTrace};
use crate::stream_out::golden::{self, Golden, Packet, SsyncScoreboard};
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use ppu_hdl::stream_out::ssync::{self, Ssync};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// Reference SSYNC of the export: 4 SO units, operation FIFO of 4.
pub type RefSsync = Ssync<4, 2, 4, 2, 3>;

/// A WDU command of the SSYNC testbench. Work tokens get consecutive batch IDs from
/// [`SsyncTb::first_id`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    Work,
    Enable,
    Disable,
    Offset([u32; 4]),
    /// Bad input (SO-1, SO-13): a work token carrying the batch ID of work token `k` again
    /// (IDs are not consecutive); it counts as no new work token.
    WorkReusing(usize),
    /// No command for this many cycles (then the next one is offered).
    Idle(u64),
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
    /// second request. The command stream is biased towards the orderings SO-3 must get right:
    /// `D O E` and `D O O E` with no work token between, `E D O E`, an offset bundle as the
    /// first packet, inside an open operation, and after the last `D`.
    pub fn random(units: usize, seed: u64, batches: usize, ops: usize) -> SsyncTb {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cmds = vec![];
        let mut jobs = vec![];
        let mut batch = 0usize;
        let mut cursor = vec![0u64; units];
        let per_op = batches.div_ceil(ops.max(1));
        let offset =
            |rng: &mut ChaCha8Rng| Cmd::Offset(std::array::from_fn(|_| rng.gen_range(0..64) * 4));
        for _ in 0..ops.max(1) {
            // Between operations, the patterns of SO-3 that matter: offset bundles (one or
            // two, also as the very first packet) with no work token before the next `E`
            // (`D O E`, `D O O E`), unstreamed work tokens, and empty `E D` operations.
            for _ in 0..rng.gen_range(0..3) {
                cmds.push(offset(&mut rng));
            }
            if rng.gen_bool(0.5) {
                for _ in 0..rng.gen_range(1..3) {
                    cmds.push(Cmd::Work);
                    batch += 1;
                }
            }
            if rng.gen_bool(0.25) {
                cmds.push(Cmd::Enable);
                if rng.gen_bool(0.5) {
                    cmds.push(offset(&mut rng));
                }
                cmds.push(Cmd::Disable);
                if rng.gen_bool(0.5) {
                    cmds.push(offset(&mut rng));
                }
            }
            cmds.push(Cmd::Enable);
            if rng.gen_bool(0.2) {
                cmds.push(offset(&mut rng)); // `E O W`: before the operation's first batch
            }
            for k in 0..per_op {
                if k > 0 && rng.gen_bool(0.1) {
                    cmds.push(offset(&mut rng)); // inside an open operation
                }
                cmds.push(Cmd::Work);
                let tasks = if rng.gen_bool(0.3) {
                    rng.gen_range(2..4)
                } else {
                    1
                };
                for t in 0..tasks {
                    jobs.push(random_job(&mut rng, &mut cursor, batch, t, tasks));
                }
                batch += 1;
            }
            cmds.push(Cmd::Disable);
        }
        if rng.gen_bool(0.3) {
            cmds.push(offset(&mut rng)); // after the last `D`: applies at the end
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
                // A batch ID collision is flagged and dropped (SO-13): not a batch.
                Cmd::WorkReusing(_) | Cmd::Idle(_) => continue,
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

/// Task `t` of `tasks` of work token `batch`, on a random SO unit, its first request due a
/// random while after that unit's previous one (`cursor`).
fn random_job(
    rng: &mut ChaCha8Rng,
    cursor: &mut [u64],
    batch: usize,
    t: usize,
    tasks: usize,
) -> SoJob {
    let unit = rng.gen_range(0..cursor.len());
    cursor[unit] += rng.gen_range(0..6);
    SoJob {
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
    }
}

/// What an SSYNC run saw.
#[derive(Debug, Clone, Default)]
pub struct SsyncTbResult {
    pub cycles: u64,
    /// (cycle, unit, batch ID, task, offsets) of every response.
    pub responses: Vec<(u64, usize, u16, u16, [u32; 4])>,
    pub retired: Vec<u16>,
    /// The outstanding-message flag at the end of the run (some request still waits, SO-9).
    pub outstanding_at_end: bool,
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
    /// Largest operation-FIFO fill seen (`op_fill`).
    pub max_op_fill: usize,
    /// Cycles the operation FIFO was full (`op_full`).
    pub op_full_cycles: u64,
    pub jobs_done: usize,
    pub ports: Option<PortTrace>,
}

/// Run SSYNC against scripted SO units; every response, overflow decision and retire message
/// is checked by the [`SsyncScoreboard`] as it happens, and at the end the SSOBOs and
/// statistics.
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
    if let Some(j) = tb.jobs.iter().find(|j| j.unit >= N) {
        return Err(format!("job for SO unit {} of {}", j.unit, N));
    }
    let mut bench = SsyncBench::new(tb, N);
    for cycle in 0..tb.max_cycles {
        if bench.cycle(&mut h, cycle)? {
            break;
        }
    }
    bench.finish(&h.uut)?;
    let mut res = bench.res;
    res.ports = finish_waves(h, out, waves_groups)?;
    Ok(res)
}

/// The canonical waves `waves/ssync.vcd` (+ `.gtkw`): [`RefSsync`], random traffic over 4 SO
/// units, 16 batches in 2 operations.
pub fn canonical_waves(vcd: &Path) -> Result<SsyncTbResult, String> {
    let out = TbOutput {
        vcd: Some(vcd),
        record_ports: false,
        engine: crate::verilator::Engine::Harness,
    };
    run_ssync::<4, 2, 4, 2, 3>(&SsyncTb::random(4, 1, 16, 2), &out)
}

/// The port-trace run of the co-simulation of [`RefSsync`].
pub fn cosim_run(out: &TbOutput) -> Result<SsyncTbResult, String> {
    let mut tb = SsyncTb::random(4, 0x5eed, 80, 3);
    tb.resp_ready_prob = 0.5;
    run_ssync::<4, 2, 4, 2, 3>(&tb, out)
}

/// A scripted SO unit's progress through its current job.
#[derive(Debug, Clone, Default)]
struct UnitState {
    job: Option<usize>,
    first_cycle: Option<u64>,
    resp_cycle: Option<u64>,
    second_sent: bool,
}

/// The scripted SO units: each takes its jobs in list order, one at a time (SO-9), and offers
/// its first and second request when due; one first and one second request go to SSYNC per
/// cycle, priority rotating among the units.
struct ScriptedUnits<'a> {
    tb: &'a SsyncTb,
    queues: Vec<VecDeque<usize>>,
    state: Vec<UnitState>,
    rr: usize,
}

impl<'a> ScriptedUnits<'a> {
    fn new(tb: &'a SsyncTb, n: usize) -> Self {
        let mut queues: Vec<VecDeque<usize>> = vec![VecDeque::new(); n];
        for (k, j) in tb.jobs.iter().enumerate() {
            queues[j.unit].push_back(k);
        }
        ScriptedUnits {
            tb,
            queues,
            state: vec![UnitState::default(); n],
            rr: 0,
        }
    }

    /// Idle units take their next job; returns the units offering a first and a second request.
    fn offer(&mut self, cycle: u64) -> (Option<usize>, Option<usize>) {
        let reset = cycle == 0;
        for (u, st) in self.state.iter_mut().enumerate() {
            if st.job.is_none() && !reset {
                if let Some(k) = self.queues[u].pop_front() {
                    *st = UnitState {
                        job: Some(k),
                        ..UnitState::default()
                    };
                }
            }
        }
        let n = self.state.len();
        let mut first: Option<usize> = None;
        let mut second: Option<usize> = None;
        for k in 0..n {
            let u = (self.rr + k) % n;
            if first.is_none() && self.first_due(u, cycle) {
                first = Some(u);
            }
            if second.is_none() && self.second_due(u, cycle) {
                second = Some(u);
            }
        }
        self.rr = (self.rr + 1) % n;
        (first, second)
    }

    fn first_due(&self, u: usize, cycle: u64) -> bool {
        let st = &self.state[u];
        st.job
            .map(|k| &self.tb.jobs[k])
            .is_some_and(|j| st.first_cycle.is_none() && cycle >= j.first_at && !j.no_first)
    }

    fn second_due(&self, u: usize, cycle: u64) -> bool {
        let st = &self.state[u];
        let Some(j) = st.job.map(|k| &self.tb.jobs[k]) else {
            return false;
        };
        if st.second_sent {
            return false;
        }
        if j.no_first {
            return cycle >= j.first_at;
        }
        let due = st.first_cycle.and_then(|fc| match j.second_early {
            Some(d) => Some(fc + 1 + d),
            None => st.resp_cycle.map(|r| r + 1 + j.second_delay),
        });
        due.is_some_and(|d| cycle >= d)
    }

    /// The job unit `u` is handling.
    fn job(&self, u: usize) -> Option<usize> {
        self.state.get(u).and_then(|s| s.job)
    }

    /// Unit `u` sent its first request and has no response yet.
    fn awaits_response(&self, u: usize) -> bool {
        self.state[u].first_cycle.is_some() && self.state[u].resp_cycle.is_none()
    }

    /// Record this cycle's transfers; returns how many jobs finished.
    fn advance(
        &mut self,
        cycle: u64,
        first: Option<usize>,
        second: Option<usize>,
        resp: Option<usize>,
    ) -> usize {
        if let Some(f) = first {
            self.state[f].first_cycle = Some(cycle);
        }
        if let Some(s) = second {
            self.state[s].second_sent = true;
        }
        if let Some(d) = resp {
            self.state[d].resp_cycle = Some(cycle);
        }
        let mut done = 0;
        for st in self.state.iter_mut() {
            let no_first = st.job.is_some_and(|k| self.tb.jobs[k].no_first);
            if st.job.is_some() && (st.resp_cycle.is_some() || no_first) && st.second_sent {
                *st = UnitState::default();
                done += 1;
            }
        }
        done
    }
}

/// What the testbench offers SSYNC in one cycle.
struct Offer<'a> {
    reset: bool,
    cmd: Option<&'a Cmd>,
    first: Option<usize>,
    second: Option<usize>,
    resp_ready: bool,
    retire_ready: bool,
}

/// One SSYNC run: the scripted WDU and SO units, the scoreboard and what was seen.
struct SsyncBench<'a> {
    tb: &'a SsyncTb,
    sb: SsyncScoreboard,
    units: ScriptedUnits<'a>,
    rng: ChaCha8Rng,
    /// Position in the command stream and work tokens sent.
    cmd_pos: usize,
    work_count: usize,
    /// Cycles left of the `Cmd::Idle` at `cmd_pos`.
    idle_left: Option<u64>,
    /// Jobs whose first request was current on arrival, with that cycle.
    current_on_arrival: HashMap<usize, u64>,
    /// Cycles of the responses of the last 8 cycles.
    resp_cycles: VecDeque<u64>,
    done_cycles: u64,
    res: SsyncTbResult,
}

impl<'a> SsyncBench<'a> {
    fn new(tb: &'a SsyncTb, n: usize) -> Self {
        SsyncBench {
            tb,
            sb: SsyncScoreboard::new(tb.golden()),
            units: ScriptedUnits::new(tb, n),
            rng: ChaCha8Rng::seed_from_u64(tb.seed ^ 0xabcd),
            cmd_pos: 0,
            work_count: 0,
            idle_left: None,
            current_on_arrival: HashMap::new(),
            resp_cycles: VecDeque::new(),
            done_cycles: 0,
            res: SsyncTbResult::default(),
        }
    }

    /// One clock cycle: offer, settle, check, step. Returns `true` once everything is done.
    fn cycle<const N: usize, const S: usize, const O: usize, const OB: usize, const F: usize>(
        &mut self,
        h: &mut Harness<Ssync<N, S, O, OB, F>>,
        cycle: u64,
    ) -> Result<bool, String> {
        let reset = cycle == 0;
        let (first, second) = self.units.offer(cycle);
        let offer = Offer {
            reset,
            cmd: if reset { None } else { self.next_cmd() },
            first,
            second,
            resp_ready: !reset && self.rng.gen_bool(self.tb.resp_ready_prob),
            retire_ready: !reset && self.rng.gen_bool(self.tb.retire_ready_prob),
        };
        self.drive(&mut h.uut, &offer);
        h.settle().map_err(|e| e.to_string())?;
        if !reset {
            self.observe(&h.uut, &offer, cycle)
                .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        }
        h.step().map_err(|e| e.to_string())?;
        if reset {
            return Ok(false);
        }
        self.res.cycles = cycle + 1;
        Ok(self.done_for_a_while())
    }

    /// The command offered this cycle: the one at `cmd_pos`, or none while an `Idle` runs.
    fn next_cmd(&mut self) -> Option<&'a Cmd> {
        while let Some(Cmd::Idle(n)) = self.tb.cmds.get(self.cmd_pos) {
            let left = self.idle_left.get_or_insert(*n);
            if *left > 0 {
                *left -= 1;
                return None;
            }
            self.idle_left = None;
            self.cmd_pos += 1;
        }
        self.tb.cmds.get(self.cmd_pos)
    }

    fn drive<const N: usize, const S: usize, const O: usize, const OB: usize, const F: usize>(
        &self,
        u: &mut Ssync<N, S, O, OB, F>,
        o: &Offer,
    ) {
        let tb = self.tb;
        u.reset.next = o.reset;
        u.buffer_size.next = Msg128Fields(tb.sizes).to_hw();
        u.cmd_valid.next = o.cmd.is_some();
        u.cmd_kind.next = bits::<2>(match o.cmd {
            Some(Cmd::Enable) => ssync::CMD_ENABLE,
            Some(Cmd::Disable) => ssync::CMD_DISABLE,
            Some(Cmd::Offset(_)) => ssync::CMD_OFFSET,
            _ => ssync::CMD_WORK,
        });
        u.cmd_batch_id.next = bits::<14>(match o.cmd {
            Some(Cmd::WorkReusing(k)) => tb.batch_id(*k),
            _ => tb.batch_id(self.work_count),
        } as u64);
        u.cmd_offsets.next = match o.cmd {
            Some(Cmd::Offset(w)) => Msg128Fields(*w).to_hw(),
            _ => Msg128::default(),
        };
        u.first_valid.next = o.first.is_some();
        u.first_source.next = bits::<S>(o.first.unwrap_or(0) as u64);
        u.first_data.next = match o.first.and_then(|f| self.units.job(f)) {
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
        u.second_valid.next = o.second.is_some();
        u.second_source.next = bits::<S>(o.second.unwrap_or(0) as u64);
        u.second_data.next = match o.second.and_then(|s| self.units.job(s)) {
            Some(k) => Msg128Fields(tb.jobs[k].sbbn).to_hw(),
            None => Msg128::default(),
        };
        u.resp_ready.next = o.resp_ready;
        u.retire_ready.next = o.retire_ready;
    }

    /// Check one settled cycle (after reset) and advance the scripts.
    fn observe<const N: usize, const S: usize, const O: usize, const OB: usize, const F: usize>(
        &mut self,
        u: &Ssync<N, S, O, OB, F>,
        o: &Offer,
        cycle: u64,
    ) -> Result<(), String> {
        self.status(u, o, cycle)?;
        let first = o.first.filter(|_| u.first_ready.val());
        if let Some(f) = first {
            self.note_arrival(u, f, cycle);
        }
        let resp = self.response(u, o.resp_ready, cycle)?;
        if u.commit.val() {
            self.sb.commit(u.commit_overflow.val())?;
        }
        if u.retire_valid.val() && o.retire_ready {
            let id = u.retire_batch_id.val().index() as u16;
            self.sb.retire(id)?;
            self.res.retired.push(id);
        }
        self.res.jobs_done += self.units.advance(cycle, first, o.second, resp);
        if o.cmd.is_some() && u.cmd_ready.val() {
            if o.cmd == Some(&Cmd::Work) {
                self.work_count += 1;
            }
            self.cmd_pos += 1;
        }
        Ok(())
    }

    /// Violations (SO-13), back-pressure and status figures.
    fn status<const N: usize, const S: usize, const O: usize, const OB: usize, const F: usize>(
        &mut self,
        u: &Ssync<N, S, O, OB, F>,
        o: &Offer,
        cycle: u64,
    ) -> Result<(), String> {
        if u.violation.val() {
            let code = u.violation_code.val().index() as u64;
            if !self.tb.expect_violations {
                return Err(format!("violation code {} on good input", code));
            }
            self.res.violations.push((cycle, code));
        }
        self.res.outstanding_seen |= u.outstanding.val();
        self.res.max_op_fill = self.res.max_op_fill.max(u.op_fill.val().index());
        self.res.op_full_cycles += u.op_full.val() as u64;
        if o.cmd.is_some() && !u.cmd_ready.val() {
            self.res.cmd_stall_cycles += 1;
        }
        if o.first.is_some() && !u.first_ready.val() {
            self.res.first_stall_cycles += 1;
        }
        Ok(())
    }

    /// A first request from unit `f` arrives: note whether it is current (for the latency).
    fn note_arrival<
        const N: usize,
        const S: usize,
        const O: usize,
        const OB: usize,
        const F: usize,
    >(
        &mut self,
        u: &Ssync<N, S, O, OB, F>,
        f: usize,
        cycle: u64,
    ) {
        let k = self.units.job(f).unwrap_or(0);
        let j = &self.tb.jobs[k];
        let bid = self.tb.batch_id(j.batch);
        if self.sb.next_response().is_some_and(|t| {
            t.batch_id == bid
                && t.task == j.task
                && u.current_batch_id.val().index() as u16 == t.batch_id
                && u.current_task.val().index() as u16 == t.task
                && u.op_active.val()
        }) {
            self.current_on_arrival.insert(k, cycle);
        }
    }

    /// A response taken this cycle: to a unit waiting for one, checked by the scoreboard.
    /// Returns its destination.
    fn response<const N: usize, const S: usize, const O: usize, const OB: usize, const F: usize>(
        &mut self,
        u: &Ssync<N, S, O, OB, F>,
        resp_ready: bool,
        cycle: u64,
    ) -> Result<Option<usize>, String> {
        if !(u.resp_valid.val() && resp_ready) {
            return Ok(None);
        }
        let dest = u.resp_dest.val().index();
        let offsets = Msg128Fields::from_hw(u.resp_data.val()).0;
        let Some(k) = self.units.job(dest) else {
            return Err(format!("response to SO unit {} which has no job", dest));
        };
        if !self.units.awaits_response(dest) {
            return Err(format!("unexpected response to SO unit {}", dest));
        }
        let j = &self.tb.jobs[k];
        let bid = self.tb.batch_id(j.batch);
        self.sb.response(bid, j.task, offsets)?;
        self.res.responses.push((cycle, dest, bid, j.task, offsets));
        if let Some(c) = self.current_on_arrival.remove(&k) {
            self.res.in_order_latency.push(cycle - c);
        }
        self.resp_cycles.push_back(cycle);
        while self.resp_cycles.front().is_some_and(|&c| c + 8 <= cycle) {
            self.resp_cycles.pop_front();
        }
        self.res.peak_responses_per_8 = self.res.peak_responses_per_8.max(self.resp_cycles.len());
        Ok(Some(dest))
    }

    /// Every good job done, every command sent, every batch retired — for more than 8 cycles:
    /// an offset bundle behind the last operation still has to reach the SSOBOs (the retire
    /// ends the operation one cycle later, the pop one more, the head's word is read in the
    /// cycle after the pop, then the three accounting stages).
    fn done_for_a_while(&mut self) -> bool {
        let good_jobs = self.tb.jobs.iter().filter(|j| !j.bogus).count();
        if self.res.jobs_done >= good_jobs
            && self.cmd_pos == self.tb.cmds.len()
            && self.sb.all_retired()
        {
            self.done_cycles += 1;
        }
        self.done_cycles > 8
    }

    /// The end of the run: SSOBOs and statistics against the golden model (good input only).
    fn finish<const N: usize, const S: usize, const O: usize, const OB: usize, const F: usize>(
        &mut self,
        u: &Ssync<N, S, O, OB, F>,
    ) -> Result<(), String> {
        self.res.final_ssobo = Msg128Fields::from_hw(u.ssobo.val()).0;
        self.res.overflow_count = u.overflow_count.val().index() as u64;
        self.res.outstanding_at_end = u.outstanding.val();
        if self.tb.expect_violations {
            return Ok(());
        }
        let progress = self.sb.unfinished();
        if self.res.jobs_done != self.tb.jobs.len() || progress.is_some() {
            return Err(format!(
                "did not finish in {} cycles: {} of {} jobs, {}",
                self.tb.max_cycles,
                self.res.jobs_done,
                self.tb.jobs.len(),
                progress.unwrap_or_else(|| "all responses and retires".into())
            ));
        }
        self.sb.final_ssobo(self.res.final_ssobo)?;
        self.sb.statistics(
            Msg128Fields::from_hw(u.stat_needed.val()).0,
            Msg128Fields::from_hw(u.stat_written.val()).0,
            self.res.overflow_count,
        )
    }
}

/// The GTKWave groups of an SSYNC testbench's waves.
fn waves_groups(vars: &[(String, u32)]) -> Vec<Group> {
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
}
