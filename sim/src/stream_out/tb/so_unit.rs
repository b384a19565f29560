//! SO-unit testbench (SPEC SO-5, SO-7, SO-9, SO-11, SO-12): the testbench is the MPC and
//! shader, SSYNC and the memory of one SO unit, and checks its requests and buffer writes
//! against a reference model.
use crate::harness::{Harness, PortTrace};
use crate::stream_out::golden;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use ppu_hdl::stream_out::so_unit::SoUnit;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::path::Path;

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

impl UnitJob {
    /// The bytes the shader writes per buffer (what the second request must carry).
    fn sbbn(&self) -> [u32; 4] {
        let mut sbbn = [0u32; 4];
        for &(b, n) in &self.attrs {
            sbbn[b] += n;
        }
        sbbn
    }
}

/// A scripted SO-unit run: the testbench is MPC, SSYNC and memory.
#[derive(Debug, Clone)]
pub struct SoUnitTb {
    pub jobs: Vec<UnitJob>,
    pub bytes_per_cycle: u32,
    pub sizes: [u32; 4],
    pub wr_ready_prob: f64,
    /// The emulated SSYNC's SSOBOs before the first job (as an offset bundle may leave them:
    /// possibly past a buffer's end).
    pub start_ssobo: [u32; 4],
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
            // One seed in four: buffer 3's offset starts past its end (SO-12: a job that writes
            // nothing there still fits).
            start_ssobo: if seed % 4 == 1 {
                [0, 0, 0, 316]
            } else {
                [0; 4]
            },
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
    /// Write transfers accepted, and the cycles of the first and the last.
    pub transfers: u64,
    pub first_write: Option<u64>,
    pub last_write: Option<u64>,
    pub ports: Option<PortTrace>,
}

/// Drive one SO unit: check its first request (SO-5), its second request against the bytes the
/// shader wrote (SO-7), and that its writes cover exactly `[offset, offset + bytes)` of each
/// buffer in order with at most `bytes_per_cycle` per transfer (SO-11), nothing for a job that
/// does not fit (SO-12), the write channel's valid/ready contract while the memory stalls.
pub fn run_so_unit(tb: &SoUnitTb, out: &TbOutput) -> Result<SoUnitTbResult, String> {
    let mut h = harness(
        SoUnit::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "so_unit",
    )?;
    let mut bench = SoUnitBench::new(tb);
    for cycle in 0..tb.max_cycles {
        if bench.cycle(&mut h, cycle)? {
            break;
        }
    }
    bench.finish()?;
    let mut res = bench.res;
    res.ports = finish_waves(h, out, waves_groups)?;
    Ok(res)
}

/// The canonical waves `waves/so_unit.vcd` (+ `.gtkw`), the same whoever writes them (the
/// SO-11 test and `ppu waves`): 12 random jobs.
pub fn canonical_waves(vcd: &Path) -> Result<SoUnitTbResult, String> {
    let out = TbOutput {
        vcd: Some(vcd),
        record_ports: false,
        engine: crate::verilator::Engine::Harness,
    };
    run_so_unit(&SoUnitTb::random(1, 12), &out)
}

/// The port-trace run of the co-simulation of [`SoUnit`].
pub fn cosim_run(out: &TbOutput) -> Result<SoUnitTbResult, String> {
    run_so_unit(&SoUnitTb::random(3, 24), out)
}

/// The MPC and shader: the batch-ID packet of each job in turn, after the shader latency its
/// attribute writes, then the batch-end packet.
#[derive(Debug, Default)]
struct Mpc {
    next_batch: usize,
    /// Job, cycle its attributes may start, attributes sent.
    attr_job: Option<(usize, u64, usize)>,
    end_pending: Option<usize>,
}

/// What the MPC offers in one cycle.
#[derive(Debug, Clone, Copy)]
struct MpcOffer {
    batch: Option<usize>,
    attr: Option<(usize, u32)>,
    end: bool,
}

