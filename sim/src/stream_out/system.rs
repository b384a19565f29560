//! Stream-output system simulation (SPEC SO-1..SO-14): the RTL [`SoCluster`] (batch-ID
//! generator, SSYNC, crossbar, `SO_UNITS` SO units) stepped in the cycle harness, surrounded by
//! behavioural models:
//! - driver / WDU: walks the packet stream, takes a batch ID for every batch, sends work
//!   tokens and state bundles to SSYNC, dispatches streamed batch/tasks to their SO unit's MPC
//!   and other batches to the pipeline (which retires them after their latency, SO-2);
//! - MPC + shader per SO unit: batch-ID packet, then after the shader latency the attribute
//!   bytes per buffer, then the batch-end packet;
//! - memory: the four stream output buffers behind a frame buffer that accepts at most
//!   `fb_bytes_per_cycle` bytes per cycle (SO units served round-robin).
//!
//! Reading (SO-3, SO-11): the driver sends an offset bundle only when every SO unit is idle
//! and no streamed batch/task is queued, as a driver that rebinds stream-output targets first
//! waits for idle. SSYNC applies the bundle between operations in stream order, but SO units
//! write in parallel: if the new offsets point back into bytes an earlier operation is still
//! writing, the two writes would land in no defined order and the buffers could differ from
//! driver order. (Seen with a random scenario, seed 422911, before this wait was added.)
//!
//! Every run is checked against the golden model ([`super::golden`]): each response's offsets
//! and order, each second request's bytes, retire order, overflow decisions, the final SSOBOs
//! and the final contents of every buffer (SO-11). A mismatch is a [`RunError::Violation`].
use super::golden::{self, Golden, Packet};
use crate::harness::Harness;
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use ppu_hdl::stream_out::so_cluster::SoCluster;
use ppu_hdl::stream_out::ssync;
use rust_hdl::prelude::*;
use serde_json::json;
use std::collections::VecDeque;
use std::path::Path;

/// One batch/task as the driver hands it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPlan {
    pub so_unit: usize,
    pub bytes: [u32; 4],
    pub latency: u64,
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
}

impl SysResult {
    pub fn total_bytes(&self) -> u64 {
        self.bytes_written.iter().sum()
    }
    /// Aggregate stream-output bandwidth: bytes written per cycle over the whole run.
    pub fn bytes_per_cycle(&self) -> f64 {
        self.total_bytes() as f64 / self.cycles.max(1) as f64
    }
}

/// Run a plan, writing trace events to `trace` and (optionally) a VCD.
pub fn run_plan(
    plan: &Plan,
    trace: &mut TraceWriter,
    vcd: Option<&Path>,
) -> Result<SysResult, RunError> {
    match plan.so_units {
        1 => simulate::<1, 1>(plan, trace, vcd),
        2 => simulate::<2, 1>(plan, trace, vcd),
        3..=4 => simulate::<4, 2>(plan, trace, vcd),
        5..=8 => simulate::<8, 3>(plan, trace, vcd),
        9..=16 => simulate::<16, 4>(plan, trace, vcd),
        n => Err(RunError::invalid(
            "config.so_units",
            format!("{} is not in 1..=16", n),
        )),
    }
}

#[derive(Debug, Clone)]
struct MpcTask {
    batch_id: u16,
    task: u16,
    last: bool,
    bytes: [u32; 4],
    ready_at: u64,
    batch_sent: bool,
    attrs_sent: usize,
}

fn viol(cycle: u64, what: String) -> RunError {
    RunError::Violation(format!("cycle {}: {}", cycle, what))
}

