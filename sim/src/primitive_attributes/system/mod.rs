//! System simulation of primitive-specific attributes (SPEC PA-1..PA-7): the [`PaCluster`]
//! RTL (viewport multicast or order sequencer, vertex cache, swizzle) stepped in one cycle
//! harness between behavioural stages:
//!
//! - [`world`]: the vertex shader (once per vertex) and the geometry shader (once per
//!   triangle), fast or traditional (PA-1, PA-7), feeding the multicast unit in input order;
//! - [`vpc`]: the viewport/clip unit's control: three vertex-cache lookups per output
//!   triangle, misses through the swizzle into their cache slot, output triangles assembled in
//!   beat order and counted by the raster sink (the `out` events).
//!
//! Before cycle 0 of the trace: one reset cycle, then one cycle per viewport writing its
//! swizzle (packed, or the public register layout through the RTL adapter).
//!
//! Checked while running (exit 1): the cluster's `violation`, a refused swizzle write, a
//! cache slot or swizzle result the data model cannot place, and a run that makes no progress
//! for [`STALL_LIMIT`] cycles.
use crate::harness::PortTrace;
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use crate::vcd::gtkw::Group;
use crate::verilator::{PortMap, VerilatorTop};
use ppu_hdl::primitive_attributes::item::VertexPos;
use ppu_hdl::primitive_attributes::pa_cluster::PaCluster;
use ppu_hdl::primitive_attributes::provoking_vertex_cache::CACHE_ENTRIES;
use rust_hdl::prelude::*;
use serde_json::{json, Value};

mod config;
pub mod vpc;
pub mod world;

pub use config::*;
use vpc::{Beat, Vpc};
use world::World;

/// Cycles without any progress before a run is declared stuck.
pub const STALL_LIMIT: u64 = 10_000;

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

fn sim_err(e: impl ToString) -> RunError {
    RunError::Violation(e.to_string())
}

/// The `done` fields of a run (SPEC section 6).
pub fn done_fields(r: &SystemResult) -> Value {
    json!({"cycles": r.cycles, "vs": r.vs, "gs": r.gs, "outs": r.outs,
           "cache_hits": r.cache_hits, "cache_misses": r.cache_misses})
}

/// Reset the cluster, hold the static configuration, write the 16 swizzle entries.
fn configure(
    h: &mut crate::harness::Harness<PaCluster>,
    cfg: &SystemConfig,
) -> Result<(), RunError> {
    h.uut.reset.next = true;
    set_static(&mut h.uut, cfg);
    h.step().map_err(sim_err)?;
    h.uut.reset.next = false;
    for (vp, &value) in cfg.swizzle.iter().enumerate() {
        let u = &mut h.uut;
        u.swizzle_cfg_valid.next = true;
        u.swizzle_cfg_viewport.next = bits::<4>(vp as u64);
        u.swizzle_cfg_value.next = bits::<16>(value as u64);
        u.swizzle_cfg_register_format.next = cfg.swizzle_format == SwizzleFormat::Register;
        h.step().map_err(sim_err)?;
        h.settle().map_err(sim_err)?;
        if h.uut.swizzle_cfg_error.val() {
            return Err(RunError::Violation(format!(
                "the swizzle table refused viewport {}'s register value 0x{:04x}",
                vp, value
            )));
        }
    }
    h.uut.swizzle_cfg_valid.next = false;
    Ok(())
}

fn set_static(u: &mut PaCluster, cfg: &SystemConfig) {
    u.viewport_order.next = cfg.order == Order::Viewport;
    u.batch_size.next = bits::<9>(cfg.batch as u64);
    u.layer_offset.next = cfg.layer_offset;
    u.cache_capacity.next = bits::<7>(cfg.vertex_cache as u64);
}

