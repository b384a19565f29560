//! The MPC of every SO unit (behavioural): per streamed batch/task, in dispatch order, the
//! batch-ID packet, then once the shader's output is there the attribute bytes per buffer (one
//! packet per buffer with bytes), then the batch-end packet, which takes the output from the
//! shader. Without a shader model the output is there the shader latency after dispatch; with
//! one ([`Shaders`]) it is there when the shader has computed it.
use super::cluster::Cluster;
use super::shader::Shaders;
use ppu_hdl::prelude::*;
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// One streamed batch/task queued at its SO unit's MPC.
#[derive(Debug, Clone)]
pub struct MpcTask {
    pub batch_id: u16,
    pub task: u16,
    pub last: bool,
    pub bytes: [u32; 4],
    /// When its attribute bytes may go.
    pub ready: Ready,
    pub batch_sent: bool,
    pub attrs_sent: usize,
}

/// When a batch/task's output is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ready {
    /// From this cycle on (no shader model: the shader latency after dispatch).
    At(u64),
    /// When task `seq` is the oldest output of shader `shader`.
    Shader { shader: usize, seq: u64 },
}

/// The MPC of every SO unit, each with its queue of batch/tasks, and the shaders feeding them.
#[derive(Debug, Clone)]
pub struct Mpcs {
    queues: Vec<VecDeque<MpcTask>>,
    pub shaders: Shaders,
}

impl Mpcs {
    pub fn new(n: usize, shaders: Shaders) -> Mpcs {
        Mpcs {
            queues: vec![VecDeque::new(); n],
            shaders,
        }
    }

    fn ready(&self, t: &MpcTask, cycle: u64) -> bool {
        match t.ready {
            Ready::At(at) => cycle >= at,
            Ready::Shader { shader, seq } => self.shaders.output_ready(shader, seq),
        }
    }

    /// Queue a batch/task at SO unit `unit`.
    pub fn push(&mut self, unit: usize, task: MpcTask) {
        self.queues[unit].push_back(task);
    }

    /// No batch/task queued anywhere.
    pub fn all_empty(&self) -> bool {
        self.queues.iter().all(VecDeque::is_empty)
    }

    /// Offer each queue head's next packet.
    pub fn drive<const N: usize, const S: usize>(
        &self,
        u: &mut Cluster<N, S>,
        reset: bool,
        cycle: u64,
    ) {
        for (i, q) in self.queues.iter().enumerate() {
            let head = if reset { None } else { q.front() };
            let batch_offer = head.filter(|t| !t.batch_sent);
            u.batch_valid[i].next = batch_offer.is_some();
            u.batch_data[i].next = batch_offer
                .map(|t| {
                    FirstRequestFields {
                        batch_id: t.batch_id,
                        task: t.task,
                        last: t.last,
                    }
                    .to_hw()
                })
                .unwrap_or_default();
            let (attr, end) = match head {
                Some(t) if t.batch_sent && self.ready(t, cycle) => {
                    let bufs: Vec<usize> = (0..4).filter(|&b| t.bytes[b] > 0).collect();
                    match bufs.get(t.attrs_sent) {
                        Some(&b) => (Some((b, t.bytes[b])), false),
                        None => (None, true),
                    }
                }
                _ => (None, false),
            };
            u.attr_valid[i].next = attr.is_some();
            u.attr_buffer[i].next = bits::<2>(attr.map(|a| a.0 as u64).unwrap_or(0));
            u.attr_bytes[i].next = bits::<32>(attr.map(|a| a.1 as u64).unwrap_or(0));
            u.end_valid[i].next = end;
        }
    }

    /// This cycle's handshakes; returns whether any packet went.
    pub fn observe<const N: usize, const S: usize>(&mut self, u: &Cluster<N, S>) -> bool {
        let mut progress = false;
        for (i, q) in self.queues.iter_mut().enumerate() {
            if let Some(t) = q.front_mut() {
                if u.batch_valid[i].val() && u.batch_ready[i].val() {
                    t.batch_sent = true;
                    progress = true;
                }
                if u.attr_valid[i].val() && u.attr_ready[i].val() {
                    t.attrs_sent += 1;
                    progress = true;
                }
                if u.end_valid[i].val() && u.end_ready[i].val() {
                    if let Some(Ready::Shader { shader, .. }) = q.pop_front().map(|t| t.ready) {
                        self.shaders.take(shader);
                    }
                    progress = true;
                }
            }
        }
        progress
    }
}
