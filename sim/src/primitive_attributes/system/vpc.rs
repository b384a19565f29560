//! The viewport/clip unit's control around the RTL vertex cache and swizzle (behavioural):
//! it takes the multicast beats, issues three cache lookups per output triangle (the
//! provoking vertex marked), sends every missing vertex through the swizzle into its cache
//! slot, and assembles each output triangle from the slots, in beat order.
//!
//! The vertex data beside the RTL tags: one position per cache slot, written when a miss's
//! swizzled vertex comes back, read by a hit. Completions are taken in lookup order, so a hit
//! reads what the last miss allocated to that slot wrote; a slot the RTL got wrong shows as
//! wrong output vertices (the golden check compares every bit).
use super::config::{GsMode, SystemConfig};
use std::collections::VecDeque;

/// Beats the unit buffers.
pub const BEAT_QUEUE: usize = 4;

/// A beat of the multicast unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beat {
    pub kill: bool,
    pub prim: usize,
    pub instance: u32,
    pub viewport: usize,
    pub layer: u32,
}

/// A cache lookup to issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookup {
    pub tag: u16,
    pub viewport: usize,
    pub provoking: bool,
}

/// An output triangle being assembled.
#[derive(Debug, Clone)]
pub struct Output {
    pub beat: Beat,
    pub vertices: [Option<[u32; 4]>; 3],
    pub provoking_vertex: usize,
}

/// A vertex to swizzle: its viewport, position and cache slot.
pub type SwizzleJob = (usize, [u32; 4], usize);

pub struct Vpc {
    tris: Vec<[usize; 3]>,
    positions: Vec<[u32; 4]>,
    traditional: bool,
    provoking_corner: usize,
    pub beats: VecDeque<Beat>,
    corner: usize,
    /// Issued lookups waiting for their result: (output number, corner, input vertex).
    issued: VecDeque<(u64, usize, usize)>,
    /// Results waiting for their data: (output number, corner, hit, slot).
    completions: VecDeque<(u64, usize, bool, usize)>,
    pub swizzle_in: VecDeque<SwizzleJob>,
    swizzled: VecDeque<(usize, [u32; 4])>,
    outputs: VecDeque<Output>,
    /// Output number of `outputs[0]`.
    first_output: u64,
    next_output: u64,
    data: Vec<Option<[u32; 4]>>,
}

impl Vpc {
    pub fn new(cfg: &SystemConfig, slots: usize) -> Self {
        Self {
            tris: cfg.triangles(),
            positions: cfg.vertices.clone(),
            traditional: cfg.gs_mode == GsMode::Traditional,
            provoking_corner: cfg.provoking_corner(),
            beats: VecDeque::new(),
            corner: 0,
            issued: VecDeque::new(),
            completions: VecDeque::new(),
            swizzle_in: VecDeque::new(),
            swizzled: VecDeque::new(),
            outputs: VecDeque::new(),
            first_output: 0,
            next_output: 0,
            data: vec![None; slots],
        }
    }

    /// Room for a beat this cycle.
    pub fn beat_room(&self) -> bool {
        self.beats.len() < BEAT_QUEUE
    }

    /// The lookup to offer this cycle (the next corner of the oldest output beat).
    pub fn lookup(&self) -> Option<Lookup> {
        let b = self.beats.front()?;
        let v = self.tris[b.prim][self.corner];
        // A traditional GS wrote three new vertices per triangle: their tags are the GS's
        // output vertex numbers (unique within any window the cache can hold).
        let tag = if self.traditional {
            ((3 * b.prim + self.corner) & 0xFFFF) as u16
        } else {
            v as u16
        };
        Some(Lookup {
            tag,
            viewport: b.viewport,
            provoking: self.corner == self.provoking_corner,
        })
    }

    /// The offered lookup was taken.
    pub fn lookup_taken(&mut self) {
        let b = self.beats[0];
        if self.corner == 0 {
            let tri = self.tris[b.prim];
            self.outputs.push_back(Output {
                beat: b,
                vertices: [None; 3],
                provoking_vertex: tri[self.provoking_corner],
            });
            self.next_output += 1;
        }
        let v = self.tris[b.prim][self.corner];
        self.issued
            .push_back((self.next_output - 1, self.corner, v));
        self.corner += 1;
        if self.corner == 3 {
            self.corner = 0;
            self.beats.pop_front();
        }
    }

    /// A lookup result arrived; returns the input vertex it was for. A miss sends the vertex
    /// to the swizzle for its slot.
    pub fn result(&mut self, hit: bool, slot: usize) -> Result<usize, String> {
        let (out, corner, v) = self
            .issued
            .pop_front()
            .ok_or("a cache result without a lookup")?;
        if slot >= self.data.len() {
            return Err(format!("cache slot {} out of range", slot));
        }
        let viewport = self.outputs[(out - self.first_output) as usize]
            .beat
            .viewport;
        if !hit {
            self.swizzle_in
                .push_back((viewport, self.positions[v], slot));
        }
        self.completions.push_back((out, corner, hit, slot));
        Ok(v)
    }

    /// A swizzled vertex came back for `slot`.
    pub fn swizzled(&mut self, slot: usize, pos: [u32; 4]) {
        self.swizzled.push_back((slot, pos));
    }

    /// Take the completions whose data is there, in order; return the output triangles now
    /// complete, in beat order.
    pub fn complete(&mut self) -> Result<Vec<Output>, String> {
        while let Some(&(out, corner, hit, slot)) = self.completions.front() {
            let pos = if hit {
                self.data[slot]
                    .ok_or_else(|| format!("a hit on cache slot {} that holds no vertex", slot))?
            } else {
                let Some((s, pos)) = self.swizzled.pop_front() else {
                    break;
                };
                if s != slot {
                    return Err(format!(
                        "the swizzle returned slot {} where the oldest miss allocated slot {}",
                        s, slot
                    ));
                }
                self.data[slot] = Some(pos);
                pos
            };
            self.outputs[(out - self.first_output) as usize].vertices[corner] = Some(pos);
            self.completions.pop_front();
        }
        let mut done = vec![];
        while self
            .outputs
            .front()
            .is_some_and(|o| o.vertices.iter().all(|v| v.is_some()))
        {
            if let Some(o) = self.outputs.pop_front() {
                done.push(o);
            }
            self.first_output += 1;
        }
        Ok(done)
    }

    /// Nothing in flight.
    pub fn idle(&self) -> bool {
        self.beats.is_empty()
            && self.issued.is_empty()
            && self.completions.is_empty()
            && self.swizzle_in.is_empty()
            && self.outputs.is_empty()
    }
}
