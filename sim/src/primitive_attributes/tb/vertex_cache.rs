//! Testbench of [`ProvokingVertexCache`] (SPEC PA-6): a reference model written from the
//! rules ([`RefCache`]: a list of entries, one lookup at a time), lookups with random gaps
//! and random result back-pressure, every result (hit, slot, invalidated, echoes) compared,
//! and the invariants checked on the model: never two valid entries with one tag, a
//! provoking lookup never a hit.
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::primitive_attributes::provoking_vertex_cache::{ProvokingVertexCache, CACHE_ENTRIES};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// A lookup: vertex tag, viewport, provoking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheLookup {
    pub vertex: u16,
    pub viewport: u8,
    pub provoking: bool,
}

/// A result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheResult {
    pub hit: bool,
    pub slot: usize,
    pub invalidated: bool,
    pub lookup: CacheLookup,
}

/// The rules of PA-6 as the cache implements them, one lookup at a time: `capacity` entries,
/// tag (vertex, viewport), FIFO replacement from entry 0; a non-provoking lookup hits a valid
/// entry with its tag, else allocates; a provoking lookup never hits: a valid entry with its
/// tag is invalidated and a new entry is allocated.
#[derive(Debug, Clone)]
pub struct RefCache {
    entries: Vec<Option<(u16, u8)>>,
    pointer: usize,
}

impl RefCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            entries: vec![None; capacity],
            pointer: 0,
        }
    }

    pub fn lookup(&mut self, l: CacheLookup) -> Result<CacheResult, String> {
        let tag = (l.vertex, l.viewport);
        let found = self.entries.iter().position(|e| *e == Some(tag));
        let mut r = CacheResult {
            hit: false,
            slot: 0,
            invalidated: false,
            lookup: l,
        };
        match found {
            Some(i) if !l.provoking => {
                r.hit = true;
                r.slot = i;
            }
            _ => {
                if let Some(i) = found {
                    self.entries[i] = None;
                    r.invalidated = true;
                }
                r.slot = self.pointer;
                self.entries[self.pointer] = Some(tag);
                self.pointer = (self.pointer + 1) % self.entries.len();
            }
        }
        let mut tags: Vec<_> = self.entries.iter().flatten().collect();
        tags.sort();
        if tags.windows(2).any(|w| w[0] == w[1]) {
            return Err(format!("two valid entries hold one tag after {:?}", l));
        }
        Ok(r)
    }
}

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct CacheRun {
    pub results: Vec<CacheResult>,
    pub misses: usize,
    pub cycles: u64,
    pub ports: Option<PortTrace>,
}

/// The lookups of a triangle strip of `tris` triangles drawn to each viewport of `viewports`
/// (strict order: all viewports of a triangle before the next), provoking vertex `last` or
/// first, three lookups per output triangle.
pub fn strip_lookups(tris: usize, viewports: &[u8], last: bool) -> Vec<CacheLookup> {
    let mut out = vec![];
    for i in 0..tris {
        let t = if i % 2 == 0 {
            [i, i + 1, i + 2]
        } else {
            [i + 1, i, i + 2]
        };
        for &vp in viewports {
            for (c, &v) in t.iter().enumerate() {
                out.push(CacheLookup {
                    vertex: v as u16,
                    viewport: vp,
                    provoking: c == if last { 2 } else { 0 },
                });
            }
        }
    }
    out
}

/// Random lookups over a few vertices and viewports (so that hits, shared provoking vertices
/// and back-to-back same-tag lookups are common).
pub fn random_lookups(rng: &mut ChaCha8Rng, n: usize, vertices: u16) -> Vec<CacheLookup> {
    (0..n)
        .map(|_| CacheLookup {
            vertex: rng.gen_range(0..vertices),
            viewport: rng.gen_range(0..3),
            provoking: rng.gen_bool(0.3),
        })
        .collect()
}

