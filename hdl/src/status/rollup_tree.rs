//! `RollupTree` — the pipelined status roll-up of SPEC ST-4 between `N` units and the front
//! end, with `G` connections (chains) and `TREE_STAGES` pipeline ("amplifying") register stages.
//!
//! Each connection g is a [`RollupNode`] ANDing the flags of the units of chain g (a unit that
//! does not roll up is a chain of one); its four flags then pass through `TREE_STAGES`
//! registers, so every path from a unit to the front end has the same latency and the flags
//! the front end sees in cycle t are one consistent snapshot of the units' states of cycle
//! t - `TREE_STAGES`. The front end ANDs the `G` connections into `all_halted`, `all_empty`,
//! `none_stalled`, `none_quiescent` (combinational at the front end).
//!
//! Parameters: `N` units (1..=32), `G` connections (1..=N), `TREE_STAGES` (1..=8; the seed and
//! SPEC use 3 or 4). The chains are given at construction ([`RollupTree::new`]) as one
//! membership mask per connection.
//!
//! Ports: `clock`, `reset` (synchronous: the pipeline holds the flags of units in reset, i.e.
//! EMPTY: halted 0, empty 1, not_stalled 1, not_quiescent 1); inputs
//! `halted_in`, `empty_in`, `not_stalled_in`, `not_quiescent_in` (`Bits<N>`, bit i = unit i's
//! flag, from each unit's [`super::status_fsm::StatusFsm`]); outputs per connection
//! `conn_halted[g]`, `conn_empty[g]`, `conn_not_stalled[g]`, `conn_not_quiescent[g]`, and the
//! front-end ANDs above.
//!
//! Timing: latency exactly `TREE_STAGES` cycles from the units' flags to the outputs;
//! throughput one snapshot per cycle.
//!
//! Reading: the seed places the roll-up ANDs at the units along each chain; functionally the
//! chain's AND followed by `TREE_STAGES` registers is the same, and keeps every path the same
//! length whatever the chain lengths.
use super::rollup_node::RollupNode;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RollupTree<const N: usize, const G: usize, const TREE_STAGES: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub halted_in: Signal<In, Bits<N>>,
    pub empty_in: Signal<In, Bits<N>>,
    pub not_stalled_in: Signal<In, Bits<N>>,
    pub not_quiescent_in: Signal<In, Bits<N>>,
    pub conn_halted: [Signal<Out, Bit>; G],
    pub conn_empty: [Signal<Out, Bit>; G],
    pub conn_not_stalled: [Signal<Out, Bit>; G],
    pub conn_not_quiescent: [Signal<Out, Bit>; G],
    pub all_halted: Signal<Out, Bit>,
    pub all_empty: Signal<Out, Bit>,
    pub none_stalled: Signal<Out, Bit>,
    pub none_quiescent: Signal<Out, Bit>,
    nodes: [RollupNode<N>; G],
    /// Per connection, a shift register of `TREE_STAGES` bits per flag (bit 0 = first stage).
    conn_halted_stages: [DFF<Bits<TREE_STAGES>>; G],
    conn_empty_stages: [DFF<Bits<TREE_STAGES>>; G],
    conn_not_stalled_stages: [DFF<Bits<TREE_STAGES>>; G],
    conn_not_quiescent_stages: [DFF<Bits<TREE_STAGES>>; G],
    all_halted_acc: Signal<Local, Bit>,
    all_empty_acc: Signal<Local, Bit>,
    none_stalled_acc: Signal<Local, Bit>,
    none_quiescent_acc: Signal<Local, Bit>,
    /// The last stage's bit of a shift register.
    last_stage: Constant<Bits<TREE_STAGES>>,
    all_ones: Constant<Bits<TREE_STAGES>>,
}

impl<const N: usize, const G: usize, const TREE_STAGES: usize> RollupTree<N, G, TREE_STAGES> {
    /// A tree whose connection g ANDs the units set in `chains[g]` (missing entries: empty
    /// chains).
    pub fn new(chains: &[u64]) -> Self {
        assert!((1..=32).contains(&N), "RollupTree: N must be 1..=32");
        assert!((1..=N).contains(&G), "RollupTree: G must be 1..=N");
        assert!(
            (1..=8).contains(&TREE_STAGES),
            "RollupTree: TREE_STAGES must be 1..=8"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            halted_in: Default::default(),
            empty_in: Default::default(),
            not_stalled_in: Default::default(),
            not_quiescent_in: Default::default(),
            conn_halted: std::array::from_fn(|_| Default::default()),
            conn_empty: std::array::from_fn(|_| Default::default()),
            conn_not_stalled: std::array::from_fn(|_| Default::default()),
            conn_not_quiescent: std::array::from_fn(|_| Default::default()),
            all_halted: Default::default(),
            all_empty: Default::default(),
            none_stalled: Default::default(),
            none_quiescent: Default::default(),
            nodes: std::array::from_fn(|g| RollupNode::new(chains.get(g).copied().unwrap_or(0))),
            conn_halted_stages: std::array::from_fn(|_| Default::default()),
            conn_empty_stages: std::array::from_fn(|_| Default::default()),
            conn_not_stalled_stages: std::array::from_fn(|_| Default::default()),
            conn_not_quiescent_stages: std::array::from_fn(|_| Default::default()),
            all_halted_acc: Default::default(),
            all_empty_acc: Default::default(),
            none_stalled_acc: Default::default(),
            none_quiescent_acc: Default::default(),
            last_stage: Constant::new(bits::<TREE_STAGES>(1u64 << (TREE_STAGES - 1))),
            all_ones: Constant::new(bits::<TREE_STAGES>((1u64 << TREE_STAGES) - 1)),
        }
    }
}

