//! Unit status reporting (SPEC section 3, ST-1..ST-7): the per-unit five-state machine, the
//! pipelined roll-up of status flags, the pipelined command distribution and the front-end
//! monitor that sequences context switches and removes deadlocks, and the cluster composing
//! them ([`status_cluster::StatusCluster`]).
pub mod command_tree;
pub mod front_end_monitor;
pub mod rollup_node;
pub mod rollup_tree;
pub mod status_cluster;
pub mod status_fsm;

/// The 3-bit status codes of ST-1 (the public per-unit status encoding).
pub mod code {
    pub const EMPTY: u64 = 0;
    pub const ACTIVE: u64 = 1;
    pub const QUIESCENT: u64 = 3;
    pub const STALLED: u64 = 5;
    pub const HALTED: u64 = 7;
}
