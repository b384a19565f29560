//! Testbench drivers of the primitive-attribute RTL (SPEC PA-2..PA-6), one file per unit
//! (the multicast and the sequencer share [`beats`]), the exported units and their canonical
//! waves. The top block `pa_cluster` is driven by the system simulation. The combinational
//! sub-blocks (`SwizzleAdapter`, `LowestViewport`) and the cache's `CacheBank` are exported,
//! linted and co-simulated inside the units that use them.
pub mod beats;
pub mod swizzle;
pub mod vertex_cache;

use super::scenario;
use super::system;
use crate::eda::export::{verilog_of, Unit};
use crate::harness::PortTrace;
use crate::tb::TbOutput;
use beats::{random_prims, run_beats, wave_prims, BeatStimulus};
use ppu_hdl::primitive_attributes::order_sequencer::OrderSequencer;
use ppu_hdl::primitive_attributes::pa_cluster::PaCluster;
use ppu_hdl::primitive_attributes::provoking_vertex_cache::ProvokingVertexCache;
use ppu_hdl::primitive_attributes::viewport_multicast::ViewportMulticast;
use ppu_hdl::primitive_attributes::viewport_swizzle::ViewportSwizzle;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

const RECORD_PORTS: TbOutput<'static> = TbOutput {
    vcd: None,
    record_ports: true,
    engine: crate::verilator::Engine::Harness,
};

fn trace_of(p: Option<PortTrace>) -> Result<PortTrace, String> {
    p.ok_or_else(|| "no port trace".to_string())
}

fn stimulus(batch: usize, seed: u64) -> BeatStimulus {
    BeatStimulus {
        batch,
        layer_offset: true,
        valid_prob: 0.7,
        ready_prob: 0.6,
        seed,
    }
}

fn cosim_swizzle() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let items = swizzle::random_swizzle_items(&mut rng, 200);
    trace_of(swizzle::run_swizzle(&items, 0.7, 0.6, 22, &RECORD_PORTS)?.ports)
}

fn cosim_multicast() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let prims = random_prims(&mut rng, 60, None);
    trace_of(run_beats::<ViewportMulticast>(&prims, None, &stimulus(1, 23), &RECORD_PORTS)?.ports)
}

fn cosim_sequencer() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let prims = random_prims(&mut rng, 60, Some(17));
    trace_of(run_beats::<OrderSequencer>(&prims, Some(5), &stimulus(5, 24), &RECORD_PORTS)?.ports)
}

fn cosim_cache() -> Result<PortTrace, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let lookups = vertex_cache::random_lookups(&mut rng, 300, 40);
    trace_of(
        vertex_cache::run_cache(
            &lookups,
            vertex_cache::COSIM_CAPACITY,
            0.8,
            0.7,
            25,
            &RECORD_PORTS,
        )?
        .ports,
    )
}

/// The top block's co-simulation: a cube map in viewport order (the sequencer, the cache
/// with shared provoking vertices, the swizzle of six faces).
fn cosim_cluster() -> Result<PortTrace, String> {
    let k = super::apps::Knobs {
        order: "viewport",
        batch: 5,
        provoking: "first",
        vertex_cache: 12,
        ..Default::default()
    };
    let mut cfg =
        scenario::system_config(&super::apps::cube_map(&k, 8)).map_err(|e| e.to_string())?;
    cfg.record_ports = true;
    let (_, ports) = system::run(&cfg, None).map_err(|e| e.to_string())?;
    trace_of(ports)
}

/// Every exported primitive-attribute unit.
pub fn export_units() -> Vec<Unit> {
    vec![
        Unit {
            name: "viewport_swizzle",
            mechanism: "primitive-attributes",
            summary: "16 per-viewport swizzles on four 32-bit float lanes, selection and sign flip (PA-5)",
            verilog: || verilog_of(ViewportSwizzle::default(), "viewport_swizzle"),
            cosim_trace: cosim_swizzle,
        },
        Unit {
            name: "viewport_multicast",
            mechanism: "primitive-attributes",
            summary: "16-bit viewport-mask multicast in strict order, kill, layer offset (PA-2..PA-4)",
            verilog: || verilog_of(ViewportMulticast::default(), "viewport_multicast"),
            cosim_trace: cosim_multicast,
        },
        Unit {
            name: "order_sequencer",
            mechanism: "primitive-attributes",
            summary: "viewport order over batches of up to 256 primitives in block RAM (PA-4)",
            verilog: || verilog_of(OrderSequencer::default(), "order_sequencer"),
            cosim_trace: cosim_sequencer,
        },
        Unit {
            name: "provoking_vertex_cache",
            mechanism: "primitive-attributes",
            summary: "64-entry (vertex, viewport) vertex cache, FIFO, unique provoking vertex (PA-6)",
            verilog: || verilog_of(ProvokingVertexCache::default(), "provoking_vertex_cache"),
            cosim_trace: cosim_cache,
        },
        Unit {
            name: "pa_cluster",
            mechanism: "primitive-attributes",
            summary: "top block: multicast, sequencer, vertex cache, swizzle (PA-2..PA-6)",
            verilog: || verilog_of(PaCluster::default(), "pa_cluster"),
            cosim_trace: cosim_cluster,
        },
    ]
}

fn waves(p: &Path) -> TbOutput<'_> {
    TbOutput {
        vcd: Some(p),
        record_ports: false,
        engine: crate::verilator::Engine::Harness,
    }
}

/// Canonical waves of the units, written into `dir`; returns the names written.
pub fn write_unit_waves(dir: &Path) -> Result<Vec<String>, String> {
    swizzle::run_swizzle(
        &swizzle::wave_items(),
        1.0,
        0.7,
        1,
        &waves(&dir.join("viewport_swizzle.vcd")),
    )?;
    let s = BeatStimulus {
        batch: 4,
        layer_offset: true,
        valid_prob: 1.0,
        ready_prob: 0.75,
        seed: 1,
    };
    run_beats::<ViewportMulticast>(
        &wave_prims(),
        None,
        &s,
        &waves(&dir.join("viewport_multicast.vcd")),
    )?;
    run_beats::<OrderSequencer>(
        &wave_prims(),
        Some(4),
        &s,
        &waves(&dir.join("order_sequencer.vcd")),
    )?;
    vertex_cache::run_cache_waves(&waves(&dir.join("provoking_vertex_cache.vcd")))?;
    Ok(vec![
        "viewport_swizzle".into(),
        "viewport_multicast".into(),
        "order_sequencer".into(),
        "provoking_vertex_cache".into(),
    ])
}
