//! Shared widgets' testbenches: [`StreamFifo`] against a queue reference model and
//! [`RrArbiter`] against a round-robin reference model, each with random valid/ready
//! back-pressure, a payload-stability monitor and a scoreboard (SPEC ).
use crate::export::{verilog_of, Unit};
use crate::gtkw::{self, Group};
use crate::harness::{Harness, PortTrace};
use crate::vcd_check;
use ppu_hdl::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::path::Path;

/// Reference parameters of the exported FIFO: 16-bit words, depth 6 (not a power of two).
pub type RefFifo = StreamFifo<Bits<16>, 6, 3, 3>;
/// Reference parameters of the exported arbiter: 4 requesters of first requests (SO-5).
pub type RefArbiter = RrArbiter<FirstRequest, 4, 2>;

pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "stream_fifo",
            mechanism: "foundation",
            summary: "valid/ready FIFO, 16-bit words, depth 6",
            verilog: || verilog_of(RefFifo::default(), "stream_fifo"),
            cosim_trace: || {
                let cfg = TbConfig {
                    cycles: 600,
                    resets: vec![300],
                    ..TbConfig::default()
                };
                let r = run_fifo::<6, 3, 3>(
                    &cfg,
                    &TbOutput {
                        vcd: None,
                        record_ports: true,
                    },
                )?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
        Unit {
            name: "rr_arbiter",
            mechanism: "foundation",
            summary: "round-robin arbiter, 4 requesters of 25-bit first requests",
            verilog: || verilog_of(RefArbiter::default(), "rr_arbiter"),
            cosim_trace: || {
                let cfg = TbConfig {
                    cycles: 600,
                    resets: vec![250],
                    ..TbConfig::default()
                };
                let r = run_arbiter(
                    &cfg,
                    &TbOutput {
                        vcd: None,
                        record_ports: true,
                    },
                )?;
                r.ports.ok_or_else(|| "no port trace".to_string())
            },
        },
    ]
}

/// Random stimulus of a channel testbench.
#[derive(Debug, Clone)]
pub struct TbConfig {
    pub cycles: u64,
    pub seed: u64,
    /// Probability that an idle producer raises `valid` in a cycle.
    pub valid_prob: f64,
    /// Probability that the consumer raises `ready` in a cycle.
    pub ready_prob: f64,
    /// Cycles (besides cycle 0) in which `reset` is raised.
    pub resets: Vec<u64>,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            cycles: 2000,
            seed: 1,
            valid_prob: 0.6,
            ready_prob: 0.6,
            resets: vec![],
        }
    }
}

/// What a testbench run saw.
#[derive(Debug, Clone, Default)]
pub struct TbResult {
    pub cycles: u64,
    pub transfers_in: u64,
    pub transfers_out: u64,
    pub max_fill: usize,
    pub ports: Option<PortTrace>,
}

/// Where a testbench writes its waves, and whether it records ports for co-simulation.
#[derive(Debug, Clone, Default)]
pub struct TbOutput<'a> {
    pub vcd: Option<&'a Path>,
    pub record_ports: bool,
}

