//! Shared helpers for the testbenches live in `ppu-sim`; this crate holds only `tests/`.
