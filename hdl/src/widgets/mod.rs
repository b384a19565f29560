//! Shared hardware widgets: one block per file.
pub mod rr_arbiter;
pub mod stream_fifo;