/// A harness for a testbench: VCD and port recording as `out` asks, top scope named `top`.
pub fn harness<B: Block>(
    uut: B,
    set_clock: fn(&mut B, bool),
    out: &TbOutput,
    top: &str,
) -> Result<Harness<B>, String> {
    let mut h = Harness::new(uut, set_clock);
    if let Some(p) = out.vcd {
        h = h
            .with_vcd(p, top)
            .map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    if out.record_ports {
        h = h.with_port_trace();
    }
    Ok(h)
}

/// Finish a harness: flush the VCD, read it back with the independent parser, write its
/// GTKWave save file with `groups(vars)`.
pub fn finish_waves<B: Block>(
    h: Harness<B>,
    out: &TbOutput,
    groups: impl Fn(&[(String, u32)]) -> Vec<Group>,
) -> Result<Option<PortTrace>, String> {
    let ports = h.finish().map_err(|e| e.to_string())?;
    if let Some(p) = out.vcd {
        let summary = vcd_check::check_vcd(p)?;
        let groups = groups(&summary.vars);
        for g in &groups {
            for (sig, _) in &g.signals {
                if !summary.has_var(gtkw::vcd_path_of(sig)) {
                    return Err(format!(
                        "save file names {} which {} lacks",
                        sig,
                        p.display()
                    ));
                }
            }
        }
        gtkw::write_beside(p, summary.end_time, &groups).map_err(|e| e.to_string())?;
    }
    Ok(ports)
}

/// Drive a `StreamFifo` with random traffic and check it every cycle against a queue model:
/// `rd_valid`, `wr_ready`, `fill` and `rd_data` exactly as the model says, output payload
/// stable while stalled, every word out in order exactly once.
pub fn run_fifo<const D: usize, const P: usize, const C: usize>(
    cfg: &TbConfig,
    out: &TbOutput,
) -> Result<TbResult, String> {
    let mut h = harness(
        StreamFifo::<Bits<16>, D, P, C>::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "stream_fifo",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut model: VecDeque<u64> = VecDeque::new();
    let mut offered: Option<u64> = None;
    let mut stalled_out: Option<u64> = None;
    let mut res = TbResult::default();
    let mut next_word: u64 = 0;
    for cycle in 0..cfg.cycles {
        let reset = cycle == 0 || cfg.resets.contains(&cycle);
        // Producer: holds valid and data until the transfer.
        if offered.is_none() && !reset && rng.gen_bool(cfg.valid_prob) {
            offered = Some((next_word * 0x9e37 + rng.gen_range(0..16)) & 0xffff);
            next_word += 1;
        }
        let rd_ready = !reset && rng.gen_bool(cfg.ready_prob);
        h.uut.reset.next = reset;
        h.uut.wr_valid.next = offered.is_some() && !reset;
        h.uut.wr_data.next = bits::<16>(offered.unwrap_or(0));
        h.uut.rd_ready.next = rd_ready;
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        let (rd_valid, wr_ready) = (u.rd_valid.val(), u.wr_ready.val());
        let rd_data = u.rd_data.val().to_u64();
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        if rd_valid != !model.is_empty() {
            return fail(format!(
                "rd_valid {} with {} entries in the model",
                rd_valid,
                model.len()
            ));
        }
        if wr_ready != (model.len() < D) {
            return fail(format!(
                "wr_ready {} with {} of {} entries",
                wr_ready,
                model.len(),
                D
            ));
        }
        if u.fill.val().index() != model.len() {
            return fail(format!(
                "fill {} but the model holds {}",
                u.fill.val().index(),
                model.len()
            ));
        }
        if let Some(s) = stalled_out.filter(|_| !reset) {
            if !rd_valid || rd_data != s {
                return fail(format!(
                    "output changed while stalled: {:#x} then {:#x}",
                    s, rd_data
                ));
            }
        }
        if rd_valid && model.front() != Some(&rd_data) {
            return fail(format!(
                "rd_data {:#x}, model front {:?}",
                rd_data,
                model.front()
            ));
        }
        let push = offered.is_some() && !reset && wr_ready;
        let pop = rd_valid && rd_ready;
        stalled_out = if rd_valid && !rd_ready && !reset {
            Some(rd_data)
        } else {
            None
        };
        h.step().map_err(|e| e.to_string())?;
        if reset {
            model.clear();
            stalled_out = None;
            continue;
        }
        if pop {
            model.pop_front();
            res.transfers_out += 1;
        }
        if push {
            model.push_back(offered.take().unwrap_or(0));
            res.transfers_in += 1;
        }
        res.max_fill = res.max_fill.max(model.len());
    }
    res.cycles = cfg.cycles;
    res.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("control").sigs("stream_fifo", &["clock", "reset", "fill"], vars),
            Group::new("write").sigs("stream_fifo", &["wr_valid", "wr_ready", "wr_data"], vars),
            Group::new("read").sigs("stream_fifo", &["rd_valid", "rd_ready", "rd_data"], vars),
            Group::new("pointers").sigs("stream_fifo", &["wr_ptr.q", "rd_ptr.q", "count.q"], vars),
        ]
    })?;
    Ok(res)
}

