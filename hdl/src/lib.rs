//! # ppu-hdl — synthesizable rust-hdl modules of ppu-rtl
//!
//! Every module here is register-transfer logic (`#[derive(LogicBlock)]` with an
//! `#[hdl_gen]` update), follows the conventions of SPEC X-2 (clock `clock`, synchronous
//! active-high `reset`, valid/ready channels named by prefix) and is exported to Verilog by
//! `ppu export` (SPEC X-4). Software-side packing of the message formats lives beside the
//! hardware types in [`msg`].
//!
//! | module | what | SPEC |
//! | --- | --- | --- |
//! | [`msg`] | 25-bit first request, 128-bit response / second request | SO-5, SO-6, SO-7 |
//! | [`widgets::stream_fifo`] | valid/ready FIFO, any depth; `SkidBuffer` = depth 2 | X-2 |
//! | [`widgets::block_ram`] | simple dual-port SRAM, synchronous read, mapped to block RAM | SO-3 |
//! | [`widgets::rr_arbiter`] | round-robin arbiter, N valid/ready requesters onto one channel | X-2 |
//! | [`widgets::staged_arbiter`] | the same with a registered choice and output register | X-2 |
//! | [`stream_out`] | distributed stream output: SSYNC, SO unit, batch-ID generator, crossbar | SO-1..SO-13 |
//! | [`status`] | unit status FSM, roll-up tree, command tree, front-end monitor, status cluster | ST-1..ST-7 |
//! | [`work_queue`] | work-queue rings, host interface, soft/shadow GP_PUT allocator, semaphores, top block | WQ-1..WQ-10 |
//! | [`barrier`] | tiling unit, PROP barrier flags, back-end barrier counter, top block | BR-1..BR-7 |
//! | [`primitive_attributes`] | viewport multicast, order sequencer, swizzle, provoking-vertex cache | PA-1..PA-6 |

pub mod barrier;
pub mod msg;
pub mod primitive_attributes;
pub mod status;
pub mod stream_out;
pub mod widgets;
pub mod work_queue;

/// Re-exports for testbenches and the simulator.
pub mod prelude {
    pub use crate::msg::*;
    pub use crate::widgets::block_ram::BlockRam;
    pub use crate::widgets::rr_arbiter::RrArbiter;
    pub use crate::widgets::staged_arbiter::StagedArbiter;
    pub use crate::widgets::stream_fifo::{SkidBuffer, StreamFifo};
}
