//! Testbench of [`Prop`] (SPEC BR-4..BR-7): random primitives and barriers for a few cache
//! tiles, with the testbench playing the back end (a release for each barrier that left PROP,
//! after a random delay) and random back-pressure from ROP. Checked against the requirements'
//! words, every cycle:
//! - nothing of cache tile t leaves while t's flag is set (set by a tiled barrier of t leaving,
//!   cleared by its release), nothing at all while the non-tiled flag is set (BR-4, BR-5);
//! - each cache tile's items leave in arrival order, and a non-tiled barrier leaves after
//!   everything that arrived before it and before everything after it (API order);
//! - everything that entered leaves, once; the hold queue never passes its slots.
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::barrier::item::*;
use ppu_hdl::barrier::prop::{Prop, HOLD_SLOTS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::{HashMap, VecDeque};

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct PropRun {
    pub passed: usize,
    pub releases: usize,
    pub max_hold: u64,
    /// Cycles an item waited at the input while the queue was full.
    pub input_waits: u64,
    pub ports: Option<PortTrace>,
}

/// Random stream of `items` items over `tiles` cache tiles (half in flag word 0, half spread
/// over the 256 flags).
pub fn random_prop_items(rng: &mut ChaCha8Rng, tiles: u64, items: usize) -> Vec<ScreenItem> {
    // Even tiles share flag word 0 (a release and a barrier of one word in one cycle), odd
    // ones spread over the 256 flags.
    let tile_of = |k: u64| {
        if k.is_multiple_of(2) {
            k
        } else {
            (k * 37) % MAX_TILES as u64
        }
    };
    (0..items)
        .map(|i| match rng.gen_range(0..20) {
            0..=2 => ScreenItem::barrier(Some(tile_of(rng.gen_range(0..tiles)))),
            3 => ScreenItem::barrier(None),
            _ => ScreenItem::prim(i as u64, tile_of(rng.gen_range(0..tiles))),
        })
        .collect()
}

/// Drive `items` through PROP; releases come `1..=max_delay` cycles after their barrier
/// leaves; ROP takes with probability `out_rate`.
/// Long because it is the cycle loop: drive, settle, and check every rule of the module doc on
/// each item that leaves, in one place.
pub fn run_prop(
    items: &[ScreenItem],
    max_delay: u64,
    out_rate: f64,
    seed: u64,
    out: &TbOutput,
) -> Result<PropRun, String> {
    let mut h = harness(Prop::default(), |u, c| u.clock.next = c.into(), out, "prop")?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut mon = ChannelMonitor::new("prop out");
    let mut run = PropRun::default();
    let mut next = 0usize;
    // Arrival sequence numbers, per tile (None key: non-tiled barriers) the order of arrival.
    let mut arrived: Vec<(usize, ScreenItem)> = vec![];
    let mut pending: HashMap<u64, VecDeque<usize>> = HashMap::new();
    let mut left = vec![false; items.len()];
    let mut flags: HashMap<u64, bool> = HashMap::new();
    let mut nontiled_flag = false;
    // Releases to send: (cycle, tile or None).
    let mut releases: Vec<(u64, Option<u64>)> = vec![];
    let limit = 100 + items.len() as u64 * (max_delay + 20);
    let mut cycle = 0u64;
    while run.passed < items.len() {
        cycle += 1;
        if cycle > limit {
            return Err(format!(
                "no progress: {} of {} items left PROP",
                run.passed,
                items.len()
            ));
        }
        let reset = cycle == 1;
        let u = &mut h.uut;
        u.reset.next = reset;
        u.in_valid.next = !reset && next < items.len();
        u.in_item.next = items.get(next).copied().unwrap_or_default();
        u.out_ready.next = rng.gen_bool(out_rate);
        releases.sort_by_key(|r| r.0);
        let rel = releases.first().filter(|r| r.0 <= cycle).copied();
        u.release_valid.next = rel.is_some();
        u.release_tiled.next = matches!(rel, Some((_, Some(_))));
        u.release_tile.next = bits::<TILE_BITS>(rel.and_then(|r| r.1).unwrap_or(0));
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if u.violation.val() {
            return Err(format!("cycle {}: violation", cycle));
        }
        run.max_hold = run.max_hold.max(u.hold_fill.val().index() as u64);
        if run.max_hold > HOLD_SLOTS as u64 {
            return Err(format!("cycle {}: hold queue at {}", cycle, run.max_hold));
        }
        let item = u.out_item.val();
        if mon.check(reset, u.out_valid.val(), u.out_ready.val(), item)? {
            let kind = item.kind_code();
            let key = if kind == KIND_NONTILED_BARRIER {
                u64::MAX
            } else {
                item.tile.index() as u64
            };
            // The oldest item of its class that has not left must be this one.
            let seq = pending
                .get_mut(&key)
                .and_then(|q| q.pop_front())
                .ok_or_else(|| {
                    format!("cycle {}: {:?} left PROP but never entered", cycle, item)
                })?;
            if arrived[seq].1 != item {
                return Err(format!(
                    "cycle {}: {:?} left before {:?} of its tile (order)",
                    cycle, item, arrived[seq].1
                ));
            }
            // Non-tiled barriers: everything before has left; nothing after has.
            if kind == KIND_NONTILED_BARRIER {
                if let Some(k) = (0..seq).find(|&k| !left[k]) {
                    return Err(format!(
                        "cycle {}: non-tiled barrier left before {:?}",
                        cycle, arrived[k].1
                    ));
                }
            }
            if let Some(k) = (0..seq)
                .rev()
                .find(|&k| arrived[k].1.kind_code() == KIND_NONTILED_BARRIER)
            {
                if !left[k] {
                    return Err(format!(
                        "cycle {}: {:?} passed a non-tiled barrier still in PROP",
                        cycle, item
                    ));
                }
            }
            if nontiled_flag {
                return Err(format!(
                    "cycle {}: {:?} left while the non-tiled flag was set",
                    cycle, item
                ));
            }
            if kind != KIND_NONTILED_BARRIER && flags.get(&key).copied().unwrap_or(false) {
                return Err(format!(
                    "cycle {}: {:?} left while tile {}'s flag was set",
                    cycle, item, key
                ));
            }
            left[seq] = true;
            run.passed += 1;
            let delay = rng.gen_range(1..=max_delay.max(1));
            if kind == KIND_TILED_BARRIER {
                flags.insert(key, true);
                releases.push((cycle + delay, Some(key)));
            } else if kind == KIND_NONTILED_BARRIER {
                nontiled_flag = true;
                releases.push((cycle + delay, None));
            }
        }
        if let Some(r) = rel {
            releases.remove(0);
            run.releases += 1;
            match r.1 {
                Some(t) => {
                    flags.insert(t, false);
                }
                None => nontiled_flag = false,
            }
        }
        if u.in_valid.val() {
            if u.in_ready.val() {
                let it = items[next];
                let key = if it.kind_code() == KIND_NONTILED_BARRIER {
                    u64::MAX
                } else {
                    it.tile.index() as u64
                };
                pending.entry(key).or_default().push_back(arrived.len());
                arrived.push((next, it));
                next += 1;
            } else {
                run.input_waits += 1;
            }
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("input").sigs(
                "prop",
                &[
                    "clock",
                    "reset",
                    "in_valid",
                    "in_ready",
                    "in_item$kind",
                    "in_item$prim",
                    "in_item$tile",
                ],
                vars,
            ),
            Group::new("flags").sigs(
                "prop",
                &["nontiled_flag.q", "hold_count.q", "hold_fill"],
                vars,
            ),
            Group::new("release").sigs(
                "prop",
                &["release_valid", "release_tiled", "release_tile"],
                vars,
            ),
            Group::new("output").sigs(
                "prop",
                &[
                    "out_valid",
                    "out_ready",
                    "out_item$kind",
                    "out_item$prim",
                    "out_item$tile",
                ],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// The directed items of the canonical `prop` waves (BR-5, BR-7): tile 3's barrier holds
/// tile 3's next primitive while tile 40's primitives pass; a non-tiled barrier then holds
/// everything after it.
pub fn other_tiles_pass() -> Vec<ScreenItem> {
    vec![
        ScreenItem::prim(0, 3),
        ScreenItem::barrier(Some(3)),
        ScreenItem::prim(1, 3),
        ScreenItem::prim(2, 40),
        ScreenItem::prim(3, 40),
        ScreenItem::barrier(None),
        ScreenItem::prim(4, 40),
    ]
}

/// The canonical `prop` waves: [`other_tiles_pass`], releases up to 30 cycles late.
pub fn run_prop_waves(out: &TbOutput) -> Result<PropRun, String> {
    run_prop(&other_tiles_pass(), 30, 1.0, 5, out)
}
