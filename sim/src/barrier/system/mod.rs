//! System simulation of barriers in a cache-tiling pipeline (SPEC BR-1..BR-9): the
//! [`BarrierCluster`] RTL — `pipes` tiling units, `pipes` PROPs and the back end — stepped in
//! one cycle harness, with behavioural stages around it ([`model`]):
//!
//! - the front end issues the commands in API order, up to `pipes` primitives per cycle, into
//!   the world-space pipelines (latency `world`); a barrier travels in order with them (the
//!   screen-space circular buffer of BR-1);
//! - the crossbar sends each primitive to every pipeline owning a raster tile its bounding box
//!   overlaps (BR-2), with the list of that pipeline's cache tiles, into a buffer per pipeline
//!   (primitive buffers in L2: no size limit, peak reported); a feeder in front of each tiling
//!   unit gives it one (primitive, cache tile) entry per cycle;
//! - setup, raster and the pixel shader (`setup + raster + pixel_shader` cycles, one item per
//!   cycle, 16 items of buffering beyond the latency) carry the batches to PROP;
//! - behind PROP, `prop + rop` cycles to `rop_done`; ROP sends every barrier to the back end.
//!
//! Upstream stall: a cycle in which the front end has a command left and cannot issue it (its
//! world-space pipelines are full, or, in [`Mode::Drain`], it waits for every pipeline to be
//! idle). With the crossbar's buffers in L2, work held at PROP costs buffer space
//! (`max_feed`, `max_hold`) rather than upstream cycles. The render-target model: a primitive passing PROP for a cache tile reads what every
//! primitive before the last barrier wrote there (all cache tiles for a non-tiled barrier); a
//! primitive that has not left ROP yet is a violation (BR-6, checked live).
//!
//! Checked while running (exit 1): the cluster's `violation` output, the render-target read,
//! and a run that makes no progress for [`stall_limit`] cycles (a deadlock).
use crate::harness::PortTrace;
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use crate::vcd::gtkw::Group;
use crate::verilator::{PortMap, VerilatorTop};
use ppu_hdl::barrier::barrier_cluster::BarrierCluster;
use ppu_hdl::barrier::item::{
    BarrierToken, ScreenItem, KIND_NONTILED_BARRIER, KIND_PRIM, KIND_TILED_BARRIER,
};
use ppu_hdl::barrier::tiling_unit::{FLUSH_BARRIER, FLUSH_END, FLUSH_THRESHOLD};
use rust_hdl::prelude::*;
use serde_json::{json, Value};

mod config;
pub mod model;

pub use config::*;
use model::{FrontEnd, Stage, Watch};

/// Cycles without any event before a run is declared deadlocked, beyond twice the stage
/// latencies ([`stall_limit`]).
pub const STALL_LIMIT: u64 = 200_000;

/// The cycles a run may go without an event before it is declared deadlocked: [`STALL_LIMIT`]
/// plus twice the sum of the six stage latencies, since a primitive crosses the world, setup
/// and raster stages (up to 300,000 cycles at the scenario's largest latencies) with no event.
pub fn stall_limit(latency: &Latency) -> u64 {
    let sum = latency.world
        + latency.setup
        + latency.raster
        + latency.pixel_shader
        + latency.prop
        + latency.rop;
    STALL_LIMIT + 2 * sum
}

/// The trace name of a flush reason.
pub fn reason_name(code: u64) -> &'static str {
    match code {
        FLUSH_THRESHOLD => "threshold",
        FLUSH_BARRIER => "barrier",
        FLUSH_END => "end",
        _ => "?",
    }
}

/// Run the system; events go to `trace` when given. Returns the figures and, when
/// `cfg.record_ports`, the cluster's port trace.
pub fn run(
    cfg: &SystemConfig,
    trace: Option<&mut TraceWriter>,
) -> Result<(SystemResult, Option<PortTrace>), RunError> {
    match cfg.pipes {
        1 => run_with::<1, 1>(cfg, trace),
        2 => run_with::<2, 1>(cfg, trace),
        3 => run_with::<3, 2>(cfg, trace),
        4 => run_with::<4, 2>(cfg, trace),
        5 => run_with::<5, 3>(cfg, trace),
        6 => run_with::<6, 3>(cfg, trace),
        7 => run_with::<7, 3>(cfg, trace),
        8 => run_with::<8, 3>(cfg, trace),
        n => Err(RunError::invalid(
            "config.pipes",
            format!("{} is not in 1..={}", n, MAX_PIPES),
        )),
    }
}

