//! The driver / WDU (behavioural): walks the plan's steps in driver order, takes a batch ID for
//! every batch (SO-1), sends work tokens and state bundles to SSYNC (SO-3), dispatches streamed
//! batch/tasks to their SO unit's MPC and other batches to the pipeline, which retires them
//! after their latency (SO-2). An offset bundle waits until every SO unit is idle (see the
//! system module's documentation).
use super::cluster::{viol, Cluster};
use super::mpc::{MpcTask, Mpcs};
use super::plan::{Plan, Step, SysResult, TaskPlan};
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use ppu_hdl::prelude::*;
use ppu_hdl::stream_out::ssync;
use rust_hdl::prelude::*;
use serde_json::json;
use std::collections::VecDeque;

/// What the WDU offers in one cycle.
#[derive(Debug, Clone)]
pub struct WduOffer<'a> {
    step: Option<&'a Step>,
    cmd_kind: u64,
    cmd_valid: bool,
    offsets: [u32; 4],
    /// Takes the offered batch ID.
    want_id: bool,
    /// A batch outside stream output the pipeline has finished.
    done: Option<u16>,
}

/// The WDU's state.
#[derive(Debug, Clone, Default)]
pub struct Wdu {
    step_pos: usize,
    batch_count: usize,
    held_id: Option<u16>,
    enabled: bool,
    /// (cycle it finishes, batch ID) of batches in the pipeline, by finishing cycle.
    pipeline: VecDeque<(u64, u16)>,
}

impl Wdu {
    /// This cycle's offer; `so_idle`: every SO unit idle and no streamed task queued.
    pub fn offer<'a>(&self, plan: &'a Plan, cycle: u64, so_idle: bool) -> WduOffer<'a> {
        let reset = cycle == 0;
        let step = if reset {
            None
        } else {
            plan.steps.get(self.step_pos)
        };
        let (cmd_kind, cmd_valid, offsets) = match step {
            Some(Step::Enable) => (ssync::CMD_ENABLE, true, [0; 4]),
            Some(Step::Disable) => (ssync::CMD_DISABLE, true, [0; 4]),
            // Wait for idle before rebinding the offsets (see the module documentation).
            Some(Step::Offset(o)) => (ssync::CMD_OFFSET, so_idle, *o),
            Some(Step::Batch { .. }) => (ssync::CMD_WORK, self.held_id.is_some(), [0; 4]),
            None => (ssync::CMD_WORK, false, [0; 4]),
        };
        WduOffer {
            step,
            cmd_kind,
            cmd_valid,
            offsets,
            want_id: !reset && matches!(step, Some(Step::Batch { .. })) && self.held_id.is_none(),
            done: self
                .pipeline
                .front()
                .filter(|(t, _)| *t <= cycle)
                .map(|x| x.1),
        }
    }

    pub fn drive<const N: usize, const S: usize>(&self, u: &mut Cluster<N, S>, o: &WduOffer) {
        u.id_ready.next = o.want_id;
        u.cmd_valid.next = o.cmd_valid;
        u.cmd_kind.next = bits::<2>(o.cmd_kind);
        u.cmd_batch_id.next = bits::<14>(self.held_id.unwrap_or(0) as u64);
        u.cmd_offsets.next = Msg128Fields(o.offsets).to_hw();
        u.done_valid.next = o.done.is_some();
        u.done_batch_id.next = bits::<14>(o.done.unwrap_or(0) as u64);
    }

    /// This cycle's handshakes: batch ID taken, command sent (a batch dispatched), pipeline
    /// batch retired. Returns whether anything moved.
    pub fn observe<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        o: &WduOffer,
        cycle: u64,
        mpc: &mut Mpcs,
        trace: &mut TraceWriter,
        res: &mut SysResult,
    ) -> Result<bool, RunError> {
        let mut progress = false;
        if o.want_id && u.id_valid.val() {
            self.held_id = Some(u.id_batch_id.val().index() as u16);
            progress = true;
        }
        if o.cmd_valid && u.cmd_ready.val() {
            progress = true;
            match o.step {
                Some(Step::Enable) => self.enabled = true,
                Some(Step::Disable) => self.enabled = false,
                Some(Step::Batch {
                    packet,
                    vertices,
                    tasks,
                }) => {
                    let id = self.take_id(cycle)?;
                    res.batches += 1;
                    trace.event(
                        cycle,
                        "batch",
                        json!({"batch": id, "packet": packet, "vertices": vertices, "streamed": self.enabled}),
                    )?;
                    self.dispatch(id, tasks, cycle, mpc);
                }
                _ => {}
            }
            self.step_pos += 1;
        }
        if o.done.is_some() && u.done_ready.val() {
            self.pipeline.pop_front();
            progress = true;
        }
        Ok(progress)
    }

    /// The held batch ID, sent with its work token: consecutive from reset (SO-1).
    fn take_id(&mut self, cycle: u64) -> Result<u16, RunError> {
        let id = self.held_id.take().unwrap_or(0);
        if id as usize != self.batch_count & 0x3fff {
            return Err(viol(
                cycle,
                format!("batch ID {} is not consecutive (SO-1)", id),
            ));
        }
        self.batch_count += 1;
        Ok(id)
    }

    /// A streamed batch's tasks to their SO units' MPCs; any other batch to the pipeline.
    fn dispatch(&mut self, id: u16, tasks: &[TaskPlan], cycle: u64, mpc: &mut Mpcs) {
        if self.enabled && !tasks.is_empty() {
            for (t, tp) in tasks.iter().enumerate() {
                mpc.push(
                    tp.so_unit,
                    MpcTask {
                        batch_id: id,
                        task: t as u16,
                        last: t + 1 == tasks.len(),
                        bytes: tp.bytes,
                        ready_at: cycle + tp.latency,
                        batch_sent: false,
                        attrs_sent: 0,
                    },
                );
            }
        } else {
            let lat = tasks.iter().map(|t| t.latency).max().unwrap_or(0);
            let at = cycle + lat.max(1);
            let pos = self.pipeline.partition_point(|x| x.0 <= at);
            self.pipeline.insert(pos, (at, id));
        }
    }

    /// Every step sent and every pipeline batch retired.
    pub fn drained(&self, plan: &Plan) -> bool {
        self.step_pos == plan.steps.len() && self.held_id.is_none() && self.pipeline.is_empty()
    }
}
