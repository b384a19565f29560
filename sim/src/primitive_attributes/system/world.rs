//! The world-space stages in front of the RTL (behavioural): the vertex shader, primitive
//! assembly and the geometry shader, in fast or traditional mode (PA-1, PA-7).
//!
//! - The vertex shader shades each input vertex once, in order, one per cycle, `VS_LATENCY`
//!   cycles each (pipelined); it runs at most `VS_AHEAD` vertices ahead of the first vertex of
//!   the next triangle the GS needs (its output buffer).
//! - The GS runs once per triangle, when its three vertices are shaded: a fast GS takes one
//!   cycle per triangle (it writes the per-primitive attributes only); a traditional GS takes
//!   three (it writes three new vertices, one per cycle). Its output reaches the GS queue
//!   `GS_LATENCY` cycles after its last write; the queue holds `GS_QUEUE` primitives
//!   (in flight included) and the GS waits when it is full.
//! - At the GS output every primitive with a non-zero mask gets a new vertex instance for its
//!   per-primitive attributes (numbered from 0 in that order): the instance its provoking
//!   vertex carries through the viewport/clip unit (PA-6).
use super::config::{GsMode, SystemConfig};
use std::collections::VecDeque;

/// Cycles of one vertex shader invocation.
pub const VS_LATENCY: u64 = 8;
/// Vertices the vertex shader may run ahead of the GS.
pub const VS_AHEAD: usize = 32;
/// Cycles from the GS's last write to its output in the queue.
pub const GS_LATENCY: u64 = 4;
/// Primitives the GS queue holds (in flight included).
pub const GS_QUEUE: usize = 16;

/// A primitive leaving the GS for the multicast unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GsOutput {
    pub prim: usize,
    pub mask: u16,
    pub layer: u32,
    pub instance: u32,
    /// The last primitive of the draw.
    pub end: bool,
}

/// What happened in the world-space stages in one cycle (for the trace).
#[derive(Debug, Default)]
pub struct WorldEvents {
    pub vs_done: Vec<usize>,
    pub gs_run: Option<usize>,
}

/// The vertex shader and GS state.
pub struct World {
    tris: Vec<[usize; 3]>,
    masks: Vec<(u16, u32)>,
    gs_cycles: u64,
    vertex_count: usize,
    vs_next: usize,
    vs_in_flight: VecDeque<(u64, usize)>,
    shaded: usize,
    gs_next: usize,
    gs_free_at: u64,
    gs_in_flight: VecDeque<(u64, GsOutput)>,
    queue: VecDeque<GsOutput>,
    instances: u32,
    pub vs_count: u64,
    pub gs_count: u64,
    pub gs_vertices: u64,
}

impl World {
    pub fn new(cfg: &SystemConfig) -> Self {
        Self {
            tris: cfg.triangles(),
            masks: cfg.prims.iter().map(|p| (p.mask, p.layer)).collect(),
            gs_cycles: match cfg.gs_mode {
                GsMode::Fast => 1,
                GsMode::Traditional => 3,
            },
            vertex_count: cfg.vertices.len(),
            vs_next: 0,
            vs_in_flight: VecDeque::new(),
            shaded: 0,
            gs_next: 0,
            gs_free_at: 0,
            gs_in_flight: VecDeque::new(),
            queue: VecDeque::new(),
            instances: 0,
            vs_count: 0,
            gs_count: 0,
            gs_vertices: 0,
        }
    }

    /// The primitive at the head of the GS queue (offered to the multicast unit).
    pub fn head(&self) -> Option<GsOutput> {
        self.queue.front().copied()
    }

    /// The head was taken by the multicast unit.
    pub fn take_head(&mut self) {
        self.queue.pop_front();
    }

    /// Every primitive has left the GS queue.
    pub fn finished(&self) -> bool {
        self.gs_next == self.tris.len() && self.gs_in_flight.is_empty() && self.queue.is_empty()
    }

    /// Advance one cycle: vertex shading, the GS, deliveries into the GS queue.
    pub fn step(&mut self, cycle: u64) -> WorldEvents {
        let mut ev = WorldEvents::default();
        while let Some(&(done, v)) = self.vs_in_flight.front() {
            if done > cycle {
                break;
            }
            self.vs_in_flight.pop_front();
            self.shaded = v + 1;
            ev.vs_done.push(v);
        }
        let low = self
            .tris
            .get(self.gs_next)
            .map_or(self.vertex_count, |t| t[0].min(t[1]));
        if self.vs_next < self.vertex_count && self.vs_next < low + VS_AHEAD {
            self.vs_in_flight
                .push_back((cycle + VS_LATENCY, self.vs_next));
            self.vs_next += 1;
            self.vs_count += 1;
        }
        while let Some(&(at, out)) = self.gs_in_flight.front() {
            if at > cycle {
                break;
            }
            self.gs_in_flight.pop_front();
            self.queue.push_back(out);
        }
        if let Some(tri) = self.tris.get(self.gs_next) {
            let ready = tri.iter().all(|&v| v < self.shaded);
            let room = self.queue.len() + self.gs_in_flight.len() < GS_QUEUE;
            if ready && room && self.gs_free_at <= cycle {
                let p = self.gs_next;
                let (mask, layer) = self.masks[p];
                let instance = self.instances;
                if mask != 0 {
                    self.instances += 1;
                }
                let out = GsOutput {
                    prim: p,
                    mask,
                    layer,
                    instance,
                    end: p + 1 == self.tris.len(),
                };
                self.gs_in_flight
                    .push_back((cycle + self.gs_cycles - 1 + GS_LATENCY, out));
                self.gs_free_at = cycle + self.gs_cycles;
                if self.gs_cycles == 3 {
                    self.gs_vertices += 3;
                }
                self.gs_count += 1;
                self.gs_next += 1;
                ev.gs_run = Some(p);
            }
        }
        ev
    }
}