/// Drive `lookups` through a cache of `capacity` entries.
/// Long because it is the cycle loop: drive, settle, check both channels, compare the result.
pub fn run_cache(
    lookups: &[CacheLookup],
    capacity: usize,
    valid_prob: f64,
    ready_prob: f64,
    seed: u64,
    out: &TbOutput,
) -> Result<CacheRun, String> {
    let mut h = harness(
        ProvokingVertexCache::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "provoking_vertex_cache",
    )?;
    let mut model = RefCache::new(capacity);
    let mut want = vec![];
    for l in lookups {
        want.push(model.lookup(*l)?);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut in_mon = ChannelMonitor::new("lookup");
    let mut out_mon = ChannelMonitor::new("result");
    let mut next = 0;
    let mut offered = false;
    let mut run = CacheRun::default();
    let limit = 100 + 40 * lookups.len() as u64;
    let mut cycle = 0u64;
    while run.results.len() < want.len() {
        cycle += 1;
        if cycle > limit {
            return Err(format!("{} of {} results", run.results.len(), want.len()));
        }
        let reset = cycle <= 2;
        offered = !reset && next < lookups.len() && (offered || rng.gen_bool(valid_prob));
        let ready = !reset && rng.gen_bool(ready_prob);
        let l = lookups.get(next).copied().unwrap_or_default();
        let u = &mut h.uut;
        u.reset.next = reset;
        u.capacity.next = bits::<7>(capacity as u64);
        u.lookup_valid.next = offered;
        u.lookup_vertex.next = bits::<16>(l.vertex as u64);
        u.lookup_viewport.next = bits::<4>(l.viewport as u64);
        u.lookup_provoking.next = l.provoking;
        u.result_ready.next = ready;
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if u.violation.val() {
            return Err(format!(
                "cycle {}: violation with capacity {}",
                cycle, capacity
            ));
        }
        if in_mon.check(reset, offered, u.lookup_ready.val(), l)? {
            next += 1;
            offered = false;
        }
        let r = CacheResult {
            hit: u.result_hit.val(),
            slot: u.result_slot.val().index(),
            invalidated: u.result_invalidated.val(),
            lookup: CacheLookup {
                vertex: u.result_vertex.val().index() as u16,
                viewport: u.result_viewport.val().index() as u8,
                provoking: u.result_provoking.val(),
            },
        };
        if out_mon.check(reset, u.result_valid.val(), ready, r)? {
            let i = run.results.len();
            if r != want[i] {
                return Err(format!(
                    "cycle {}: result {} is {:?}, the model says {:?}",
                    cycle, i, r, want[i]
                ));
            }
            if r.lookup.provoking && r.hit {
                return Err(format!("cycle {}: a provoking lookup hit", cycle));
            }
            run.misses += usize::from(!r.hit);
            run.results.push(r);
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.cycles = cycle;
    run.ports = finish_waves(h, out, |vars| {
        let top = "provoking_vertex_cache";
        vec![
            Group::new("control").sigs(top, &["clock", "reset", "capacity", "violation"], vars),
            Group::new("lookup").sigs(
                top,
                &[
                    "lookup_valid",
                    "lookup_ready",
                    "lookup_vertex",
                    "lookup_viewport",
                    "lookup_provoking",
                ],
                vars,
            ),
            Group::new("stages").sigs(
                top,
                &[
                    "a_valid.q",
                    "b_valid.q",
                    "b_match_lo.q",
                    "b_match_hi.q",
                    "alloc_ptr.q",
                ],
                vars,
            ),
            Group::new("result").sigs(
                top,
                &[
                    "result_valid",
                    "result_ready",
                    "result_hit",
                    "result_slot",
                    "result_invalidated",
                    "result_vertex",
                    "result_viewport",
                    "result_provoking",
                ],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// The canonical waves: a strip of 5 triangles in viewports 0 and 1, first vertex provoking
/// (so shared provoking vertices are invalidated), capacity 4, some back-pressure.
pub fn run_cache_waves(out: &TbOutput) -> Result<CacheRun, String> {
    run_cache(&strip_lookups(5, &[0, 1], false), 4, 0.9, 0.8, 3, out)
}

/// The capacity of the exported unit's co-simulation run.
pub const COSIM_CAPACITY: usize = CACHE_ENTRIES - 7;
