//! Testbench of [`RrArbiter`] (SPEC X-2): four random requesters against a round-robin model.
use crate::harness::Harness;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbConfig, TbOutput, TbResult};
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Reference parameters of the exported arbiter: 4 requesters of first requests (SO-5).
pub type RefArbiter = RrArbiter<FirstRequest, 4, 2>;

use std::collections::VecDeque;

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

/// A random first request of requester `source`, its `seq`-th: the batch ID encodes both, so
/// a scoreboard can tell whose message it is and in which order.
pub(crate) fn first_request(source: usize, seq: u64, rng: &mut ChaCha8Rng) -> FirstRequest {
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
    let mut grant_channel = ChannelMonitor::new("grant");
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
        let fired = grant_channel
            .check(reset, gv, ready, (src, u.grant_data.val()))
            .map_err(|e| format!("cycle {}: {}", cycle, e))?
            .then_some(src);
        model.clock(&valid, ready, reset);
        h.step().map_err(|e| e.to_string())?;
        if reset {
            offered = [None; N];
            for s in sent.iter_mut() {
                s.clear();
            }
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
    res.ports = finish_waves(h, out, wave_groups)?;
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

/// The GTKWave groups of the arbiter's waves.
fn wave_groups(vars: &[(String, u32)]) -> Vec<Group> {
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
        Group::new("state").sigs(t, &["rr_mask.q", "held.q", "held_grant.q"], vars),
    ]
}
