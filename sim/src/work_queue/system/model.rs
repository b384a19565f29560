//! The behavioural surroundings of the work-queue RTL (SPEC WQ-5..WQ-7, WQ-11): memory with the
//! rings and command blocks, kernels, GPU threads that allocate and write entries, and the CPU
//! behind its bus.
use super::config::*;
use ppu_hdl::work_queue::command::{encode_block, Command, Condition, Sem};
use ppu_hdl::work_queue::gp_entry::GpEntry;
use std::collections::{HashMap, VecDeque};

/// Word-addressed memory: ring entries and command blocks.
#[derive(Debug, Default)]
pub struct Memory {
    words: HashMap<u32, u32>,
    next_block: u32,
}

impl Memory {
    pub fn new() -> Self {
        Memory {
            words: HashMap::new(),
            next_block: BLOCK_BASE,
        }
    }
    pub fn read(&self, addr: u32) -> u32 {
        self.words.get(&addr).copied().unwrap_or(0)
    }
    /// Store a command block, return its word address and length.
    pub fn block(&mut self, commands: &[Command]) -> (u32, u32) {
        let words = encode_block(commands);
        let addr = self.next_block;
        for (i, w) in words.iter().enumerate() {
            self.words.insert(addr + i as u32, *w);
        }
        self.next_block += words.len() as u32 + 2;
        (addr, words.len() as u32)
    }
    /// Point ring entry `index` of the ring at `base` to a block (WQ-9 layout).
    pub fn entry(&mut self, base: u32, index: u64, block: (u32, u32)) {
        let e = GpEntry {
            address_words: block.0 as u64,
            length_words: block.1,
            sync_wait: false,
            no_context_switch: false,
            fetch_conditional: false,
            privileged: false,
            subroutine: false,
        };
        let words = e.pack().unwrap_or([0, 0]);
        self.words.insert(base + 2 * index as u32, words[0]);
        self.words.insert(base + 2 * index as u32 + 1, words[1]);
    }
}

/// A kernel: launched by a channel, finished when `block_cycles` have passed since its launch
/// and all of its threads have finished.
#[derive(Debug, Clone, Default)]
pub struct Kernel {
    pub threads: Vec<usize>,
    pub block_cycles: u64,
    pub launched: Option<(u64, usize)>,
    pub finished: bool,
}

/// What a thread allocates: its main allocation (blocks + guard) or the return block (WQ-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllocKind {
    Main,
    Return,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// Its kernel has not launched.
    Idle,
    /// Wants to allocate from this cycle on.
    AllocAt(u64),
    AwaitResponse,
    /// Writes entry `next` of its allocation (one per cycle).
    Writing {
        next: u64,
    },
    /// Releases its guard semaphore (None: its guard is X, released by the CPU channel).
    Release(Option<(u64, u32)>),
    /// CPU-mediated: records its request until this cycle.
    Recording(u64),
    Done,
}

#[derive(Debug, Clone)]
pub struct Thread {
    pub spec: FlatThread,
    pub phase: Phase,
    pub kind: AllocKind,
    pub first: u64,
    pub lap: u64,
    pub count: u64,
    /// The blocks of the allocation, one per entry.
    pub blocks: Vec<(u32, u32)>,
    /// The guard this allocation releases when written (None: its guard is X).
    pub guard: Option<(u64, u32)>,
    pub finished: bool,
    pub makes_return: bool,
}

/// The GPU side of the model: kernels and threads.
pub struct Gpu {
    pub entries: u64,
    pub retry_cycles: u64,
    pub threads: Vec<Thread>,
    pub kernels: Vec<Kernel>,
    /// Threads still to make their main allocation (the atomic counter of the SPEC).
    pub to_allocate: u64,
    pub first_allocation_done: bool,
    /// CPU-mediated: kernels requested by finished threads, not yet submitted by the CPU.
    pub requested: Vec<usize>,
}