fn emit(
    trace: &mut Option<&mut TraceWriter>,
    cycle: u64,
    name: &str,
    v: Value,
) -> Result<(), RunError> {
    match trace.as_deref_mut() {
        Some(t) => t.event(cycle, name, v),
        None => Ok(()),
    }
}

fn tile_value(item: &ScreenItem) -> Value {
    if item.kind_code() == KIND_NONTILED_BARRIER {
        Value::Null
    } else {
        json!(item.tile.index())
    }
}

/// Long because it is the cycle loop: drive every port of the cluster from the model, settle,
/// then account every handshake of the cycle in the model and the trace.
fn run_with<const P: usize, const S: usize>(
    cfg: &SystemConfig,
    mut trace: Option<&mut TraceWriter>,
) -> Result<(SystemResult, Option<PortTrace>), RunError> {
    let out = crate::tb::TbOutput {
        vcd: cfg.vcd.as_deref(),
        record_ports: cfg.record_ports,
        engine: cfg.engine,
    };
    let uut: BarrierCluster<P, S> = Default::default();
    let mut h =
        crate::tb::system_harness(uut, |u, c| u.clock.next = c.into(), &out, "barrier_cluster")
            .map_err(RunError::Output)?;
    let lat = cfg.latency;
    let screen_latency = lat.setup + lat.raster + lat.pixel_shader;
    let mut fe = FrontEnd::new(cfg);
    let mut watch = Watch::new(cfg, &fe);
    let mut screen: Vec<Stage> = (0..P).map(|_| Stage::new(screen_latency, 16)).collect();
    let mut rop: Vec<Stage> = (0..P).map(|_| Stage::new(lat.prop + lat.rop, 4)).collect();
    let mut tokens: Vec<std::collections::VecDeque<ScreenItem>> = vec![Default::default(); P];
    let mut result = SystemResult::default();
    let tiles = cfg.cache_tiles() as u64;
    let mut last_progress = 0u64;
    let stall_limit = stall_limit(&cfg.latency);
    // Reset, then the back end's clear sweep; cycle 0 of the trace is the first cycle after it.
    h.uut.reset.next = true;
    h.step().map_err(|e| RunError::Violation(e.to_string()))?;
    h.uut.reset.next = false;
    h.settle().map_err(|e| RunError::Violation(e.to_string()))?;
    while !h.uut.ready.val() {
        h.step().map_err(|e| RunError::Violation(e.to_string()))?;
    }
    let start = h.cycle();
    loop {
        let cycle = h.cycle() - start;
        let u = &mut h.uut;
        u.tiles.next = bits::<9>(tiles);
        u.bin_capacity.next = bits::<9>(cfg.bin_capacity);
        let ready = u.ready.val();
        for p in 0..P {
            let feed = if ready { fe.feed_head(p) } else { None };
            u.bin_valid[p].next = feed.is_some();
            u.bin_item[p].next = feed.unwrap_or_default();
            u.batch_ready[p].next = screen[p].has_room();
            let head = screen[p].ready_head(cycle);
            u.prop_in_valid[p].next = head.is_some();
            u.prop_in_item[p].next = head.unwrap_or_default();
            u.prop_out_ready[p].next = rop[p].has_room();
            u.token_valid[p].next = !tokens[p].is_empty();
            let tok = tokens[p].front().copied().unwrap_or_default();
            u.token[p].next = BarrierToken::of(&tok);
        }
        h.settle().map_err(|e| RunError::Violation(e.to_string()))?;
        let u = &h.uut;
        if u.violation.val() {
            return Err(RunError::Violation(format!(
                "cycle {}: the barrier cluster raised `violation`",
                cycle
            )));
        }
        let mut progress = false;
        // An item handed to a tiling unit or a PROP this cycle is in neither's state yet.
        let mut handed_in = false;
        for p in 0..P {
            if u.flush_valid[p].val() {
                result.flushes += 1;
                emit(
                    &mut trace,
                    cycle,
                    "flush",
                    json!({"pipe": p,
                    "reason": reason_name(u.flush_reason[p].val().index() as u64),
                    "entries": u.flush_entries[p].val().index()}),
                )?;
            }
        }
        for p in 0..P {
            if u.bin_valid[p].val() && u.bin_ready[p].val() {
                fe.feed_taken(p);
                progress = true;
                handed_in = true;
            }
            if u.batch_valid[p].val() && u.batch_ready[p].val() {
                screen[p].push(cycle, u.batch_item[p].val());
            }
            if u.prop_in_valid[p].val() && u.prop_in_ready[p].val() {
                screen[p].pop();
                handed_in = true;
            }
            if u.prop_out_valid[p].val() && u.prop_out_ready[p].val() {
                let item = u.prop_out_item[p].val();
                if item.kind_code() == KIND_PRIM {
                    let prim = item.prim.index();
                    watch.prop_pass(cycle, p, prim, item.tile.index() as u64)?;
                    emit(
                        &mut trace,
                        cycle,
                        "prop_pass",
                        json!({"pipe": p,
                        "prim": fe.prim_id(prim), "tile": item.tile.index()}),
                    )?;
                } else {
                    emit(
                        &mut trace,
                        cycle,
                        "prop_hold",
                        json!({"pipe": p, "tile": tile_value(&item)}),
                    )?;
                }
                rop[p].push(cycle, item);
                progress = true;
            }
            result.max_hold = result.max_hold.max(u.hold_fill[p].val().index() as u64);
        }
        for (p, queue) in tokens.iter_mut().enumerate() {
            if u.token_valid[p].val() && u.token_ready[p].val() {
                let item = queue.pop_front().unwrap_or_default();
                watch.token();
                emit(
                    &mut trace,
                    cycle,
                    "backend_barrier",
                    json!({"pipe": p, "tile": tile_value(&item)}),
                )?;
                progress = true;
            }
        }
        if u.release_valid.val() {
            result.releases += 1;
            let tile = if u.release_tiled.val() {
                json!(u.release_tile.val().index())
            } else {
                Value::Null
            };
            watch.release();
            emit(&mut trace, cycle, "release", json!({ "tile": tile }))?;
            progress = true;
        }
        // ROP retires in order; barriers go on to the back end.
        for p in 0..P {
            if let Some(item) = rop[p].ready_head(cycle) {
                let kind = item.kind_code();
                if kind == KIND_PRIM {
                    rop[p].pop();
                    let prim = item.prim.index();
                    watch.rop_done(p, prim, item.tile.index() as u64);
                    result.rop_done += 1;
                    emit(
                        &mut trace,
                        cycle,
                        "rop_done",
                        json!({"pipe": p,
                        "prim": fe.prim_id(prim), "tile": item.tile.index()}),
                    )?;
                    progress = true;
                } else if (kind == KIND_TILED_BARRIER || kind == KIND_NONTILED_BARRIER)
                    && tokens[p].len() < 4
                {
                    rop[p].pop();
                    tokens[p].push_back(item);
                }
            }
        }
        let idle = !handed_in
            && (0..P).all(|p| {
                u.bin_idle[p].val()
                    && fe.feed_empty(p)
                    && screen[p].is_empty()
                    && rop[p].is_empty()
                    && tokens[p].is_empty()
                    && !u.prop_busy[p].val()
            })
            && watch.all_released();
        if fe.step(cycle, idle, &mut result) {
            progress = true;
        }
        if fe.finished() && idle {
            result.cycles = cycle;
            break;
        }
        if progress {
            last_progress = cycle;
        } else if cycle - last_progress > stall_limit {
            return Err(RunError::Violation(format!(
                "cycle {}: no progress for {} cycles (deadlock): {}",
                cycle,
                stall_limit,
                watch.describe()
            )));
        }
        h.step().map_err(|e| RunError::Violation(e.to_string()))?;
    }
    let ports = crate::tb::finish_waves(h, &out, save_groups).map_err(RunError::Output)?;
    Ok((result, ports))
}

