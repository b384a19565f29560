//! The Verilator engine for system simulations (SPEC X-3, `--engine verilator` on `ppu run` and
//! `ppu bench`): a mechanism's top block, exported to Verilog as `ppu export` writes it, runs as
//! a Verilator model instead of in the rust-hdl harness, and the same Rust system model drives
//! it cycle by cycle.
//!
//! How it plugs in: the [`Harness`](crate::harness::Harness) keeps the rust-hdl block as the
//! model's view of the RTL, so no system model changes. With a [`Verilated`] backend attached,
//! settling packs the block's top-level inputs (the `next` values the model set) into the
//! verilated model, evaluates it, and loads its outputs back into the block's signals; the
//! rising edge is one more evaluation with the clock high. Only the signals of the block's
//! [`PortMap`] are live: its top-level ports and the sub-block ports a system model watches
//! (SSYNC's ports for the stream-out scoreboard), read through hierarchical references in a
//! generated wrapper. Waves (`--vcd`) come from the harness engine only.
//!
//! The harness stays the default and the reference: a test runs every built-in scenario of every
//! mechanism with a top block under both engines and requires byte-identical traces.
//!
//! | file | what |
//! | --- | --- |
//! | `ports.rs` | [`PortMap`]: the crossing signals, typed accessors, bit packing |
//! | `bench.rs` | `ppu bench engines`: every bench's cycles/s on both engines |
//! | `model.rs` | wrapper, Verilator build, C ABI shim (built with `cc`), cache, loading |
pub mod bench;
pub mod model;
pub mod ports;

pub use ports::{PortBits, PortMap};

use rust_hdl::prelude::*;
use std::fmt;
use std::sync::Arc;

/// Which engine runs a system simulation's RTL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The rust-hdl cycle harness (the default and the reference; writes waves).
    #[default]
    Harness,
    /// The top block's exported Verilog under Verilator (`-O3`), through a C ABI shim.
    Verilator,
}

impl Engine {
    pub const NAMES: [&'static str; 2] = ["harness", "verilator"];

    /// Parse a command-line value.
    pub fn parse(s: &str) -> Result<Engine, String> {
        match s {
            "harness" => Ok(Engine::Harness),
            "verilator" => Ok(Engine::Verilator),
            _ => Err(format!(
                "unknown engine `{}` (available: {})",
                s,
                Engine::NAMES.join(", ")
            )),
        }
    }

    /// Whether this engine can run here (Verilator on PATH for the Verilator engine), as a
    /// message naming what is missing.
    pub fn available(self) -> Result<(), String> {
        match self {
            Engine::Harness => Ok(()),
            Engine::Verilator => model::verilator_path().map(|_| ()),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Harness => "harness",
            Engine::Verilator => "verilator",
        })
    }
}

thread_local! {
    static SCOPED: std::cell::Cell<Option<Engine>> = const { std::cell::Cell::new(None) };
}

/// Run `f` with `engine` as the engine of every system simulation it starts on this thread
/// whose own options name the default (harness) engine. `ppu bench --engine` runs a bench this
/// way, and [`crate::bench::sweep`] hands the scope on to its worker threads.
pub fn with_engine<R>(engine: Engine, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Engine>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCOPED.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SCOPED.with(|s| s.replace(Some(engine))));
    f()
}

/// The engine set by an enclosing [`with_engine`] on this thread, if any.
pub fn scoped_engine() -> Option<Engine> {
    SCOPED.with(|s| s.get())
}

impl Engine {
    /// The engine a system simulation runs on: `self`, or for the default (harness) the engine
    /// of an enclosing [`with_engine`].
    pub fn resolve(self) -> Engine {
        match self {
            Engine::Harness => scoped_engine().unwrap_or(Engine::Harness),
            e => e,
        }
    }
}

/// A top block that can run under the Verilator engine: the signals that cross.
pub trait VerilatorTop: Block + Sized + 'static {
    /// The exported module name (`so_cluster`, `status_cluster`, ...).
    const TOP: &'static str;
    /// Every top-level input, every top-level output, and the sub-block ports the system model
    /// reads.
    fn port_map() -> PortMap<Self>;
    /// A key such that instances with equal keys export the same Verilog (`Some("")` when the
    /// type alone decides it), so a run reuses the model loaded by an earlier one without
    /// exporting again; `None` (the default) exports every time.
    fn same_verilog_key(&self) -> Option<String> {
        None
    }
}

/// A verilated backend of a harness: the model instance and the port map of its block type.
pub struct Verilated<B> {
    map: Arc<PortMap<B>>,
    model: model::Model,
    words: ports::Words,
    /// The clock of the last evaluation (its inputs are still in `model.inputs`): a settle
    /// with the same clock and inputs is skipped.
    last_clock: Option<bool>,
}

impl<B: VerilatorTop> Verilated<B> {
    /// Build (or take from the cache) the model of `uut` (connected), checking that the port
    /// map covers `top_ports`, every top-level port of the block as (name, is an input, width).
    pub fn new(
        uut: &B,
        top_ports: &[(String, bool, usize)],
        export: model::Export<B>,
    ) -> Result<Self, String> {
        let map = B::port_map();
        check_covers(top_ports, &map)?;
        let model = model::instantiate(uut, B::TOP, &map, uut.same_verilog_key(), export)?;
        Ok(Verilated {
            map: Arc::new(map),
            model,
            words: ports::Words::default(),
            last_clock: None,
        })
    }
}

impl<B> Verilated<B> {
    /// Drive the block's inputs and `clock` into the model, evaluate, load its outputs.
    pub fn eval(&mut self, uut: &mut B, clock: bool) {
        self.map.pack(uut, &mut self.words);
        let n = self.model.inputs.len();
        self.words.words.resize(n, 0);
        if self.last_clock == Some(clock) && self.model.inputs[..] == self.words.words[..] {
            return;
        }
        self.model.inputs.copy_from_slice(&self.words.words);
        self.model.eval(clock);
        self.last_clock = Some(clock);
        self.map.unpack(uut, &self.model.outputs);
    }
}

/// Every top-level input and output of `uut` is in `map` (and every input in `map` is one).
fn check_covers<B>(ports: &[(String, bool, usize)], map: &PortMap<B>) -> Result<(), String> {
    let mut missing = vec![];
    for (name, input, bits) in ports {
        let mapped = if *input {
            map.inputs.iter().find(|p| &p.name == name).map(|p| p.width)
        } else {
            map.outputs
                .iter()
                .find(|p| &p.name == name)
                .map(|p| p.width)
        };
        match mapped {
            Some(w) if w == *bits => {}
            Some(w) => missing.push(format!("{} ({} bits, mapped as {})", name, bits, w)),
            None => missing.push(name.clone()),
        }
    }
    for p in &map.inputs {
        if !ports.iter().any(|(n, i, _)| *i && *n == p.name) {
            missing.push(format!(
                "{} (mapped as an input, not a top-level input)",
                p.name
            ));
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the Verilator port map of {} does not match the block: {}",
            std::any::type_name::<B>(),
            missing.join(", ")
        ))
    }
}