impl Thread {
    /// Entries its next allocation asks for: blocks + 1 (WQ-6), or 2 for the return block
    /// and its guard (WQ-7).
    pub fn alloc_count(&self) -> u64 {
        match self.kind {
            AllocKind::Main => self.spec.blocks + 1,
            AllocKind::Return => 2,
        }
    }
}

impl Gpu {
    pub fn new(cfg: &SystemConfig) -> Self {
        let (flat, kernel_count) = flatten(&cfg.threads);
        let mut kernels = vec![Kernel::default(); kernel_count];
        for (i, t) in flat.iter().enumerate() {
            kernels[t.kernel].threads.push(i);
            if let Some(k) = t.child_kernel {
                kernels[k].block_cycles = t.block_cycles;
            }
        }
        let threads = flat
            .into_iter()
            .map(|spec| Thread {
                spec,
                phase: Phase::Idle,
                kind: AllocKind::Main,
                first: 0,
                lap: 0,
                count: 0,
                blocks: vec![],
                guard: None,
                finished: false,
                makes_return: false,
            })
            .collect::<Vec<_>>();
        Gpu {
            entries: cfg.entries,
            retry_cycles: cfg.retry_cycles,
            to_allocate: threads.len() as u64,
            threads,
            kernels,
            first_allocation_done: false,
            requested: vec![],
        }
    }

    pub fn wrap(&self, x: i64) -> u64 {
        x.rem_euclid(self.entries as i64) as u64
    }

    /// The kernels thread `t`'s blocks launch: its child kernel first (if any), new ones after.
    pub fn created_kernels(&mut self, t: usize) -> Vec<usize> {
        let spec = self.threads[t].spec.clone();
        (0..spec.blocks)
            .map(|j| match (j, spec.child_kernel) {
                (0, Some(k)) => k,
                _ => {
                    self.kernels.push(Kernel {
                        block_cycles: spec.block_cycles,
                        ..Kernel::default()
                    });
                    self.kernels.len() - 1
                }
            })
            .collect()
    }

    /// A kernel was launched by `channel`: its threads start after their `start`.
    pub fn launch(&mut self, kernel: usize, cycle: u64, channel: usize, mode: Mode) {
        let Some(k) = self.kernels.get_mut(kernel) else {
            return;
        };
        k.launched = Some((cycle, channel));
        for &t in &k.threads.clone() {
            let at = cycle + self.threads[t].spec.start;
            self.threads[t].phase = match mode {
                Mode::GpuCreated => Phase::AllocAt(at),
                Mode::CpuMediated => Phase::Recording(at + self.threads[t].spec.blocks.max(1)),
            };
        }
    }

    /// Kernels finishing this cycle; `idle[c]`: no kernel launched by channel c is running.
    pub fn update_kernels(&mut self, cycle: u64) -> [bool; 2] {
        let mut idle = [true, true];
        for k in 0..self.kernels.len() {
            let kern = &self.kernels[k];
            let Some((at, ch)) = kern.launched else {
                continue;
            };
            if kern.finished {
                continue;
            }
            let threads_done = kern.threads.iter().all(|&t| self.threads[t].finished);
            if threads_done && cycle >= at + kern.block_cycles {
                self.kernels[k].finished = true;
            } else {
                idle[ch] = false;
            }
        }
        idle
    }

    /// The thread that asks the allocator this cycle (lowest index first) and its count.
    pub fn alloc_request(&self, cycle: u64) -> Option<(usize, u64)> {
        self.threads
            .iter()
            .enumerate()
            .find_map(|(i, t)| match t.phase {
                Phase::AllocAt(at) if at <= cycle => Some((i, t.alloc_count())),
                _ => None,
            })
    }

