//! Distributed stream output (SPEC section 2, SO-1..SO-14) beyond the RTL of
//! `ppu_hdl::stream_out`:
//!
//! | module | what | SPEC |
//! | --- | --- | --- |
//! | [`golden`] | golden model: offsets (prefix sums in driver order), overflow, final buffers | SO-3, SO-4, SO-10..SO-12 |
//! | [`system`] | RTL cluster + behavioural WDU, shaders, frame-buffer memory, checked against [`golden`] | SO-1..SO-13 |
//! | [`scenario`] | `"unit":"stream-out"` scenarios, trace events, built-in seed W/E/D scenario | X-5 |
//! | [`bench`] | `ppu bench stream-out`: bytes/cycle vs SO units, SSYNC cost | SO-14 |
pub mod bench;
pub mod golden;
pub mod scenario;
pub mod system;