/// Run the system; events go to `trace` when given. Returns the figures and, when
/// `cfg.record_ports`, the cluster's port trace.
/// Long because it is the cycle loop: drive every port of the cluster from the model, settle,
/// then account every handshake of the cycle in the model and the trace.
pub fn run(
    cfg: &SystemConfig,
    mut trace: Option<&mut TraceWriter>,
) -> Result<(SystemResult, Option<PortTrace>), RunError> {
    let out = crate::tb::TbOutput {
        vcd: cfg.vcd.as_deref(),
        record_ports: cfg.record_ports,
        engine: cfg.engine,
    };
    let mut h = crate::tb::system_harness(
        PaCluster::default(),
        |u, c| u.clock.next = c.into(),
        &out,
        "pa_cluster",
    )
    .map_err(RunError::Output)?;
    configure(&mut h, cfg)?;
    let mut world = World::new(cfg);
    let mut vpc = Vpc::new(cfg, CACHE_ENTRIES);
    let expected_beats: u64 = cfg
        .prims
        .iter()
        .map(|p| p.mask.count_ones().max(1) as u64)
        .sum();
    let mut r = SystemResult::default();
    let mut beats_seen = 0u64;
    let mut last_progress = 0u64;
    let start = h.cycle();
    loop {
        let cycle = h.cycle() - start;
        let ev = world.step(cycle);
        for v in &ev.vs_done {
            emit(&mut trace, cycle, "vs", json!({ "vertex": v }))?;
        }
        if let Some(p) = ev.gs_run {
            emit(&mut trace, cycle, "gs", json!({ "prim": p }))?;
        }
        let u = &mut h.uut;
        set_static(u, cfg);
        let head = world.head();
        u.prim_valid.next = head.is_some();
        let g = head.unwrap_or(world::GsOutput {
            prim: 0,
            mask: 0,
            layer: 0,
            instance: 0,
            end: false,
        });
        u.prim_mask.next = bits::<16>(g.mask as u64);
        u.prim_layer.next = bits::<32>(g.layer as u64);
        u.prim_index.next = bits::<32>(g.prim as u64);
        u.prim_instance.next = bits::<32>(g.instance as u64);
        u.prim_end.next = g.end;
        u.beat_ready.next = vpc.beat_room();
        let lookup = vpc.lookup();
        u.lookup_valid.next = lookup.is_some();
        let l = lookup.unwrap_or(vpc::Lookup {
            tag: 0,
            viewport: 0,
            provoking: false,
        });
        u.lookup_vertex.next = bits::<16>(l.tag as u64);
        u.lookup_viewport.next = bits::<4>(l.viewport as u64);
        u.lookup_provoking.next = l.provoking;
        u.result_ready.next = true;
        let job = vpc.swizzle_in.front().copied();
        u.vertex_valid.next = job.is_some();
        let (jvp, jpos, jslot) = job.unwrap_or((0, [0; 4], 0));
        u.vertex_viewport.next = bits::<4>(jvp as u64);
        u.vertex_pos.next = VertexPos::from_bits(jpos);
        u.vertex_slot.next = bits::<8>(jslot as u64);
        u.swizzled_ready.next = true;
        h.settle().map_err(sim_err)?;
        let u = &h.uut;
        if u.violation.val() {
            return Err(RunError::Violation(format!(
                "cycle {}: the primitive-attribute cluster raised `violation`",
                cycle
            )));
        }
        let mut progress = ev.gs_run.is_some() || !ev.vs_done.is_empty();
        if head.is_some() && u.prim_ready.val() {
            world.take_head();
            progress = true;
        }
        if u.beat_valid.val() && u.beat_ready.val() {
            let b = Beat {
                kill: u.beat_kill.val(),
                prim: u.beat_prim.val().index(),
                instance: u.beat_instance.val().index() as u32,
                viewport: u.beat_viewport.val().index(),
                layer: u.beat_layer.val().index() as u32,
            };
            if b.prim >= cfg.prims.len() {
                return Err(RunError::Violation(format!(
                    "cycle {}: a beat for primitive {} of {}",
                    cycle,
                    b.prim,
                    cfg.prims.len()
                )));
            }
            beats_seen += 1;
            progress = true;
            if b.kill {
                r.kills += 1;
                emit(&mut trace, cycle, "kill", json!({ "prim": b.prim }))?;
            } else {
                vpc.beats.push_back(b);
            }
        }
        if lookup.is_some() && u.lookup_ready.val() {
            vpc.lookup_taken();
            progress = true;
        }
        if u.result_valid.val() {
            let hit = u.result_hit.val();
            let v = vpc
                .result(hit, u.result_slot.val().index())
                .map_err(|e| RunError::Violation(format!("cycle {}: {}", cycle, e)))?;
            if hit {
                r.cache_hits += 1;
            } else {
                r.cache_misses += 1;
            }
            if u.result_invalidated.val() {
                r.invalidations += 1;
            }
            emit(&mut trace, cycle, "cache", json!({"vertex": v, "hit": hit}))?;
            progress = true;
        }
        if job.is_some() && u.vertex_ready.val() {
            vpc.swizzle_in.pop_front();
            progress = true;
        }
        if u.swizzled_valid.val() {
            vpc.swizzled(
                u.swizzled_slot.val().index(),
                u.swizzled_pos.val().to_bits(),
            );
            progress = true;
        }
        let done = vpc
            .complete()
            .map_err(|e| RunError::Violation(format!("cycle {}: {}", cycle, e)))?;
        for o in done {
            r.outs += 1;
            let verts: Vec<Value> = o
                .vertices
                .iter()
                .map(|v| json!(v.unwrap_or_default()))
                .collect();
            emit(
                &mut trace,
                cycle,
                "out",
                json!({"prim": o.beat.prim, "viewport": o.beat.viewport, "layer": o.beat.layer,
                       "vertices": verts, "provoking_vertex": o.provoking_vertex,
                       "provoking_instance": o.beat.instance}),
            )?;
        }
        if progress {
            last_progress = cycle;
        }
        h.step().map_err(sim_err)?;
        if world.finished() && beats_seen == expected_beats && vpc.idle() {
            r.cycles = cycle + 1;
            break;
        }
        if cycle - last_progress > STALL_LIMIT {
            return Err(RunError::Violation(format!(
                "no progress for {} cycles at cycle {}: {} of {} beats, {} outputs",
                STALL_LIMIT, cycle, beats_seen, expected_beats, r.outs
            )));
        }
    }
    r.vs = world.vs_count;
    r.gs = world.gs_count;
    r.gs_vertices = world.gs_vertices;
    let ports = crate::tb::finish_waves(h, &out, wave_groups).map_err(RunError::Output)?;
    Ok((r, ports))
}