impl Mpc {
    fn offer(&self, tb: &SoUnitTb, cycle: u64) -> MpcOffer {
        let reset = cycle == 0;
        let attr = self.attr_job.and_then(|(k, start, sent)| {
            (cycle >= start + tb.jobs[k].latency)
                .then(|| tb.jobs[k].attrs.get(sent).copied())
                .flatten()
        });
        MpcOffer {
            batch: (!reset && self.next_batch < tb.jobs.len()).then_some(self.next_batch),
            attr,
            end: self.end_pending.is_some()
                && self
                    .attr_job
                    .is_some_and(|(k, _, sent)| sent == tb.jobs[k].attrs.len()),
        }
    }

    fn observe(&mut self, u: &SoUnit, o: &MpcOffer, cycle: u64) {
        if let Some(k) = o.batch {
            if u.batch_ready.val() {
                self.attr_job = Some((k, cycle + 1, 0));
                self.end_pending = Some(k);
                self.next_batch += 1;
            }
        }
        if o.attr.is_some() && u.attr_ready.val() {
            if let Some((_, _, sent)) = self.attr_job.as_mut() {
                *sent += 1;
            }
        }
        if o.end && u.end_ready.val() {
            self.end_pending = None;
        }
    }
}

/// The emulated SSYNC: checks the first and second request of each job, answers with its
/// SSOBOs after the job's delay and accounts the job once answered and its bytes known,
/// deciding where its writes must go (or that it overflows, SO-12).
#[derive(Debug)]
struct SsyncModel {
    ssobo: [u32; 4],
    /// The job whose first request came, and when.
    first_seen: Option<(usize, u64)>,
    resp_sent: bool,
    second_seen: bool,
    next_first: usize,
    /// Per job: its SSOBOs and whether it fits, once accounted.
    placement: Vec<Option<([u32; 4], bool)>>,
}

impl SsyncModel {
    fn new(jobs: usize, start_ssobo: [u32; 4]) -> Self {
        SsyncModel {
            ssobo: start_ssobo,
            first_seen: None,
            resp_sent: false,
            second_seen: false,
            next_first: 0,
            placement: vec![None; jobs],
        }
    }

    fn resp_offer(&self, tb: &SoUnitTb, cycle: u64) -> Option<usize> {
        self.first_seen
            .filter(|(k, c)| !self.resp_sent && cycle >= c + tb.jobs[*k].resp_delay)
            .map(|(k, _)| k)
    }

    /// This cycle's requests and response; a job accounted pushes its writes onto `writes`.
    fn observe(
        &mut self,
        u: &SoUnit,
        tb: &SoUnitTb,
        resp_offer: Option<usize>,
        cycle: u64,
        writes: &mut Memory,
    ) -> Result<(), String> {
        if u.first_valid.val() && u.first_ready.val() {
            self.first_request(tb, FirstRequestFields::from_hw(u.first_data.val()), cycle)?;
        }
        if resp_offer.is_some() && u.resp_ready.val() {
            self.resp_sent = true;
        }
        if u.second_valid.val() && u.second_ready.val() {
            self.second_request(tb, Msg128Fields::from_hw(u.second_data.val()).0)?;
        }
        if let (Some((k, _)), true, true) = (self.first_seen, self.resp_sent, self.second_seen) {
            self.account(tb, k, writes);
        }
        Ok(())
    }

    fn first_request(
        &mut self,
        tb: &SoUnitTb,
        f: FirstRequestFields,
        cycle: u64,
    ) -> Result<(), String> {
        let k = self.next_first;
        let Some(j) = tb.jobs.get(k) else {
            return Err("first request with no job".into());
        };
        if self.first_seen.is_some() {
            return Err("a second first request while one is outstanding (SO-9)".into());
        }
        if (f.batch_id, f.task, f.last) != (j.batch_id, j.task, j.last) {
            return Err(format!("first request {:?} for job {}", f, k));
        }
        self.first_seen = Some((k, cycle));
        self.next_first += 1;
        Ok(())
    }

