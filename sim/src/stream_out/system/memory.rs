//! The memory (behavioural): the four stream output buffers behind a frame buffer that takes
//! at most `fb_bytes_per_cycle` bytes per cycle, SO units served round-robin; at the end its
//! contents are compared with the golden buffers (SO-11).
//!
//! A write no larger than the frame buffer's bandwidth is taken whole in one cycle, when the
//! bytes left in that cycle's budget (after the SO units ahead of it in the round-robin order)
//! cover it. A write larger than the bandwidth (a frame buffer narrower than an SO unit's
//! `bytes_per_cycle`) is split: in each cycle where it is offered, the memory takes whatever
//! budget is left when its turn comes, and the write completes (`wr_ready`) in the cycle its
//! last bytes are taken. Its data is stable meanwhile (X-2: the payload does not change while
//! `wr_valid` waits for `wr_ready`), so the bytes stored are the offered ones. Each cycle's
//! part is stored and traced in that cycle (a `write` event per part, with its own offset and
//! bytes), so the `write` events of one cycle never carry more than `fb_bytes_per_cycle`.
use super::cluster::{to_err, viol, Cluster};
use super::plan::{Plan, SysResult};
use crate::harness::Harness;
use crate::scenario::RunError;
use crate::stream_out::golden::{self, Golden};
use crate::trace::TraceWriter;
use serde_json::json;

/// The part of an SO unit's offered write the frame buffer takes in one cycle: `bytes` bytes
/// from byte `start` of the write; `done` when they are its last (`wr_ready` is raised).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub start: u64,
    pub bytes: u64,
    pub done: bool,
}

/// The frame buffer and the buffers it holds.
#[derive(Debug, Clone)]
pub struct FrameBuffer {
    mem: [Vec<u8>; 4],
    size: [u32; 4],
    bytes_per_cycle: u32,
    /// The SO unit served first this cycle.
    rr: usize,
    /// Per SO unit: bytes of its offered write already taken (a write wider than the frame
    /// buffer's bandwidth takes several cycles).
    taken: Vec<u64>,
}

impl FrameBuffer {
    /// The frame buffer of `plan` in front of a cluster of `so_units` SO units.
    pub fn new(plan: &Plan, so_units: usize) -> FrameBuffer {
        FrameBuffer {
            mem: std::array::from_fn(|i| vec![0u8; plan.buffer_bytes[i] as usize]),
            size: plan.buffer_bytes,
            bytes_per_cycle: plan.fb_bytes_per_cycle,
            rr: 0,
            taken: vec![0; so_units],
        }
    }

    /// Nothing accepted before [`grant`](Self::grant) decides.
    pub fn drive<const N: usize, const S: usize>(&self, u: &mut Cluster<N, S>) {
        for r in u.wr_ready.iter_mut() {
            r.next = false;
        }
    }

    /// Take the parts of the offered writes that fit this cycle's bandwidth, round-robin from
    /// `rr` (a write wider than the bandwidth completes over several cycles, see the module
    /// comment), and settle again with the completed ones as `wr_ready`.
    pub fn grant<const N: usize, const S: usize>(
        &mut self,
        h: &mut Harness<Cluster<N, S>>,
    ) -> Result<[Option<Part>; N], RunError> {
        let mut budget = self.bytes_per_cycle as u64;
        let mut parts = [None; N];
        for k in 0..N {
            let i = (self.rr + k) % N;
            if h.uut.wr_valid[i].val() {
                let n = h.uut.wr_bytes[i].val().to_u32() as u64;
                let start = self.taken[i].min(n);
                let left = n - start;
                if left <= budget {
                    budget -= left;
                    parts[i] = Some(Part {
                        start,
                        bytes: left,
                        done: true,
                    });
                    self.taken[i] = 0;
                } else if n > self.bytes_per_cycle as u64 && budget > 0 {
                    // Wider than the frame buffer: take this cycle's remaining budget.
                    parts[i] = Some(Part {
                        start,
                        bytes: budget,
                        done: false,
                    });
                    self.taken[i] += budget;
                    budget = 0;
                }
            }
        }
        self.rr = (self.rr + 1) % N;
        for (i, p) in parts.iter().enumerate() {
            h.uut.wr_ready[i].next = p.is_some_and(|p| p.done);
        }
        h.settle().map_err(to_err)?;
        Ok(parts)
    }

    /// Store this cycle's parts of the offered writes; returns whether any was taken.
    pub fn write<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        parts: &[Option<Part>; N],
        cycle: u64,
        trace: &mut TraceWriter,
        res: &mut SysResult,
    ) -> Result<bool, RunError> {
        let mut progress = false;
        for (i, part) in parts.iter().enumerate() {
            let Some(part) = part else {
                continue;
            };
            let b = u.wr_buffer[i].val().index();
            let whole = u.wr_offset[i].val().to_u32() as u64;
            let idx = u.wr_index[i].val().to_u32() as u64 + part.start;
            let bid = u.wr_batch_id[i].val().index() as u16;
            let task = u.wr_task_number[i].val().index() as u16;
            let (off, n) = (whole + part.start, part.bytes);
            if off + n > self.size[b] as u64 {
                return Err(viol(
                    cycle,
                    format!("SO unit {} writes past the end of buffer {}", i, b),
                ));
            }
            for k in 0..n {
                self.mem[b][(off + k) as usize] = golden::data_byte(bid, task, b, (idx + k) as u32);
            }
            trace.event(
                cycle,
                "write",
                json!({"so_unit": i, "buffer": b, "offset": off, "bytes": n, "batch": bid, "task": task}),
            )?;
            res.bytes_written[b] += n;
            res.first_write_cycle.get_or_insert(cycle);
            res.last_write_cycle = cycle;
            progress = true;
        }
        Ok(progress)
    }

    /// At the end: every buffer equals the golden buffer, and the bytes written per buffer the
    /// golden count (SO-11).
    pub fn check(&self, g: &Golden, bytes_written: &[u64; 4]) -> Result<(), RunError> {
        let gold = golden::buffers(g, self.size);
        for b in 0..4 {
            if self.mem[b] != gold[b] {
                let at = self.mem[b]
                    .iter()
                    .zip(gold[b].iter())
                    .position(|(x, y)| x != y)
                    .unwrap_or(0);
                return Err(RunError::Violation(format!(
                    "buffer {} differs from the golden buffer at byte {} (SO-11)",
                    b, at
                )));
            }
            if bytes_written[b] != g.written[b] {
                return Err(RunError::Violation(format!(
                    "buffer {}: {} bytes written, golden {}",
                    b, bytes_written[b], g.written[b]
                )));
            }
        }
        Ok(())
    }
}
