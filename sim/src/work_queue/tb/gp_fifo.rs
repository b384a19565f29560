//! Testbench of [`GpFifo`] (SPEC WQ-1, WQ-2): a fill-level sweep, then random submissions,
//! advances and GPU-owned (`put_follow`) phases, every output compared every cycle with the
//! golden [`RingModel`].
use super::super::golden::{wrap, RingModel};
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::work_queue::gp_fifo::GpFifo;
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// Index width of the exported ring (rings of up to 256 entries).
pub const RING_IDX: usize = 8;
pub type RefGpFifo = GpFifo<RING_IDX, { RING_IDX + 2 }>;

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct GpFifoRun {
    pub cycles: u64,
    pub advances: u64,
    /// Fill levels seen with `full` high / `empty` high.
    pub full_seen: u64,
    pub empty_seen: u64,
    pub ports: Option<PortTrace>,
}

/// Drive a ring of `entries` entries built with `form` for `cycles` random cycles after a sweep
/// of every fill level 0..=entries-1 (GP_PUT written, GP_GET at 0).
pub fn run_gp_fifo(
    form: WrapForm,
    entries: u64,
    cycles: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<GpFifoRun, String> {
    let mut h = harness(
        RefGpFifo::with_form(form),
        |u, c| u.clock.next = c.into(),
        out,
        "gp_fifo",
    )?;
    let n = entries as usize;
    let mut model = RingModel::new(n);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut run = GpFifoRun::default();
    let sweep = entries;
    let mut follow = false;
    for cycle in 0..sweep + cycles + 1 {
        let reset = cycle == 0;
        let (mut put, mut advance) = (None, false);
        if !reset && cycle <= sweep {
            put = Some((cycle - 1) as usize);
        } else if !reset {
            if rng.gen_bool(0.02) {
                follow = !follow;
            }
            let room = n - 1 - model.fill();
            if !follow && rng.gen_bool(0.3) {
                put = Some(wrap((model.gp_put + rng.gen_range(0..=room)) as i64, entries) as usize);
            }
            advance = rng.gen_bool(if follow { 0.5 } else { 0.4 });
        }
        let u = &mut h.uut;
        u.reset.next = reset;
        u.ring_entries.next = bits::<{ RING_IDX + 2 }>(entries);
        u.put_valid.next = put.is_some();
        u.put_value.next = bits::<RING_IDX>(put.unwrap_or(0) as u64);
        u.put_follow.next = follow;
        u.get_advance.next = advance;
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if !reset {
            let got = (
                u.gp_get.val().index(),
                u.gp_put.val().index(),
                u.empty.val(),
                u.full.val(),
                u.fill.val().index(),
                u.violation.val(),
            );
            let want = (
                model.gp_get,
                model.gp_put,
                model.empty(),
                model.full(),
                model.fill(),
                advance && model.empty(),
            );
            if got != want {
                return Err(format!(
                    "cycle {} (n={}, {:?}): (gp_get, gp_put, empty, full, fill, violation) = {:?}, model {:?}",
                    cycle, entries, form, got, want
                ));
            }
            run.full_seen += u64::from(model.full());
            run.empty_seen += u64::from(model.empty());
        }
        let empty_next = h.uut.empty_next.val();
        // The model's next state (WQ-1): advance, then GP_PUT written or following.
        if reset {
            model = RingModel::new(n);
        } else {
            if advance && model.execute() {
                run.advances += 1;
            }
            if follow {
                model.gp_put = wrap(model.gp_get as i64 - 1, entries) as usize;
            } else if let Some(p) = put {
                model.gp_put = p;
            }
        }
        // `empty_next` is the next cycle's `empty` (the host keeps its own register of it).
        if empty_next != model.empty() {
            return Err(format!(
                "cycle {} (n={}, {:?}): empty_next = {}, the model's next empty {}",
                cycle,
                entries,
                form,
                empty_next,
                model.empty()
            ));
        }
        h.step().map_err(|e| e.to_string())?;
        run.cycles += 1;
    }
    run.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("control").sigs("gp_fifo", &["clock", "reset", "ring_entries"], vars),
            Group::new("software").sigs("gp_fifo", &["put_valid", "put_value", "put_follow"], vars),
            Group::new("host").sigs("gp_fifo", &["get_advance"], vars),
            Group::new("ring").sigs(
                "gp_fifo",
                &[
                    "gp_get",
                    "gp_put",
                    "empty",
                    "empty_next",
                    "full",
                    "fill",
                    "violation",
                ],
                vars,
            ),
        ]
    })?;
    Ok(run)
}