/// Reference model of [`RrArbiter`]: which requester gets the channel this cycle.
#[derive(Debug, Clone, Default)]
pub struct RrModel {
    pub n: usize,
    pub pointer: usize,
    pub held: Option<usize>,
}

impl RrModel {
    pub fn new(n: usize) -> Self {
        RrModel {
            n,
            pointer: 0,
            held: None,
        }
    }
    /// The requester offered this cycle, given the valid inputs.
    pub fn choose(&self, valid: &[bool]) -> Option<usize> {
        if let Some(h) = self.held {
            return Some(h);
        }
        (0..self.n)
            .map(|k| (self.pointer + k) % self.n)
            .find(|&i| valid[i])
    }
    /// Advance one clock edge.
    pub fn clock(&mut self, valid: &[bool], ready: bool, reset: bool) {
        let chosen = self.choose(valid);
        if reset {
            *self = RrModel::new(self.n);
            return;
        }
        match chosen {
            Some(c) if valid[c] && ready => {
                self.pointer = (c + 1) % self.n;
                self.held = None;
            }
            Some(c) if valid[c] => self.held = Some(c),
            _ => self.held = None,
        }
    }
}

fn first_request(source: usize, seq: u64, rng: &mut ChaCha8Rng) -> FirstRequest {
    FirstRequestFields {
        batch_id: ((seq * 4 + source as u64) & 0x3fff) as u16,
        task: rng.gen_range(0..1024),
        last: rng.gen_bool(0.5),
    }
    .to_hw()
}

