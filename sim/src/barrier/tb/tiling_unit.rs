//! Testbench of [`TilingUnit`] (SPEC BR-3, BR-4, BR-5): random streams of primitive entries,
//! tiled and non-tiled barriers and end markers, with random input gaps and random
//! back-pressure on the output; every output item and every flush is compared, in order, with
//! [`RefTiling`], a model of the binning rules written from the requirements (one list per
//! cache tile, flush on threshold / non-tiled barrier / end, tiled barriers placed in every
//! cache tile's batch, in rounds when a flush carries several). The output channel is watched
//! by a [`ChannelMonitor`].
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::barrier::item::*;
use ppu_hdl::barrier::tiling_unit::{TilingUnit, FLUSH_BARRIER, FLUSH_END, FLUSH_THRESHOLD};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// One input of a tiling unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TuInput {
    Entry { prim: u64, tile: u64 },
    Tiled,
    NonTiled,
    End,
}

impl TuInput {
    fn item(self) -> ScreenItem {
        match self {
            TuInput::Entry { prim, tile } => ScreenItem::prim(prim, tile),
            TuInput::Tiled => ScreenItem::barrier(Some(0)),
            TuInput::NonTiled => ScreenItem::barrier(None),
            TuInput::End => ScreenItem::end(),
        }
    }
}

/// An output item: `(kind, prim, tile)`.
pub type TuOutput = (u64, u64, u64);

/// Reference model of one tiling unit.
#[derive(Debug, Clone, Default)]
pub struct RefTiling {
    pub tiles: u64,
    pub capacity: u64,
    /// Binned entries in arrival order: (prim, tile, tiled barriers before it).
    bin: Vec<(u64, u64, u64)>,
    epochs: u64,
    pub out: Vec<TuOutput>,
    /// (reason, entries) of every flush.
    pub flushes: Vec<(u64, u64)>,
}

impl RefTiling {
    pub fn new(tiles: u64, capacity: u64) -> Self {
        RefTiling {
            tiles,
            capacity,
            ..Default::default()
        }
    }

    pub fn input(&mut self, i: TuInput) {
        match i {
            TuInput::Entry { prim, tile } => {
                self.bin.push((prim, tile, self.epochs));
                if self.bin.len() as u64 == self.capacity {
                    self.flush(FLUSH_THRESHOLD);
                }
            }
            TuInput::Tiled => self.epochs += 1,
            TuInput::NonTiled => {
                self.flush(FLUSH_BARRIER);
                self.out.push((KIND_NONTILED_BARRIER, 0, 0));
            }
            TuInput::End => self.flush(FLUSH_END),
        }
    }

    fn flush(&mut self, reason: u64) {
        self.flushes.push((reason, self.bin.len() as u64));
        let k = self.epochs;
        let rounds = k.max(1);
        for r in 1..=rounds {
            for t in 0..self.tiles {
                let of_tile = |e: &&(u64, u64, u64)| e.1 == t;
                for e in self.bin.iter().filter(of_tile).filter(|e| e.2 == r - 1) {
                    self.out.push((KIND_PRIM, e.0, t));
                }
                if r <= k {
                    self.out.push((KIND_TILED_BARRIER, 0, t));
                }
                if r == rounds && k >= 1 {
                    for e in self.bin.iter().filter(of_tile).filter(|e| e.2 >= k) {
                        self.out.push((KIND_PRIM, e.0, t));
                    }
                }
            }
        }
        self.bin.clear();
        self.epochs = 0;
    }
}

/// A random input stream: `prims` primitives touching 1..=3 cache tiles each (ascending), with
/// barriers of both kinds mixed in (back to back sometimes) and an end marker last.
pub fn random_inputs(rng: &mut ChaCha8Rng, tiles: u64, prims: u64) -> Vec<TuInput> {
    let mut v = vec![];
    for p in 0..prims {
        let n = rng.gen_range(1..=3.min(tiles));
        let mut ts: Vec<u64> = (0..n).map(|_| rng.gen_range(0..tiles)).collect();
        ts.sort_unstable();
        ts.dedup();
        for t in ts {
            v.push(TuInput::Entry { prim: p, tile: t });
        }
        match rng.gen_range(0..12) {
            0 | 1 => v.push(TuInput::Tiled),
            2 => v.push(TuInput::NonTiled),
            3 => {
                v.push(TuInput::Tiled);
                v.push(TuInput::Tiled);
            }
            4 => {
                v.push(TuInput::Tiled);
                v.push(TuInput::NonTiled);
            }
            _ => {}
        }
    }
    v.push(TuInput::End);
    v
}

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct TilingRun {
    pub outputs: usize,
    pub flushes: usize,
    pub cycles: u64,
    pub ports: Option<PortTrace>,
}

