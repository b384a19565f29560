//! The driver / WDU (behavioural): walks the plan's steps in driver order, takes a batch ID for
//! every batch (SO-1), sends work tokens and state bundles to SSYNC (SO-3), dispatches streamed
//! batch/tasks to their SO unit's MPC and other batches to the pipeline, which retires them
//! after their latency (SO-2). An offset bundle waits until every SO unit is idle, and so does
//! the disable that ends an operation with a bundle inside it (see the system module's
//! documentation).
//!
//! With a shader model ([`super::shader`]) a streamed batch/task goes to a free shader only: the
//! work token of a streamed batch waits until no task of the previous batch waits for a shader
//! and a shader is free for its first task; its other tasks wait, in order, for free shaders
//! (the next batch waits behind them).
use super::cluster::{viol, Cluster};
use super::mpc::{MpcTask, Mpcs, Ready};
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
    /// A streamed batch waits for a free shader.
    shader_wait: bool,
}

/// A streamed batch/task waiting for a free shader.
#[derive(Debug, Clone)]
struct Pending {
    batch_id: u16,
    task: u16,
    last: bool,
    plan: TaskPlan,
}

/// The WDU's state.
#[derive(Debug, Clone, Default)]
pub struct Wdu {
    step_pos: usize,
    batch_count: usize,
    held_id: Option<u16>,
    enabled: bool,
    /// An operation is open in SSYNC: streaming is enabled and a work token has been sent
    /// since the enable (SSYNC pushes the operation at its first work token, SO-3).
    op_open: bool,
    /// An offset bundle was sent while the operation was open: SSYNC applies it when that
    /// operation ends, so the disable that ends it waits for idle too.
    bundle_deferred: bool,
    /// (cycle it finishes, batch ID) of batches in the pipeline, by finishing cycle.
    pipeline: VecDeque<(u64, u16)>,
    /// Shader model: batch/tasks dispatched with their work token, waiting for a shader.
    pending: VecDeque<Pending>,
    /// Sequence number of the next batch/task given to a shader.
    seq: u64,
}

impl Wdu {
    /// This cycle's offer; `so_idle`: every SO unit idle and no streamed task queued.
    pub fn offer<'a>(&self, plan: &'a Plan, cycle: u64, so_idle: bool, mpc: &Mpcs) -> WduOffer<'a> {
        let reset = cycle == 0;
        let step = if reset {
            None
        } else {
            plan.steps.get(self.step_pos)
        };
        let shader_ready = match step {
            Some(Step::Batch { tasks, .. }) => self.shader_ready(tasks, mpc),
            _ => true,
        };
        // Every SO unit idle and no batch/task waiting for a shader.
        let idle = so_idle && self.pending.is_empty();
        let (cmd_kind, cmd_valid, offsets) = match step {
            Some(Step::Enable) => (ssync::CMD_ENABLE, true, [0; 4]),
            // Wait for idle before rebinding the offsets (see the module documentation): at
            // the bundle, and at the disable that ends an operation with a bundle inside it
            // (SSYNC applies that bundle when the operation ends).
            Some(Step::Disable) => (ssync::CMD_DISABLE, !self.bundle_deferred || idle, [0; 4]),
            Some(Step::Offset(o)) => (ssync::CMD_OFFSET, idle, *o),
            Some(Step::Batch { .. }) => (
                ssync::CMD_WORK,
                self.held_id.is_some() && shader_ready,
                [0; 4],
            ),
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
            shader_wait: self.held_id.is_some() && !shader_ready,
        }
    }

    /// Whether a batch with these tasks may be dispatched now: always without a shader model
    /// or when it is not streamed; otherwise no earlier task waits and its first task has a
    /// free shader.
    fn shader_ready(&self, tasks: &[TaskPlan], mpc: &Mpcs) -> bool {
        if !mpc.shaders.modelled() || !self.enabled || tasks.is_empty() {
            return true;
        }
        self.pending.is_empty() && mpc.shaders.free(shader_unit(&tasks[0])).is_some()
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
                Some(Step::Enable) => {
                    // (A repeated enable is ignored by SSYNC: the open operation stays open.)
                    if !self.enabled {
                        self.op_open = false;
                    }
                    self.enabled = true;
                }
                Some(Step::Disable) => {
                    self.enabled = false;
                    self.op_open = false;
                    self.bundle_deferred = false;
                }
                Some(Step::Offset(_)) => self.bundle_deferred |= self.op_open,
                Some(Step::Batch {
                    packet,
                    vertices,
                    tasks,
                }) => {
                    let id = self.take_id(cycle)?;
                    self.op_open |= self.enabled;
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
        progress |= self.place(cycle, mpc);
        if o.shader_wait || !self.pending.is_empty() {
            res.dispatch_wait_cycles += 1;
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
        if self.enabled && !tasks.is_empty() && mpc.shaders.modelled() {
            for (t, tp) in tasks.iter().enumerate() {
                self.pending.push_back(Pending {
                    batch_id: id,
                    task: t as u16,
                    last: t + 1 == tasks.len(),
                    plan: tp.clone(),
                });
            }
        } else if self.enabled && !tasks.is_empty() {
            for (t, tp) in tasks.iter().enumerate() {
                mpc.push(
                    tp.so_unit,
                    MpcTask {
                        batch_id: id,
                        task: t as u16,
                        last: t + 1 == tasks.len(),
                        bytes: tp.bytes,
                        ready: Ready::At(cycle + tp.latency),
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

    /// Shader model: the waiting batch/tasks, in order, to free shaders (and so to the MPC of
    /// the shader's SO unit). Returns whether any went.
    fn place(&mut self, cycle: u64, mpc: &mut Mpcs) -> bool {
        let mut placed = false;
        while let Some(p) = self.pending.front() {
            let Some(s) = mpc.shaders.free(shader_unit(&p.plan)) else {
                break;
            };
            let seq = self.seq;
            self.seq += 1;
            mpc.shaders.start(s, seq, cycle, p.plan.latency);
            let unit = mpc.shaders.unit_of(s);
            mpc.push(
                unit,
                MpcTask {
                    batch_id: p.batch_id,
                    task: p.task,
                    last: p.last,
                    bytes: p.plan.bytes,
                    ready: Ready::Shader { shader: s, seq },
                    batch_sent: false,
                    attrs_sent: 0,
                },
            );
            self.pending.pop_front();
            placed = true;
        }
        placed
    }

    /// Every step sent, every batch/task given to a shader, every pipeline batch retired.
    pub fn drained(&self, plan: &Plan) -> bool {
        self.step_pos == plan.steps.len()
            && self.held_id.is_none()
            && self.pipeline.is_empty()
            && self.pending.is_empty()
    }
}

/// The SO unit a batch/task's shader must feed (`None`: any).
fn shader_unit(t: &TaskPlan) -> Option<usize> {
    if t.any_shader {
        None
    } else {
        Some(t.so_unit)
    }
}