fn simulate<const N: usize, const S: usize>(
    plan: &Plan,
    trace: &mut TraceWriter,
    vcd: Option<&Path>,
) -> Result<SysResult, RunError> {
    type Cl<const N: usize, const S: usize> = SoCluster<N, S, 8, 3, 4, 64, 6>;
    let mut h = Harness::new(Cl::<N, S>::default(), |u, c| u.clock.next = c.into());
    if let Some(p) = vcd {
        h = h
            .with_vcd(p, "stream_out")
            .map_err(|e| RunError::Output(format!("{}: {}", p.display(), e)))?;
    }
    let g = plan.golden();
    let gold_buffers = golden::buffers(&g, plan.buffer_bytes);
    let mut mem: [Vec<u8>; 4] = std::array::from_fn(|i| vec![0u8; plan.buffer_bytes[i] as usize]);
    let mut res = SysResult::default();
    let mut step_pos = 0usize;
    let mut batch_count = 0usize;
    let mut held_id: Option<u16> = None;
    let mut enabled = false;
    let mut mpc: Vec<VecDeque<MpcTask>> = vec![VecDeque::new(); N];
    let mut pipeline: VecDeque<(u64, u16)> = VecDeque::new();
    let mut asked: Vec<Option<(u16, u16, u64)>> = vec![None; N];
    let mut next_response = 0usize;
    let mut next_commit = 0usize;
    let mut rr = 0usize;
    let mut idle = 0u64;
    let mut quiet = 0u64;
    // Every SO unit idle and no streamed task queued (sampled at the end of the last cycle).
    let mut so_idle = true;
    let to_err = |e: crate::harness::NoConvergence| RunError::Violation(e.to_string());
    for cycle in 0..plan.max_cycles {
        let reset = cycle == 0;
        // ---- WDU / driver ----
        let step = if reset {
            None
        } else {
            plan.steps.get(step_pos)
        };
        let (cmd_kind, cmd_valid, offsets) = match step {
            Some(Step::Enable) => (ssync::CMD_ENABLE, true, [0; 4]),
            Some(Step::Disable) => (ssync::CMD_DISABLE, true, [0; 4]),
            // Wait for idle before rebinding the offsets (see the module documentation).
            Some(Step::Offset(o)) => (ssync::CMD_OFFSET, so_idle, *o),
            Some(Step::Batch { .. }) => (ssync::CMD_WORK, held_id.is_some(), [0; 4]),
            None => (ssync::CMD_WORK, false, [0; 4]),
        };
        let want_id = !reset && matches!(step, Some(Step::Batch { .. })) && held_id.is_none();
        let done_offer = pipeline.front().filter(|(t, _)| *t <= cycle).map(|x| x.1);
        {
            let u = &mut h.uut;
            u.reset.next = reset;
            u.bytes_per_cycle.next = bits::<32>(plan.so_bytes_per_cycle as u64);
            u.buffer_size.next = Msg128Fields(plan.buffer_bytes).to_hw();
            u.id_ready.next = want_id;
            u.cmd_valid.next = cmd_valid;
            u.cmd_kind.next = bits::<2>(cmd_kind);
            u.cmd_batch_id.next = bits::<14>(held_id.unwrap_or(0) as u64);
            u.cmd_offsets.next = Msg128Fields(offsets).to_hw();
            u.done_valid.next = done_offer.is_some();
            u.done_batch_id.next = bits::<14>(done_offer.unwrap_or(0) as u64);
            for (i, q) in mpc.iter().enumerate() {
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
                u.wr_ready[i].next = false;
            }
        }
        h.settle().map_err(to_err)?;
        // ---- memory: frame-buffer bandwidth, SO units round-robin ----
        let mut budget = plan.fb_bytes_per_cycle as u64;
        let mut granted = [false; N];
        if !reset {
            for k in 0..N {
                let i = (rr + k) % N;
                if h.uut.wr_valid[i].val() {
                    let n = h.uut.wr_bytes[i].val().to_u32() as u64;
                    if n <= budget {
                        budget -= n;
                        granted[i] = true;
                    }
                }
            }
            rr = (rr + 1) % N;
            for (i, g) in granted.iter().enumerate() {
                h.uut.wr_ready[i].next = *g;
            }
            h.settle().map_err(to_err)?;
        }
        if reset {
            h.step().map_err(to_err)?;
            continue;
        }
        let u = &h.uut;
        if u.violation.val() {
            return Err(viol(
                cycle,
                format!(
                    "RTL violation output (SSYNC code {}, batch-ID generator {}, crossbar {})",
                    u.ssync.violation_code.val().index(),
                    u.ids.violation.val(),
                    u.xbar.violation.val()
                ),
            ));
        }
        let mut progress = false;
        // Batch IDs and commands.
        if want_id && u.id_valid.val() {
            held_id = Some(u.id_batch_id.val().index() as u16);
            progress = true;
        }
        if cmd_valid && u.cmd_ready.val() {
            progress = true;
            match step {
                Some(Step::Enable) => enabled = true,
                Some(Step::Disable) => enabled = false,
                Some(Step::Batch {
                    packet,
                    vertices,
                    tasks,
                }) => {
                    let id = held_id.take().unwrap_or(0);
                    if id as usize != batch_count & 0x3fff {
                        return Err(viol(
                            cycle,
                            format!("batch ID {} is not consecutive (SO-1)", id),
                        ));
                    }
                    batch_count += 1;
                    res.batches += 1;
                    trace.event(
                        cycle,
                        "batch",
                        json!({"batch": id, "packet": packet, "vertices": vertices, "streamed": enabled}),
                    )?;
                    if enabled && !tasks.is_empty() {
                        for (t, tp) in tasks.iter().enumerate() {
                            mpc[tp.so_unit].push_back(MpcTask {
                                batch_id: id,
                                task: t as u16,
                                last: t + 1 == tasks.len(),
                                bytes: tp.bytes,
                                ready_at: cycle + tp.latency,
                                batch_sent: false,
                                attrs_sent: 0,
                            });
                        }
                    } else {
                        let lat = tasks.iter().map(|t| t.latency).max().unwrap_or(0);
                        let at = cycle + lat.max(1);
                        let pos = pipeline.partition_point(|x| x.0 <= at);
                        pipeline.insert(pos, (at, id));
                    }
                }
                _ => {}
            }
            step_pos += 1;
        }
        if done_offer.is_some() && u.done_ready.val() {
            pipeline.pop_front();
            progress = true;
        }
        // MPC side handshakes.
        for (i, q) in mpc.iter_mut().enumerate() {
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
        // SSYNC traffic (in dependency order: request, second, response, overflow, retire).
        let s = &u.ssync;
        if s.first_valid.val() && s.first_ready.val() {
            let f = FirstRequestFields::from_hw(s.first_data.val());
            let src = s.first_source.val().index();
            trace.event(
                cycle,
                "request",
                json!({"so_unit": src, "batch": f.batch_id, "task": f.task, "last": f.last}),
            )?;
            let current = s.op_active.val()
                && s.current_batch_id.val().index() as u16 == f.batch_id
                && s.current_task.val().index() as u16 == f.task;
            if let Some(a) = asked.get_mut(src) {
                *a = Some((f.batch_id, f.task, if current { cycle } else { u64::MAX }));
            }
            progress = true;
        }
        if s.second_valid.val() && s.second_ready.val() {
            let src = s.second_source.val().index();
            let sbbn = Msg128Fields::from_hw(s.second_data.val()).0;
            let Some((b, t, _)) = asked.get(src).copied().flatten() else {
                return Err(viol(
                    cycle,
                    format!("second request from SO unit {} without a first", src),
                ));
            };
            trace.event(
                cycle,
                "second",
                json!({"so_unit": src, "batch": b, "task": t, "sbbn": sbbn}),
            )?;
            if let Some(gt) = g.tasks.iter().find(|x| x.batch_id == b && x.task == t) {
                if gt.sbbn != sbbn {
                    return Err(viol(
                        cycle,
                        format!(
                            "batch {} task {}: second request {:?}, shader wrote {:?}",
                            b, t, sbbn, gt.sbbn
                        ),
                    ));
                }
            }
            progress = true;
        }
        if s.resp_valid.val() && s.resp_ready.val() {
            let dest = s.resp_dest.val().index();
            let offsets = Msg128Fields::from_hw(s.resp_data.val()).0;
            let Some((b, t, c0)) = asked.get(dest).copied().flatten() else {
                return Err(viol(
                    cycle,
                    format!("response to SO unit {} which asked nothing", dest),
                ));
            };
            trace.event(
                cycle,
                "response",
                json!({"so_unit": dest, "batch": b, "task": t, "ssobo": offsets}),
            )?;
            let Some(exp) = g.tasks.get(next_response) else {
                return Err(viol(
                    cycle,
                    "more responses than streamed batch/tasks".into(),
                ));
            };
            if (exp.batch_id, exp.task) != (b, t) || exp.offsets != offsets {
                return Err(viol(
                    cycle,
                    format!(
                        "response batch {} task {} offsets {:?}; in driver order the next is batch {} task {} at {:?} (SO-11)",
                        b, t, offsets, exp.batch_id, exp.task, exp.offsets
                    ),
                ));
            }
            if c0 != u64::MAX {
                res.in_order_latency.push(cycle - c0);
            }
            next_response += 1;
            res.responses += 1;
            progress = true;
        }
        if s.commit.val() {
            let Some(exp) = g.tasks.get(next_commit) else {
                return Err(viol(
                    cycle,
                    "SSYNC accounted more batch/tasks than streamed".into(),
                ));
            };
            if s.commit_overflow.val() != exp.overflow {
                return Err(viol(
                    cycle,
                    format!(
                        "batch {} task {}: overflow {} but the golden model says {}",
                        exp.batch_id,
                        exp.task,
                        s.commit_overflow.val(),
                        exp.overflow
                    ),
                ));
            }
            if exp.overflow {
                trace.event(
                    cycle,
                    "overflow",
                    json!({"batch": exp.batch_id, "task": exp.task}),
                )?;
                res.overflows += 1;
            }
            next_commit += 1;
        }
        if s.retire_valid.val() && s.retire_ready.val() {
            let id = s.retire_batch_id.val().index() as u16;
            if g.retired.get(res.retired as usize) != Some(&id) {
                return Err(viol(
                    cycle,
                    format!(
                        "retire of batch {} out of order (expected {:?})",
                        id,
                        g.retired.get(res.retired as usize)
                    ),
                ));
            }
            trace.event(cycle, "retire", json!({"batch": id}))?;
            res.retired += 1;
        }
        // Memory writes.
        for (i, gr) in granted.iter().enumerate() {
            if !gr {
                continue;
            }
            let b = u.wr_buffer[i].val().index();
            let off = u.wr_offset[i].val().to_u32() as u64;
            let n = u.wr_bytes[i].val().to_u32() as u64;
            let idx = u.wr_index[i].val().to_u32();
            let bid = u.wr_batch_id[i].val().index() as u16;
            let task = u.wr_task_number[i].val().index() as u16;
            if off + n > plan.buffer_bytes[b] as u64 {
                return Err(viol(
                    cycle,
                    format!("SO unit {} writes past the end of buffer {}", i, b),
                ));
            }
            for k in 0..n {
                mem[b][(off + k) as usize] = golden::data_byte(bid, task, b, idx + k as u32);
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
        let busy = (0..N).any(|i| u.so[i].busy.val());
        so_idle = mpc.iter().all(VecDeque::is_empty) && !busy;
        let finished = step_pos == plan.steps.len()
            && held_id.is_none()
            && mpc.iter().all(VecDeque::is_empty)
            && pipeline.is_empty()
            && !busy
            && next_response == g.tasks.len()
            && res.retired as usize == g.retired.len();
        h.step().map_err(to_err)?;
        res.cycles = cycle + 1;
        // Let SSYNC drain its operation FIFO (offset bundles after the last operation).
        quiet = if finished { quiet + 1 } else { 0 };
        if quiet > 24 {
            break;
        }
        idle = if progress { 0 } else { idle + 1 };
        if idle > 200_000 {
            return Err(viol(
                cycle,
                "no progress for 200000 cycles (deadlock)".into(),
            ));
        }
    }
    let u = &h.uut;
    res.ssobo = Msg128Fields::from_hw(u.ssync.ssobo.val()).0;
    let unfinished = next_response != g.tasks.len() || res.retired as usize != g.retired.len();
    if unfinished {
        return Err(RunError::Violation(format!(
            "not finished after {} cycles (config.max_cycles): {} of {} responses, {} of {} retires",
            plan.max_cycles,
            next_response,
            g.tasks.len(),
            res.retired,
            g.retired.len()
        )));
    }
    if res.ssobo != g.final_ssobo {
        return Err(RunError::Violation(format!(
            "final SSOBOs {:?}, golden {:?}",
            res.ssobo, g.final_ssobo
        )));
    }
    for b in 0..4 {
        if mem[b] != gold_buffers[b] {
            let at = mem[b]
                .iter()
                .zip(gold_buffers[b].iter())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            return Err(RunError::Violation(format!(
                "buffer {} differs from the golden buffer at byte {} (SO-11)",
                b, at
            )));
        }
        if res.bytes_written[b] != g.written[b] {
            return Err(RunError::Violation(format!(
                "buffer {}: {} bytes written, golden {}",
                b, res.bytes_written[b], g.written[b]
            )));
        }
    }
    let out = crate::tb::TbOutput {
        vcd,
        record_ports: false,
    };
    crate::tb::finish_waves(h, &out, |vars| {
        let t = "stream_out";
        vec![
            Group::new("WDU").sigs(
                t,
                &[
                    "reset",
                    "id_valid",
                    "id_ready",
                    "id_batch_id",
                    "cmd_valid",
                    "cmd_ready",
                    "cmd_kind",
                    "cmd_batch_id",
                ],
                vars,
            ),
            Group::new("SSYNC").sigs(
                t,
                &[
                    "ssync.op_active",
                    "ssync.current_batch_id",
                    "ssync.current_task",
                    "ssync.outstanding",
                    "ssync.first_valid",
                    "ssync.first_source",
                    "ssync.second_valid",
                    "ssync.second_source",
                    "ssync.resp_valid",
                    "ssync.resp_dest",
                    "ssync.commit",
                    "ssync.retire_valid",
                    "ssync.retire_batch_id",
                    "ssync.ssobo$lane0",
                ],
                vars,
            ),
            Group::new("SO units").sigs(
                t,
                &(0..N.min(4))
                    .flat_map(|i| [format!("so${}.busy", i), format!("so${}.writing", i)])
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
                vars,
            ),
            Group::new("memory").sigs(
                t,
                &(0..N.min(4))
                    .flat_map(|i| {
                        [
                            format!("wr_valid${}", i),
                            format!("wr_ready${}", i),
                            format!("wr_offset${}", i),
                        ]
                    })
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
                vars,
            ),
        ]
    })
    .map_err(RunError::Output)?;
    Ok(res)
}
