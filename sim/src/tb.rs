//! The shared testbench kit (SPEC ): where a testbench writes its waves, the harness it
//! steps, the read-back of its VCD with the GTKWave save file beside it, and a valid/ready
//! [`ChannelMonitor`]. Every mechanism's testbenches use it; it names no mechanism.
use crate::harness::{Harness, PortTrace};
use crate::vcd::checker as vcd_check;
use crate::vcd::gtkw::{self, Group};
use crate::verilator::{Engine, VerilatorTop};
use rust_hdl::prelude::*;
use std::fmt::Debug;
use std::path::Path;

/// Where a testbench writes its waves, and whether it records ports for co-simulation.
#[derive(Debug, Clone, Default)]
pub struct TbOutput<'a> {
    pub vcd: Option<&'a Path>,
    pub record_ports: bool,
    /// The engine that runs the RTL (system simulations, [`system_harness`]).
    pub engine: Engine,
}

/// A harness for a testbench: VCD and port recording as `out` asks, top scope named `top`.
pub fn harness<B: Block>(
    uut: B,
    set_clock: fn(&mut B, bool),
    out: &TbOutput,
    top: &str,
) -> Result<Harness<B>, String> {
    let mut h = Harness::new(uut, set_clock);
    if let Some(p) = out.vcd {
        h = h
            .with_vcd(p, top)
            .map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    if out.record_ports {
        h = h.with_port_trace();
    }
    Ok(h)
}

/// A harness for a system simulation's top block: as [`harness`], under `out.engine`.
pub fn system_harness<B: VerilatorTop>(
    uut: B,
    set_clock: fn(&mut B, bool),
    out: &TbOutput,
    top: &str,
) -> Result<Harness<B>, String> {
    let engine = out.engine.resolve();
    if engine == Engine::Verilator && out.vcd.is_some() {
        return Err(crate::harness::VCD_NEEDS_HARNESS.into());
    }
    let h = harness(uut, set_clock, out, top)?;
    match engine {
        Engine::Harness => Ok(h),
        Engine::Verilator => h.with_verilator(crate::eda::export::verilog_of_connected::<B>),
    }
}

/// Finish a harness: flush the VCD, read it back with the independent parser, write its
/// GTKWave save file with `groups(vars)`.
pub fn finish_waves<B: Block>(
    h: Harness<B>,
    out: &TbOutput,
    groups: impl Fn(&[(String, u32)]) -> Vec<Group>,
) -> Result<Option<PortTrace>, String> {
    let ports = h.finish().map_err(|e| e.to_string())?;
    if let Some(p) = out.vcd {
        let summary = vcd_check::check_vcd(p)?;
        let groups = groups(&summary.vars);
        for g in &groups {
            for (sig, _) in &g.signals {
                if !summary.has_var(gtkw::vcd_path_of(sig)) {
                    return Err(format!(
                        "save file names {} which {} lacks",
                        sig,
                        p.display()
                    ));
                }
            }
        }
        gtkw::write_beside(p, summary.end_time, &groups).map_err(|e| e.to_string())?;
    }
    Ok(ports)
}

/// The valid/ready contract of one channel (SPEC X-2), checked cycle by cycle: once `valid` is
/// high the producer holds `valid` and the payload stable until the transfer (a cycle with both
/// `valid` and `ready` high). A reset clears what is held.
#[derive(Debug, Clone)]
pub struct ChannelMonitor<P> {
    name: &'static str,
    held: Option<P>,
}

impl<P: PartialEq + Clone + Debug> ChannelMonitor<P> {
    /// A monitor of the channel `name` (used in its messages).
    pub fn new(name: &'static str) -> Self {
        ChannelMonitor { name, held: None }
    }

    /// Check one cycle's settled values (before the clock edge). Returns whether a transfer
    /// happens this cycle, or a message naming the broken rule: `valid` dropped, or the payload
    /// changed, before the transfer.
    pub fn check(
        &mut self,
        reset: bool,
        valid: bool,
        ready: bool,
        payload: P,
    ) -> Result<bool, String> {
        if reset {
            self.held = None;
            return Ok(false);
        }
        if let Some(h) = &self.held {
            if !valid {
                return Err(format!(
                    "{}: valid dropped before the transfer of {:?}",
                    self.name, h
                ));
            }
            if *h != payload {
                return Err(format!(
                    "{}: payload changed while stalled: {:?} then {:?}",
                    self.name, h, payload
                ));
            }
        }
        self.held = (valid && !ready).then_some(payload);
        Ok(valid && ready)
    }

    /// Forget what is held (the channel was reset by other means).
    pub fn clear(&mut self) {
        self.held = None;
    }
}

/// Random stimulus of a channel testbench.
#[derive(Debug, Clone)]
pub struct TbConfig {
    pub cycles: u64,
    pub seed: u64,
    /// Probability that an idle producer raises `valid` in a cycle.
    pub valid_prob: f64,
    /// Probability that the consumer raises `ready` in a cycle.
    pub ready_prob: f64,
    /// Cycles (besides cycle 0) in which `reset` is raised.
    pub resets: Vec<u64>,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            cycles: 2000,
            seed: 1,
            valid_prob: 0.6,
            ready_prob: 0.6,
            resets: vec![],
        }
    }
}

/// What a testbench run saw.
#[derive(Debug, Clone, Default)]
pub struct TbResult {
    pub cycles: u64,
    pub transfers_in: u64,
    pub transfers_out: u64,
    pub max_fill: usize,
    pub ports: Option<PortTrace>,
}