/// The GTKWave save file of a system run: per pipeline 0 and 1 the tiling unit's input,
/// flushes and batches, PROP's input, hold queue and output; the back end's tokens and
/// releases.
fn save_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let top = "barrier_cluster";
    let mut groups = vec![Group::new("control").sigs(
        top,
        &["clock", "reset", "tiles", "bin_capacity", "ready"],
        vars,
    )];
    for p in 0..2 {
        let has = |n: &str| {
            vars.iter()
                .any(|(v, _)| v == &format!("{}.{}${}", top, n, p))
        };
        if !has("bin_valid") {
            continue;
        }
        // `item$kind` of pipeline p is `item$p$kind` in the VCD.
        let names = |list: &[&str]| -> Vec<String> {
            list.iter()
                .map(|n| match n.split_once('$') {
                    Some((a, b)) => format!("{}${}${}", a, p, b),
                    None => format!("{}${}", n, p),
                })
                .collect()
        };
        let tu = names(&[
            "bin_valid",
            "bin_ready",
            "bin_item$kind",
            "bin_item$prim",
            "bin_item$tile",
            "flush_valid",
            "flush_reason",
            "flush_entries",
            "batch_valid",
            "batch_ready",
            "batch_item$kind",
            "batch_item$prim",
            "batch_item$tile",
        ]);
        let prop = names(&[
            "prop_in_valid",
            "prop_in_ready",
            "prop_in_item$kind",
            "prop_in_item$prim",
            "prop_in_item$tile",
            "hold_fill",
            "prop_out_valid",
            "prop_out_ready",
            "prop_out_item$kind",
            "prop_out_item$prim",
            "prop_out_item$tile",
        ]);
        let tu: Vec<&str> = tu.iter().map(|s| s.as_str()).collect();
        let prop: Vec<&str> = prop.iter().map(|s| s.as_str()).collect();
        groups.push(Group::new(&format!("tiling unit {}", p)).sigs(top, &tu, vars));
        groups.push(Group::new(&format!("PROP {}", p)).sigs(top, &prop, vars));
    }
    groups.push(Group::new("back end").sigs(
        top,
        &[
            "token_source",
            "release_valid",
            "release_tiled",
            "release_tile",
            "violation",
        ],
        vars,
    ));
    groups
}

