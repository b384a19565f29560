//! `AcquireCheck` — the five semaphore-acquire conditions of SPEC WQ-4, registered.
//!
//! | `cond` | condition (sem = semaphore contents, value = the command's payload) |
//! | --- | --- |
//! | 0 equal | sem == value |
//! | 1 unsigned >= | sem >= value |
//! | 2 circular >= | the 32-bit difference sem - value, read as signed, is >= 0 |
//! | 3 AND non-zero | (sem & value) != 0 |
//! | 4 NOR non-zero | !(sem | value) != 0 |
//!
//! These are the conditions of the public host-interface semaphore methods (ACQUIRE,
//! ACQ_STRICT_GEQ, ACQ_CIRC_GEQ, ACQ_AND, ACQ_NOR). Codes 5..7 are not conditions: `satisfied`
//! is low and `cond_legal` low.
//!
//! Ports: `clock`, `reset`, inputs `cond` (3 bits), `sem_value`, `value` (32 bits); outputs
//! `satisfied`, `cond_legal`.
//!
//! Timing: two register stages — the five comparisons of cycle t are registered side by side,
//! the condition selects among them in cycle t+1 — so the inputs of cycle t answer in cycle
//! t+2 (latency 2, one check per cycle). No path holds more than one 32-bit comparison.
use super::command::{COND_AND, COND_CIRC_GEQ, COND_EQUAL, COND_GEQ, COND_NOR};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AcquireCheck {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cond: Signal<In, Bits<3>>,
    pub sem_value: Signal<In, Bits<32>>,
    pub value: Signal<In, Bits<32>>,
    pub satisfied: Signal<Out, Bit>,
    pub cond_legal: Signal<Out, Bit>,
    /// Stage 1: the five comparisons and the condition code of the previous cycle.
    is_equal: DFF<Bit>,
    is_geq: DFF<Bit>,
    is_circ_geq: DFF<Bit>,
    is_and: DFF<Bit>,
    is_nor: DFF<Bit>,
    cond_stage: DFF<Bits<3>>,
    /// Stage 2: the answer.
    satisfied_reg: DFF<Bit>,
    cond_legal_reg: DFF<Bit>,
    /// sem - value, wrapping: non-negative as a signed number when below 2^31.
    difference: Signal<Local, Bits<32>>,
    sign_bit: Constant<Bits<32>>,
    cond_equal: Constant<Bits<3>>,
    cond_geq: Constant<Bits<3>>,
    cond_circ_geq: Constant<Bits<3>>,
    cond_and: Constant<Bits<3>>,
    cond_nor: Constant<Bits<3>>,
}

impl Default for AcquireCheck {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cond: Default::default(),
            sem_value: Default::default(),
            value: Default::default(),
            satisfied: Default::default(),
            cond_legal: Default::default(),
            is_equal: Default::default(),
            is_geq: Default::default(),
            is_circ_geq: Default::default(),
            is_and: Default::default(),
            is_nor: Default::default(),
            cond_stage: Default::default(),
            satisfied_reg: Default::default(),
            cond_legal_reg: Default::default(),
            difference: Default::default(),
            sign_bit: Constant::new(bits::<32>(1 << 31)),
            cond_equal: Constant::new(bits::<3>(COND_EQUAL)),
            cond_geq: Constant::new(bits::<3>(COND_GEQ)),
            cond_circ_geq: Constant::new(bits::<3>(COND_CIRC_GEQ)),
            cond_and: Constant::new(bits::<3>(COND_AND)),
            cond_nor: Constant::new(bits::<3>(COND_NOR)),
        }
    }
}

impl Logic for AcquireCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            is_equal,
            is_geq,
            is_circ_geq,
            is_and,
            is_nor,
            cond_stage,
            satisfied_reg,
            cond_legal_reg
        );
        // Stage 1.
        self.difference.next = self.sem_value.val() - self.value.val();
        self.is_equal.d.next = self.sem_value.val() == self.value.val();
        self.is_geq.d.next = self.sem_value.val() >= self.value.val();
        self.is_circ_geq.d.next = self.difference.val() < self.sign_bit.val();
        self.is_and.d.next = (self.sem_value.val() & self.value.val()).any();
        self.is_nor.d.next = !(self.sem_value.val() | self.value.val()).all();
        self.cond_stage.d.next = self.cond.val();
        // Stage 2.
        self.satisfied_reg.d.next = false;
        self.cond_legal_reg.d.next = true;
        if self.cond_stage.q.val() == self.cond_equal.val() {
            self.satisfied_reg.d.next = self.is_equal.q.val();
        } else if self.cond_stage.q.val() == self.cond_geq.val() {
            self.satisfied_reg.d.next = self.is_geq.q.val();
        } else if self.cond_stage.q.val() == self.cond_circ_geq.val() {
            self.satisfied_reg.d.next = self.is_circ_geq.q.val();
        } else if self.cond_stage.q.val() == self.cond_and.val() {
            self.satisfied_reg.d.next = self.is_and.q.val();
        } else if self.cond_stage.q.val() == self.cond_nor.val() {
            self.satisfied_reg.d.next = self.is_nor.q.val();
        } else {
            self.cond_legal_reg.d.next = false;
        }
        self.satisfied.next = self.satisfied_reg.q.val();
        self.cond_legal.next = self.cond_legal_reg.q.val();
        if self.reset.val() {
            self.cond_stage.d.next = bits::<3>(0);
            self.satisfied_reg.d.next = false;
            self.cond_legal_reg.d.next = true;
        }
    }
}
