//! Testbench drivers of the hardware units: stimulus, protocol monitors and golden-model
//! scoreboards, shared by the tests in `testbenches/`, `ppu waves` and the co-simulation.
pub mod foundation;
pub mod status;
pub mod stream_out;
