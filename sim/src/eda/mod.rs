//! Real Verilog tools (SPEC X-4): export of the rust-hdl units to Verilog ([`export`]),
//! Verilator lint ([`lint`]), co-simulation under Icarus and Verilator ([`cosim`]), Yosys and
//! nextpnr synthesis ([`synth`], with the ECP5 block-RAM output-register pass [`bram_outreg`]); finding the tools and skipping or failing when one is missing
//! ([`tools`], re-exported here).
pub mod bram_outreg;
pub mod cosim;
pub mod export;
pub mod formal;
pub mod lint;
pub mod synth;
pub mod tools;

pub use tools::*;
