//! Distributed stream output (SPEC section 2): golden model, system simulation, scenario
//! runner and the SO-14 experiment.
pub mod bench;
pub mod golden;
pub mod scenario;
pub mod system;
