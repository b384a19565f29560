//! `RrArbiter` — round-robin arbiter of `N` valid/ready requesters onto one channel that carries
//! the granted requester's index (`grant_source`).
//!
//! Rules (SPEC X-2): once `grant_valid` is high the arbiter holds its choice (`grant_source`,
//! `grant_data`) until `grant_ready` takes it, even if a requester of higher rr_pointer raises
//! `valid` meanwhile; after each transfer the rr_pointer moves to the requester after the one
//! served, so every requester that holds `valid` is served within `N` transfers.
//!
//! Parameters: `N` requesters; `SRC_BITS` = clog2(N) (at least 1), width of `grant_source`.
//!
//! Ports: `clock`, `reset` (synchronous: rr_pointer back to requester 0, no held choice);
//! `req_valid[i]`/`req_ready[i]`/`req_data[i]`; `grant_valid`/`grant_ready`/`grant_data`/
//! `grant_source`; `violation` (a held requester dropped `valid` before its transfer, which
//! the channel rules forbid).
//!
//! Timing: combinational from request to grant (zero latency), one transfer per cycle.
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
    /// Requester with the highest rr_pointer next.
    rr_pointer: DFF<Bits<SRC_BITS>>,
    /// A grant was offered and not taken: keep `held_source`.
    held: DFF<Bit>,
    held_source: DFF<Bits<SRC_BITS>>,
    any_valid: Signal<Local, Bit>,
    first_any: Signal<Local, Bits<SRC_BITS>>,
    found_above: Signal<Local, Bit>,
    /// Set from the requester the round-robin pointer names onwards.
    at_or_above: Signal<Local, Bit>,
    first_above: Signal<Local, Bits<SRC_BITS>>,
    chosen: Signal<Local, Bits<SRC_BITS>>,
    chosen_valid: Signal<Local, Bit>,
    source_index: [Constant<Bits<SRC_BITS>>; N],
    last_source: Constant<Bits<SRC_BITS>>,
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
            rr_pointer: Default::default(),
            held: Default::default(),
            held_source: Default::default(),
            any_valid: Default::default(),
            first_any: Default::default(),
            found_above: Default::default(),
            at_or_above: Default::default(),
            first_above: Default::default(),
            chosen: Default::default(),
            chosen_valid: Default::default(),
            source_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
            last_source: Constant::new(bits::<SRC_BITS>((N - 1) as u64)),
        }
    }
}

impl<T: Synth, const N: usize, const SRC_BITS: usize> Logic for RrArbiter<T, N, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rr_pointer, held, held_source);
        // Lowest valid requester overall, and lowest valid at or above the rr_pointer pointer.
        self.any_valid.next = false;
        self.first_any.next = bits::<SRC_BITS>(0);
        self.found_above.next = false;
        self.at_or_above.next = false;
        self.first_above.next = bits::<SRC_BITS>(0);
        for i in 0..N {
            if self.req_valid[i].val() & !self.any_valid.val() {
                self.first_any.next = self.source_index[i].val();
                self.any_valid.next = true;
            }
            if self.source_index[i].val() == self.rr_pointer.q.val() {
                self.at_or_above.next = true;
            }
            if self.req_valid[i].val() & !self.found_above.val() & self.at_or_above.val() {
                self.first_above.next = self.source_index[i].val();
                self.found_above.next = true;
            }
        }
        if self.found_above.val() {
            self.chosen.next = self.first_above.val();
        } else {
            self.chosen.next = self.first_any.val();
        }
        if self.held.q.val() {
            self.chosen.next = self.held_source.q.val();
        }
        // Drive the granted channel from the chosen requester.
        self.chosen_valid.next = false;
        self.grant_data.next = self.req_data[0].val();
        for i in 0..N {
            self.req_ready[i].next = false;
            if self.chosen.val() == self.source_index[i].val() {
                self.chosen_valid.next = self.req_valid[i].val();
                self.grant_data.next = self.req_data[i].val();
                self.req_ready[i].next = self.grant_ready.val() & self.req_valid[i].val();
            }
        }
        self.grant_valid.next = self.chosen_valid.val();
        self.grant_source.next = self.chosen.val();
        self.violation.next = self.held.q.val() & !self.chosen_valid.val() & !self.reset.val();
        // Hold an offered grant until it is taken; rotate rr_pointer after each transfer.
        self.held.d.next = self.chosen_valid.val() & !self.grant_ready.val();
        self.held_source.d.next = self.chosen.val();
        if self.chosen_valid.val() & self.grant_ready.val() {
            if self.chosen.val() == self.last_source.val() {
                self.rr_pointer.d.next = bits::<SRC_BITS>(0);
            } else {
                self.rr_pointer.d.next = self.chosen.val() + bits::<SRC_BITS>(1);
            }
        }
        if self.reset.val() {
            self.rr_pointer.d.next = bits::<SRC_BITS>(0);
            self.held.d.next = false;
            self.held_source.d.next = bits::<SRC_BITS>(0);
        }
    }
}
