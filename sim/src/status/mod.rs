//! Unit status reporting (SPEC section 3): golden models, the system simulation of a pipeline of
//! processing units around the status RTL, the `status-fsm` / `status-system` scenario runners
//! and the ST-9 experiment (`ppu bench status`).
pub mod bench;
pub mod golden;
pub mod scenario;
pub mod system;
