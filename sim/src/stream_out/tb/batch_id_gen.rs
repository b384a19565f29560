//! Batch-ID generator testbench (SPEC SO-1, SO-2, SO-13): random takes and retires over both
//! retire channels, with bad retires, against a model of the ID window.
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::stream_out::batch_id_gen::BatchIdGen;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::path::Path;

/// Reference batch-ID generator of the export: 16 IDs in flight.
pub type RefBatchIdGen = BatchIdGen<16, 4>;

/// A random batch-ID generator run.
#[derive(Debug, Clone)]
pub struct IdGenTb {
    pub seed: u64,
    pub cycles: u64,
    pub take_prob: f64,
    pub retire_prob: f64,
    /// Probability of a retire message for an ID not in flight (bad input, SO-13).
    pub bogus_prob: f64,
}

impl IdGenTb {
    pub fn random(seed: u64, cycles: u64) -> IdGenTb {
        IdGenTb {
            seed,
            cycles,
            take_prob: 0.7,
            retire_prob: 0.5,
            bogus_prob: 0.02,
        }
    }
}

/// What a batch-ID generator run saw.
#[derive(Debug, Clone, Default)]
pub struct IdGenTbResult {
    pub handed_out: u64,
    pub stall_cycles: u64,
    pub violations: u64,
    pub wraps: u64,
    pub ports: Option<PortTrace>,
}

/// The model: the next ID and the IDs in flight.
struct Model {
    next: u16,
    in_flight: Vec<u16>,
    /// Last cycle's retire messages included a bogus one, and the cycle's before.
    last_bogus: bool,
    bogus_before_last: bool,
    /// The IDs retired last cycle (their slots are free from this cycle on in the model's
    /// next-cycle view, but still busy in this one).
    retired_last_cycle: Vec<u16>,
}

/// A retire message of one channel: (ID, whether it is bogus).
type Retire = Option<(u16, bool)>;

impl Model {
    /// A random retire message: now and then one for an ID not in flight, otherwise one of the
    /// IDs in flight (taken out of the model).
    fn pick(&mut self, rng: &mut ChaCha8Rng, tb: &IdGenTb, reset: bool) -> Retire {
        if reset {
            return None;
        }
        if rng.gen_bool(tb.bogus_prob) {
            let bogus = (self.next.wrapping_add(rng.gen_range(1..100))) & 0x3fff;
            if !self.in_flight.contains(&bogus) {
                return Some((bogus, true));
            }
        }
        if !self.in_flight.is_empty() && rng.gen_bool(tb.retire_prob) {
            let i = rng.gen_range(0..self.in_flight.len());
            return Some((self.in_flight.swap_remove(i), false));
        }
        None
    }

    /// Is the window slot of the next ID held (by an ID in flight, or retired this cycle or
    /// last cycle: the generator registers retire messages as they arrive)?
    fn slot_busy(&self, retire: Retire, done: Retire) -> bool {
        const W: usize = 16;
        self.in_flight
            .iter()
            .chain(self.retired_last_cycle.iter())
            .chain(retire.iter().filter(|r| !r.1).map(|r| &r.0))
            .chain(done.iter().filter(|r| !r.1).map(|r| &r.0))
            .any(|&id| id as usize % W == self.next as usize % W)
    }
}

