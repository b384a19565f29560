//! Driving and observing the status RTL of the system: one [`StatusCluster`] built for
//! [`MAX_UNITS`] units and connections (units beyond the pipeline sit in no connection, see no
//! activity and stay EMPTY), stepped in one cycle harness.
use super::config::{SystemConfig, MAX_UNITS};
use super::pipeline::UnitCommands;
use crate::harness::{Harness, NoConvergence};
use crate::scenario::RunError;
use crate::status::golden::{ClusterIn, State};
use crate::status::tb::status_cluster::set_cluster_inputs;
use crate::verilator::{PortMap, VerilatorTop};
use ppu_hdl::status::status_cluster::StatusCluster;

/// The cluster of the system simulation at tree depth `S`.
pub type SystemCluster<const S: usize> = StatusCluster<MAX_UNITS, MAX_UNITS, S>;

fn hw<T>(r: Result<T, NoConvergence>) -> Result<T, RunError> {
    r.map_err(|e| RunError::Violation(e.to_string()))
}

/// What the front end sees of the monitor once this cycle's inputs have settled.
#[derive(Debug, Clone, Copy, Default)]
pub struct MonitorView {
    pub violation: bool,
    /// The switch command was taken (valid and ready).
    pub switch_taken: bool,
    pub all_halted_seen: bool,
    pub deadlock: bool,
    pub cmd_halt: bool,
    pub cmd_reset: bool,
    pub line_resume: u64,
    pub line_reset: u64,
}

/// The cluster in its harness.
pub struct ClusterPort<const S: usize> {
    h: Harness<SystemCluster<S>>,
    /// Where the waves go (their GTKWave save file beside them), and the units they show.
    vcd: Option<std::path::PathBuf>,
    units: usize,
}

impl<const S: usize> ClusterPort<S> {
    /// The cluster for `cfg`'s connections, recording `cfg.vcd` if asked.
    pub fn new(cfg: &SystemConfig) -> Result<Self, RunError> {
        let out = crate::tb::TbOutput {
            vcd: cfg.vcd.as_deref(),
            record_ports: false,
            engine: cfg.engine,
        };
        let h = crate::tb::system_harness(
            SystemCluster::<S>::new(&cfg.groups),
            |u, c| u.clock.next = c.into(),
            &out,
            "status_cluster",
        )
        .map_err(RunError::Output)?;
        Ok(ClusterPort {
            h,
            vcd: cfg.vcd.clone(),
            units: cfg.units.len(),
        })
    }

    /// The commands reaching the units this cycle (command tree registers).
    pub fn commands(&self) -> UnitCommands {
        let u = &self.h.uut;
        UnitCommands {
            halt: u.unit_halt.val().to_u64(),
            reset: u.unit_reset.val().to_u64(),
            resume: u.unit_resume.val().to_u64(),
        }
    }

    /// The monitor's phase this cycle (a register).
    pub fn phase(&self) -> u64 {
        self.h.uut.phase.val().to_u64()
    }

    /// The monitor stops the feed this cycle (decoded from its phase).
    pub fn feed_stop(&self) -> bool {
        self.h.uut.feed_stop.val()
    }

    /// Apply this cycle's inputs and let them settle.
    pub fn drive(&mut self, i: &ClusterIn) -> Result<MonitorView, RunError> {
        set_cluster_inputs(&mut self.h.uut, i);
        hw(self.h.settle())?;
        let u = &self.h.uut;
        Ok(MonitorView {
            violation: u.violation.val(),
            switch_taken: i.switch_valid && u.switch_ready.val(),
            all_halted_seen: u.all_halted_seen.val(),
            deadlock: u.deadlock.val(),
            cmd_halt: u.cmd_halt.val(),
            cmd_reset: u.cmd_reset.val(),
            line_resume: u.line_resume.val().to_u64(),
            line_reset: u.line_reset.val().to_u64(),
        })
    }

    /// The clock edge.
    pub fn step(&mut self) -> Result<(), RunError> {
        hw(self.h.step())
    }

    /// The state unit `i` reports (after the edge), with its code.
    pub fn state(&self, i: usize) -> Result<(State, u64), RunError> {
        let code = self.h.uut.status[i].val().to_u64();
        let st = State::from_code(code).ok_or_else(|| {
            RunError::Violation(format!("unit {} reports the illegal code {}", i, code))
        })?;
        Ok((st, code))
    }

    /// Flush the waves, if recorded, and write their GTKWave save file beside them (the
    /// groups of the status-cluster testbench, for the run's units).
    pub fn finish(self) -> Result<(), RunError> {
        let out = crate::tb::TbOutput {
            vcd: self.vcd.as_deref(),
            record_ports: false,
            engine: Default::default(),
        };
        let units = self.units;
        crate::tb::finish_waves(self.h, &out, |vars| {
            crate::status::tb::status_cluster::cluster_groups(vars, units)
        })
        .map(|_| ())
        .map_err(RunError::Output)
    }
}

/// Under the Verilator engine: every port of the status cluster.
impl<const N: usize, const G: usize, const S: usize> VerilatorTop for StatusCluster<N, G, S> {
    const TOP: &'static str = "status_cluster";
    fn port_map() -> PortMap<Self> {
        let mut m = PortMap::<Self>::default();
        m.input("reset", |u| &mut u.reset)
            .input("in_active", |u| &mut u.in_active)
            .input("busy", |u| &mut u.busy)
            .input("out_valid", |u| &mut u.out_valid)
            .input("out_blocked", |u| &mut u.out_blocked)
            .input("mem_pending", |u| &mut u.mem_pending)
            .input("pending", |u| &mut u.pending)
            .input("nack", |u| &mut u.nack)
            .input("can_halt", |u| &mut u.can_halt)
            .input("switch_valid", |u| &mut u.switch_valid)
            .input("drain_mode", |u| &mut u.drain_mode)
            .input("deadlock_threshold", |u| &mut u.deadlock_threshold)
            .input("progress", |u| &mut u.progress)
            .input("store_done", |u| &mut u.store_done)
            .input("restore_done", |u| &mut u.restore_done);
        m.output("unit_halt", |u| &mut u.unit_halt)
            .output("unit_reset", |u| &mut u.unit_reset)
            .output("unit_resume", |u| &mut u.unit_resume)
            .outputs("status${}", N, |u, i| &mut u.status[i])
            .output("unit_violation", |u| &mut u.unit_violation)
            .output("all_halted", |u| &mut u.all_halted)
            .output("all_empty", |u| &mut u.all_empty)
            .output("none_stalled", |u| &mut u.none_stalled)
            .output("none_quiescent", |u| &mut u.none_quiescent)
            .output("switch_ready", |u| &mut u.switch_ready)
            .output("store_req", |u| &mut u.store_req)
            .output("restore_req", |u| &mut u.restore_req)
            .output("phase", |u| &mut u.phase)
            .output("feed_stop", |u| &mut u.feed_stop)
            .output("cmd_halt", |u| &mut u.cmd_halt)
            .output("cmd_reset", |u| &mut u.cmd_reset)
            .output("line_resume", |u| &mut u.line_resume)
            .output("line_reset", |u| &mut u.line_reset)
            .output("all_halted_seen", |u| &mut u.all_halted_seen)
            .output("deadlock", |u| &mut u.deadlock)
            .output("violation", |u| &mut u.violation);
        m
    }
}
