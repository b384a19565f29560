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
    pipe_halted: [DFF<Bits<TREE_STAGES>>; G],
    pipe_empty: [DFF<Bits<TREE_STAGES>>; G],
    pipe_not_stalled: [DFF<Bits<TREE_STAGES>>; G],
    pipe_not_quiescent: [DFF<Bits<TREE_STAGES>>; G],
    and_halted: Signal<Local, Bit>,
    and_empty: Signal<Local, Bit>,
    and_not_stalled: Signal<Local, Bit>,
    and_not_quiescent: Signal<Local, Bit>,
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
            pipe_halted: std::array::from_fn(|_| Default::default()),
            pipe_empty: std::array::from_fn(|_| Default::default()),
            pipe_not_stalled: std::array::from_fn(|_| Default::default()),
            pipe_not_quiescent: std::array::from_fn(|_| Default::default()),
            and_halted: Default::default(),
            and_empty: Default::default(),
            and_not_stalled: Default::default(),
            and_not_quiescent: Default::default(),
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
        self.and_halted.next = true;
        self.and_empty.next = true;
        self.and_not_stalled.next = true;
        self.and_not_quiescent.next = true;
        for g in 0..G {
            self.pipe_halted[g].clock.next = self.clock.val();
            self.pipe_empty[g].clock.next = self.clock.val();
            self.pipe_not_stalled[g].clock.next = self.clock.val();
            self.pipe_not_quiescent[g].clock.next = self.clock.val();
            self.nodes[g].halted_in.next = self.halted_in.val();
            self.nodes[g].empty_in.next = self.empty_in.val();
            self.nodes[g].not_stalled_in.next = self.not_stalled_in.val();
            self.nodes[g].not_quiescent_in.next = self.not_quiescent_in.val();
            // Shift in the chain's AND at stage 0.
            if self.nodes[g].halted.val() {
                self.pipe_halted[g].d.next = (self.pipe_halted[g].q.val()
                    << bits::<TREE_STAGES>(1))
                    | bits::<TREE_STAGES>(1);
            } else {
                self.pipe_halted[g].d.next = self.pipe_halted[g].q.val() << bits::<TREE_STAGES>(1);
            }
            if self.nodes[g].empty.val() {
                self.pipe_empty[g].d.next =
                    (self.pipe_empty[g].q.val() << bits::<TREE_STAGES>(1)) | bits::<TREE_STAGES>(1);
            } else {
                self.pipe_empty[g].d.next = self.pipe_empty[g].q.val() << bits::<TREE_STAGES>(1);
            }
            if self.nodes[g].not_stalled.val() {
                self.pipe_not_stalled[g].d.next = (self.pipe_not_stalled[g].q.val()
                    << bits::<TREE_STAGES>(1))
                    | bits::<TREE_STAGES>(1);
            } else {
                self.pipe_not_stalled[g].d.next =
                    self.pipe_not_stalled[g].q.val() << bits::<TREE_STAGES>(1);
            }
            if self.nodes[g].not_quiescent.val() {
                self.pipe_not_quiescent[g].d.next = (self.pipe_not_quiescent[g].q.val()
                    << bits::<TREE_STAGES>(1))
                    | bits::<TREE_STAGES>(1);
            } else {
                self.pipe_not_quiescent[g].d.next =
                    self.pipe_not_quiescent[g].q.val() << bits::<TREE_STAGES>(1);
            }
            // The last stage reaches the front end.
            self.conn_halted[g].next = (self.pipe_halted[g].q.val() & self.last_stage.val()).any();
            self.conn_empty[g].next = (self.pipe_empty[g].q.val() & self.last_stage.val()).any();
            self.conn_not_stalled[g].next =
                (self.pipe_not_stalled[g].q.val() & self.last_stage.val()).any();
            self.conn_not_quiescent[g].next =
                (self.pipe_not_quiescent[g].q.val() & self.last_stage.val()).any();
            self.and_halted.next = self.and_halted.val() & self.conn_halted[g].val();
            self.and_empty.next = self.and_empty.val() & self.conn_empty[g].val();
            self.and_not_stalled.next = self.and_not_stalled.val() & self.conn_not_stalled[g].val();
            self.and_not_quiescent.next =
                self.and_not_quiescent.val() & self.conn_not_quiescent[g].val();
            if self.reset.val() {
                self.pipe_halted[g].d.next = bits::<TREE_STAGES>(0);
                self.pipe_empty[g].d.next = self.all_ones.val();
                self.pipe_not_stalled[g].d.next = self.all_ones.val();
                self.pipe_not_quiescent[g].d.next = self.all_ones.val();
            }
        }
        self.all_halted.next = self.and_halted.val();
        self.all_empty.next = self.and_empty.val();
        self.none_stalled.next = self.and_not_stalled.val();
        self.none_quiescent.next = self.and_not_quiescent.val();
    }
}
