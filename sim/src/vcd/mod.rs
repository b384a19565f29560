//! Waves (SPEC X-3): the VCD writer the harness records through ([`writer`]), the independent
//! read-back check ([`checker`]), GTKWave save files ([`gtkw`]) and SVG renderings ([`svg`]).
pub mod checker;
pub mod gtkw;
pub mod svg;
pub mod writer;