/// Drive `inputs` into a tiling unit of `tiles` cache tiles and capacity `capacity`; inputs
/// offered with probability `in_rate`, output taken with probability `out_rate`.
/// Long because it is the cycle loop: drive, settle, compare flushes and outputs with the model.
pub fn run_tiling(
    tiles: u64,
    capacity: u64,
    inputs: &[TuInput],
    in_rate: f64,
    out_rate: f64,
    seed: u64,
    out: &TbOutput,
) -> Result<TilingRun, String> {
    let mut model = RefTiling::new(tiles, capacity);
    for &i in inputs {
        model.input(i);
    }
    let mut want: VecDeque<TuOutput> = model.out.iter().copied().collect();
    let mut want_flushes: VecDeque<(u64, u64)> = model.flushes.iter().copied().collect();
    let mut h = harness(
        TilingUnit::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "tiling_unit",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut mon = ChannelMonitor::new("tiling_unit out");
    let mut next = 0usize;
    let mut offered = false;
    let mut run = TilingRun::default();
    let limit = 200 + 40 * (inputs.len() as u64 + model.out.len() as u64) * (tiles + 4);
    let mut cycle = 0u64;
    while !(want.is_empty() && want_flushes.is_empty() && next == inputs.len()) {
        cycle += 1;
        if cycle > limit {
            return Err(format!(
                "no progress: {} of {} inputs taken, {} outputs and {} flushes missing",
                next,
                inputs.len(),
                want.len(),
                want_flushes.len()
            ));
        }
        let reset = cycle == 1;
        let u = &mut h.uut;
        u.reset.next = reset;
        u.tiles.next = bits::<9>(tiles);
        u.bin_capacity.next = bits::<9>(capacity);
        offered = !reset && next < inputs.len() && (offered || rng.gen_bool(in_rate));
        u.in_valid.next = offered;
        u.in_item.next = inputs.get(next).map(|i| i.item()).unwrap_or_default();
        u.out_ready.next = rng.gen_bool(out_rate);
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if u.violation.val() {
            return Err(format!("cycle {}: violation", cycle));
        }
        if u.flush_valid.val() {
            let got = (
                u.flush_reason.val().index() as u64,
                u.flush_entries.val().index() as u64,
            );
            match want_flushes.pop_front() {
                Some(w) if w == got => run.flushes += 1,
                w => return Err(format!("cycle {}: flush {:?}, model {:?}", cycle, got, w)),
            }
        }
        let item = u.out_item.val();
        let payload = (
            item.kind_code(),
            item.prim.index() as u64,
            item.tile.index() as u64,
        );
        if mon.check(reset, u.out_valid.val(), u.out_ready.val(), payload)? {
            match want.pop_front() {
                Some(w) if w == payload => run.outputs += 1,
                w => {
                    return Err(format!(
                        "cycle {}: output {:?} (kind, prim, tile), model {:?} (output {})",
                        cycle, payload, w, run.outputs
                    ))
                }
            }
        }
        if offered && u.in_ready.val() {
            next += 1;
            offered = false;
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.cycles = cycle;
    run.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("input").sigs(
                "tiling_unit",
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
            Group::new("bin").sigs(
                "tiling_unit",
                &[
                    "state.q",
                    "bin_count.q",
                    "epochs.q",
                    "round.q",
                    "walk_tile.q",
                    "cursor.q",
                ],
                vars,
            ),
            Group::new("flush").sigs(
                "tiling_unit",
                &["flush_valid", "flush_reason", "flush_entries"],
                vars,
            ),
            Group::new("output").sigs(
                "tiling_unit",
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

/// The directed stream of the canonical `tiling_unit` waves (BR-8): back-to-back tiled
/// barriers, a tiled barrier followed by a non-tiled one, two non-tiled barriers back to back
/// (the second flushes an empty bin) and a tiled barrier in the end flush, over 3 cache tiles.
pub fn mixed_barriers() -> Vec<TuInput> {
    let e = |prim, tile| TuInput::Entry { prim, tile };
    vec![
        e(0, 0),
        TuInput::Tiled,
        TuInput::Tiled,
        e(1, 0),
        e(1, 2),
        TuInput::Tiled,
        TuInput::NonTiled,
        TuInput::NonTiled,
        e(2, 1),
        TuInput::Tiled,
        TuInput::End,
    ]
}

/// The canonical `tiling_unit` waves: [`mixed_barriers`], 3 cache tiles, capacity 8.
pub fn run_tiling_waves(out: &TbOutput) -> Result<TilingRun, String> {
    run_tiling(3, 8, &mixed_barriers(), 0.7, 0.6, 3, out)
}
