//! Testbench of [`SoftPutAllocator`] (SPEC WQ-5, WQ-6): the driver's set-up at a random GP_GET,
//! then random allocations (count 0, fitting, too large) and shadow updates, every answer
//! compared with the golden [`AllocatorModel`]: refused allocations change nothing, granted
//! ones return the old soft GP_PUT; the lap counts the wraps of soft GP_PUT. The answer comes two
//! cycles after the request, and the allocation sees the shadow updates up to the request's
//! cycle (the model allocates in the cycle after the request, before that cycle's update).
use super::super::golden::{wrap, AllocatorModel};
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use ppu_hdl::work_queue::soft_put_allocator::SoftPutAllocator;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

use super::gp_fifo::RING_IDX;
pub type RefAllocator = SoftPutAllocator<RING_IDX, { RING_IDX + 2 }>;

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct AllocatorRun {
    pub granted: u64,
    pub refused: u64,
    pub wraps: u64,
    pub ports: Option<PortTrace>,
}

/// `cycles` random cycles on a ring of `entries` built with `form`.
pub fn run_allocator(
    form: WrapForm,
    entries: u64,
    cycles: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<AllocatorRun, String> {
    let mut h = harness(
        RefAllocator::with_form(form),
        |u, c| u.clock.next = c.into(),
        out,
        "soft_put_allocator",
    )?;
    let n = entries as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setup_get = rng.gen_range(0..n);
    let mut model = AllocatorModel::new_after_setup(n, setup_get);
    let mut host_get = setup_get;
    let mut lap = 0u64;
    // The answer expected this cycle: (ok, first, lap). The allocator answers two cycles after
    // the request; its atomic operation is in the cycle after the request and sees the shadow
    // updates up to the request's cycle.
    let mut expect: Option<(bool, usize, u64)> = None;
    let mut last_request: Option<usize> = None;
    let mut run = AllocatorRun::default();
    for cycle in 0..cycles + 3 {
        let (reset, setup) = (cycle == 0, cycle == 1);
        let request = (cycle > 1 && cycle < cycles + 2 && rng.gen_bool(0.5)).then(|| {
            match rng.gen_range(0..10) {
                0 => 0,
                1 => rng.gen_range(0..=n),
                _ => rng.gen_range(1..=3.min(n)),
            }
        });
        // The host moves GP_GET forward, never past soft GP_PUT (it executes what was allocated).
        let shadow = cycle > 1
            && host_get != wrap(model.soft_gp_put as i64 - 1, entries) as usize
            && rng.gen_bool(0.3);
        if shadow {
            host_get = wrap(host_get as i64 + 1, entries) as usize;
        }
        let u = &mut h.uut;
        u.reset.next = reset;
        u.ring_entries.next = bits::<{ RING_IDX + 2 }>(entries);
        u.setup_valid.next = setup;
        u.setup_gp_get.next = bits::<RING_IDX>(setup_get as u64);
        u.shadow_valid.next = shadow;
        u.shadow_gp_put_value.next = bits::<RING_IDX>(wrap(host_get as i64 - 1, entries));
        u.alloc_valid.next = request.is_some();
        u.alloc_count.next = bits::<{ RING_IDX + 2 }>(request.unwrap_or(1) as u64);
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        if !reset {
            let got = u.resp_valid.val().then(|| {
                (
                    u.resp_ok.val(),
                    u.resp_first.val().index(),
                    u.resp_lap.val().to_u64(),
                )
            });
            let got = got.map(|(ok, f, l)| if ok { (ok, f, l) } else { (ok, 0, 0) });
            let want = expect.map(|(ok, f, l)| if ok { (ok, f, l) } else { (ok, 0, 0) });
            if got != want || u.violation.val() != (request == Some(0)) {
                return Err(format!(
                    "cycle {}: answer {:?} violation {}, model {:?} (request {:?})",
                    cycle,
                    got,
                    u.violation.val(),
                    want,
                    request
                ));
            }
        }
        // Last cycle's request, against the shadow updates up to its cycle.
        expect = last_request.map(|count| {
            let soft = model.soft_gp_put;
            match (count > 0).then(|| model.allocate(count)).flatten() {
                Some(first) => {
                    run.granted += 1;
                    let l = lap;
                    if soft + count >= n {
                        lap += 1;
                        run.wraps += 1;
                    }
                    (true, first, l)
                }
                None => {
                    run.refused += 1;
                    (false, soft, lap)
                }
            }
        });
        last_request = request;
        if shadow {
            model.host_advanced(host_get);
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.ports = finish_waves(h, out, allocator_groups)?;
    Ok(run)
}

/// The GTKWave view of an allocator run.
fn allocator_groups(vars: &[(String, u32)]) -> Vec<Group> {
    vec![
        Group::new("control").sigs(
            "soft_put_allocator",
            &[
                "clock",
                "reset",
                "ring_entries",
                "setup_valid",
                "setup_gp_get",
            ],
            vars,
        ),
        Group::new("host").sigs(
            "soft_put_allocator",
            &["shadow_valid", "shadow_gp_put_value", "shadow_gp_put"],
            vars,
        ),
        Group::new("threads").sigs(
            "soft_put_allocator",
            &[
                "alloc_valid",
                "alloc_count",
                "resp_valid",
                "resp_ok",
                "resp_first",
                "resp_lap",
                "soft_gp_put",
                "violation",
            ],
            vars,
        ),
    ]
}
