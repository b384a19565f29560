//! Directed testbench of the [`WqCluster`] top block for WQ-10's bad input, driven directly
//! (not through the system model): the CPU channel gets a malformed entry or an acquire that is
//! never released, the GPU channel (software-owned here, GP_PUT written directly) gets a list of
//! good entries. The bad channel must stop (error) or wait (watchdog) while the other channel
//! executes every one of its entries.
use super::super::system::{SysCluster, CPU_RING_BASE, GPU_RING_BASE, IDX_BITS, SEM_BITS, X_BITS};
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::work_queue::command::{encode_block, Command, Condition, Sem};
use ppu_hdl::work_queue::gp_entry::GpEntry;
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use rust_hdl::prelude::*;
use std::collections::HashMap;

/// What goes wrong on the CPU channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadEntry {
    /// A control entry (length 0): an empty block.
    EmptyBlock,
    /// A block of an odd number of words.
    OddLength,
    /// A command with opcode 0.
    UnknownOpcode,
    /// A release of S[i] with i outside the ring.
    SemaphoreOutsideRing,
    /// An acquire of S[3] == 1 that nobody releases.
    NeverReleased,
}

/// What the run saw.
#[derive(Debug, Clone, Default)]
pub struct BadInputRun {
    pub errors: u64,
    pub watchdogs: u64,
    /// The cycle of the CPU channel's first `acquire_wait` (its acquire found the condition
    /// false) and the cycles of every `watchdog` pulse.
    pub first_cpu_acquire_wait: Option<u64>,
    pub watchdog_cycles: Vec<u64>,
    pub cpu_stopped: bool,
    pub cpu_gp_get: u64,
    /// Releases the GPU channel executed (value of each).
    pub gpu_releases: Vec<u64>,
    pub gpu_gp_get: u64,
}

/// The `watchdog_limit` of a bad-input run.
pub const BAD_INPUT_WATCHDOG_LIMIT: u64 = 100;

/// Run `cycles` cycles with `bad` on the CPU channel and `good` release entries on the GPU
/// channel of a ring of 8.
pub fn run_bad_input(
    bad: BadEntry,
    good: u64,
    cycles: u64,
    out: &TbOutput,
) -> Result<BadInputRun, String> {
    let n = 8u64;
    let mut h = harness(
        SysCluster::with_form(WrapForm::Pow2),
        |u, c| u.clock.next = c.into(),
        out,
        "wq_cluster",
    )?;
    let mem = bad_input_memory(bad, good, n);
    let mut run = BadInputRun::default();
    let mut read: Option<u32> = None;
    for cycle in 0..cycles {
        let u = &mut h.uut;
        u.reset.next = cycle == 0;
        u.ring_entries.next = bits::<X_BITS>(n);
        u.cmd_cycles.next = bits::<8>(1);
        u.watchdog_limit.next = bits::<32>(BAD_INPUT_WATCHDOG_LIMIT);
        u.ring_base[0].next = bits::<32>(CPU_RING_BASE as u64);
        u.ring_base[1].next = bits::<32>(GPU_RING_BASE as u64);
        u.gpu_owned.next = false;
        u.cpu_put_valid.next = cycle == 600;
        u.cpu_put_value.next = bits::<IDX_BITS>(1);
        u.gpu_put_valid.next = cycle == 600;
        u.gpu_put_value.next = bits::<IDX_BITS>(good);
        u.chan_idle[0].next = true;
        u.chan_idle[1].next = true;
        u.launch_ready.next = true;
        u.thread_wr_sem.next = bits::<SEM_BITS>(0);
        u.mem_rd_data.next =
            bits::<32>(read.and_then(|a| mem.get(&a).copied()).unwrap_or(0) as u64);
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        run.errors += u64::from(u.error.val());
        run.watchdogs += u64::from(u.watchdog.val());
        if u.watchdog.val() {
            run.watchdog_cycles.push(cycle);
        }
        if u.acquire_wait.val() && !u.channel.val() && run.first_cpu_acquire_wait.is_none() {
            run.first_cpu_acquire_wait = Some(cycle);
        }
        if u.release_valid.val() && u.channel.val() {
            run.gpu_releases.push(u.release_value.val().to_u64());
        }
        if u.release_valid.val() && !u.channel.val() {
            return Err(format!("cycle {}: the bad CPU channel released", cycle));
        }
        if u.violation.val() {
            return Err(format!("cycle {}: violation", cycle));
        }
        run.cpu_stopped = u.stopped[0].val();
        run.cpu_gp_get = u.gp_get[0].val().to_u64();
        run.gpu_gp_get = u.gp_get[1].val().to_u64();
        read = u
            .mem_rd_en
            .val()
            .then(|| u.mem_rd_addr.val().to_u64() as u32);
        h.step().map_err(|e| e.to_string())?;
    }
    finish_waves(h, out, |vars| {
        vec![Group::new("channels").sigs(
            "wq_cluster",
            &[
                "clock",
                "reset",
                "gp_get$0",
                "stopped$0",
                "gp_get$1",
                "channel",
                "exec_valid",
                "exec_opcode",
                "acquire_wait",
                "release_valid",
                "release_value",
                "error",
                "watchdog",
            ],
            vars,
        )]
    })?;
    Ok(run)
}

/// The memory of a bad-input run: the CPU channel's entry 0 is `bad`, the GPU channel's entries
/// 0..good each release Y with 100 + i.
fn bad_input_memory(bad: BadEntry, good: u64, n: u64) -> HashMap<u32, u32> {
    let mut mem: HashMap<u32, u32> = HashMap::new();
    let mut next_block = 0x1_0000u32;
    let mut put =
        |mem: &mut HashMap<u32, u32>, base: u32, i: u64, words: &[u32], length: Option<u32>| {
            let addr = next_block;
            for (k, w) in words.iter().enumerate() {
                mem.insert(addr + k as u32, *w);
            }
            next_block += words.len() as u32 + 4;
            let e = GpEntry {
                address_words: addr as u64,
                length_words: length.unwrap_or(words.len() as u32),
                sync_wait: false,
                no_context_switch: false,
                fetch_conditional: false,
                privileged: false,
                subroutine: false,
            };
            let w = e.pack().unwrap_or([0, 0]);
            mem.insert(base + 2 * i as u32, w[0]);
            mem.insert(base + 2 * i as u32 + 1, w[1]);
        };
    let release = |v: u32| Command::Release {
        sem: Sem::Y,
        value: v,
        after_wfi: false,
    };
    let cpu_words = match bad {
        BadEntry::EmptyBlock => (vec![], Some(0)),
        BadEntry::OddLength => (encode_block(&[release(9)]), Some(3)),
        BadEntry::UnknownOpcode => (vec![0, 0], None),
        BadEntry::SemaphoreOutsideRing => (
            encode_block(&[Command::Release {
                sem: Sem::Entry(n as u32),
                value: 1,
                after_wfi: false,
            }]),
            None,
        ),
        BadEntry::NeverReleased => (
            encode_block(&[Command::Acquire {
                sem: Sem::Entry(3),
                cond: Condition::Equal,
                value: 1,
            }]),
            None,
        ),
    };
    put(&mut mem, CPU_RING_BASE, 0, &cpu_words.0, cpu_words.1);
    for i in 0..good {
        put(
            &mut mem,
            GPU_RING_BASE,
            i,
            &encode_block(&[release(100 + i as u32)]),
            None,
        );
    }
    mem
}