/// The `done` event's fields.
pub fn done_fields(r: &SystemResult) -> Value {
    json!({"cycles": r.cycles, "upstream_stall_cycles": r.upstream_stall_cycles, "flushes": r.flushes})
}

/// Under the Verilator engine: every port of the barrier cluster.
impl<const P: usize, const S: usize> VerilatorTop for BarrierCluster<P, S> {
    const TOP: &'static str = "barrier_cluster";
    /// Built from its type alone: every instance exports the same Verilog.
    fn same_verilog_key(&self) -> Option<String> {
        Some(String::new())
    }
    fn port_map() -> PortMap<Self> {
        let mut m = PortMap::<Self>::default();
        m.input("reset", |u| &mut u.reset)
            .input("tiles", |u| &mut u.tiles)
            .input("bin_capacity", |u| &mut u.bin_capacity)
            .inputs("bin_valid", P, |u, i| &mut u.bin_valid[i])
            .inputs("bin_item", P, |u, i| &mut u.bin_item[i])
            .inputs("batch_ready", P, |u, i| &mut u.batch_ready[i])
            .inputs("prop_in_valid", P, |u, i| &mut u.prop_in_valid[i])
            .inputs("prop_in_item", P, |u, i| &mut u.prop_in_item[i])
            .inputs("prop_out_ready", P, |u, i| &mut u.prop_out_ready[i])
            .inputs("token_valid", P, |u, i| &mut u.token_valid[i])
            .inputs("token", P, |u, i| &mut u.token[i]);
        m.outputs("bin_ready${}", P, |u, i| &mut u.bin_ready[i])
            .outputs("batch_valid${}", P, |u, i| &mut u.batch_valid[i])
            .outputs("batch_item${}", P, |u, i| &mut u.batch_item[i])
            .outputs("flush_valid${}", P, |u, i| &mut u.flush_valid[i])
            .outputs("flush_reason${}", P, |u, i| &mut u.flush_reason[i])
            .outputs("flush_entries${}", P, |u, i| &mut u.flush_entries[i])
            .outputs("bin_idle${}", P, |u, i| &mut u.bin_idle[i])
            .outputs("prop_in_ready${}", P, |u, i| &mut u.prop_in_ready[i])
            .outputs("prop_out_valid${}", P, |u, i| &mut u.prop_out_valid[i])
            .outputs("prop_out_item${}", P, |u, i| &mut u.prop_out_item[i])
            .outputs("hold_fill${}", P, |u, i| &mut u.hold_fill[i])
            .outputs("prop_busy${}", P, |u, i| &mut u.prop_busy[i])
            .outputs("token_ready${}", P, |u, i| &mut u.token_ready[i])
            .output("release_valid", |u| &mut u.release_valid)
            .output("release_tiled", |u| &mut u.release_tiled)
            .output("release_tile", |u| &mut u.release_tile)
            .output("ready", |u| &mut u.ready)
            .output("token_source", |u| &mut u.token_source)
            .output("violation", |u| &mut u.violation);
        m
    }
}