impl<const N: usize, const G: usize, const TREE_STAGES: usize> Logic
    for RollupTree<N, G, TREE_STAGES>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.all_halted_acc.next = true;
        self.all_empty_acc.next = true;
        self.none_stalled_acc.next = true;
        self.none_quiescent_acc.next = true;
        for g in 0..G {
            self.conn_halted_stages[g].clock.next = self.clock.val();
            self.conn_empty_stages[g].clock.next = self.clock.val();
            self.conn_not_stalled_stages[g].clock.next = self.clock.val();
            self.conn_not_quiescent_stages[g].clock.next = self.clock.val();
            self.nodes[g].halted_in.next = self.halted_in.val();
            self.nodes[g].empty_in.next = self.empty_in.val();
            self.nodes[g].not_stalled_in.next = self.not_stalled_in.val();
            self.nodes[g].not_quiescent_in.next = self.not_quiescent_in.val();
            // Shift in the chain's AND at stage 0.
            if self.nodes[g].halted.val() {
                self.conn_halted_stages[g].d.next = (self.conn_halted_stages[g].q.val()
                    << bits::<TREE_STAGES>(1))
                    | bits::<TREE_STAGES>(1);
            } else {
                self.conn_halted_stages[g].d.next =
                    self.conn_halted_stages[g].q.val() << bits::<TREE_STAGES>(1);
            }
            if self.nodes[g].empty.val() {
                self.conn_empty_stages[g].d.next = (self.conn_empty_stages[g].q.val()
                    << bits::<TREE_STAGES>(1))
                    | bits::<TREE_STAGES>(1);
            } else {
                self.conn_empty_stages[g].d.next =
                    self.conn_empty_stages[g].q.val() << bits::<TREE_STAGES>(1);
            }
            if self.nodes[g].not_stalled.val() {
                self.conn_not_stalled_stages[g].d.next = (self.conn_not_stalled_stages[g].q.val()
                    << bits::<TREE_STAGES>(1))
                    | bits::<TREE_STAGES>(1);
            } else {
                self.conn_not_stalled_stages[g].d.next =
                    self.conn_not_stalled_stages[g].q.val() << bits::<TREE_STAGES>(1);
            }
            if self.nodes[g].not_quiescent.val() {
                self.conn_not_quiescent_stages[g].d.next =
                    (self.conn_not_quiescent_stages[g].q.val() << bits::<TREE_STAGES>(1))
                        | bits::<TREE_STAGES>(1);
            } else {
                self.conn_not_quiescent_stages[g].d.next =
                    self.conn_not_quiescent_stages[g].q.val() << bits::<TREE_STAGES>(1);
            }
            // The last stage reaches the front end.
            self.conn_halted[g].next =
                (self.conn_halted_stages[g].q.val() & self.last_stage.val()).any();
            self.conn_empty[g].next =
                (self.conn_empty_stages[g].q.val() & self.last_stage.val()).any();
            self.conn_not_stalled[g].next =
                (self.conn_not_stalled_stages[g].q.val() & self.last_stage.val()).any();
            self.conn_not_quiescent[g].next =
                (self.conn_not_quiescent_stages[g].q.val() & self.last_stage.val()).any();
            self.all_halted_acc.next = self.all_halted_acc.val() & self.conn_halted[g].val();
            self.all_empty_acc.next = self.all_empty_acc.val() & self.conn_empty[g].val();
            self.none_stalled_acc.next =
                self.none_stalled_acc.val() & self.conn_not_stalled[g].val();
            self.none_quiescent_acc.next =
                self.none_quiescent_acc.val() & self.conn_not_quiescent[g].val();
            if self.reset.val() {
                self.conn_halted_stages[g].d.next = bits::<TREE_STAGES>(0);
                self.conn_empty_stages[g].d.next = self.all_ones.val();
                self.conn_not_stalled_stages[g].d.next = self.all_ones.val();
                self.conn_not_quiescent_stages[g].d.next = self.all_ones.val();
            }
        }
        self.all_halted.next = self.all_halted_acc.val();
        self.all_empty.next = self.all_empty_acc.val();
        self.none_stalled.next = self.none_stalled_acc.val();
        self.none_quiescent.next = self.none_quiescent_acc.val();
    }
}