    /// The allocator answered thread `t` (WQ-6): on success build its blocks.
    pub fn alloc_response(
        &mut self,
        t: usize,
        ok: bool,
        first: u64,
        lap: u64,
        cycle: u64,
        mem: &mut Memory,
    ) {
        if !ok {
            self.threads[t].phase = Phase::AllocAt(cycle + self.retry_cycles);
            return;
        }
        let kind = self.threads[t].kind;
        let count = self.threads[t].alloc_count();
        let last = first + count - 1;
        let guard = self.wrap(last as i64);
        let guard_lap = lap + u64::from(last >= self.entries);
        let guard_block = mem.block(&[Command::Acquire {
            sem: Sem::Entry(guard as u32),
            cond: Condition::CircGeq,
            value: (guard_lap + 1) as u32,
        }]);
        let mut blocks = vec![];
        match kind {
            AllocKind::Main => {
                for k in self.created_kernels(t) {
                    blocks.push(mem.block(&[Command::Launch { kernel: k as u32 }]));
                }
                self.to_allocate = self.to_allocate.saturating_sub(1);
                self.threads[t].makes_return = self.to_allocate == 0;
            }
            AllocKind::Return => blocks.push(mem.block(&[
                Command::Wfi,
                Command::Release {
                    sem: Sem::Y,
                    value: 1,
                    after_wfi: false,
                },
                Command::Acquire {
                    sem: Sem::X,
                    cond: Condition::CircGeq,
                    value: 2,
                },
            ])),
        }
        blocks.push(guard_block);
        let guard = self.guard_release(first, lap);
        let th = &mut self.threads[t];
        th.first = first;
        th.lap = lap;
        th.count = count;
        th.blocks = blocks;
        th.guard = guard;
        th.phase = Phase::Writing { next: 0 };
    }

    /// The guard an allocation at `first` (lap `lap`) releases once written: S[first-1] with
    /// the lap of that entry plus one — or nothing for the very first allocation of the run,
    /// whose guard is X, released by the CPU channel (WQ-6 reading).
    fn guard_release(&mut self, first: u64, lap: u64) -> Option<(u64, u32)> {
        if !self.first_allocation_done {
            self.first_allocation_done = true;
            return None;
        }
        let sem = self.wrap(first as i64 - 1);
        let lap = if first == 0 { lap.wrapping_sub(1) } else { lap };
        Some((sem, lap.wrapping_add(1) as u32))
    }

    /// The thread whose guard release goes to the semaphores this cycle.
    pub fn release_request(&self) -> Option<(usize, u64, u32)> {
        self.threads
            .iter()
            .enumerate()
            .find_map(|(i, t)| match t.phase {
                Phase::Release(Some((sem, value))) => Some((i, sem, value)),
                _ => None,
            })
    }

    /// Thread `t`'s guard release is done (or it had none): it has finished (WQ-6); the thread
    /// that made the last main allocation then allocates the return block (WQ-7).
    pub fn released(&mut self, t: usize, cycle: u64) {
        let th = &mut self.threads[t];
        match th.kind {
            AllocKind::Main => {
                th.finished = true;
                if th.makes_return {
                    th.kind = AllocKind::Return;
                    th.phase = Phase::AllocAt(cycle + 1);
                } else {
                    th.phase = Phase::Done;
                }
            }
            AllocKind::Return => th.phase = Phase::Done,
        }
    }

    /// CPU-mediated threads that finish recording this cycle.
    pub fn record(&mut self, cycle: u64) {
        for t in 0..self.threads.len() {
            if let Phase::Recording(at) = self.threads[t].phase {
                if cycle >= at {
                    let ks = self.created_kernels(t);
                    self.requested.extend(ks);
                    self.threads[t].finished = true;
                    self.threads[t].phase = Phase::Done;
                }
            }
        }
    }
}

/// The CPU behind its bus: writes that the GPU sees `bus_latency` later.
#[derive(Debug, Default)]
pub struct Cpu {
    /// (cycle the GPU sees it, new GP_PUT of the CPU channel).
    pub puts: VecDeque<(u64, u64)>,
    /// Cycle the GPU sees the driver's set-up of the GPU channel.
    pub setup_at: Option<u64>,
    /// (cycle the CPU sees it, value): releases of the notification semaphore Y.
    pub notices: VecDeque<(u64, u32)>,
    pub next_entry: u64,
    pub interactions: u64,
}
