//! Testbench of [`StagedArbiter`] (SPEC X-2): four random requesters against a model written
//! from the widget's rules (choose, keep the choice until taken, take into the output register
//! when it is free, choose the next among the others, round robin from the one after the last
//! chosen), with a scoreboard per requester and a stability monitor on the output channel.
use crate::tb::{harness, ChannelMonitor, TbConfig, TbOutput, TbResult};
use crate::widgets::rr_arbiter::first_request;
use ppu_hdl::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The parameters the stream-out crossbar uses for its first requests: 4 requesters.
pub type RefStagedArbiter = StagedArbiter<FirstRequest, 4, 2>;

const N: usize = 4;

/// Model of [`StagedArbiter`] from its rules, one clock cycle at a time.
#[derive(Debug, Clone, Default)]
pub struct StagedModel {
    /// Where the round-robin scan starts: the requester after the one chosen last.
    pub pointer: usize,
    /// The chosen requester, not yet taken.
    pub chosen: Option<usize>,
    /// The output register: source and payload.
    pub out: Option<(usize, FirstRequest)>,
}

/// What the model says the outputs are in one cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StagedOutputs {
    pub grant: Option<(usize, FirstRequest)>,
    /// The requester whose payload is taken this cycle (`req_ready`).
    pub taken: Option<usize>,
    pub violation: bool,
}

impl StagedModel {
    /// This cycle's outputs, given the requests and the output channel's `ready`.
    pub fn outputs(&self, valid: &[bool; N], ready: bool) -> StagedOutputs {
        let free = self.out.is_none() || ready;
        StagedOutputs {
            grant: self.out,
            taken: self.chosen.filter(|&c| valid[c] && free),
            violation: self.chosen.is_some_and(|c| !valid[c]),
        }
    }

    /// The clock edge (after a cycle without reset).
    pub fn clock(&mut self, valid: &[bool; N], data: &[FirstRequest; N], ready: bool) {
        let o = self.outputs(valid, ready);
        let free = self.out.is_none() || ready;
        if free {
            self.out = o.taken.map(|c| (c, data[c]));
        }
        let kept = self.chosen.filter(|&c| valid[c] && o.taken.is_none());
        if kept.is_some() {
            return;
        }
        // The next choice, among those requesting other than the chosen one.
        let others = |i: usize| valid[i] && self.chosen != Some(i);
        self.chosen = (0..N).map(|k| (self.pointer + k) % N).find(|&i| others(i));
        if let Some(c) = self.chosen {
            self.pointer = (c + 1) % N;
        }
    }
}

/// Drive [`RefStagedArbiter`] from 4 random requesters (each holds `valid` and its payload
/// until taken) and check every cycle's outputs against [`StagedModel`]; a scoreboard per
/// requester checks that every taken payload leaves once, in order, with its source; the
/// output channel holds its payload until taken.
pub fn run_staged_arbiter(cfg: &TbConfig, out: &TbOutput) -> Result<TbResult, String> {
    let mut h = harness(
        RefStagedArbiter::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "staged_arbiter",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut model = StagedModel::default();
    let mut offered: [Option<FirstRequest>; N] = [None; N];
    let mut taken: [VecDeque<FirstRequest>; N] = std::array::from_fn(|_| VecDeque::new());
    let mut seq = [0u64; N];
    let mut channel = ChannelMonitor::new("grant");
    let mut res = TbResult::default();
    for cycle in 0..cfg.cycles {
        let reset = cycle == 0 || cfg.resets.contains(&cycle);
        for (i, o) in offered.iter_mut().enumerate() {
            if o.is_none() && !reset && rng.gen_bool(cfg.valid_prob) {
                *o = Some(first_request(i, seq[i], &mut rng));
                seq[i] += 1;
            }
        }
        let valid: [bool; N] = std::array::from_fn(|i| offered[i].is_some() && !reset);
        let data: [FirstRequest; N] = std::array::from_fn(|i| offered[i].unwrap_or_default());
        let ready = !reset && rng.gen_bool(cfg.ready_prob);
        h.uut.reset.next = reset;
        for i in 0..N {
            h.uut.req_valid[i].next = valid[i];
            h.uut.req_data[i].next = data[i];
        }
        h.uut.grant_ready.next = ready;
        h.settle().map_err(|e| e.to_string())?;
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        let u = &h.uut;
        if reset {
            model = StagedModel::default();
            offered = [None; N];
            taken.iter_mut().for_each(VecDeque::clear);
            channel.check(true, false, false, (0, FirstRequest::default()))?;
            h.step().map_err(|e| e.to_string())?;
            continue;
        }
        let want = model.outputs(&valid, ready);
        let got_grant = u
            .grant_valid
            .val()
            .then(|| (u.grant_source.val().index(), u.grant_data.val()));
        if got_grant != want.grant {
            return fail(format!("grant {:?}, the model {:?}", got_grant, want.grant));
        }
        for i in 0..N {
            if u.req_ready[i].val() != (want.taken == Some(i)) {
                return fail(format!(
                    "req_ready[{}] is {}, the model takes {:?}",
                    i,
                    u.req_ready[i].val(),
                    want.taken
                ));
            }
        }
        if u.violation.val() != want.violation {
            return fail(format!("violation {}", u.violation.val()));
        }
        let fired = channel
            .check(
                false,
                u.grant_valid.val(),
                ready,
                got_grant.unwrap_or_default(),
            )
            .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        if fired {
            let (s, d) = got_grant.unwrap_or_default();
            if taken[s].pop_front() != Some(d) {
                return fail(format!(
                    "requester {}'s payload out of order or not taken",
                    s
                ));
            }
            res.transfers_out += 1;
        }
        if let Some(c) = want.taken {
            taken[c].push_back(data[c]);
            offered[c] = None;
            res.transfers_in += 1;
        }
        model.clock(&valid, &data, ready);
        h.step().map_err(|e| e.to_string())?;
    }
    res.cycles = cfg.cycles;
    Ok(res)
}

/// Directed bad-input check: requester 2 is chosen while the output register is full and
/// stalled, then drops `valid` before it is taken. Returns `violation` in that cycle and
/// whether the arbiter then chooses requester 1 (which asks from that cycle on) instead of
/// taking the dropped choice.
pub fn staged_violation_on_dropped_valid() -> Result<(bool, bool), String> {
    let mut h =
        crate::harness::Harness::new(RefStagedArbiter::default(), |u, c| u.clock.next = c.into());
    let step =
        |h: &mut crate::harness::Harness<RefStagedArbiter>| h.step().map_err(|e| e.to_string());
    h.uut.reset.next = true;
    step(&mut h)?;
    h.uut.reset.next = false;
    h.uut.grant_ready.next = false;
    h.uut.req_valid[0].next = true;
    step(&mut h)?; // 0 chosen
    step(&mut h)?; // 0 taken into the output register (stalled there)
    h.uut.req_valid[0].next = false;
    h.uut.req_valid[2].next = true;
    step(&mut h)?; // 2 chosen, the output is full
    h.uut.req_valid[2].next = false; // dropped before its transfer
    h.uut.req_valid[1].next = true;
    h.settle().map_err(|e| e.to_string())?;
    let violation = h.uut.violation.val();
    step(&mut h)?; // the dropped choice is replaced by 1
    h.uut.grant_ready.next = true;
    step(&mut h)?; // 0 leaves, 1 is taken
    h.settle().map_err(|e| e.to_string())?;
    let moved_on = h.uut.grant_valid.val() && h.uut.grant_source.val().index() == 1;
    Ok((violation, moved_on))
}