/// GTKWave groups of the system waves.
fn wave_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let top = "pa_cluster";
    vec![
        Group::new("control").sigs(
            top,
            &["clock", "reset", "viewport_order", "violation"],
            vars,
        ),
        Group::new("primitive from GS").sigs(
            top,
            &[
                "prim_valid",
                "prim_ready",
                "prim_index",
                "prim_mask",
                "prim_layer",
                "prim_end",
            ],
            vars,
        ),
        Group::new("multicast beat").sigs(
            top,
            &[
                "beat_valid",
                "beat_ready",
                "beat_kill",
                "beat_prim",
                "beat_viewport",
                "beat_layer",
                "beat_instance",
            ],
            vars,
        ),
        Group::new("vertex cache").sigs(
            top,
            &[
                "lookup_valid",
                "lookup_vertex",
                "lookup_viewport",
                "lookup_provoking",
                "result_valid",
                "result_hit",
                "result_slot",
                "result_invalidated",
            ],
            vars,
        ),
        Group::new("swizzle").sigs(
            top,
            &[
                "vertex_valid",
                "vertex_slot",
                "swizzled_valid",
                "swizzled_slot",
                "swizzled_pos$x",
                "swizzled_pos$y",
                "swizzled_pos$z",
                "swizzled_pos$w",
            ],
            vars,
        ),
    ]
}

