//! Driving and observing the status RTL of the system: one [`StatusCluster`] built for
//! [`MAX_UNITS`] units and connections (units beyond the pipeline sit in no connection, see no
//! activity and stay EMPTY), stepped in one cycle harness.
use super::config::{SystemConfig, MAX_UNITS};
use super::pipeline::UnitCommands;
use crate::harness::{Harness, NoConvergence};
use crate::scenario::RunError;
use crate::status::golden::{ClusterIn, State};
use crate::status::tb::status_cluster::set_cluster_inputs;
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
}

impl<const S: usize> ClusterPort<S> {
    /// The cluster for `cfg`'s connections, recording `cfg.vcd` if asked.
    pub fn new(cfg: &SystemConfig) -> Result<Self, RunError> {
        let mut h = Harness::new(SystemCluster::<S>::new(&cfg.groups), |u, c| {
            u.clock.next = c.into()
        });
        if let Some(p) = &cfg.vcd {
            h = h
                .with_vcd(p, "status_cluster")
                .map_err(|e| RunError::Output(format!("{}: {}", p.display(), e)))?;
        }
        Ok(ClusterPort { h })
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

    /// Flush the waves, if recorded.
    pub fn finish(self) -> Result<(), RunError> {
        self.h
            .finish()
            .map(|_| ())
            .map_err(|e| RunError::Output(e.to_string()))
    }
}