/// Drive [`RefBatchIdGen`] against a model: consecutive 14-bit IDs (SO-1), an ID handed out
/// only while its window slot is free (stall otherwise), retire in any order over both
/// channels frees it (SO-2), a retire of an ID not in flight raises `violation` (SO-13).
pub fn run_batch_id_gen(tb: &IdGenTb, out: &TbOutput) -> Result<IdGenTbResult, String> {
    let mut h = harness(
        RefBatchIdGen::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "batch_id_gen",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(tb.seed);
    let mut model = Model {
        next: 0,
        in_flight: vec![],
        last_bogus: false,
        bogus_before_last: false,
        retired_last_cycle: vec![],
    };
    let mut res = IdGenTbResult::default();
    for cycle in 0..tb.cycles {
        let reset = cycle == 0;
        let take = !reset && rng.gen_bool(tb.take_prob);
        let retire = model.pick(&mut rng, tb, reset);
        let done = model.pick(&mut rng, tb, reset);
        let u = &mut h.uut;
        u.reset.next = reset;
        u.id_ready.next = take;
        u.retire_valid.next = retire.is_some();
        u.retire_batch_id.next = bits::<14>(retire.map(|r| r.0 as u64).unwrap_or(0));
        u.done_valid.next = done.is_some();
        u.done_batch_id.next = bits::<14>(done.map(|r| r.0 as u64).unwrap_or(0));
        h.settle().map_err(|e| e.to_string())?;
        if !reset {
            check(&h.uut, &mut model, &mut res, take, retire, done)
                .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        }
        h.step().map_err(|e| e.to_string())?;
    }
    res.ports = finish_waves(h, out, waves_groups)?;
    Ok(res)
}

/// Check one settled cycle against the model and advance it.
fn check(
    u: &RefBatchIdGen,
    model: &mut Model,
    res: &mut IdGenTbResult,
    take: bool,
    retire: Retire,
    done: Retire,
) -> Result<(), String> {
    let slot_busy = model.slot_busy(retire, done);
    let next = model.next;
    if u.id_valid.val() == slot_busy || u.stall.val() != slot_busy {
        return Err(format!(
            "id_valid {} but the slot of {} is {}",
            u.id_valid.val(),
            next,
            if slot_busy { "busy" } else { "free" }
        ));
    }
    if u.id_batch_id.val().index() as u16 != next {
        return Err(format!(
            "id {} but the model's next ID is {}",
            u.id_batch_id.val().index(),
            next
        ));
    }
    // `violation` answers the retire messages of two cycles ago (input register, then the
    // violation register).
    let bogus = retire.is_some_and(|r| r.1) || done.is_some_and(|r| r.1);
    if u.violation.val() != model.bogus_before_last {
        return Err(format!(
            "violation {} for the bogus retire of two cycles ago {}",
            u.violation.val(),
            model.bogus_before_last
        ));
    }
    model.bogus_before_last = model.last_bogus;
    model.last_bogus = bogus;
    model.retired_last_cycle = retire
        .iter()
        .chain(done.iter())
        .filter(|r| !r.1)
        .map(|r| r.0)
        .collect();
    res.violations += bogus as u64;
    if slot_busy {
        res.stall_cycles += 1;
    }
    if u.id_valid.val() && take {
        model.in_flight.push(next);
        res.handed_out += 1;
        if next == 0x3fff {
            res.wraps += 1;
        }
        model.next = (next + 1) & 0x3fff;
    }
    Ok(())
}

/// The canonical waves `waves/batch_id_gen.vcd` (+ `.gtkw`), the same whoever writes them (the
/// SO-1 test and `ppu waves`): slow retirement, so the window fills and the generator stalls,
/// and bad retires.
pub fn canonical_waves(vcd: &Path) -> Result<IdGenTbResult, String> {
    let out = TbOutput {
        vcd: Some(vcd),
        record_ports: false,
        engine: crate::verilator::Engine::Harness,
    };
    let tb = IdGenTb {
        retire_prob: 0.1,
        ..IdGenTb::random(2, 400)
    };
    run_batch_id_gen(&tb, &out)
}

/// The port-trace run of the co-simulation of [`RefBatchIdGen`].
pub fn cosim_run(out: &TbOutput) -> Result<IdGenTbResult, String> {
    run_batch_id_gen(&IdGenTb::random(5, 600), out)
}

/// The GTKWave groups of the batch-ID generator waves.
fn waves_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let t = "batch_id_gen";
    vec![
        Group::new("control").sigs(t, &["clock", "reset", "stall", "violation"], vars),
        Group::new("IDs").sigs(t, &["id_valid", "id_ready", "id_batch_id"], vars),
        Group::new("retire").sigs(
            t,
            &[
                "retire_valid",
                "retire_batch_id",
                "done_valid",
                "done_batch_id",
            ],
            vars,
        ),
    ]
}
