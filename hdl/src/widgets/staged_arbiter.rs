//! `StagedArbiter` — round-robin arbiter of `N` valid/ready requesters onto one registered
//! channel that carries the granted requester's index (`grant_source`): the choice is made in
//! one cycle and registered, the chosen requester's payload is taken in the next cycle into an
//! output register. No cycle holds both the arbitration and the payload multiplexer, and the
//! output comes from flip-flops (SPEC X-2 channel rules on both sides).
//!
//! Rules: a requester holds `valid` and its payload until `req_ready`. Once chosen, a
//! requester keeps the choice until its payload is taken (`req_ready[i]`), whoever else raises
//! `valid` meanwhile. The next choice is made while a payload is taken, among the other
//! requesters (the one leaving now still shows `valid` for the message it is handing over);
//! the requesters after the one chosen last come first (lowest first), then the lowest of all,
//! so a requester that holds `valid` is chosen within `N` choices. The output register holds
//! `grant_valid`/`grant_data`/`grant_source` until `grant_ready`.
//!
//! Parameters: `N` requesters; `SRC_BITS` = clog2(N) (at least 1), width of `grant_source`.
//!
//! Ports: `clock`, `reset` (synchronous: no choice, output empty, requester 0 first again);
//! `req_valid[i]`/`req_ready[i]`/`req_data[i]`; `grant_valid`/`grant_ready`/`grant_data`/
//! `grant_source`; `violation` (a chosen requester dropped `valid` before its transfer, which
//! the channel rules forbid: the choice is dropped and arbitration goes on).
//!
//! Timing: a request valid in cycle t (nothing chosen, output free) is chosen at the end of t,
//! taken in t+1 (`req_ready` high) and offered on `grant_valid` from t+2: two cycles from
//! request to output (one more than [`RrArbiter`](crate::widgets::rr_arbiter::RrArbiter)
//! followed by a register slice). One transfer per cycle while different requesters take
//! turns; one requester alone is taken every other cycle (it is not chosen again in the cycle
//! its payload leaves). `req_ready` comes from registers and `grant_ready` (one LUT level).
//! The payload multiplexer is selected by the registered index (a 4:1 multiplexer per bit is
//! one LUT level on ECP5).
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct StagedArbiter<T: Synth, const N: usize, const SRC_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req_valid: [Signal<In, Bit>; N],
    pub req_ready: [Signal<Out, Bit>; N],
    pub req_data: [Signal<In, T>; N],
    pub grant_valid: Signal<Out, Bit>,
    pub grant_ready: Signal<In, Bit>,
    pub grant_data: Signal<Out, T>,
    pub grant_source: Signal<Out, Bits<SRC_BITS>>,
    pub violation: Signal<Out, Bit>,
    /// Requesters after the one chosen last (all clear after reset or after the last index):
    /// they are preferred, lowest first; then the lowest of all.
    rr_mask: DFF<Bits<N>>,
    /// A requester is chosen and its payload not yet taken.
    sel_valid: DFF<Bit>,
    /// The chosen requester, one-hot (all clear when none).
    sel_onehot: DFF<Bits<N>>,
    /// The chosen requester as an index (the payload multiplexer's select).
    sel_source: DFF<Bits<SRC_BITS>>,
    /// The output register.
    out_valid: DFF<Bit>,
    out_data: DFF<T>,
    out_source: DFF<Bits<SRC_BITS>>,
    requests: Signal<Local, Bits<N>>,
    /// Requests that may be chosen next: all but the chosen one.
    candidates: Signal<Local, Bits<N>>,
    preferred: Signal<Local, Bits<N>>,
    /// The next choice, one-hot, and as an index.
    pick: Signal<Local, Bits<N>>,
    pick_source: Signal<Local, Bits<SRC_BITS>>,
    first_any: Signal<Local, Bits<SRC_BITS>>,
    first_preferred: Signal<Local, Bits<SRC_BITS>>,
    any_found: Signal<Local, Bit>,
    preferred_found: Signal<Local, Bit>,
    /// The chosen requester still shows `valid`.
    sel_live: Signal<Local, Bit>,
    /// The output register takes a payload this cycle (empty, or its payload leaves).
    out_free: Signal<Local, Bit>,
    /// The chosen requester's payload moves into the output register this cycle.
    take: Signal<Local, Bit>,
    source_bit: [Constant<Bits<N>>; N],
    source_index: [Constant<Bits<SRC_BITS>>; N],
}

