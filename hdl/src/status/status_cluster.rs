//! `StatusCluster` — unit status reporting composed (SPEC ST-1..ST-7): one [`StatusFsm`] per
//! processing unit, the [`RollupTree`] carrying their flags to the front end, the
//! [`FrontEndMonitor`] sequencing context switches and watching for deadlocks, and the
//! [`CommandTree`] carrying its commands back to the units.
//!
//! Wiring (one cycle of the loop):
//! - unit i's FSM (ST-1..ST-3) takes its ST-2 activity from bit i of the activity vectors, and
//!   `halt`, `resume` from bit i of the command tree's `unit_halt`, `unit_resume`; its `reset`
//!   is the cluster's `reset` OR the broadcast reset (the context switch's) OR bit i of the
//!   watchdog's reset line while the unit itself reports STALLED (ST-7: the reset reaches the
//!   stalled chain only; a unit of the same connection that is not STALLED when the line
//!   arrives ignores it);
//! - the roll-up tree (ST-4) takes the FSMs' `halted`, `empty`, `not_stalled`, `not_quiescent`
//!   flags, bit i = unit i;
//! - the monitor (ST-5, ST-7) takes the tree's per-connection flags;
//! - the command tree (ST-4, ST-5, ST-7) takes the monitor's broadcast `cmd_halt`, `cmd_reset`
//!   and per-unit `line_reset`, `line_resume`; the broadcast resume is tied low (resume is
//!   only ever sent to the units of one connection, by the watchdog).
//!
//! Outside it (behavioural in the system simulation): the processing units themselves, the
//! front end's feeder and the context store.
//!
//! Parameters: `N` units (1..=32), `G` connections (1..=N), `TREE_STAGES` (1..=8; 3 or 4 in the
//! SPEC). The units of each connection are fixed at construction ([`StatusCluster::new`], one
//! membership mask per connection, as for the tree and the monitor). Sub-blocks are public so
//! that simulations can watch them.
//!
//! Ports: `clock`, `reset` (synchronous, active high: every sub-block reset, every unit EMPTY);
//! - per-unit ST-2 activity inputs, `Bits<N>` with bit i = unit i: `in_active`, `busy`,
//!   `out_valid`, `out_blocked`, `mem_pending`, `pending`, `nack`, `can_halt`;
//! - what reaches the units: `unit_halt`, `unit_reset` (the reset each unit takes this cycle,
//!   as above, without the cluster's own `reset`), `unit_resume` (`Bits<N>`); their
//!   status: `status[i]` (the ST-1 code of unit i, [`super::code`]), `unit_violation`
//!   (`Bits<N>`: unit i's ST-2 inputs are inconsistent, `out_blocked` without `out_valid`);
//! - the roll-up as the front end sees it: `all_halted`, `all_empty`, `none_stalled`,
//!   `none_quiescent` (the AND over the connections);
//! - the front end's side, the monitor's ports: `switch_valid`/`switch_ready` (the
//!   context-switch command channel), `drain_mode`, `deadlock_threshold` (16 bits),
//!   `progress` (`Bits<N>`, bit i: unit i moved work this cycle), `store_req`/`store_done`, `restore_req`/`restore_done` (the context store),
//!   `phase` (3 bits, [`super::front_end_monitor::phase`]), `feed_stop`, `cmd_halt`,
//!   `cmd_reset`, `line_resume`, `line_reset` (`Bits<N>`), `all_halted_seen`, `deadlock`,
//!   `violation` (the monitor's: a done without its request).
//!
//! Timing: `status`, the roll-up flags and the unit commands come from registers; the monitor's
//! outputs are decoded from its registers and this cycle's inputs. A unit's state of cycle t
//! reaches the monitor in cycle t + `TREE_STAGES`; a command the monitor issues in cycle t
//! reaches the units in cycle t + `TREE_STAGES` and shows in their status in cycle
//! t + `TREE_STAGES` + 1, so a context switch sees every unit halted at the earliest
//! 2·`TREE_STAGES`+1 cycles after `switch_valid` is taken.
use super::command_tree::CommandTree;
use super::front_end_monitor::FrontEndMonitor;
use super::rollup_tree::RollupTree;
use super::status_fsm::StatusFsm;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct StatusCluster<const N: usize, const G: usize, const TREE_STAGES: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub in_active: Signal<In, Bits<N>>,
    pub busy: Signal<In, Bits<N>>,
    pub out_valid: Signal<In, Bits<N>>,
    pub out_blocked: Signal<In, Bits<N>>,
    pub mem_pending: Signal<In, Bits<N>>,
    pub pending: Signal<In, Bits<N>>,
    pub nack: Signal<In, Bits<N>>,
    pub can_halt: Signal<In, Bits<N>>,
    pub unit_halt: Signal<Out, Bits<N>>,
    pub unit_reset: Signal<Out, Bits<N>>,
    pub unit_resume: Signal<Out, Bits<N>>,
    pub status: [Signal<Out, Bits<3>>; N],
    pub unit_violation: Signal<Out, Bits<N>>,
    pub all_halted: Signal<Out, Bit>,
    pub all_empty: Signal<Out, Bit>,
    pub none_stalled: Signal<Out, Bit>,
    pub none_quiescent: Signal<Out, Bit>,
    pub switch_valid: Signal<In, Bit>,
    pub switch_ready: Signal<Out, Bit>,
    pub drain_mode: Signal<In, Bit>,
    pub deadlock_threshold: Signal<In, Bits<16>>,
    pub progress: Signal<In, Bits<N>>,
    pub store_req: Signal<Out, Bit>,
    pub store_done: Signal<In, Bit>,
    pub restore_req: Signal<Out, Bit>,
    pub restore_done: Signal<In, Bit>,
    pub phase: Signal<Out, Bits<3>>,
    pub feed_stop: Signal<Out, Bit>,
    pub cmd_halt: Signal<Out, Bit>,
    pub cmd_reset: Signal<Out, Bit>,
    pub line_resume: Signal<Out, Bits<N>>,
    pub line_reset: Signal<Out, Bits<N>>,
    pub all_halted_seen: Signal<Out, Bit>,
    pub deadlock: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    pub units: [StatusFsm; N],
    pub rollup: RollupTree<N, G, TREE_STAGES>,
    pub monitor: FrontEndMonitor<N, G, TREE_STAGES>,
    pub commands: CommandTree<N, TREE_STAGES>,
    /// The units' roll-up flags and ST-2 violations gathered into vectors, bit i = unit i.
    rollup_halted: Signal<Local, Bits<N>>,
    rollup_empty: Signal<Local, Bits<N>>,
    rollup_not_stalled: Signal<Local, Bits<N>>,
    rollup_not_quiescent: Signal<Local, Bits<N>>,
    unit_violation_acc: Signal<Local, Bits<N>>,
    /// The resets the units take this cycle, bit i = unit i (drives `unit_reset`).
    unit_reset_acc: Signal<Local, Bits<N>>,
    /// `unit_bit[i]`: bit i alone.
    unit_bit: [Constant<Bits<N>>; N],
}

