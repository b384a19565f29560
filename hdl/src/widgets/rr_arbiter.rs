//! `RrArbiter` — round-robin arbiter of `N` valid/ready requesters onto one channel that carries
//! the granted requester's index (`grant_source`).
//!
//! Rules (SPEC X-2): once `grant_valid` is high the arbiter holds its choice (`grant_source`,
//! `grant_data`) until `grant_ready` takes it, even if a requester earlier in the round-robin
//! order raises `valid` meanwhile; after each transfer the requesters after the one served come
//! first (lowest first), so every requester that holds `valid` is served within `N` transfers.
//!
//! Parameters: `N` requesters; `SRC_BITS` = clog2(N) (at least 1), width of `grant_source`.
//!
//! Ports: `clock`, `reset` (synchronous: requester 0 first again, no held choice);
//! `req_valid[i]`/`req_ready[i]`/`req_data[i]`; `grant_valid`/`grant_ready`/`grant_data`/
//! `grant_source`; `violation` (a held requester dropped `valid` before its transfer, which
//! the channel rules forbid).
//!
//! Timing: combinational from request to grant (zero latency), one transfer per cycle.
//! The control path is one-hot: the round-robin state is a mask of the requesters after the
//! last one served, the pick is the lowest set bit of the masked (else the unmasked) requests
//! (`x & (!x + 1)`), `grant_valid` and the `ready`s come from that one-hot grant, and the next
//! mask is the bits above it (`!((g << 1) - 1)`), so no index is encoded and decoded again on
//! that path. The same choice as an index (`grant_source`, the data multiplexer's select)
//! comes from two priority encoders beside it (a multiplexer on the one-hot grant maps as a
//! priority chain: more LUTs and slower).
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RrArbiter<T: Synth, const N: usize, const SRC_BITS: usize> {
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
    /// Requesters after the one served last (all clear after reset or after the last index):
    /// they are preferred, lowest first; then the lowest of all.
    rr_mask: DFF<Bits<N>>,
    /// A grant was offered and not taken: keep `held_grant`.
    held: DFF<Bit>,
    held_grant: DFF<Bits<N>>,
    /// `held_grant` as an index.
    held_source: DFF<Bits<SRC_BITS>>,
    first_any: Signal<Local, Bits<SRC_BITS>>,
    first_preferred: Signal<Local, Bits<SRC_BITS>>,
    any_found: Signal<Local, Bit>,
    preferred_found: Signal<Local, Bit>,
    requests: Signal<Local, Bits<N>>,
    preferred: Signal<Local, Bits<N>>,
    /// The requester chosen, one-hot.
    grant: Signal<Local, Bits<N>>,
    chosen_valid: Signal<Local, Bit>,
    source_bit: [Constant<Bits<N>>; N],
    source_index: [Constant<Bits<SRC_BITS>>; N],
}

impl<T: Synth, const N: usize, const SRC_BITS: usize> Default for RrArbiter<T, N, SRC_BITS> {
    fn default() -> Self {
        assert!(N >= 1, "RrArbiter: N must be at least 1");
        assert_eq!(
            SRC_BITS,
            clog2(N).max(1),
            "RrArbiter: SRC_BITS must be clog2(N)"
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
            held: Default::default(),
            held_grant: Default::default(),
            held_source: Default::default(),
            first_any: Default::default(),
            first_preferred: Default::default(),
            any_found: Default::default(),
            preferred_found: Default::default(),
            requests: Default::default(),
            preferred: Default::default(),
            grant: Default::default(),
            chosen_valid: Default::default(),
            source_bit: std::array::from_fn(|i| Constant::new(bits::<N>(1) << bits::<N>(i as u64))),
            source_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
        }
    }
}

impl<T: Synth, const N: usize, const SRC_BITS: usize> Logic for RrArbiter<T, N, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rr_mask, held, held_grant, held_source);
        self.requests.next = bits::<N>(0);
        for i in 0..N {
            if self.req_valid[i].val() {
                self.requests.next = self.requests.val() | self.source_bit[i].val();
            }
        }
        // The lowest preferred requester, else the lowest of all; a held grant wins.
        self.preferred.next = self.requests.val() & self.rr_mask.q.val();
        if self.preferred.val().any() {
            self.grant.next = self.preferred.val() & (!self.preferred.val() + bits::<N>(1));
        } else {
            self.grant.next = self.requests.val() & (!self.requests.val() + bits::<N>(1));
        }
        self.chosen_valid.next = self.requests.val().any();
        if self.held.q.val() {
            self.grant.next = self.held_grant.q.val();
            self.chosen_valid.next = (self.requests.val() & self.held_grant.q.val()).any();
        }
        // The same choice as an index, for the data multiplexer and `grant_source`: priority
        // encoders of the preferred and of all requests, side by side with the one-hot pick.
        self.first_any.next = bits::<SRC_BITS>(0);
        self.first_preferred.next = bits::<SRC_BITS>(0);
        for i in 0..N {
            self.req_ready[i].next = self.grant_ready.val()
                & self.req_valid[i].val()
                & (self.grant.val() & self.source_bit[i].val()).any();
        }
        self.any_found.next = false;
        self.preferred_found.next = false;
        for i in 0..N {
            if self.req_valid[i].val() & !self.any_found.val() {
                self.first_any.next = self.source_index[i].val();
                self.any_found.next = true;
            }
            if (self.preferred.val() & self.source_bit[i].val()).any() & !self.preferred_found.val()
            {
                self.first_preferred.next = self.source_index[i].val();
                self.preferred_found.next = true;
            }
        }
        self.grant_source.next = self.first_any.val();
        if self.preferred.val().any() {
            self.grant_source.next = self.first_preferred.val();
        }
        if self.held.q.val() {
            self.grant_source.next = self.held_source.q.val();
        }
        self.grant_data.next = self.req_data[0].val();
        for i in 0..N {
            if self.grant_source.val() == self.source_index[i].val() {
                self.grant_data.next = self.req_data[i].val();
            }
        }
        self.grant_valid.next = self.chosen_valid.val();
        self.violation.next = self.held.q.val() & !self.chosen_valid.val() & !self.reset.val();
        // Hold an offered grant until it is taken; after a transfer prefer those above it.
        self.held.d.next = self.chosen_valid.val() & !self.grant_ready.val();
        self.held_grant.d.next = self.grant.val();
        self.held_source.d.next = self.grant_source.val();
        if self.chosen_valid.val() & self.grant_ready.val() {
            self.rr_mask.d.next = !((self.grant.val() << bits::<N>(1)) - bits::<N>(1));
        }
        if self.reset.val() {
            self.rr_mask.d.next = bits::<N>(0);
            self.held.d.next = false;
            self.held_grant.d.next = bits::<N>(0);
            self.held_source.d.next = bits::<SRC_BITS>(0);
        }
    }
}
