//! `SoCrossbar` — the crossbar between `SO_UNITS` SO units and SSYNC (SPEC SO-5..SO-7, SO-9).
//!
//! Request direction: two round-robin arbiters ([`RrArbiter`]) merge the SO units' first
//! requests (25 bits) and second requests (128 bits) onto SSYNC's two request channels,
//! carrying the index of the SO unit that sent each message (`*_source`). Response direction:
//! SSYNC's response is routed to SO unit `resp_dest` (`so_resp_valid[i]` only for that unit,
//! `resp_ready` from that unit).
//!
//! Parameters: `SO_UNITS`; `SRC_BITS` = clog2(SO_UNITS) (≥1).
//! Ports: `so_first_valid/ready/data[i]`, `so_second_valid/ready/data[i]`,
//! `first_valid/ready/data/source`, `second_valid/ready/data/source`,
//! `resp_valid/ready/data/dest`, `so_resp_valid/ready/data[i]`; `violation` (an arbiter saw a
//! requester drop `valid` before its transfer, or a response addressed to no SO unit).
//! Timing: combinational in both directions (zero latency), one message per channel per cycle;
//! a waiting SO unit is served within `SO_UNITS` transfers. The 128-bit second requests are
//! multiplexed as an AND-OR over the second arbiter's one-hot grant (`grant_onehot`), the
//! 25-bit first requests by the arbiter's index.
use crate::msg::{FirstRequest, Msg128};
use crate::widgets::rr_arbiter::RrArbiter;
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
    pub first_arb: RrArbiter<FirstRequest, SO_UNITS, SRC_BITS>,
    pub second_arb: RrArbiter<Msg128, SO_UNITS, SRC_BITS>,
    dest_found: Signal<Local, Bit>,
    second_unit_data: Signal<Local, Msg128>,
    second_lane0: Signal<Local, Bits<32>>,
    second_lane1: Signal<Local, Bits<32>>,
    second_lane2: Signal<Local, Bits<32>>,
    second_lane3: Signal<Local, Bits<32>>,
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
            second_unit_data: Default::default(),
            second_lane0: Default::default(),
            second_lane1: Default::default(),
            second_lane2: Default::default(),
            second_lane3: Default::default(),
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
        // The 128-bit second request as an AND-OR over the arbiter's one-hot grant: each
        // grant bit selects one unit's lanes (no encoded index fanning out to 128 multiplexers).
        self.second_lane0.next = bits::<32>(0);
        self.second_lane1.next = bits::<32>(0);
        self.second_lane2.next = bits::<32>(0);
        self.second_lane3.next = bits::<32>(0);
        for i in 0..SO_UNITS {
            self.second_unit_data.next = self.so_second_data[i].val();
            if self.second_arb.grant_onehot.val().get_bit(i) {
                self.second_lane0.next =
                    self.second_lane0.val() | self.second_unit_data.val().lane0;
                self.second_lane1.next =
                    self.second_lane1.val() | self.second_unit_data.val().lane1;
                self.second_lane2.next =
                    self.second_lane2.val() | self.second_unit_data.val().lane2;
                self.second_lane3.next =
                    self.second_lane3.val() | self.second_unit_data.val().lane3;
            }
        }
        self.second_data.next.lane0 = self.second_lane0.val();
        self.second_data.next.lane1 = self.second_lane1.val();
        self.second_data.next.lane2 = self.second_lane2.val();
        self.second_data.next.lane3 = self.second_lane3.val();
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
