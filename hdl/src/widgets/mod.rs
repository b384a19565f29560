//! Shared hardware widgets: one block per file.
pub mod block_ram;
pub mod kept_dff;
pub mod kept_net;
pub mod rr_arbiter;
pub mod staged_arbiter;
pub mod stream_fifo;