impl<const N: usize, const G: usize, const TREE_STAGES: usize> StatusCluster<N, G, TREE_STAGES> {
    /// A cluster whose connection g carries the units set in `chains[g]` (missing entries:
    /// empty connections).
    pub fn new(chains: &[u64]) -> Self {
        assert!((1..=32).contains(&N), "StatusCluster: N must be 1..=32");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_active: Default::default(),
            busy: Default::default(),
            out_valid: Default::default(),
            out_blocked: Default::default(),
            mem_pending: Default::default(),
            pending: Default::default(),
            nack: Default::default(),
            can_halt: Default::default(),
            unit_halt: Default::default(),
            unit_reset: Default::default(),
            unit_resume: Default::default(),
            status: std::array::from_fn(|_| Default::default()),
            unit_violation: Default::default(),
            all_halted: Default::default(),
            all_empty: Default::default(),
            none_stalled: Default::default(),
            none_quiescent: Default::default(),
            switch_valid: Default::default(),
            switch_ready: Default::default(),
            drain_mode: Default::default(),
            deadlock_threshold: Default::default(),
            progress: Default::default(),
            store_req: Default::default(),
            store_done: Default::default(),
            restore_req: Default::default(),
            restore_done: Default::default(),
            phase: Default::default(),
            feed_stop: Default::default(),
            cmd_halt: Default::default(),
            cmd_reset: Default::default(),
            line_resume: Default::default(),
            line_reset: Default::default(),
            all_halted_seen: Default::default(),
            deadlock: Default::default(),
            violation: Default::default(),
            units: std::array::from_fn(|_| StatusFsm::default()),
            rollup: RollupTree::new(chains),
            monitor: FrontEndMonitor::new(chains),
            commands: CommandTree::default(),
            rollup_halted: Default::default(),
            rollup_empty: Default::default(),
            rollup_not_stalled: Default::default(),
            rollup_not_quiescent: Default::default(),
            unit_violation_acc: Default::default(),
            unit_reset_acc: Default::default(),
            unit_bit: std::array::from_fn(|i| Constant::new(bits::<N>(1u64 << i))),
        }
    }
}