    fn second_request(&mut self, tb: &SoUnitTb, got: [u32; 4]) -> Result<(), String> {
        let Some((k, _)) = self.first_seen else {
            return Err("second request before first".into());
        };
        if self.second_seen {
            return Err("two second requests for one job".into());
        }
        let want = tb.jobs[k].sbbn();
        if got != want {
            return Err(format!("second request {:?}, shader wrote {:?}", got, want));
        }
        self.second_seen = true;
        Ok(())
    }

    /// Job `k` answered and its bytes known: place it (SO-12) and expect its writes.
    fn account(&mut self, tb: &SoUnitTb, k: usize, writes: &mut Memory) {
        let sbbn = tb.jobs[k].sbbn();
        let fit = golden::fits(self.ssobo, sbbn, tb.sizes);
        self.placement[k] = Some((self.ssobo, fit));
        if fit {
            for i in 0..4 {
                if sbbn[i] > 0 {
                    writes.expect.push_back((k, i, self.ssobo[i], sbbn[i]));
                }
                self.ssobo[i] += sbbn[i];
            }
        }
        self.first_seen = None;
        self.resp_sent = false;
        self.second_seen = false;
    }

    /// Did job `k` not fit?
    fn overflowed(&self, k: usize) -> bool {
        self.placement.get(k).and_then(|p| *p).map(|p| p.1) == Some(false)
    }
}

/// The memory: the writes still expected, in order, and the write channel's contract.
#[derive(Debug)]
struct Memory {
    /// (job, buffer, offset, bytes) still to write.
    expect: VecDeque<(usize, usize, u32, u32)>,
    /// Bytes of the head of `expect` already written.
    written_in_part: u32,
    wr: ChannelMonitor<(usize, u32, u32)>,
}

impl Memory {
    /// Check this cycle's write: the next bytes of the next expected part, at most
    /// `bytes_per_cycle`, payload held while stalled. Returns the bytes written.
    fn observe(&mut self, u: &SoUnit, tb: &SoUnitTb, wr_ready: bool) -> Result<u32, String> {
        let (b, off, n) = (
            u.wr_buffer.val().index(),
            u.wr_offset.val().to_u32(),
            u.wr_bytes.val().to_u32(),
        );
        let fire = self
            .wr
            .check(false, u.wr_valid.val(), wr_ready, (b, off, n))?;
        if !u.wr_valid.val() {
            return Ok(0);
        }
        let Some(&(k, eb, eoff, ebytes)) = self.expect.front() else {
            return Err(format!("unexpected write to buffer {} at {}", b, off));
        };
        let done = self.written_in_part;
        let want = (ebytes - done).min(tb.bytes_per_cycle);
        if b != eb
            || off != eoff + done
            || n != want
            || u.wr_index.val().to_u32() != done
            || u.wr_batch_id.val().index() as u16 != tb.jobs[k].batch_id
        {
            return Err(format!(
                "write buffer {} offset {} bytes {}, expected buffer {} offset {} bytes {}",
                b,
                off,
                n,
                eb,
                eoff + done,
                want
            ));
        }
        if !fire {
            return Ok(0);
        }
        self.written_in_part += n;
        if self.written_in_part == ebytes {
            self.expect.pop_front();
            self.written_in_part = 0;
        }
        Ok(n)
    }
}

/// One SO-unit run: the MPC, the emulated SSYNC, the memory and what was seen.
struct SoUnitBench<'a> {
    tb: &'a SoUnitTb,
    rng: ChaCha8Rng,
    mpc: Mpc,
    ssync: SsyncModel,
    mem: Memory,
    jobs_finished: usize,
    res: SoUnitTbResult,
}

impl<'a> SoUnitBench<'a> {
    fn new(tb: &'a SoUnitTb) -> Self {
        SoUnitBench {
            tb,
            rng: ChaCha8Rng::seed_from_u64(tb.seed),
            mpc: Mpc::default(),
            ssync: SsyncModel::new(tb.jobs.len(), tb.start_ssobo),
            mem: Memory {
                expect: VecDeque::new(),
                written_in_part: 0,
                wr: ChannelMonitor::new("wr"),
            },
            jobs_finished: 0,
            res: SoUnitTbResult::default(),
        }
    }

