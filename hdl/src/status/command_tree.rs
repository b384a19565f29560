//! `CommandTree` — pipelined distribution of the front end's commands to `N` units (SPEC ST-4,
//! ST-5, ST-7): the broadcast commands halt / reset / resume, plus optional per-unit command
//! lines for reset and resume (used to switch or unstick one unit without touching the others).
//!
//! Every command passes through `TREE_STAGES` register stages (the seed's "amplifying
//! stages"), the same as the status roll-up, so a command issued by the front end in cycle t is
//! seen by every unit in cycle t + `TREE_STAGES`, all units in the same cycle.
//!
//! Parameters: `N` units (1..=32), `TREE_STAGES` (1..=8; 3 or 4 in the SPEC).
//!
//! Ports: `clock`, `reset` (synchronous: every stage cleared, no command in flight); inputs
//! `cmd_halt`, `cmd_reset`, `cmd_resume` (broadcast, level), `line_reset`, `line_resume`
//! (`Bits<N>`, per-unit lines, bit i = unit i); outputs `unit_halt`, `unit_reset`,
//! `unit_resume` (`Bits<N>`, bit i drives unit i: broadcast OR its own line), and
//! `unit_reset_broadcast` (the broadcast reset alone reaches the units this cycle, so that a
//! receiver can tell the context switch's reset, taken by every unit, from a watchdog's
//! per-unit reset line, which the status cluster lets only a STALLED unit take; ST-7).
//!
//! Timing: latency exactly `TREE_STAGES` cycles; one command vector per cycle.
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CommandTree<const N: usize, const TREE_STAGES: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cmd_halt: Signal<In, Bit>,
    pub cmd_reset: Signal<In, Bit>,
    pub cmd_resume: Signal<In, Bit>,
    pub line_reset: Signal<In, Bits<N>>,
    pub line_resume: Signal<In, Bits<N>>,
    pub unit_halt: Signal<Out, Bits<N>>,
    pub unit_reset: Signal<Out, Bits<N>>,
    pub unit_resume: Signal<Out, Bits<N>>,
    pub unit_reset_broadcast: Signal<Out, Bit>,
    /// Broadcast commands: shift registers, bit 0 = first stage.
    cmd_halt_stages: DFF<Bits<TREE_STAGES>>,
    cmd_reset_stages: DFF<Bits<TREE_STAGES>>,
    cmd_resume_stages: DFF<Bits<TREE_STAGES>>,
    /// Per-unit lines, one register per stage.
    line_reset_stages: [DFF<Bits<N>>; TREE_STAGES],
    line_resume_stages: [DFF<Bits<N>>; TREE_STAGES],
    last_stage: Constant<Bits<TREE_STAGES>>,
    all_units: Constant<Bits<N>>,
}

impl<const N: usize, const TREE_STAGES: usize> Default for CommandTree<N, TREE_STAGES> {
    fn default() -> Self {
        assert!((1..=32).contains(&N), "CommandTree: N must be 1..=32");
        assert!(
            (1..=8).contains(&TREE_STAGES),
            "CommandTree: TREE_STAGES must be 1..=8"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cmd_halt: Default::default(),
            cmd_reset: Default::default(),
            cmd_resume: Default::default(),
            line_reset: Default::default(),
            line_resume: Default::default(),
            unit_halt: Default::default(),
            unit_reset: Default::default(),
            unit_resume: Default::default(),
            unit_reset_broadcast: Default::default(),
            cmd_halt_stages: Default::default(),
            cmd_reset_stages: Default::default(),
            cmd_resume_stages: Default::default(),
            line_reset_stages: std::array::from_fn(|_| Default::default()),
            line_resume_stages: std::array::from_fn(|_| Default::default()),
            last_stage: Constant::new(bits::<TREE_STAGES>(1u64 << (TREE_STAGES - 1))),
            all_units: Constant::new(bits::<N>(if N == 64 { u64::MAX } else { (1u64 << N) - 1 })),
        }
    }
}

impl<const N: usize, const TREE_STAGES: usize> Logic for CommandTree<N, TREE_STAGES> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cmd_halt_stages,
            cmd_reset_stages,
            cmd_resume_stages
        );
        for s in 0..TREE_STAGES {
            self.line_reset_stages[s].clock.next = self.clock.val();
            self.line_resume_stages[s].clock.next = self.clock.val();
        }
        // Broadcast commands.
        if self.cmd_halt.val() {
            self.cmd_halt_stages.d.next =
                (self.cmd_halt_stages.q.val() << bits::<TREE_STAGES>(1)) | bits::<TREE_STAGES>(1);
        } else {
            self.cmd_halt_stages.d.next = self.cmd_halt_stages.q.val() << bits::<TREE_STAGES>(1);
        }
        if self.cmd_reset.val() {
            self.cmd_reset_stages.d.next =
                (self.cmd_reset_stages.q.val() << bits::<TREE_STAGES>(1)) | bits::<TREE_STAGES>(1);
        } else {
            self.cmd_reset_stages.d.next = self.cmd_reset_stages.q.val() << bits::<TREE_STAGES>(1);
        }
        if self.cmd_resume.val() {
            self.cmd_resume_stages.d.next =
                (self.cmd_resume_stages.q.val() << bits::<TREE_STAGES>(1)) | bits::<TREE_STAGES>(1);
        } else {
            self.cmd_resume_stages.d.next =
                self.cmd_resume_stages.q.val() << bits::<TREE_STAGES>(1);
        }
        // Per-unit lines.
        self.line_reset_stages[0].d.next = self.line_reset.val();
        self.line_resume_stages[0].d.next = self.line_resume.val();
        for s in 1..TREE_STAGES {
            self.line_reset_stages[s].d.next = self.line_reset_stages[s - 1].q.val();
            self.line_resume_stages[s].d.next = self.line_resume_stages[s - 1].q.val();
        }
        // Outputs from the last stage.
        self.unit_halt.next = bits::<N>(0);
        self.unit_reset.next = bits::<N>(0);
        self.unit_resume.next = bits::<N>(0);
        self.unit_reset_broadcast.next = false;
        for s in (TREE_STAGES - 1)..TREE_STAGES {
            self.unit_reset.next = self.line_reset_stages[s].q.val();
            self.unit_resume.next = self.line_resume_stages[s].q.val();
        }
        if (self.cmd_halt_stages.q.val() & self.last_stage.val()).any() {
            self.unit_halt.next = self.all_units.val();
        }
        if (self.cmd_reset_stages.q.val() & self.last_stage.val()).any() {
            self.unit_reset.next = self.all_units.val();
            self.unit_reset_broadcast.next = true;
        }
        if (self.cmd_resume_stages.q.val() & self.last_stage.val()).any() {
            self.unit_resume.next = self.all_units.val();
        }
        if self.reset.val() {
            self.cmd_halt_stages.d.next = bits::<TREE_STAGES>(0);
            self.cmd_reset_stages.d.next = bits::<TREE_STAGES>(0);
            self.cmd_resume_stages.d.next = bits::<TREE_STAGES>(0);
            for s in 0..TREE_STAGES {
                self.line_reset_stages[s].d.next = bits::<N>(0);
                self.line_resume_stages[s].d.next = bits::<N>(0);
            }
        }
    }
}
