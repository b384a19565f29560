//! Testbench of [`SemaphoreMemory`] (SPEC WQ-5, WQ-6): the clear sweep after reset, then
//! random host writes, thread writes (valid/ready, checked by a [`ChannelMonitor`]) and reads,
//! against an array model: a read answers two cycles later with the value after the writes of
//! the cycle before the answer (the cycle after the read).
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::work_queue::semaphore_memory::SemaphoreMemory;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// Index width of the exported memory: 512 words (rings of up to 256 entries, X, Y).
pub const SEM_IDX: usize = 9;
pub type RefSemaphores = SemaphoreMemory<SEM_IDX>;
const WORDS: usize = 1 << SEM_IDX;

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct SemaphoreRun {
    pub host_writes: u64,
    pub thread_writes: u64,
    pub reads: u64,
    pub ports: Option<PortTrace>,
}

/// Reset, then `cycles` random cycles touching the first `span` semaphores.
pub fn run_semaphores(
    cycles: u64,
    span: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<SemaphoreRun, String> {
    let mut h = harness(
        RefSemaphores::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "semaphore_memory",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut model = vec![0u32; WORDS];
    let mut monitor = ChannelMonitor::new("thread_wr");
    let mut offered: Option<(u64, u32)> = None;
    // The reads of the last two cycles, oldest first: the older one answers now.
    let mut reads: [Option<u64>; 2] = [None, None];
    let mut run = SemaphoreRun::default();
    let clear = WORDS as u64;
    for cycle in 0..=clear + cycles {
        let reset = cycle == 0;
        let active = cycle > clear;
        let host =
            (active && rng.gen_bool(0.2)).then(|| (rng.gen_range(0..span), rng.gen::<u32>()));
        if offered.is_none() && active && rng.gen_bool(0.4) {
            offered = Some((rng.gen_range(0..span), rng.gen()));
        }
        let read = rng.gen_range(0..span);
        let u = &mut h.uut;
        u.reset.next = reset;
        u.host_wr_en.next = host.is_some();
        u.host_wr_sem.next = bits::<SEM_IDX>(host.map_or(0, |w| w.0));
        u.host_wr_value.next = bits::<32>(host.map_or(0, |w| w.1 as u64));
        u.thread_wr_valid.next = offered.is_some();
        u.thread_wr_sem.next = bits::<SEM_IDX>(offered.map_or(0, |w| w.0));
        u.thread_wr_value.next = bits::<32>(offered.map_or(0, |w| w.1 as u64));
        u.rd_sem.next = bits::<SEM_IDX>(read);
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        let fail = |m: String| Err(format!("cycle {}: {}", cycle, m));
        if !reset && u.ready.val() != (cycle >= clear + 1) {
            return fail(format!(
                "ready {} during the clear sweep of {} words",
                u.ready.val(),
                clear
            ));
        }
        // A read issued in the sweep is not served (0); check values from the first read after.
        if !reset && cycle <= clear + 2 && u.rd_value.val().to_u64() != 0 {
            return fail(format!(
                "rd_value {:#x} answers a read issued during reset or the clear sweep",
                u.rd_value.val().to_u64()
            ));
        }
        if let (Some(a), true) = (reads[0], cycle > clear + 2) {
            if u.rd_value.val().to_u64() != model[a as usize] as u64 {
                return fail(format!(
                    "S[{}] reads {:#x}, model {:#x}",
                    a,
                    u.rd_value.val().to_u64(),
                    model[a as usize]
                ));
            }
            run.reads += 1;
        }
        let transfer = monitor
            .check(
                reset,
                u.thread_wr_valid.val(),
                u.thread_wr_ready.val(),
                offered,
            )
            .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        if u.violation.val() {
            return fail("violation without a host write during the clear sweep".into());
        }
        if transfer && host.is_none() {
            if let Some((a, v)) = offered.take() {
                model[a as usize] = v;
                run.thread_writes += 1;
            }
        } else if transfer {
            return fail("a thread write accepted in the cycle the host writes".into());
        }
        if let Some((a, v)) = host {
            model[a as usize] = v;
            run.host_writes += 1;
        }
        reads = [reads[1], Some(read)];
        h.step().map_err(|e| e.to_string())?;
    }
    run.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("control").sigs(
                "semaphore_memory",
                &["clock", "reset", "ready", "violation"],
                vars,
            ),
            Group::new("host").sigs(
                "semaphore_memory",
                &["host_wr_en", "host_wr_sem", "host_wr_value"],
                vars,
            ),
            Group::new("threads").sigs(
                "semaphore_memory",
                &[
                    "thread_wr_valid",
                    "thread_wr_ready",
                    "thread_wr_sem",
                    "thread_wr_value",
                ],
                vars,
            ),
            Group::new("read").sigs("semaphore_memory", &["rd_sem", "rd_value"], vars),
        ]
    })?;
    Ok(run)
}