    /// One clock cycle: offer, settle, check, step. Returns `true` once every job is done.
    fn cycle(&mut self, h: &mut Harness<SoUnit>, cycle: u64) -> Result<bool, String> {
        let reset = cycle == 0;
        let mpc = self.mpc.offer(self.tb, cycle);
        let resp = self.ssync.resp_offer(self.tb, cycle);
        let wr_ready = !reset && self.rng.gen_bool(self.tb.wr_ready_prob);
        let first_ready = !reset && self.rng.gen_bool(0.8);
        let second_ready = !reset && self.rng.gen_bool(0.8);
        let u = &mut h.uut;
        self.drive(u, reset, &mpc, resp.is_some(), wr_ready);
        u.first_ready.next = first_ready;
        u.second_ready.next = second_ready;
        h.settle().map_err(|e| e.to_string())?;
        if reset {
            h.step().map_err(|e| e.to_string())?;
            return Ok(false);
        }
        self.observe(&h.uut, &mpc, resp, wr_ready, cycle)
            .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        h.step().map_err(|e| e.to_string())?;
        self.res.cycles = cycle + 1;
        Ok(self.jobs_finished == self.tb.jobs.len())
    }

    fn drive(&self, u: &mut SoUnit, reset: bool, mpc: &MpcOffer, resp: bool, wr_ready: bool) {
        let tb = self.tb;
        u.reset.next = reset;
        u.bytes_per_cycle.next = bits::<32>(tb.bytes_per_cycle as u64);
        u.buffer_size.next = Msg128Fields(tb.sizes).to_hw();
        u.batch_valid.next = mpc.batch.is_some();
        u.batch_data.next = mpc
            .batch
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
        u.attr_valid.next = mpc.attr.is_some();
        u.attr_buffer.next = bits::<2>(mpc.attr.map(|a| a.0 as u64).unwrap_or(0));
        u.attr_bytes.next = bits::<32>(mpc.attr.map(|a| a.1 as u64).unwrap_or(0));
        u.end_valid.next = mpc.end;
        u.resp_valid.next = resp;
        u.resp_data.next = Msg128Fields(self.ssync.ssobo).to_hw();
        u.wr_ready.next = wr_ready;
    }

    fn observe(
        &mut self,
        u: &SoUnit,
        mpc: &MpcOffer,
        resp: Option<usize>,
        wr_ready: bool,
        cycle: u64,
    ) -> Result<(), String> {
        self.mpc.observe(u, mpc, cycle);
        self.ssync.observe(u, self.tb, resp, cycle, &mut self.mem)?;
        if u.overflow.val() {
            self.res.overflows += 1;
            let k = self.jobs_finished;
            if !self.ssync.overflowed(k) {
                return Err(format!("overflow pulse for job {} which fits", k));
            }
        }
        if u.job_done.val() {
            self.jobs_finished += 1;
        }
        let n = self.mem.observe(u, self.tb, wr_ready)?;
        if u.wr_valid.val() && wr_ready {
            self.res.transfers += 1;
            self.res.first_write.get_or_insert(cycle);
            self.res.last_write = Some(cycle);
        }
        self.res.bytes_written += n as u64;
        Ok(())
    }

    fn finish(&self) -> Result<(), String> {
        if self.jobs_finished != self.tb.jobs.len() || !self.mem.expect.is_empty() {
            return Err(format!(
                "{} of {} jobs finished, {} writes missing",
                self.jobs_finished,
                self.tb.jobs.len(),
                self.mem.expect.len()
            ));
        }
        Ok(())
    }
}

/// The GTKWave groups of the SO-unit waves.
fn waves_groups(vars: &[(String, u32)]) -> Vec<Group> {
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
}
