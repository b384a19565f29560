//! `StatusFsm` — the five-state unit status machine of one processing unit (SPEC ST-1..ST-3).
//!
//! Implements: ST-1 (codes EMPTY=0, ACTIVE=1, QUIESCENT=3, STALLED=5, HALTED=7, reported every
//! cycle on `status`), ST-2 (inputs sampled at each rising edge), ST-3 (next-state table, first
//! matching row wins), and the per-unit roll-up flags of ST-4.
//!
//! Ports: `clock`; `reset` (synchronous, active high: the "any | reset | EMPTY" row of ST-3; the
//! system ties it to power-on reset OR the unit's reset command line); inputs `halt`, `resume`,
//! `in_active`, `busy`, `out_valid`, `out_blocked`, `mem_pending`, `pending`, `nack`, `can_halt`
//! as defined by ST-2; outputs `status` (3-bit code of the current state), the ST-4 flags
//! `halted`, `empty`, `not_stalled`, `not_quiescent` (decoded from the state register), and
//! `violation` (`out_blocked` without `out_valid`: a unit cannot be blocked on output it does
//! not have — an inconsistent input vector the hardware can detect).
//!
//! Timing: `status` and the flags are the state register (no combinational path from inputs);
//! the inputs of cycle t decide the state reported in cycle t+1.
//!
//! Reading: the state register can only hold the five legal codes; should it ever hold another
//! one (2, 4, 6 — e.g. after an upset), the next state is EMPTY, like a reset.
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct StatusFsm {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub halt: Signal<In, Bit>,
    pub resume: Signal<In, Bit>,
    pub in_active: Signal<In, Bit>,
    pub busy: Signal<In, Bit>,
    pub out_valid: Signal<In, Bit>,
    pub out_blocked: Signal<In, Bit>,
    pub mem_pending: Signal<In, Bit>,
    pub pending: Signal<In, Bit>,
    pub nack: Signal<In, Bit>,
    pub can_halt: Signal<In, Bit>,
    pub status: Signal<Out, Bits<3>>,
    pub halted: Signal<Out, Bit>,
    pub empty: Signal<Out, Bit>,
    pub not_stalled: Signal<Out, Bit>,
    pub not_quiescent: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    state: DFF<Bits<3>>,
    /// halt and can_halt: every non-reset row that leads to HALTED.
    go_halt: Signal<Local, Bit>,
    /// in_active or busy or out_valid.
    has_work: Signal<Local, Bit>,
    /// pending or mem_pending.
    waiting: Signal<Local, Bit>,
}

impl Logic for StatusFsm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state);
        self.go_halt.next = self.halt.val() & self.can_halt.val();
        self.has_work.next = self.in_active.val() | self.busy.val() | self.out_valid.val();
        self.waiting.next = self.pending.val() | self.mem_pending.val();
        self.status.next = self.state.q.val();
        self.halted.next = self.state.q.val() == bits::<3>(7);
        self.empty.next = self.state.q.val() == bits::<3>(0);
        self.not_stalled.next = self.state.q.val() != bits::<3>(5);
        self.not_quiescent.next = self.state.q.val() != bits::<3>(3);
        self.violation.next = self.out_blocked.val() & !self.out_valid.val();
        if self.state.q.val() == bits::<3>(0) {
            // EMPTY
            if self.go_halt.val() {
                self.state.d.next = bits::<3>(7);
            } else if self.in_active.val() {
                self.state.d.next = bits::<3>(1);
            } else {
                self.state.d.next = bits::<3>(0);
            }
        } else if self.state.q.val() == bits::<3>(1) {
            // ACTIVE
            if self.go_halt.val() {
                self.state.d.next = bits::<3>(7);
            } else if self.nack.val() {
                self.state.d.next = bits::<3>(3);
            } else if self.out_blocked.val() {
                self.state.d.next = bits::<3>(5);
            } else if self.has_work.val() {
                self.state.d.next = bits::<3>(1);
            } else if self.waiting.val() {
                self.state.d.next = bits::<3>(3);
            } else {
                self.state.d.next = bits::<3>(0);
            }
        } else if self.state.q.val() == bits::<3>(5) {
            // STALLED
            if self.go_halt.val() {
                self.state.d.next = bits::<3>(7);
            } else if self.out_blocked.val() {
                self.state.d.next = bits::<3>(5);
            } else {
                self.state.d.next = bits::<3>(1);
            }
        } else if self.state.q.val() == bits::<3>(3) {
            // QUIESCENT
            if self.go_halt.val() {
                self.state.d.next = bits::<3>(7);
            } else if self.has_work.val() | self.resume.val() {
                self.state.d.next = bits::<3>(1);
            } else {
                self.state.d.next = bits::<3>(3);
            }
        } else if self.state.q.val() == bits::<3>(7) {
            // HALTED
            if self.halt.val() {
                self.state.d.next = bits::<3>(7);
            } else if self.has_work.val() {
                self.state.d.next = bits::<3>(1);
            } else if self.waiting.val() {
                self.state.d.next = bits::<3>(3);
            } else {
                self.state.d.next = bits::<3>(0);
            }
        } else {
            self.state.d.next = bits::<3>(0);
        }
        if self.reset.val() {
            self.state.d.next = bits::<3>(0);
        }
    }
}
