//! Configuration, limits and results of the work-queue system simulation (SPEC WQ-5..WQ-11,
//! section 4 scenario).

/// Ring index width of the simulated [`ppu_hdl::work_queue::wq_cluster::WqCluster`]: rings of
/// up to 2^8 = 256 entries.
pub const IDX_BITS: usize = 8;
pub const X_BITS: usize = IDX_BITS + 2;
pub const SEM_BITS: usize = IDX_BITS + 1;
/// Largest `entries` a scenario may ask for.
pub const MAX_ENTRIES: u64 = 1 << IDX_BITS;
/// Smallest `entries` (SPEC: fewer is invalid).
pub const MIN_ENTRIES: u64 = 4;
/// Word addresses of the two rings (entry i at base + 2i) and of the first command block.
pub const CPU_RING_BASE: u32 = 0x1000;
pub const GPU_RING_BASE: u32 = 0x2000;
pub const BLOCK_BASE: u32 = 0x1_0000;
/// The least cycle cap of a run ([`SystemConfig::cycle_cap`]): a run that has not finished
/// after its cap is a violation (a hang the watchdog cannot see, e.g. a thread that can never
/// allocate).
pub const MAX_CYCLES: u64 = 50_000_000;

/// How nested work reaches the GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// WQ-5..WQ-7: threads allocate ring entries themselves (the mechanism).
    GpuCreated,
    /// WQ-11 baseline: a kernel's threads record what they would create; when the kernels of a
    /// level have finished the CPU is notified over the bus and writes the next level's entries
    /// and GP_PUT into its channel.
    CpuMediated,
}

/// One thread of the scenario (`threads`, nested `children`).
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadSpec {
    pub start: u64,
    pub blocks: u64,
    pub block_cycles: u64,
    pub children: Vec<ThreadSpec>,
}

/// The system's parameters.
#[derive(Debug, Clone)]
pub struct SystemConfig {
    pub entries: u64,
    pub bus_latency: u64,
    pub host_cycles_per_command: u64,
    pub retry_cycles: u64,
    pub watchdog_cycles: u64,
    pub threads: Vec<ThreadSpec>,
    pub mode: Mode,
    /// Record the cluster's waves here.
    pub vcd: Option<std::path::PathBuf>,
    /// The engine that runs the RTL.
    pub engine: crate::verilator::Engine,
    /// Record the cluster's ports (co-simulation).
    pub record_ports: bool,
    /// With `record_ports`: record the host interface's ports instead of the cluster's.
    pub record_host_ports: bool,
}

impl SystemConfig {
    /// The cycle cap of this run: far above the time its work can take, so that a valid
    /// scenario is never stopped for being long (`block_cycles` and `bus_latency` reach
    /// 1,000,000 each, and threads may wait for each other's ring entries): [`MAX_CYCLES`] plus
    /// twice the sum over every thread, nested ones too, of its `start`, its blocks' run time,
    /// per block four bus crossings, sixteen host commands and 64 cycles, and per thread four
    /// bus crossings, a retry wait and 64 cycles.
    pub fn cycle_cap(&self) -> u64 {
        fn work(t: &ThreadSpec, per_block: u64, per_thread: u64) -> u64 {
            let own = t
                .start
                .saturating_add(
                    t.blocks
                        .saturating_mul(t.block_cycles.saturating_add(per_block)),
                )
                .saturating_add(per_thread);
            (t.children.iter()).fold(own, |a, c| a.saturating_add(work(c, per_block, per_thread)))
        }
        let per_block = (4 * self.bus_latency)
            .saturating_add(16 * self.host_cycles_per_command)
            .saturating_add(64);
        let per_thread = (4 * self.bus_latency)
            .saturating_add(self.retry_cycles)
            .saturating_add(64);
        let all = (self.threads.iter()).fold(0u64, |a, t| {
            a.saturating_add(work(t, per_block, per_thread))
        });
        MAX_CYCLES.saturating_add(all.saturating_mul(2))
    }
}

/// A thread of the flattened tree: pre-order index, its kernel, its spec.
#[derive(Debug, Clone)]
pub struct FlatThread {
    pub start: u64,
    pub blocks: u64,
    pub block_cycles: u64,
    /// The kernel this thread belongs to (0: the one the CPU channel launches).
    pub kernel: usize,
    /// The kernel its first created block launches, if it has children.
    pub child_kernel: Option<usize>,
    pub depth: usize,
}

/// Flatten the thread tree in pre-order (SPEC: threads are numbered depth first, in the order
/// they appear) and number the kernels: 0 is the CPU's, each thread with children gets one.
pub fn flatten(threads: &[ThreadSpec]) -> (Vec<FlatThread>, usize) {
    fn walk(
        list: &[ThreadSpec],
        kernel: usize,
        depth: usize,
        out: &mut Vec<FlatThread>,
        kernels: &mut usize,
    ) {
        for t in list {
            let child_kernel = if t.children.is_empty() {
                None
            } else {
                *kernels += 1;
                Some(*kernels)
            };
            out.push(FlatThread {
                start: t.start,
                blocks: t.blocks,
                block_cycles: t.block_cycles,
                kernel,
                child_kernel,
                depth,
            });
            if let Some(k) = child_kernel {
                walk(&t.children, k, depth + 1, out, kernels);
            }
        }
    }
    let mut out = vec![];
    let mut kernels = 0;
    walk(threads, 0, 0, &mut out, &mut kernels);
    (out, kernels + 1)
}

/// Levels of nested work (WQ-11's K): the depth of the thread tree, counting a level for every
/// depth at which some thread creates blocks.
pub fn nesting_depth(threads: &[ThreadSpec]) -> usize {
    threads
        .iter()
        .map(|t| {
            if t.blocks == 0 {
                0
            } else {
                1 + nesting_depth(&t.children)
            }
        })
        .max()
        .unwrap_or(0)
}

/// What a run measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SystemResult {
    /// Cycle of the `done` event: the CPU channel's block has completed (GPU-created) or the
    /// last level's kernels have finished (CPU-mediated).
    pub cycles: u64,
    pub cpu_interactions: u64,
    pub allocations_ok: u64,
    pub allocations_refused: u64,
    pub entries_written: u64,
    pub kernels_launched: u64,
    pub commands_executed: u64,
}
