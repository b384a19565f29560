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
//! `halted`, `empty`, `not_stalled`, `not_quiescent` (decoded from the state register
//! `status_reg`), and `violation` (`out_blocked` without `out_valid`: a unit cannot be blocked
//! on output it does not have — an inconsistent input vector the hardware can detect).
//!
//! Timing: `status` and the flags are `status_reg` (no combinational path from inputs);
//! the inputs of cycle t decide the state reported in cycle t+1.
//!
//! Reading: `status_reg` can only hold the five legal codes; should it ever hold another
//! one (2, 4, 6 — e.g. after an upset), the next state is EMPTY, like a reset.
use super::code;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
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
    /// The current state's ST-1 code, driving `status`.
    status_reg: DFF<Bits<3>>,
    /// halt and can_halt: every non-reset row that leads to HALTED.
    go_halt: Signal<Local, Bit>,
    /// in_active or busy or out_valid.
    has_work: Signal<Local, Bit>,
    /// pending or mem_pending.
    waiting: Signal<Local, Bit>,
    /// The ST-1 codes ([`code`]), named in the Verilog too.
    code_empty: Constant<Bits<3>>,
    code_active: Constant<Bits<3>>,
    code_quiescent: Constant<Bits<3>>,
    code_stalled: Constant<Bits<3>>,
    code_halted: Constant<Bits<3>>,
}

impl Default for StatusFsm {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            halt: Default::default(),
            resume: Default::default(),
            in_active: Default::default(),
            busy: Default::default(),
            out_valid: Default::default(),
            out_blocked: Default::default(),
            mem_pending: Default::default(),
            pending: Default::default(),
            nack: Default::default(),
            can_halt: Default::default(),
            status: Default::default(),
            halted: Default::default(),
            empty: Default::default(),
            not_stalled: Default::default(),
            not_quiescent: Default::default(),
            violation: Default::default(),
            status_reg: Default::default(),
            go_halt: Default::default(),
            has_work: Default::default(),
            waiting: Default::default(),
            code_empty: Constant::new(bits::<3>(code::EMPTY)),
            code_active: Constant::new(bits::<3>(code::ACTIVE)),
            code_quiescent: Constant::new(bits::<3>(code::QUIESCENT)),
            code_stalled: Constant::new(bits::<3>(code::STALLED)),
            code_halted: Constant::new(bits::<3>(code::HALTED)),
        }
    }
}

impl Logic for StatusFsm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, status_reg);
        self.go_halt.next = self.halt.val() & self.can_halt.val();
        self.has_work.next = self.in_active.val() | self.busy.val() | self.out_valid.val();
        self.waiting.next = self.pending.val() | self.mem_pending.val();
        self.status.next = self.status_reg.q.val();
        self.halted.next = self.status_reg.q.val() == self.code_halted.val();
        self.empty.next = self.status_reg.q.val() == self.code_empty.val();
        self.not_stalled.next = self.status_reg.q.val() != self.code_stalled.val();
        self.not_quiescent.next = self.status_reg.q.val() != self.code_quiescent.val();
        self.violation.next = self.out_blocked.val() & !self.out_valid.val();
        if self.status_reg.q.val() == self.code_empty.val() {
            if self.go_halt.val() {
                self.status_reg.d.next = self.code_halted.val();
            } else if self.in_active.val() {
                self.status_reg.d.next = self.code_active.val();
            } else {
                self.status_reg.d.next = self.code_empty.val();
            }
        } else if self.status_reg.q.val() == self.code_active.val() {
            if self.go_halt.val() {
                self.status_reg.d.next = self.code_halted.val();
            } else if self.nack.val() {
                self.status_reg.d.next = self.code_quiescent.val();
            } else if self.out_blocked.val() {
                self.status_reg.d.next = self.code_stalled.val();
            } else if self.has_work.val() {
                self.status_reg.d.next = self.code_active.val();
            } else if self.waiting.val() {
                self.status_reg.d.next = self.code_quiescent.val();
            } else {
                self.status_reg.d.next = self.code_empty.val();
            }
        } else if self.status_reg.q.val() == self.code_stalled.val() {
            if self.go_halt.val() {
                self.status_reg.d.next = self.code_halted.val();
            } else if self.out_blocked.val() {
                self.status_reg.d.next = self.code_stalled.val();
            } else {
                self.status_reg.d.next = self.code_active.val();
            }
        } else if self.status_reg.q.val() == self.code_quiescent.val() {
            if self.go_halt.val() {
                self.status_reg.d.next = self.code_halted.val();
            } else if self.has_work.val() | self.resume.val() {
                self.status_reg.d.next = self.code_active.val();
            } else {
                self.status_reg.d.next = self.code_quiescent.val();
            }
        } else if self.status_reg.q.val() == self.code_halted.val() {
            if self.halt.val() {
                self.status_reg.d.next = self.code_halted.val();
            } else if self.has_work.val() {
                self.status_reg.d.next = self.code_active.val();
            } else if self.waiting.val() {
                self.status_reg.d.next = self.code_quiescent.val();
            } else {
                self.status_reg.d.next = self.code_empty.val();
            }
        } else {
            self.status_reg.d.next = self.code_empty.val();
        }
        if self.reset.val() {
            self.status_reg.d.next = self.code_empty.val();
        }
    }
}
