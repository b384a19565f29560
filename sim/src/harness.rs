//! Cycle harness (SPEC X-3): steps any rust-hdl [`Block`] directly, without testbench threads.
//!
//! One call to [`Harness::step`] is one clock cycle:
//! 1. the inputs the caller set (`uut.x.next = ..`) settle through the combinational logic
//!    (`update_all` until nothing changes); this is the moment monitors sample handshakes;
//!    VCD time `PERIOD * cycle`, clock low;
//! 2. rising edge: registers take their next values and settle again; VCD time
//!    `PERIOD * cycle + PERIOD / 2`, clock high;
//! 3. the clock falls (no register reacts) and the cycle count advances; the low clock settles
//!    together with the next cycle's inputs in step 1 (one settle fewer per cycle).
//!
//! Optionally records a VCD ([`crate::vcd_out`]) and the top-level port values of every cycle
//! ([`PortTrace`]) for co-simulation against the exported Verilog ([`crate::cosim`]).
use crate::vcd::writer::VcdRecorder;
use crate::verilator::{Verilated, VerilatorTop};
use rust_hdl::prelude::*;
use std::fmt;
use std::path::Path;

/// Simulated time of one clock cycle in the VCD (nanoseconds; timescale 1 ns).
pub const PERIOD: u64 = 10;
/// Why waves and the Verilator engine do not go together.
pub const VCD_NEEDS_HARNESS: &str = "waves (--vcd) are written by the harness engine only; \
     run with --engine harness to record them";
/// Delta-cycle limit for the combinational logic to settle.
const MAX_SETTLE: usize = 1000;

/// Clock cycles stepped by every harness of this process (for cycles-per-second figures).
static SIMULATED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Clock cycles stepped so far by every harness of this process, under either engine.
pub fn simulated_cycles() -> u64 {
    SIMULATED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The circuit did not settle: a combinational loop oscillates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoConvergence {
    pub cycle: u64,
}

impl fmt::Display for NoConvergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "combinational logic did not settle in cycle {}",
            self.cycle
        )
    }
}

impl std::error::Error for NoConvergence {}

/// Direction of a top-level port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortDir {
    Input,
    Output,
}

/// A top-level port as it appears in the exported Verilog (`req_valid$0`, `req_data$1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub width: usize,
    pub dir: PortDir,
}

/// Per-cycle values of every top-level port (clock excluded), each value as a string of
/// `'0'`/`'1'` characters, most significant bit first.
#[derive(Debug, Clone, Default)]
pub struct PortTrace {
    pub ports: Vec<Port>,
    /// `cycles[c][p]` is port `p`'s value in cycle `c`, sampled after the inputs settled and
    /// before the rising edge.
    pub cycles: Vec<Vec<String>>,
}

impl PortTrace {
    pub fn inputs(&self) -> impl Iterator<Item = (usize, &Port)> {
        self.ports
            .iter()
            .enumerate()
            .filter(|(_, p)| p.dir == PortDir::Input)
    }
    pub fn outputs(&self) -> impl Iterator<Item = (usize, &Port)> {
        self.ports
            .iter()
            .enumerate()
            .filter(|(_, p)| p.dir == PortDir::Output)
    }
}

/// Flatten a rust-hdl VCD value into a bit string (MSB first).
pub fn value_bits(v: &VCDValue) -> String {
    match v {
        VCDValue::Single(s) => value_char(*s).to_string(),
        VCDValue::Vector(bits) => bits.iter().map(|b| value_char(*b)).collect(),
        VCDValue::String(s) => s.clone(),
        // rust-hdl places the first field of a LogicStruct at bit 0: the last field is the MSB.
        VCDValue::Composite(fields) => fields.iter().rev().map(|f| value_bits(f)).collect(),
    }
}

fn value_char(v: vcd::Value) -> char {
    match v {
        vcd::Value::V0 => '0',
        vcd::Value::V1 => '1',
        vcd::Value::X => 'x',
        vcd::Value::Z => 'z',
    }
}

