//! The configuration and results of a barrier system run, and the routing of SPEC BR-2.
use std::path::PathBuf;

/// Largest number of screen-space pipelines a run may have.
pub const MAX_PIPES: usize = 8;

/// Stage latencies in cycles (SPEC section 5 scenario `latency`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Latency {
    pub world: u64,
    pub setup: u64,
    pub raster: u64,
    pub pixel_shader: u64,
    pub prop: u64,
    pub rop: u64,
}

/// A primitive: its scenario id and inclusive pixel bounding box [x0, y0, x1, y1].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Primitive {
    pub id: u64,
    pub bbox: [i64; 4],
}

/// One command of the scenario, in API order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Draw(Vec<Primitive>),
    Barrier { tiled: bool },
}

/// How barriers are carried out (SPEC BR-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// As the scenario says (the mechanism).
    AsGiven,
    /// Every barrier becomes a non-tiled barrier.
    NonTiled,
    /// Every barrier becomes a tiled barrier.
    Tiled,
    /// Prior art: at every barrier the tiling units flush and the front end issues nothing
    /// until every pipeline is idle (everything before it has left ROP).
    Drain,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::AsGiven => "as given",
            Mode::NonTiled => "non-tiled",
            Mode::Tiled => "tiled",
            Mode::Drain => "drain",
        }
    }
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct SystemConfig {
    pub pipes: usize,
    pub screen: [i64; 2],
    pub raster_tile: i64,
    pub bin_capacity: u64,
    pub latency: Latency,
    pub commands: Vec<Command>,
    pub mode: Mode,
    pub vcd: Option<PathBuf>,
    /// The engine that runs the RTL.
    pub engine: crate::verilator::Engine,
    pub record_ports: bool,
}

impl SystemConfig {
    /// Cache tiles across and down the screen.
    pub fn cache_grid(&self) -> (i64, i64) {
        let cache = 4 * self.raster_tile;
        (self.screen[0] / cache, self.screen[1] / cache)
    }
    pub fn cache_tiles(&self) -> usize {
        let (w, h) = self.cache_grid();
        (w * h) as usize
    }
    /// BR-2: the cache tiles a bounding box reaches on each pipeline (`result[pipe]`, each
    /// list ascending): raster tile (rx, ry) belongs to pipeline (rx + ry) mod pipes.
    pub fn route(&self, bbox: [i64; 4]) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]; self.pipes];
        let [w, h] = self.screen;
        let x0 = bbox[0].max(0);
        let y0 = bbox[1].max(0);
        let x1 = bbox[2].min(w - 1);
        let y1 = bbox[3].min(h - 1);
        if x0 > x1 || y0 > y1 {
            return out;
        }
        let rt = self.raster_tile;
        let (cw, _) = self.cache_grid();
        for ry in y0 / rt..=y1 / rt {
            for rx in x0 / rt..=x1 / rt {
                let pipe = ((rx + ry) as usize) % self.pipes;
                let tile = ((ry / 4) * cw + rx / 4) as u64;
                out[pipe].push(tile);
            }
        }
        for list in &mut out {
            list.sort_unstable();
            list.dedup();
        }
        out
    }
}

/// What a run measured.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SystemResult {
    pub cycles: u64,
    /// Cycles in which the front end had work to issue and could not issue it.
    pub upstream_stall_cycles: u64,
    pub flushes: u64,
    /// (pipeline, primitive, cache tile) entries that left ROP.
    pub rop_done: u64,
    pub releases: u64,
    /// Most items any PROP held at once.
    pub max_hold: u64,
    /// Most primitives and barriers waiting in one pipeline's crossbar buffer.
    pub max_feed: u64,
}
