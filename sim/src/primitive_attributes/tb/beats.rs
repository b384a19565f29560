//! The multicast beat stream shared by [`ViewportMulticast`] (strict order) and
//! [`OrderSequencer`] (viewport order) (SPEC PA-2..PA-4): the input primitive, the output
//! beat, a reference model of the beat sequence written from the requirements, and one driver
//! for both blocks (random input gaps, random output back-pressure, the valid/ready contract
//! checked on both channels, every beat compared with the model).
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::primitive_attributes::order_sequencer::OrderSequencer;
use ppu_hdl::primitive_attributes::viewport_multicast::ViewportMulticast;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// An input primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PrimIn {
    pub mask: u16,
    pub layer: u32,
    pub prim: u32,
    pub instance: u32,
    /// The last primitive of the draw (closes a viewport-order batch).
    pub end: bool,
}

/// An output beat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Beat {
    pub kill: bool,
    pub prim: u32,
    pub instance: u32,
    pub viewport: u32,
    pub layer: u32,
    pub first: bool,
    pub last: bool,
}

fn beat_of(p: &PrimIn, v: u32, layer_offset: bool) -> Beat {
    let low = p.mask.trailing_zeros();
    let high = 15 - p.mask.leading_zeros();
    Beat {
        kill: false,
        prim: p.prim,
        instance: p.instance,
        viewport: v,
        layer: if layer_offset {
            p.layer.wrapping_add(v)
        } else {
            p.layer
        },
        first: v == low,
        last: v == high,
    }
}

fn kill_of(p: &PrimIn) -> Beat {
    Beat {
        kill: true,
        prim: p.prim,
        instance: p.instance,
        viewport: 0,
        layer: p.layer,
        first: true,
        last: true,
    }
}

/// PA-2/PA-3/PA-4 reference: the beats of `prims` in strict order (`batch` None: per
/// primitive, a kill for mask 0, else one beat per set bit ascending) or in viewport order
/// over batches of `batch` primitives (a batch also ends after a primitive with `end`): per
/// batch, the kills in primitive order, then for viewports 0..15 the primitives with that bit.
pub fn reference_beats(prims: &[PrimIn], batch: Option<usize>, layer_offset: bool) -> Vec<Beat> {
    let mut out = vec![];
    let Some(batch) = batch else {
        for p in prims {
            if p.mask == 0 {
                out.push(kill_of(p));
            }
            for v in 0..16 {
                if p.mask & (1 << v) != 0 {
                    out.push(beat_of(p, v, layer_offset));
                }
            }
        }
        return out;
    };
    let mut start = 0;
    while start < prims.len() {
        let mut end = start;
        while end < prims.len() && end - start < batch {
            end += 1;
            if prims[end - 1].end {
                break;
            }
        }
        let group = &prims[start..end];
        out.extend(group.iter().filter(|p| p.mask == 0).map(kill_of));
        for v in 0..16 {
            for p in group.iter().filter(|p| p.mask & (1 << v) != 0) {
                out.push(beat_of(p, v, layer_offset));
            }
        }
        start = end;
    }
    out
}

/// Random primitives: masks 0, single bits, all 16 and random; layers near 0 and near 2^32;
/// one in `end_every` (if any) closes a batch early.
pub fn random_prims(rng: &mut ChaCha8Rng, n: usize, end_every: Option<u32>) -> Vec<PrimIn> {
    (0..n)
        .map(|i| PrimIn {
            mask: match rng.gen_range(0..6) {
                0 => 0,
                1 => 1 << rng.gen_range(0..16),
                2 => 0xFFFF,
                _ => rng.gen(),
            },
            layer: if rng.gen_bool(0.2) {
                u32::MAX - rng.gen_range(0..20)
            } else {
                rng.gen_range(0..64)
            },
            prim: i as u32,
            instance: rng.gen(),
            end: i + 1 == n || end_every.is_some_and(|e| rng.gen_range(0..e) == 0),
        })
        .collect()
}

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct BeatRun {
    pub beats: Vec<Beat>,
    pub cycles: u64,
    pub ports: Option<PortTrace>,
}