/// Collects the top-level ports (depth 1 of the block tree) with their Verilog names.
struct PortProbe {
    depth: usize,
    ports: Vec<Port>,
    values: Vec<String>,
    collect_ports: bool,
}

impl Probe for PortProbe {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
    fn visit_start_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.depth != 1 {
            return;
        }
        let dir = match signal.kind() {
            AtomKind::InputParameter => PortDir::Input,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => PortDir::Output,
            _ => return,
        };
        if name == "clock" {
            return;
        }
        if self.collect_ports {
            self.ports.push(Port {
                name: name.to_string(),
                width: signal.bits(),
                dir,
            });
        }
        self.values.push(value_bits(&signal.vcd()));
    }
}

/// The top-level ports of `uut` (clock excluded) with their Verilog names, widths and
/// directions.
pub fn top_ports<B: Block>(uut: &B) -> Vec<Port> {
    let mut probe = PortProbe {
        depth: 0,
        ports: vec![],
        values: vec![],
        collect_ports: true,
    };
    uut.accept("uut", &mut probe);
    probe.ports
}

/// Collects the ports of one sub-block (depth 2 of the block tree, scope `child`) with their
/// Verilog names, as [`PortProbe`] does for the top level.
struct ChildPortProbe<'a> {
    child: &'a str,
    scopes: Vec<String>,
    ports: Vec<Port>,
    values: Vec<String>,
}

impl Probe for ChildPortProbe<'_> {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scopes.push(name.to_string());
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.scopes.pop();
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.scopes.push(name.to_string());
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.scopes.pop();
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.scopes.len() != 2 || self.scopes[1] != self.child {
            return;
        }
        let dir = match signal.kind() {
            AtomKind::InputParameter => PortDir::Input,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => PortDir::Output,
            _ => return,
        };
        if name == "clock" {
            return;
        }
        self.ports.push(Port {
            name: name.to_string(),
            width: signal.bits(),
            dir,
        });
        self.values.push(value_bits(&signal.vcd()));
    }
}

/// Records the ports of one sub-block of a harness's unit, cycle by cycle, for the
/// co-simulation of that sub-block exported on its own: call [`ChildPortTrace::sample`] where
/// [`Harness::step`] samples the top level (inputs settled, before the clock edge).
pub struct ChildPortTrace {
    child: &'static str,
    trace: PortTrace,
}

impl ChildPortTrace {
    /// A trace of the sub-block named `child` (its field name in the unit).
    pub fn new(child: &'static str) -> Self {
        ChildPortTrace {
            child,
            trace: PortTrace::default(),
        }
    }
    /// Record this cycle's port values of the sub-block.
    pub fn sample<B: Block>(&mut self, uut: &B) {
        let mut probe = ChildPortProbe {
            child: self.child,
            scopes: vec![],
            ports: vec![],
            values: vec![],
        };
        uut.accept("uut", &mut probe);
        if self.trace.ports.is_empty() {
            self.trace.ports = probe.ports;
        }
        self.trace.cycles.push(probe.values);
    }
    /// The recorded trace.
    pub fn finish(self) -> PortTrace {
        self.trace
    }
}

/// Steps a block cycle by cycle. See the module documentation for the timing of one step.
pub struct Harness<B: Block> {
    pub uut: B,
    set_clock: fn(&mut B, bool),
    cycle: u64,
    vcd: Option<VcdRecorder>,
    ports: Option<PortTrace>,
    /// The Verilator engine, when attached: it computes the block's outputs instead of
    /// rust-hdl's `update_all` ([`crate::verilator`]).
    verilated: Option<Verilated<B>>,
    clock: bool,
}

