//! Testbench of [`AcquireCheck`] (SPEC WQ-4): every condition code on edge values (0, 1,
//! 2^31-1, 2^31, 2^32-1, equal pairs, values across the 32-bit wrap) and random ones, the
//! registered answer compared with the golden [`acquire_satisfied`] one cycle later.
use super::super::golden::{acquire_satisfied, AcquireCondition};
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::work_queue::acquire_check::AcquireCheck;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// The golden condition of a header code (WQ-4 order: equal, >=, circular >=, AND, NOR).
pub fn golden_condition(code: u64) -> Option<AcquireCondition> {
    AcquireCondition::ALL.get(code as usize).copied()
}

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct AcquireRun {
    pub checks: u64,
    /// Checks per condition code 0..7 that were satisfied.
    pub satisfied: [u64; 8],
    pub ports: Option<PortTrace>,
}

fn edge_values() -> Vec<(u32, u32)> {
    let e = [
        0u32,
        1,
        2,
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0xFFFF_FFFE,
        0xFFFF_FFFF,
    ];
    let mut v = vec![];
    for &a in &e {
        for &b in &e {
            v.push((a, b));
        }
    }
    v
}

/// Every code 0..7 on every edge pair, then `random` random (code, sem, value) triples.
pub fn run_acquire_check(random: u64, seed: u64, out: &TbOutput) -> Result<AcquireRun, String> {
    let mut h = harness(
        AcquireCheck::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "acquire_check",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Cycle 0 is the reset; its inputs are not checked.
    let mut stimulus: Vec<(u64, u32, u32)> = vec![(0, 0, 0)];
    for code in 0..8u64 {
        for (s, v) in edge_values() {
            stimulus.push((code, s, v));
        }
    }
    for _ in 0..random {
        let s: u32 = rng.gen();
        let v = match rng.gen_range(0..4) {
            0 => s,
            1 => s.wrapping_add(rng.gen_range(0..4)),
            2 => s.wrapping_sub(rng.gen_range(0..4)),
            _ => rng.gen(),
        };
        stimulus.push((rng.gen_range(0..8), s, v));
    }
    let mut run = AcquireRun::default();
    // The stimuli of the last two cycles (None: the reset cycle, not checked).
    let mut pipeline: [Option<(u64, u32, u32)>; 2] = [None, None];
    for (k, &(code, s, v)) in stimulus
        .iter()
        .chain([(0, 0, 0), (0, 0, 0)].iter())
        .enumerate()
    {
        let u = &mut h.uut;
        u.reset.next = k == 0;
        u.cond.next = bits::<3>(code);
        u.sem_value.next = bits::<32>(s as u64);
        u.value.next = bits::<32>(v as u64);
        h.settle().map_err(|e| e.to_string())?;
        if let Some((pc, ps, pv)) = pipeline[1] {
            let want = golden_condition(pc).map(|c| acquire_satisfied(c, ps, pv));
            let got = (h.uut.satisfied.val(), h.uut.cond_legal.val());
            if got != (want.unwrap_or(false), want.is_some()) {
                return Err(format!(
                    "cond {} sem {:#x} value {:#x}: (satisfied, legal) = {:?}, golden {:?}",
                    pc, ps, pv, got, want
                ));
            }
            run.checks += 1;
            run.satisfied[pc as usize] += u64::from(got.0);
        }
        pipeline = [(k > 0).then_some((code, s, v)), pipeline[0]];
        h.step().map_err(|e| e.to_string())?;
    }
    run.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("inputs").sigs(
                "acquire_check",
                &["clock", "reset", "cond", "sem_value", "value"],
                vars,
            ),
            Group::new("answer").sigs("acquire_check", &["satisfied", "cond_legal"], vars),
        ]
    })?;
    Ok(run)
}
