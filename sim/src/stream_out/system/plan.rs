//! What a system run is given and what it reports: the [`Plan`] (the WDU's input in driver
//! order and the configuration) and the [`SysResult`].
use super::shader::ShaderModel;
use crate::stream_out::golden::{self, Golden, Packet};

/// One batch/task as the driver hands it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPlan {
    pub so_unit: usize,
    pub bytes: [u32; 4],
    pub latency: u64,
    /// With a shader model: the WDU gives it to the next free shader, whatever SO unit that
    /// shader feeds (`so_unit` is then not used); otherwise to a free shader of `so_unit`.
    pub any_shader: bool,
}

/// One entry of the WDU's input, in driver order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Enable,
    Disable,
    Offset([u32; 4]),
    Batch {
        packet: usize,
        vertices: u64,
        tasks: Vec<TaskPlan>,
    },
}

/// A validated system run.
#[derive(Debug, Clone)]
pub struct Plan {
    pub so_units: usize,
    pub so_bytes_per_cycle: u32,
    pub fb_bytes_per_cycle: u32,
    pub buffer_bytes: [u32; 4],
    pub steps: Vec<Step>,
    pub max_cycles: u64,
    /// `None`: every batch/task has a shader of its own and unbounded output buffers.
    pub shaders: Option<ShaderModel>,
    /// The engine that runs the cluster's RTL.
    pub engine: crate::verilator::Engine,
}

impl Plan {
    pub fn batches(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Batch { .. }))
            .count()
    }

    /// The golden model's view: batch `k` gets ID `k mod 2^14` (IDs are consecutive from reset).
    pub fn golden(&self) -> Golden {
        golden::golden(&self.packets(), self.buffer_bytes)
    }

    fn packets(&self) -> Vec<Packet> {
        let mut k = 0usize;
        self.steps
            .iter()
            .map(|s| match s {
                Step::Enable => Packet::Enable,
                Step::Disable => Packet::Disable,
                Step::Offset(o) => Packet::Offset(*o),
                Step::Batch { tasks, .. } => {
                    k += 1;
                    Packet::Batch {
                        batch_id: ((k - 1) & 0x3fff) as u16,
                        tasks: tasks.iter().map(|t| t.bytes).collect(),
                    }
                }
            })
            .collect()
    }
}

/// Figures of a finished run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SysResult {
    pub cycles: u64,
    /// Cycle of the last buffer write (or of the last response when nothing is written).
    pub last_write_cycle: u64,
    pub first_write_cycle: Option<u64>,
    pub bytes_written: [u64; 4],
    pub ssobo: [u32; 4],
    pub responses: u64,
    pub overflows: u64,
    pub retired: u64,
    /// Cycles from a first request to its response, for requests that were current on arrival.
    pub in_order_latency: Vec<u64>,
    pub batches: u64,
    /// Cycles of the first and last SSYNC response.
    pub first_response_cycle: Option<u64>,
    pub last_response_cycle: u64,
    /// Shader model: sum over shaders of cycles idle with a full output buffer.
    pub shader_stall_cycles: u64,
    /// Shader model: cycles the WDU held a streamed batch/task with no free shader for it.
    pub dispatch_wait_cycles: u64,
}

impl SysResult {
    pub fn total_bytes(&self) -> u64 {
        self.bytes_written.iter().sum()
    }
    /// Aggregate stream-output bandwidth: bytes written per cycle over the whole run.
    pub fn bytes_per_cycle(&self) -> f64 {
        self.total_bytes() as f64 / self.cycles.max(1) as f64
    }
    /// SSYNC responses per cycle from the first response to the last.
    pub fn responses_per_cycle(&self) -> f64 {
        match self.first_response_cycle {
            Some(f) => self.responses as f64 / (self.last_response_cycle + 1 - f) as f64,
            None => 0.0,
        }
    }
}