impl<B: Block> Harness<B> {
    /// Wrap `uut`; `set_clock` drives its clock input, e.g. `|u, c| u.clock.next = c.into()`.
    pub fn new(mut uut: B, set_clock: fn(&mut B, bool)) -> Self {
        uut.connect_all();
        set_clock(&mut uut, false);
        let mut h = Harness {
            uut,
            set_clock,
            cycle: 0,
            vcd: None,
            ports: None,
            verilated: None,
            clock: false,
        };
        let _ = h.settle();
        h
    }

    /// Run the block under the Verilator engine from now on ([`crate::verilator`]); `export`
    /// gives the connected block's Verilog (`eda::export::verilog_of_connected`).
    pub fn with_verilator(mut self, export: fn(&B, &str) -> String) -> Result<Self, String>
    where
        B: VerilatorTop,
    {
        if self.vcd.is_some() {
            return Err(VCD_NEEDS_HARNESS.into());
        }
        let ports: Vec<(String, bool, usize)> = top_ports(&self.uut)
            .into_iter()
            .map(|p| (p.name, p.dir == PortDir::Input, p.width))
            .collect();
        self.verilated = Some(Verilated::new(&self.uut, &ports, export)?);
        let _ = self.settle();
        Ok(self)
    }

    /// Record a VCD to `path`; `top` names the top scope (the unit's name).
    pub fn with_vcd(mut self, path: &Path, top: &str) -> std::io::Result<Self> {
        if self.verilated.is_some() {
            return Err(std::io::Error::other(VCD_NEEDS_HARNESS));
        }
        self.vcd = Some(VcdRecorder::create(path, top, &self.uut)?);
        Ok(self)
    }

    /// Record the top-level port values of every cycle for co-simulation.
    pub fn with_port_trace(mut self) -> Self {
        self.ports = Some(PortTrace {
            ports: top_ports(&self.uut),
            cycles: vec![],
        });
        self
    }

    /// Cycles completed so far (the index of the cycle being driven now).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Propagate the current inputs through the combinational logic.
    pub fn settle(&mut self) -> Result<(), NoConvergence> {
        if let Some(v) = &mut self.verilated {
            v.eval(&mut self.uut, self.clock);
            return Ok(());
        }
        for _ in 0..MAX_SETTLE {
            self.uut.update_all();
            if !self.uut.has_changed() {
                return Ok(());
            }
        }
        Err(NoConvergence { cycle: self.cycle })
    }

    /// One clock cycle (see the module documentation).
    pub fn step(&mut self) -> Result<(), NoConvergence> {
        self.settle()?;
        if let Some(trace) = &mut self.ports {
            let mut probe = PortProbe {
                depth: 0,
                ports: vec![],
                values: vec![],
                collect_ports: false,
            };
            self.uut.accept("uut", &mut probe);
            trace.cycles.push(probe.values);
        }
        if let Some(v) = &mut self.vcd {
            v.sample(PERIOD * self.cycle, &self.uut);
        }
        (self.set_clock)(&mut self.uut, true);
        self.clock = true;
        self.settle()?;
        if let Some(v) = &mut self.vcd {
            v.sample(PERIOD * self.cycle + PERIOD / 2, &self.uut);
        }
        // The falling edge is not settled on its own: no register reacts to it, so it settles
        // with the next cycle's inputs (the caller's next `settle`, or the one `step` begins
        // with) and the outputs read now are those after the rising edge either way. A
        // verilated model likewise evaluates the low clock with the next cycle's inputs.
        (self.set_clock)(&mut self.uut, false);
        self.clock = false;
        self.cycle += 1;
        SIMULATED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Run `n` cycles with unchanged inputs.
    pub fn run(&mut self, n: u64) -> Result<(), NoConvergence> {
        for _ in 0..n {
            self.step()?;
        }
        Ok(())
    }

    /// Flush the VCD (if any) and return the port trace (if recorded).
    pub fn finish(mut self) -> std::io::Result<Option<PortTrace>> {
        if let Some(v) = self.vcd.take() {
            v.finish(PERIOD * self.cycle)?;
        }
        Ok(self.ports.take())
    }
}