/// Under the Verilator engine: every port of the primitive-attribute cluster.
impl VerilatorTop for PaCluster {
    const TOP: &'static str = "pa_cluster";
    /// Built from its type alone: every instance exports the same Verilog.
    fn same_verilog_key(&self) -> Option<String> {
        Some(String::new())
    }
    fn port_map() -> PortMap<Self> {
        let mut m = PortMap::<Self>::default();
        m.input("reset", |u| &mut u.reset)
            .input("viewport_order", |u| &mut u.viewport_order)
            .input("batch_size", |u| &mut u.batch_size)
            .input("layer_offset", |u| &mut u.layer_offset)
            .input("cache_capacity", |u| &mut u.cache_capacity)
            .input("swizzle_cfg_valid", |u| &mut u.swizzle_cfg_valid)
            .input("swizzle_cfg_viewport", |u| &mut u.swizzle_cfg_viewport)
            .input("swizzle_cfg_value", |u| &mut u.swizzle_cfg_value)
            .input("swizzle_cfg_register_format", |u| {
                &mut u.swizzle_cfg_register_format
            })
            .input("prim_valid", |u| &mut u.prim_valid)
            .input("prim_mask", |u| &mut u.prim_mask)
            .input("prim_layer", |u| &mut u.prim_layer)
            .input("prim_index", |u| &mut u.prim_index)
            .input("prim_instance", |u| &mut u.prim_instance)
            .input("prim_end", |u| &mut u.prim_end)
            .input("beat_ready", |u| &mut u.beat_ready)
            .input("lookup_valid", |u| &mut u.lookup_valid)
            .input("lookup_vertex", |u| &mut u.lookup_vertex)
            .input("lookup_viewport", |u| &mut u.lookup_viewport)
            .input("lookup_provoking", |u| &mut u.lookup_provoking)
            .input("result_ready", |u| &mut u.result_ready)
            .input("vertex_valid", |u| &mut u.vertex_valid)
            .input("vertex_viewport", |u| &mut u.vertex_viewport)
            .input("vertex_pos", |u| &mut u.vertex_pos)
            .input("vertex_slot", |u| &mut u.vertex_slot)
            .input("swizzled_ready", |u| &mut u.swizzled_ready);
        m.output("swizzle_cfg_error", |u| &mut u.swizzle_cfg_error)
            .output("prim_ready", |u| &mut u.prim_ready)
            .output("beat_valid", |u| &mut u.beat_valid)
            .output("beat_kill", |u| &mut u.beat_kill)
            .output("beat_prim", |u| &mut u.beat_prim)
            .output("beat_instance", |u| &mut u.beat_instance)
            .output("beat_viewport", |u| &mut u.beat_viewport)
            .output("beat_layer", |u| &mut u.beat_layer)
            .output("beat_first", |u| &mut u.beat_first)
            .output("beat_last", |u| &mut u.beat_last)
            .output("lookup_ready", |u| &mut u.lookup_ready)
            .output("result_valid", |u| &mut u.result_valid)
            .output("result_hit", |u| &mut u.result_hit)
            .output("result_slot", |u| &mut u.result_slot)
            .output("result_invalidated", |u| &mut u.result_invalidated)
            .output("result_vertex", |u| &mut u.result_vertex)
            .output("result_viewport", |u| &mut u.result_viewport)
            .output("result_provoking", |u| &mut u.result_provoking)
            .output("vertex_ready", |u| &mut u.vertex_ready)
            .output("swizzled_valid", |u| &mut u.swizzled_valid)
            .output("swizzled_pos", |u| &mut u.swizzled_pos)
            .output("swizzled_viewport", |u| &mut u.swizzled_viewport)
            .output("swizzled_slot", |u| &mut u.swizzled_slot)
            .output("violation", |u| &mut u.violation);
        m
    }
}
