//! Testbench of [`BarrierCounter`] (SPEC BR-4, BR-5): `P` pipelines each send one token per
//! barrier instance, in instance order, at random times; like PROP, a pipeline sends a tiled
//! barrier's token only after the previous barrier of that tile was released. The model counts
//! per cache tile (and non-tiled) on every accepted token and expects `release` exactly three
//! cycles after the token that makes a count reach `P`, nothing else.
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::barrier::barrier_counter::BarrierCounter;
use ppu_hdl::barrier::item::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The unit as exported: four pipelines.
pub type RefCounter = BarrierCounter<4, 2>;

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct CounterRun {
    pub releases: usize,
    pub tokens: usize,
    pub ports: Option<PortTrace>,
}

/// `instances` barriers (`None`: non-tiled) over `tiles` cache tiles, through a counter of
/// `P` pipelines; each pipeline offers its next token with probability `rate`.
/// Long because it is the cycle loop: drive every pipeline, settle, check the release against
/// the model, account the tokens taken.
pub fn run_counter<const P: usize, const S: usize>(
    instances: &[Option<u64>],
    rate: f64,
    seed: u64,
    out: &TbOutput,
) -> Result<CounterRun, String> {
    let mut h = harness(
        BarrierCounter::<P, S>::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "barrier_counter",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut next = [0usize; P];
    let mut offered = [false; P];
    // Per tile key: releases seen so far; instance i of a key may be sent once the releases of
    // its earlier instances came.
    let key = |b: &Option<u64>| b.map_or(u64::MAX, |t| t);
    let mut ordinal = vec![0u64; instances.len()];
    let mut seen: HashMap<u64, u64> = HashMap::new();
    for (i, b) in instances.iter().enumerate() {
        let n = seen.entry(key(b)).or_insert(0);
        ordinal[i] = *n;
        *n += 1;
    }
    let mut released: HashMap<u64, u64> = HashMap::new();
    let mut counts: HashMap<u64, usize> = HashMap::new();
    let mut expect: Vec<(u64, Option<u64>)> = vec![];
    let mut run = CounterRun::default();
    let total = instances.len();
    let limit = 400 + total as u64 * P as u64 * 20;
    let mut cycle = 0u64;
    while run.releases < total || !expect.is_empty() {
        cycle += 1;
        if cycle > limit {
            return Err(format!(
                "no progress: {} of {} releases",
                run.releases, total
            ));
        }
        let reset = cycle == 1;
        let u = &mut h.uut;
        u.reset.next = reset;
        for p in 0..P {
            let eligible = next[p] < total && {
                let b = &instances[next[p]];
                released.get(&key(b)).copied().unwrap_or(0) == ordinal[next[p]]
            };
            offered[p] = !reset && eligible && (offered[p] || rng.gen_bool(rate));
            u.token_valid[p].next = offered[p];
            let tok = instances
                .get(next[p])
                .map(|b| ScreenItem::barrier(*b))
                .unwrap_or_default();
            u.token[p].next = BarrierToken::of(&tok);
        }
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if u.violation.val() {
            return Err(format!("cycle {}: violation", cycle));
        }
        let got = u.release_valid.val().then(|| {
            if u.release_tiled.val() {
                Some(u.release_tile.val().index() as u64)
            } else {
                None
            }
        });
        let want = expect
            .iter()
            .position(|e| e.0 == cycle)
            .map(|i| expect.remove(i).1);
        if got != want {
            return Err(format!(
                "cycle {}: release {:?}, model {:?}",
                cycle, got, want
            ));
        }
        if let Some(b) = got {
            run.releases += 1;
            *released.entry(key(&b)).or_insert(0) += 1;
        }
        let mut taken = 0;
        for p in 0..P {
            if offered[p] && u.token_ready[p].val() {
                taken += 1;
                let b = instances[next[p]];
                let c = counts.entry(key(&b)).or_insert(0);
                *c += 1;
                if *c == P {
                    *c = 0;
                    expect.push((cycle + 4, b));
                }
                next[p] += 1;
                offered[p] = false;
                run.tokens += 1;
            }
        }
        if taken > 1 {
            return Err(format!(
                "cycle {}: {} tokens taken in one cycle",
                cycle, taken
            ));
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("control").sigs("barrier_counter", &["clock", "reset", "ready"], vars),
            Group::new("count").sigs(
                "barrier_counter",
                &[
                    "count_valid.q",
                    "count_tiled.q",
                    "count_tile.q",
                    "wr_count.q",
                    "nontiled_next.q",
                ],
                vars,
            ),
            Group::new("release").sigs(
                "barrier_counter",
                &["release_valid", "release_tiled", "release_tile"],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// Random barrier instances over `tiles` cache tiles, about one in six non-tiled.
pub fn random_instances(rng: &mut ChaCha8Rng, tiles: u64, n: usize) -> Vec<Option<u64>> {
    (0..n)
        .map(|_| {
            if rng.gen_range(0..6) == 0 {
                None
            } else {
                Some(rng.gen_range(0..tiles))
            }
        })
        .collect()
}

/// The barrier instances of the canonical `barrier_counter` waves: three tiled barriers of one
/// tile back to back (the count bypass), two non-tiled, one of tile 200, tile 5 again.
pub fn back_to_back() -> Vec<Option<u64>> {
    vec![Some(5), Some(5), Some(5), None, None, Some(200), Some(5)]
}

/// The canonical `barrier_counter` waves: [`back_to_back`] from 2 pipelines.
pub fn run_counter_waves(out: &TbOutput) -> Result<CounterRun, String> {
    run_counter::<2, 1>(&back_to_back(), 1.0, 1, out)
}
