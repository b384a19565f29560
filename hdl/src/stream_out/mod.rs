//! Distributed stream output (SPEC section 2, SO-1..SO-13), one block per file.
//!
//! | block | what |
//! | --- | --- |
//! | [`ssync::Ssync`] | stream synchronization unit: current batch/task, output queues; the three below |
//! | [`op_fifo::OpFifo`] | SSYNC's operation FIFO: command decoder, entries, block-RAM words |
//! | [`msg_table::MsgTable`] | SSYNC's message table: entries, match bits, bad input, the hit and its decisions |
//! | [`ssobo_account::SsoboAccount`] | SSYNC's accounting stage: SSOBOs, SO-12 fit test with headroom registers, statistics |
//! | [`retire_queue::RetireQueue`] | SSYNC's retire channel: a retire leaves after its batch is accounted and answered |
//! | [`fit_check::FitCheck`] | the SO-12 overflow test, one definition for SSYNC and the SO units |
//! | [`so_unit::SoUnit`] | one SO unit: first / second request, byte counts, buffer writes |
//! | [`batch_id_gen::BatchIdGen`] | WDU batch-ID generator: phase bit, in-flight window, retire |
//! | [`so_crossbar::SoCrossbar`] | SO units ⇄ SSYNC: request arbiters with source index, response route |
//! | [`so_cluster::SoCluster`] | all of the above wired together |
pub mod batch_id_gen;
pub mod fit_check;
pub mod msg_table;
pub mod op_fifo;
pub mod retire_queue;
pub mod so_cluster;
pub mod so_crossbar;
pub mod so_unit;
pub mod ssobo_account;
pub mod ssync;
