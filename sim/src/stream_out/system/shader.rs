//! The shaders (processing clusters, behavioural) of the system simulation when the plan has a
//! [`ShaderModel`]: `count` shaders spread evenly over the SO units (shader `s` feeds SO unit
//! `s mod so_units`, so with one SO unit every shader feeds it). A shader computes one
//! batch/task at a time for its latency, then puts the output in its output buffer of
//! `out_batches` entries; its SO unit's MPC takes the output when the SO unit accepts the
//! batch-end packet. A shader with its output buffer full cannot start its next batch/task
//! (a stall cycle); the WDU dispatches only to a free shader.
use std::collections::VecDeque;

/// The shader configuration of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShaderModel {
    /// Number of shaders, at least the number of SO units.
    pub count: usize,
    /// Output buffer capacity of one shader, in batch/tasks (at least 1).
    pub out_batches: usize,
}

/// One shader.
#[derive(Debug, Clone, Default)]
struct Shader {
    /// (cycle the computation ends, task sequence number) of the batch/task being computed.
    computing: Option<(u64, u64)>,
    /// Finished batch/tasks waiting for the MPC, oldest first.
    out: VecDeque<u64>,
}

/// Every shader and its counters.
#[derive(Debug, Clone, Default)]
pub struct Shaders {
    model: Option<ShaderModel>,
    so_units: usize,
    shaders: Vec<Shader>,
    /// Next shader tried first (round-robin).
    next: usize,
    /// Sum over shaders of cycles spent idle with a full output buffer.
    pub stall_cycles: u64,
}

impl Shaders {
    /// No model: every batch/task has a shader of its own and unbounded output (ready its
    /// latency after dispatch).
    pub fn new(model: Option<ShaderModel>, so_units: usize) -> Shaders {
        Shaders {
            model,
            so_units: so_units.max(1),
            shaders: vec![Shader::default(); model.map(|m| m.count).unwrap_or(0)],
            next: 0,
            stall_cycles: 0,
        }
    }

    pub fn modelled(&self) -> bool {
        self.model.is_some()
    }

    fn is_free(&self, s: usize) -> bool {
        let cap = self.model.map(|m| m.out_batches).unwrap_or(1);
        let sh = &self.shaders[s];
        sh.computing.is_none() && sh.out.len() < cap
    }

    /// A free shader feeding SO unit `unit` (any SO unit if `None`), round-robin from the last
    /// pick. `None` without a shader model.
    pub fn free(&self, unit: Option<usize>) -> Option<usize> {
        let n = self.shaders.len();
        (0..n)
            .map(|k| (self.next + k) % n)
            .find(|&s| unit.map_or(true, |u| s % self.so_units == u) && self.is_free(s))
    }

    /// The SO unit shader `s` feeds.
    pub fn unit_of(&self, s: usize) -> usize {
        s % self.so_units
    }

    /// Start task `seq` on free shader `s` at `cycle`; it finishes `latency` cycles later.
    pub fn start(&mut self, s: usize, seq: u64, cycle: u64, latency: u64) {
        self.shaders[s].computing = Some((cycle + latency, seq));
        self.next = (s + 1) % self.shaders.len().max(1);
    }

    /// Start of `cycle`: finished computations go to their output buffers (room was checked
    /// when they started); idle shaders with a full output buffer count a stall cycle.
    pub fn tick(&mut self, cycle: u64) {
        let cap = self.model.map(|m| m.out_batches).unwrap_or(1);
        for sh in self.shaders.iter_mut() {
            if let Some((at, seq)) = sh.computing {
                if at <= cycle {
                    sh.out.push_back(seq);
                    sh.computing = None;
                }
            }
            if sh.computing.is_none() && sh.out.len() >= cap {
                self.stall_cycles += 1;
            }
        }
    }

    /// Task `seq`'s output is the oldest in shader `s`'s output buffer.
    pub fn output_ready(&self, s: usize, seq: u64) -> bool {
        self.shaders[s].out.front() == Some(&seq)
    }

    /// The MPC took shader `s`'s oldest output.
    pub fn take(&mut self, s: usize) {
        self.shaders[s].out.pop_front();
    }
}