/// The ports both blocks share.
pub trait BeatBlock: Block + Default {
    const NAME: &'static str;
    fn set_clock(&mut self, c: bool);
    fn configure(&mut self, reset: bool, batch: usize, layer_offset: bool);
    fn drive(&mut self, valid: bool, p: &PrimIn, out_ready: bool);
    fn in_ready(&self) -> bool;
    fn beat(&self) -> Option<Beat>;
    fn violation(&self) -> bool;
}

impl BeatBlock for ViewportMulticast {
    const NAME: &'static str = "viewport_multicast";
    fn set_clock(&mut self, c: bool) {
        self.clock.next = c.into();
    }
    fn configure(&mut self, reset: bool, _batch: usize, layer_offset: bool) {
        self.reset.next = reset;
        self.layer_offset.next = layer_offset;
    }
    fn drive(&mut self, valid: bool, p: &PrimIn, out_ready: bool) {
        self.in_valid.next = valid;
        self.in_mask.next = bits::<16>(p.mask as u64);
        self.in_layer.next = bits::<32>(p.layer as u64);
        self.in_prim.next = bits::<32>(p.prim as u64);
        self.in_instance.next = bits::<32>(p.instance as u64);
        self.out_ready.next = out_ready;
    }
    fn in_ready(&self) -> bool {
        self.in_ready.val()
    }
    fn beat(&self) -> Option<Beat> {
        self.out_valid.val().then(|| Beat {
            kill: self.out_kill.val(),
            prim: self.out_prim.val().index() as u32,
            instance: self.out_instance.val().index() as u32,
            viewport: self.out_viewport.val().index() as u32,
            layer: self.out_layer.val().index() as u32,
            first: self.out_first.val(),
            last: self.out_last.val(),
        })
    }
    fn violation(&self) -> bool {
        false
    }
}

impl BeatBlock for OrderSequencer {
    const NAME: &'static str = "order_sequencer";
    fn set_clock(&mut self, c: bool) {
        self.clock.next = c.into();
    }
    fn configure(&mut self, reset: bool, batch: usize, layer_offset: bool) {
        self.reset.next = reset;
        self.batch_size.next = bits::<9>(batch as u64);
        self.layer_offset.next = layer_offset;
    }
    fn drive(&mut self, valid: bool, p: &PrimIn, out_ready: bool) {
        self.in_valid.next = valid;
        self.in_mask.next = bits::<16>(p.mask as u64);
        self.in_layer.next = bits::<32>(p.layer as u64);
        self.in_prim.next = bits::<32>(p.prim as u64);
        self.in_instance.next = bits::<32>(p.instance as u64);
        self.in_end.next = p.end;
        self.out_ready.next = out_ready;
    }
    fn in_ready(&self) -> bool {
        self.in_ready.val()
    }
    fn beat(&self) -> Option<Beat> {
        self.out_valid.val().then(|| Beat {
            kill: self.out_kill.val(),
            prim: self.out_prim.val().index() as u32,
            instance: self.out_instance.val().index() as u32,
            viewport: self.out_viewport.val().index() as u32,
            layer: self.out_layer.val().index() as u32,
            first: self.out_first.val(),
            last: self.out_last.val(),
        })
    }
    fn violation(&self) -> bool {
        self.violation.val()
    }
}

/// Stimulus of a beat run.
#[derive(Debug, Clone, Copy)]
pub struct BeatStimulus {
    /// Viewport-order batch (the sequencer); ignored by the multicast.
    pub batch: usize,
    pub layer_offset: bool,
    /// Probability that the producer offers its next primitive in a cycle.
    pub valid_prob: f64,
    /// Probability that the consumer is ready in a cycle.
    pub ready_prob: f64,
    pub seed: u64,
}

