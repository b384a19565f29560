//! `SoCrossbar` — the crossbar between `SO_UNITS` SO units and SSYNC (SPEC SO-5..SO-7, SO-9).
//!
//! Request direction: two round-robin arbiters ([`StagedArbiter`]) merge the SO units' first
//! requests (25 bits) and second requests (128 bits) onto SSYNC's two request channels,
//! carrying the index of the SO unit that sent each message (`*_source`); each arbiter
//! registers its choice and then the chosen payload, so SSYNC's request inputs come from
//! flip-flops and no cycle holds both an arbitration and a 128-bit multiplexer. Response direction:
//! SSYNC's response is routed to SO unit `resp_dest` (`so_resp_valid[i]` only for that unit,
//! `resp_ready` from that unit).
//!
//! Parameters: `SO_UNITS`; `SRC_BITS` = clog2(SO_UNITS) (≥1).
//! Ports: `so_first_valid/ready/data[i]`, `so_second_valid/ready/data[i]`,
//! `first_valid/ready/data/source`, `second_valid/ready/data/source`,
//! `resp_valid/ready/data/dest`, `so_resp_valid/ready/data[i]`; `violation` (an arbiter saw a
//! requester drop `valid` before its transfer, or a response addressed to no SO unit).
//! Timing: requests take two cycles from an SO unit's `valid` to SSYNC's (the choice is
//! registered, the payload is taken the cycle after and offered from the output register);
//! one message per channel per cycle while different SO units take turns (one SO unit alone
//! every other cycle, never needed: it has one message outstanding, SO-9); a waiting SO unit
//! is chosen within `SO_UNITS` choices. Responses: combinational (zero latency).
use crate::msg::{FirstRequest, Msg128};
use crate::widgets::staged_arbiter::StagedArbiter;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SoCrossbar<const SO_UNITS: usize, const SRC_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub so_first_valid: [Signal<In, Bit>; SO_UNITS],
    pub so_first_ready: [Signal<Out, Bit>; SO_UNITS],
    pub so_first_data: [Signal<In, FirstRequest>; SO_UNITS],
    pub so_second_valid: [Signal<In, Bit>; SO_UNITS],
    pub so_second_ready: [Signal<Out, Bit>; SO_UNITS],
    pub so_second_data: [Signal<In, Msg128>; SO_UNITS],
    pub first_valid: Signal<Out, Bit>,
    pub first_ready: Signal<In, Bit>,
    pub first_data: Signal<Out, FirstRequest>,
    pub first_source: Signal<Out, Bits<SRC_BITS>>,
    pub second_valid: Signal<Out, Bit>,
    pub second_ready: Signal<In, Bit>,
    pub second_data: Signal<Out, Msg128>,
    pub second_source: Signal<Out, Bits<SRC_BITS>>,
    pub resp_valid: Signal<In, Bit>,
    pub resp_ready: Signal<Out, Bit>,
    pub resp_data: Signal<In, Msg128>,
    pub resp_dest: Signal<In, Bits<SRC_BITS>>,
    pub so_resp_valid: [Signal<Out, Bit>; SO_UNITS],
    pub so_resp_ready: [Signal<In, Bit>; SO_UNITS],
    pub so_resp_data: [Signal<Out, Msg128>; SO_UNITS],
    pub violation: Signal<Out, Bit>,
    pub first_arb: StagedArbiter<FirstRequest, SO_UNITS, SRC_BITS>,
    pub second_arb: StagedArbiter<Msg128, SO_UNITS, SRC_BITS>,
    dest_found: Signal<Local, Bit>,
    unit_index: [Constant<Bits<SRC_BITS>>; SO_UNITS],
}

impl<const SO_UNITS: usize, const SRC_BITS: usize> Default for SoCrossbar<SO_UNITS, SRC_BITS> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            so_first_valid: std::array::from_fn(|_| Default::default()),
            so_first_ready: std::array::from_fn(|_| Default::default()),
            so_first_data: std::array::from_fn(|_| Default::default()),
            so_second_valid: std::array::from_fn(|_| Default::default()),
            so_second_ready: std::array::from_fn(|_| Default::default()),
            so_second_data: std::array::from_fn(|_| Default::default()),
            first_valid: Default::default(),
            first_ready: Default::default(),
            first_data: Default::default(),
            first_source: Default::default(),
            second_valid: Default::default(),
            second_ready: Default::default(),
            second_data: Default::default(),
            second_source: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_data: Default::default(),
            resp_dest: Default::default(),
            so_resp_valid: std::array::from_fn(|_| Default::default()),
            so_resp_ready: std::array::from_fn(|_| Default::default()),
            so_resp_data: std::array::from_fn(|_| Default::default()),
            violation: Default::default(),
            first_arb: Default::default(),
            second_arb: Default::default(),
            dest_found: Default::default(),
            unit_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
        }
    }
}

impl<const SO_UNITS: usize, const SRC_BITS: usize> Logic for SoCrossbar<SO_UNITS, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        self.first_arb.clock.next = self.clock.val();
        self.first_arb.reset.next = self.reset.val();
        self.second_arb.clock.next = self.clock.val();
        self.second_arb.reset.next = self.reset.val();
        for i in 0..SO_UNITS {
            self.first_arb.req_valid[i].next = self.so_first_valid[i].val();
            self.first_arb.req_data[i].next = self.so_first_data[i].val();
            self.so_first_ready[i].next = self.first_arb.req_ready[i].val();
            self.second_arb.req_valid[i].next = self.so_second_valid[i].val();
            self.second_arb.req_data[i].next = self.so_second_data[i].val();
            self.so_second_ready[i].next = self.second_arb.req_ready[i].val();
        }
        self.first_valid.next = self.first_arb.grant_valid.val();
        self.first_data.next = self.first_arb.grant_data.val();
        self.first_source.next = self.first_arb.grant_source.val();
        self.first_arb.grant_ready.next = self.first_ready.val();
        self.second_valid.next = self.second_arb.grant_valid.val();
        self.second_data.next = self.second_arb.grant_data.val();
        self.second_source.next = self.second_arb.grant_source.val();
        self.second_arb.grant_ready.next = self.second_ready.val();
        // Response route back.
        self.resp_ready.next = false;
        self.dest_found.next = false;
        for i in 0..SO_UNITS {
            self.so_resp_data[i].next = self.resp_data.val();
            self.so_resp_valid[i].next = false;
            if self.resp_dest.val() == self.unit_index[i].val() {
                self.dest_found.next = true;
                self.so_resp_valid[i].next = self.resp_valid.val();
                self.resp_ready.next = self.so_resp_ready[i].val();
            }
        }
        self.violation.next = self.first_arb.violation.val()
            | self.second_arb.violation.val()
            | (self.resp_valid.val() & !self.dest_found.val());
    }
}
