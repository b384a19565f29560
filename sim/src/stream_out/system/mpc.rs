//! The MPC and shader of every SO unit (behavioural): per streamed batch/task, the batch-ID
//! packet, then after the shader latency the attribute bytes per buffer (one packet per buffer
//! with bytes), then the batch-end packet.
use super::cluster::Cluster;
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
    /// First cycle its attribute bytes may go (the shader latency after dispatch).
    pub ready_at: u64,
    pub batch_sent: bool,
    pub attrs_sent: usize,
}

/// The MPC of every SO unit, each with its queue of batch/tasks.
#[derive(Debug, Clone)]
pub struct Mpcs {
    queues: Vec<VecDeque<MpcTask>>,
}

impl Mpcs {
    pub fn new(n: usize) -> Mpcs {
        Mpcs {
            queues: vec![VecDeque::new(); n],
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
                Some(t) if t.batch_sent && cycle >= t.ready_at => {
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
                    q.pop_front();
                    progress = true;
                }
            }
        }
        progress
    }
}