/// Drive `prims` through block `B`; check the contract of both channels and every beat
/// against [`reference_beats`].
/// Long because it is the cycle loop: drive, settle, check both channels, compare the beat.
pub fn run_beats<B: BeatBlock>(
    prims: &[PrimIn],
    batch: Option<usize>,
    s: &BeatStimulus,
    out: &TbOutput,
) -> Result<BeatRun, String> {
    let mut h = harness(B::default(), |u, c| u.set_clock(c), out, B::NAME)?;
    let want = reference_beats(prims, batch, s.layer_offset);
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    let mut in_mon = ChannelMonitor::new("in");
    let mut out_mon = ChannelMonitor::new("out");
    let mut next = 0usize;
    let mut offered = false;
    let mut run = BeatRun::default();
    let limit = 200 + 20 * (want.len() + prims.len()) as u64 * 20;
    let mut cycle = 0u64;
    while run.beats.len() < want.len() {
        cycle += 1;
        if cycle > limit {
            return Err(format!(
                "{}: {} of {} beats after {} cycles",
                B::NAME,
                run.beats.len(),
                want.len(),
                cycle
            ));
        }
        let reset = cycle <= 2;
        offered = !reset && next < prims.len() && (offered || rng.gen_bool(s.valid_prob));
        let ready = !reset && rng.gen_bool(s.ready_prob);
        let p = prims.get(next).copied().unwrap_or_default();
        let u = &mut h.uut;
        u.configure(reset, s.batch, s.layer_offset);
        u.drive(offered, &p, ready);
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if !reset && u.violation() {
            return Err(format!("{}: cycle {}: violation", B::NAME, cycle));
        }
        if in_mon.check(reset, offered, u.in_ready(), p)? {
            next += 1;
            offered = false;
        }
        let beat = u.beat();
        if out_mon.check(reset, beat.is_some(), ready, beat.unwrap_or_default())? {
            let b = beat.unwrap_or_default();
            let i = run.beats.len();
            if b != want[i] {
                return Err(format!(
                    "{}: cycle {}: beat {} is {:?}, the model says {:?}",
                    B::NAME,
                    cycle,
                    i,
                    b,
                    want[i]
                ));
            }
            run.beats.push(b);
        }
        h.step().map_err(|e| e.to_string())?;
    }
    // Nothing more may come out.
    for _ in 0..20 {
        h.uut.drive(false, &PrimIn::default(), true);
        h.settle().map_err(|e| e.to_string())?;
        if let Some(b) = h.uut.beat() {
            return Err(format!("{}: a beat after the last: {:?}", B::NAME, b));
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.cycles = cycle;
    run.ports = finish_waves(h, out, |vars| {
        let top = B::NAME;
        vec![
            Group::new("control").sigs(top, &["clock", "reset", "layer_offset"], vars),
            Group::new("primitive in").sigs(
                top,
                &["in_valid", "in_ready", "in_mask", "in_layer", "in_prim"],
                vars,
            ),
            Group::new("beat out").sigs(
                top,
                &[
                    "out_valid",
                    "out_ready",
                    "out_kill",
                    "out_prim",
                    "out_viewport",
                    "out_layer",
                    "out_first",
                    "out_last",
                ],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// The primitives of the canonical waves: masks 0b1011, 0, 0x8000, 0xFFFF, 0b110, layers 0,
/// 5, 9, 2^32 - 3, 1.
pub fn wave_prims() -> Vec<PrimIn> {
    [
        (0b1011u16, 0u32),
        (0, 5),
        (0x8000, 9),
        (0xFFFF, u32::MAX - 2),
        (0b110, 1),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(mask, layer))| PrimIn {
        mask,
        layer,
        prim: i as u32,
        instance: 100 + i as u32,
        end: i == 4,
    })
    .collect()
}