impl<T: Synth, const N: usize, const SRC_BITS: usize> Default for StagedArbiter<T, N, SRC_BITS> {
    fn default() -> Self {
        assert!(N >= 1, "StagedArbiter: N must be at least 1");
        assert_eq!(
            SRC_BITS,
            clog2(N).max(1),
            "StagedArbiter: SRC_BITS must be clog2(N)"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: std::array::from_fn(|_| Default::default()),
            req_ready: std::array::from_fn(|_| Default::default()),
            req_data: std::array::from_fn(|_| Default::default()),
            grant_valid: Default::default(),
            grant_ready: Default::default(),
            grant_data: Default::default(),
            grant_source: Default::default(),
            violation: Default::default(),
            rr_mask: Default::default(),
            sel_valid: Default::default(),
            sel_onehot: Default::default(),
            sel_source: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            out_source: Default::default(),
            requests: Default::default(),
            candidates: Default::default(),
            preferred: Default::default(),
            pick: Default::default(),
            pick_source: Default::default(),
            first_any: Default::default(),
            first_preferred: Default::default(),
            any_found: Default::default(),
            preferred_found: Default::default(),
            sel_live: Default::default(),
            out_free: Default::default(),
            take: Default::default(),
            source_bit: std::array::from_fn(|i| Constant::new(bits::<N>(1) << bits::<N>(i as u64))),
            source_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
        }
    }
}

impl<T: Synth, const N: usize, const SRC_BITS: usize> Logic for StagedArbiter<T, N, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, rr_mask, sel_valid, sel_onehot, sel_source, out_valid, out_data,
            out_source
        );
        self.requests.next = bits::<N>(0);
        for i in 0..N {
            if self.req_valid[i].val() {
                self.requests.next = self.requests.val() | self.source_bit[i].val();
            }
        }
        // Stage 2: the chosen payload moves into the output register when it is free.
        self.sel_live.next = (self.requests.val() & self.sel_onehot.q.val()).any();
        self.out_free.next = !self.out_valid.q.val() | self.grant_ready.val();
        self.take.next = self.sel_valid.q.val() & self.sel_live.val() & self.out_free.val();
        for i in 0..N {
            self.req_ready[i].next = self.take.val() & self.sel_onehot.q.val().get_bit(i);
        }
        if self.out_free.val() {
            self.out_valid.d.next = self.take.val();
            self.out_source.d.next = self.sel_source.q.val();
            for i in 0..N {
                if self.sel_source.q.val() == self.source_index[i].val() {
                    self.out_data.d.next = self.req_data[i].val();
                }
            }
        }
        self.grant_valid.next = self.out_valid.q.val();
        self.grant_data.next = self.out_data.q.val();
        self.grant_source.next = self.out_source.q.val();
        self.violation.next = self.sel_valid.q.val() & !self.sel_live.val() & !self.reset.val();
        // Stage 1: the next choice among the others (independent of `grant_ready`; `take`
        // only decides whether it is registered or the current choice is kept).
        self.candidates.next = self.requests.val() & !self.sel_onehot.q.val();
        self.preferred.next = self.candidates.val() & self.rr_mask.q.val();
        if self.preferred.val().any() {
            self.pick.next = self.preferred.val() & (!self.preferred.val() + bits::<N>(1));
        } else {
            self.pick.next = self.candidates.val() & (!self.candidates.val() + bits::<N>(1));
        }
        self.first_any.next = bits::<SRC_BITS>(0);
        self.first_preferred.next = bits::<SRC_BITS>(0);
        self.any_found.next = false;
        self.preferred_found.next = false;
        for i in 0..N {
            if self.candidates.val().get_bit(i) & !self.any_found.val() {
                self.first_any.next = self.source_index[i].val();
                self.any_found.next = true;
            }
            if self.preferred.val().get_bit(i) & !self.preferred_found.val() {
                self.first_preferred.next = self.source_index[i].val();
                self.preferred_found.next = true;
            }
        }
        self.pick_source.next = self.first_any.val();
        if self.preferred.val().any() {
            self.pick_source.next = self.first_preferred.val();
        }
        // Keep a live choice until it is taken; otherwise register the next one.
        if !(self.sel_valid.q.val() & self.sel_live.val()) | self.take.val() {
            self.sel_valid.d.next = self.candidates.val().any();
            self.sel_onehot.d.next = self.pick.val();
            self.sel_source.d.next = self.pick_source.val();
            if self.candidates.val().any() {
                self.rr_mask.d.next = !((self.pick.val() << bits::<N>(1)) - bits::<N>(1));
            }
        }
        if self.reset.val() {
            self.rr_mask.d.next = bits::<N>(0);
            self.sel_valid.d.next = false;
            self.sel_onehot.d.next = bits::<N>(0);
            self.sel_source.d.next = bits::<SRC_BITS>(0);
            self.out_valid.d.next = false;
        }
    }
}