/// Drive the reference arbiter from 4 random requesters and check every cycle against
/// [`RrModel`]; a scoreboard per requester checks that its messages arrive in order, once; a
/// fairness monitor checks that a waiting requester is served within N transfers.
/// With `drop_valid_at = Some(c)`, requester 0 drops `valid` at cycle `c` while held (a protocol
/// violation) and the run reports whether `violation` rose.
pub fn run_arbiter(cfg: &TbConfig, out: &TbOutput) -> Result<TbResult, String> {
    const N: usize = 4;
    let mut h = harness(
        RefArbiter::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "rr_arbiter",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut model = RrModel::new(N);
    let mut offered: [Option<FirstRequest>; N] = [None; N];
    let mut sent: [VecDeque<FirstRequest>; N] = std::array::from_fn(|_| VecDeque::new());
    let mut seq = [0u64; N];
    let mut waiting_since: [u64; N] = [0; N];
    let mut transfers: u64 = 0;
    let mut stalled: Option<(u64, FirstRequest)> = None;
    let mut res = TbResult::default();
    for cycle in 0..cfg.cycles {
        let reset = cycle == 0 || cfg.resets.contains(&cycle);
        for i in 0..N {
            if offered[i].is_none() && !reset && rng.gen_bool(cfg.valid_prob) {
                let m = first_request(i, seq[i], &mut rng);
                seq[i] += 1;
                offered[i] = Some(m);
                sent[i].push_back(m);
                waiting_since[i] = transfers;
            }
        }
        let valid: [bool; N] = std::array::from_fn(|i| offered[i].is_some() && !reset);
        let ready = !reset && rng.gen_bool(cfg.ready_prob);
        h.uut.reset.next = reset;
        for i in 0..N {
            h.uut.req_valid[i].next = valid[i];
            h.uut.req_data[i].next = offered[i].unwrap_or_default();
        }
        h.uut.grant_ready.next = ready;
        h.settle().map_err(|e| e.to_string())?;
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        let u = &h.uut;
        let expect = model.choose(&valid).filter(|&c| valid[c]);
        let gv = u.grant_valid.val();
        let src = u.grant_source.val().index();
        if gv != expect.is_some() {
            return fail(format!(
                "grant_valid {} but the model offers {:?}",
                gv, expect
            ));
        }
        if u.violation.val() {
            return fail("violation raised without a protocol violation".into());
        }
        if let Some(c) = expect {
            if src != c {
                return fail(format!("grant_source {} but the model chooses {}", src, c));
            }
            if u.grant_data.val() != offered[c].unwrap_or_default() {
                return fail(format!("grant_data is not requester {}'s payload", c));
            }
        }
        for i in 0..N {
            let want = expect == Some(i) && ready;
            if u.req_ready[i].val() != want {
                return fail(format!("req_ready[{}] is {}", i, u.req_ready[i].val()));
            }
        }
        if let Some((s, d)) = stalled.filter(|_| !reset) {
            if !gv || src as u64 != s || u.grant_data.val() != d {
                return fail("grant changed before it was taken".into());
            }
        }
        stalled = if gv && !ready {
            Some((src as u64, u.grant_data.val()))
        } else {
            None
        };
        let fired = if gv && ready { Some(src) } else { None };
        model.clock(&valid, ready, reset);
        h.step().map_err(|e| e.to_string())?;
        if reset {
            offered = [None; N];
            for s in sent.iter_mut() {
                s.clear();
            }
            stalled = None;
            continue;
        }
        if let Some(c) = fired {
            let got = offered[c].take().unwrap_or_default();
            if sent[c].pop_front() != Some(got) {
                return fail(format!("requester {}'s messages out of order", c));
            }
            transfers += 1;
            res.transfers_out += 1;
        }
        for i in 0..N {
            if offered[i].is_some() && transfers - waiting_since[i] > N as u64 {
                return fail(format!("requester {} waited more than {} transfers", i, N));
            }
        }
    }
    res.cycles = cfg.cycles;
    res.transfers_in = res.transfers_out;
    res.ports = finish_waves(h, out, |vars| {
        let t = "rr_arbiter";
        vec![
            Group::new("control").sigs(t, &["clock", "reset", "violation"], vars),
            Group::new("requests").sigs(
                t,
                &[
                    "req_valid$0",
                    "req_ready$0",
                    "req_valid$1",
                    "req_ready$1",
                    "req_valid$2",
                    "req_ready$2",
                    "req_valid$3",
                    "req_ready$3",
                ],
                vars,
            ),
            Group::new("grant").sigs(
                t,
                &[
                    "grant_valid",
                    "grant_ready",
                    "grant_source",
                    "grant_data$batch_id",
                    "grant_data$task_number",
                    "grant_data$last",
                ],
                vars,
            ),
            Group::new("state").sigs(t, &["rr_pointer.q", "held.q", "held_source.q"], vars),
        ]
    })?;
    Ok(res)
}

/// Directed bad-input check: requester 0 drops `valid` while its grant is held. Returns the
/// value of `violation` in that cycle.
pub fn arbiter_violation_on_dropped_valid() -> Result<bool, String> {
    let mut h = Harness::new(RefArbiter::default(), |u, c| u.clock.next = c.into());
    h.uut.reset.next = true;
    h.step().map_err(|e| e.to_string())?;
    h.uut.reset.next = false;
    h.uut.req_valid[0].next = true;
    h.uut.grant_ready.next = false;
    h.step().map_err(|e| e.to_string())?; // offered and held
    h.uut.req_valid[0].next = false; // dropped before the transfer
    h.settle().map_err(|e| e.to_string())?;
    Ok(h.uut.violation.val())
}

/// Write the canonical waves of the foundation widgets into `dir`.
pub fn write_waves(dir: &Path) -> Result<Vec<String>, String> {
    let cfg = TbConfig {
        cycles: 200,
        ..TbConfig::default()
    };
    let fifo = dir.join("stream_fifo.vcd");
    run_fifo::<6, 3, 3>(
        &cfg,
        &TbOutput {
            vcd: Some(&fifo),
            record_ports: false,
        },
    )?;
    let arb = dir.join("rr_arbiter.vcd");
    run_arbiter(
        &cfg,
        &TbOutput {
            vcd: Some(&arb),
            record_ports: false,
        },
    )?;
    Ok(vec!["stream_fifo".into(), "rr_arbiter".into()])
}
