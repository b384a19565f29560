//! The configuration of a primitive-attribute system run (what a `primitive-attributes`
//! scenario says, validated) and the figures a run returns.
use std::path::PathBuf;

/// PA-1: how the geometry shader runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GsMode {
    /// Pass-through: the GS writes only per-primitive attributes; the primitive keeps the
    /// vertex shader's vertices (shared between adjacent triangles).
    Fast,
    /// The GS emits three new, unique vertices per triangle.
    Traditional,
}

/// PA-4: the order of the multicast outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Strict,
    Viewport,
}

/// Input primitive topology (no index buffer: vertices are used in order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    TriangleList,
    TriangleStrip,
}

impl Topology {
    /// The triangles' input vertex indices, in the output vertex order: a list has
    /// (3i, 3i+1, 3i+2); a strip has (i, i+1, i+2) for even i and (i+1, i, i+2) for odd i
    /// (the winding is kept and the newest vertex is last).
    pub fn triangles(self, vertex_count: usize) -> Vec<[usize; 3]> {
        match self {
            Topology::TriangleList => (0..vertex_count / 3)
                .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
                .collect(),
            Topology::TriangleStrip => (0..vertex_count.saturating_sub(2))
                .map(|i| {
                    if i % 2 == 0 {
                        [i, i + 1, i + 2]
                    } else {
                        [i + 1, i, i + 2]
                    }
                })
                .collect(),
        }
    }
}

/// One input primitive's per-primitive attributes, as the GS writes them (PA-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PrimAttrs {
    /// Viewport mask: bit v = output to viewport slot v (PA-2).
    pub mask: u16,
    /// Render-target array index (layer).
    pub layer: u32,
}

/// How a swizzle value of the configuration is written into the swizzle table (PA-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwizzleFormat {
    /// The packed 12-bit code.
    Packed,
    /// The public 16-bit register layout, converted by the RTL adapter.
    Register,
}

/// A validated run.
#[derive(Debug, Clone)]
pub struct SystemConfig {
    pub gs_mode: GsMode,
    pub order: Order,
    /// Primitives per batch in viewport order (1..=256).
    pub batch: usize,
    /// The provoking vertex is output vertex 2 (`last`) rather than 0 (`first`).
    pub provoking_last: bool,
    pub layer_offset: bool,
    /// Vertex-cache entries (1..=64).
    pub vertex_cache: usize,
    /// One value per viewport, in `swizzle_format`.
    pub swizzle: [u32; 16],
    pub swizzle_format: SwizzleFormat,
    pub topology: Topology,
    /// Vertex positions as IEEE-754 bit patterns `[x, y, z, w]`.
    pub vertices: Vec<[u32; 4]>,
    /// One entry per triangle.
    pub prims: Vec<PrimAttrs>,
    /// Write the waves of the top block here.
    pub vcd: Option<PathBuf>,
    /// The engine that runs the RTL.
    pub engine: crate::verilator::Engine,
    /// Record the top block's ports (co-simulation).
    pub record_ports: bool,
}

impl SystemConfig {
    /// The triangles of the draw.
    pub fn triangles(&self) -> Vec<[usize; 3]> {
        self.topology.triangles(self.vertices.len())
    }
    /// Output vertex position (0 or 2) of the provoking vertex.
    pub fn provoking_corner(&self) -> usize {
        if self.provoking_last {
            2
        } else {
            0
        }
    }
}

/// What a run measured.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SystemResult {
    pub cycles: u64,
    /// Vertex shader invocations (PA-7).
    pub vs: u64,
    /// Geometry shader invocations (PA-7).
    pub gs: u64,
    /// Vertices the GS wrote (0 in fast mode: it writes per-primitive attributes only; three
    /// per triangle in traditional mode).
    pub gs_vertices: u64,
    /// Output triangles (one per primitive and viewport of its mask).
    pub outs: u64,
    pub kills: u64,
    pub cache_hits: u64,
    /// Vertex-cache misses: the vertices that went through the viewport/clip unit (fetched,
    /// swizzled, transformed).
    pub cache_misses: u64,
    /// Provoking-vertex lookups that found the vertex shared and invalidated it (PA-6).
    pub invalidations: u64,
}
