//! `RollupNode` — one roll-up connection of SPEC ST-4: the AND of the status flags
//! {halted, empty, not_stalled, not_quiescent} of the units chained into it.
//!
//! In the seed, each unit of a chain ANDs its own flags with those arriving from the unit
//! chained to it and passes the result on; the AND of a whole chain is what reaches the front
//! end on that chain's connection. This block is that chain's AND, with the chain given as a
//! membership mask over the `N` units (`members`, bit i = unit i belongs to the chain), fixed at
//! construction ([`RollupNode::new`]). An empty chain ANDs nothing and reports all ones.
//!
//! Ports: `halted_in`, `empty_in`, `not_stalled_in`, `not_quiescent_in` (`Bits<N>`, bit i from
//! unit i); outputs `halted`, `empty`, `not_stalled`, `not_quiescent` (the chain's AND).
//!
//! Timing: purely combinational; the pipeline registers of the tree are in
//! [`super::rollup_tree::RollupTree`].
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RollupNode<const N: usize> {
    pub halted_in: Signal<In, Bits<N>>,
    pub empty_in: Signal<In, Bits<N>>,
    pub not_stalled_in: Signal<In, Bits<N>>,
    pub not_quiescent_in: Signal<In, Bits<N>>,
    pub halted: Signal<Out, Bit>,
    pub empty: Signal<Out, Bit>,
    pub not_stalled: Signal<Out, Bit>,
    pub not_quiescent: Signal<Out, Bit>,
    members: Constant<Bits<N>>,
}

impl<const N: usize> RollupNode<N> {
    /// A node whose chain is the units whose bits are set in `members`.
    pub fn new(members: u64) -> Self {
        assert!((1..=32).contains(&N), "RollupNode: N must be 1..=32");
        Self {
            halted_in: Default::default(),
            empty_in: Default::default(),
            not_stalled_in: Default::default(),
            not_quiescent_in: Default::default(),
            halted: Default::default(),
            empty: Default::default(),
            not_stalled: Default::default(),
            not_quiescent: Default::default(),
            members: Constant::new(bits::<N>(members)),
        }
    }
}

impl<const N: usize> Default for RollupNode<N> {
    fn default() -> Self {
        Self::new(0)
    }
}

impl<const N: usize> Logic for RollupNode<N> {
    #[hdl_gen]
    fn update(&mut self) {
        // A unit outside the chain contributes a 1 to every AND.
        self.halted.next = (self.halted_in.val() | !self.members.val()).all();
        self.empty.next = (self.empty_in.val() | !self.members.val()).all();
        self.not_stalled.next = (self.not_stalled_in.val() | !self.members.val()).all();
        self.not_quiescent.next = (self.not_quiescent_in.val() | !self.members.val()).all();
    }
}