impl<const N: usize, const G: usize, const TREE_STAGES: usize> Logic
    for StatusCluster<N, G, TREE_STAGES>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.rollup.clock.next = self.clock.val();
        self.rollup.reset.next = self.reset.val();
        self.monitor.clock.next = self.clock.val();
        self.monitor.reset.next = self.reset.val();
        self.commands.clock.next = self.clock.val();
        self.commands.reset.next = self.reset.val();
        // Roll-up tree -> monitor.
        for g in 0..G {
            self.monitor.conn_halted[g].next = self.rollup.conn_halted[g].val();
            self.monitor.conn_empty[g].next = self.rollup.conn_empty[g].val();
            self.monitor.conn_not_stalled[g].next = self.rollup.conn_not_stalled[g].val();
            self.monitor.conn_not_quiescent[g].next = self.rollup.conn_not_quiescent[g].val();
        }
        self.all_halted.next = self.rollup.all_halted.val();
        self.all_empty.next = self.rollup.all_empty.val();
        self.none_stalled.next = self.rollup.none_stalled.val();
        self.none_quiescent.next = self.rollup.none_quiescent.val();
        // Front end <-> monitor.
        self.monitor.switch_valid.next = self.switch_valid.val();
        self.switch_ready.next = self.monitor.switch_ready.val();
        self.monitor.drain_mode.next = self.drain_mode.val();
        self.monitor.deadlock_threshold.next = self.deadlock_threshold.val();
        self.monitor.progress.next = self.progress.val();
        self.store_req.next = self.monitor.store_req.val();
        self.monitor.store_done.next = self.store_done.val();
        self.restore_req.next = self.monitor.restore_req.val();
        self.monitor.restore_done.next = self.restore_done.val();
        self.phase.next = self.monitor.phase.val();
        self.feed_stop.next = self.monitor.feed_stop.val();
        self.cmd_halt.next = self.monitor.cmd_halt.val();
        self.cmd_reset.next = self.monitor.cmd_reset.val();
        self.line_resume.next = self.monitor.line_resume.val();
        self.line_reset.next = self.monitor.line_reset.val();
        self.all_halted_seen.next = self.monitor.all_halted_seen.val();
        self.deadlock.next = self.monitor.deadlock.val();
        self.violation.next = self.monitor.violation.val();
        // Monitor -> command tree (no broadcast resume).
        self.commands.cmd_halt.next = self.monitor.cmd_halt.val();
        self.commands.cmd_reset.next = self.monitor.cmd_reset.val();
        self.commands.cmd_resume.next = false;
        self.commands.line_reset.next = self.monitor.line_reset.val();
        self.commands.line_resume.next = self.monitor.line_resume.val();
        self.unit_halt.next = self.commands.unit_halt.val();
        self.unit_resume.next = self.commands.unit_resume.val();
        // Command tree and activity -> units -> roll-up tree.
        self.rollup_halted.next = bits::<N>(0);
        self.rollup_empty.next = bits::<N>(0);
        self.rollup_not_stalled.next = bits::<N>(0);
        self.rollup_not_quiescent.next = bits::<N>(0);
        self.unit_violation_acc.next = bits::<N>(0);
        self.unit_reset_acc.next = bits::<N>(0);
        for i in 0..N {
            self.units[i].clock.next = self.clock.val();
            // A watchdog's reset line is taken only by a unit that reports STALLED (ST-7: the
            // stalled chain); the broadcast reset of a context switch by every unit.
            self.units[i].reset.next = self.reset.val()
                | self.commands.unit_reset_broadcast.val()
                | (self.commands.unit_reset.val().get_bit(i) & !self.units[i].not_stalled.val());
            if self.commands.unit_reset_broadcast.val()
                | (self.commands.unit_reset.val().get_bit(i) & !self.units[i].not_stalled.val())
            {
                self.unit_reset_acc.next = self.unit_reset_acc.val() | self.unit_bit[i].val();
            }
            self.units[i].halt.next = self.commands.unit_halt.val().get_bit(i);
            self.units[i].resume.next = self.commands.unit_resume.val().get_bit(i);
            self.units[i].in_active.next = self.in_active.val().get_bit(i);
            self.units[i].busy.next = self.busy.val().get_bit(i);
            self.units[i].out_valid.next = self.out_valid.val().get_bit(i);
            self.units[i].out_blocked.next = self.out_blocked.val().get_bit(i);
            self.units[i].mem_pending.next = self.mem_pending.val().get_bit(i);
            self.units[i].pending.next = self.pending.val().get_bit(i);
            self.units[i].nack.next = self.nack.val().get_bit(i);
            self.units[i].can_halt.next = self.can_halt.val().get_bit(i);
            self.status[i].next = self.units[i].status.val();
            if self.units[i].halted.val() {
                self.rollup_halted.next = self.rollup_halted.val() | self.unit_bit[i].val();
            }
            if self.units[i].empty.val() {
                self.rollup_empty.next = self.rollup_empty.val() | self.unit_bit[i].val();
            }
            if self.units[i].not_stalled.val() {
                self.rollup_not_stalled.next =
                    self.rollup_not_stalled.val() | self.unit_bit[i].val();
            }
            if self.units[i].not_quiescent.val() {
                self.rollup_not_quiescent.next =
                    self.rollup_not_quiescent.val() | self.unit_bit[i].val();
            }
            if self.units[i].violation.val() {
                self.unit_violation_acc.next =
                    self.unit_violation_acc.val() | self.unit_bit[i].val();
            }
        }
        self.rollup.halted_in.next = self.rollup_halted.val();
        self.rollup.empty_in.next = self.rollup_empty.val();
        self.rollup.not_stalled_in.next = self.rollup_not_stalled.val();
        self.rollup.not_quiescent_in.next = self.rollup_not_quiescent.val();
        self.unit_violation.next = self.unit_violation_acc.val();
        self.unit_reset.next = self.unit_reset_acc.val();
    }
}
