//! System simulation of work-queue based work creation (SPEC WQ-3..WQ-8, WQ-11): the
//! [`WqCluster`] RTL — CPU and GPU channels, host interface, soft/shadow GP_PUT allocator,
//! semaphores — stepped in one cycle harness, with behavioural memory, kernels, GPU threads
//! and a CPU behind a bus around it ([`model`]).
//!
//! GPU-created mode (the mechanism): at cycle 0 the driver sets up (WQ-5) the GPU channel (its
//! entry 0 acquires X, GP_PUT = wrap(GP_GET - 1), soft GP_PUT = GP_GET + 1, shadow = GP_PUT)
//! and the CPU channel's block [launch, WFI, release X, acquire Y]; the GPU sees these writes
//! `bus_latency` cycles later. Threads of a launched kernel start `start` cycles after the
//! launch, allocate `blocks + 1` entries (one atomic allocation per cycle, lowest thread index
//! first; refused: retry `retry_cycles` after the answer), write one entry per cycle
//! (`written`), then release the guard S[first-1] (one semaphore write per cycle) and are
//! finished. The thread whose allocation takes the counter of threads still to allocate to zero
//! then allocates the return block [WFI, release Y, acquire X] with its guard (WQ-7). A kernel
//! finishes when `block_cycles` have passed since its launch and its threads have finished; a
//! WFI waits for every kernel its channel launched. The run is done when the CPU channel's
//! acquire of Y has completed, its ring is empty, and the GPU channel waits on X again.
//!
//! CPU-mediated mode (WQ-11 baseline): the same kernels and threads, but a thread only records
//! the blocks it would create (one cycle per block); the CPU channel's block is [launch, WFI,
//! release Y]; the CPU sees the release `bus_latency` later, writes one entry whose block
//! launches every kernel recorded since its last submission, then [WFI, release Y], and GP_PUT,
//! which the GPU sees `bus_latency` later. The run is done when a level's release finds nothing
//! recorded.
//!
//! Semaphore values: S[i] guards carry the lap of the entry plus one, acquired with circular
//! >= (the semaphore of an entry is reused on every lap of the ring); X is released with 1 and
//! acquired >= 1 by entry 0 and >= 2 by the return block; Y is released with 1 and acquired
//! >= 1.
//!
//! Checked while running (exit 1): the cluster's `violation`, `error` (a malformed entry) and
//! `watchdog` (an acquire waiting `watchdog_cycles`) outputs; its cycle cap ([`SystemConfig::cycle_cap`]).
use crate::harness::{ChildPortTrace, Harness, NoConvergence, PortTrace};
use crate::scenario::RunError;
use crate::trace::TraceWriter;
use crate::verilator::{PortMap, VerilatorTop};
use ppu_hdl::work_queue::command::{opcode_name, Command, Condition, Sem};
use ppu_hdl::work_queue::host_interface::HostInterface;
use ppu_hdl::work_queue::ring_wrap::WrapForm;
use ppu_hdl::work_queue::wq_cluster::WqCluster;
use rust_hdl::prelude::*;
use serde_json::{json, Value};

mod config;
pub mod model;

pub use config::*;
use model::{Cpu, Gpu, Memory, Phase};

/// The simulated top block.
pub type SysCluster = WqCluster<IDX_BITS, X_BITS, SEM_BITS>;
/// Its host interface (exported on its own as `host_interface`).
pub type SysHost = HostInterface<IDX_BITS, SEM_BITS>;

/// The trace name of a semaphore index: S[i] as `i`, X and Y by name.
pub fn sem_name(index: u64, entries: u64) -> Value {
    if index == entries {
        json!("X")
    } else if index == entries + 1 {
        json!("Y")
    } else {
        json!(index)
    }
}

/// Everything a run keeps between cycles.
struct Run<'a> {
    cfg: &'a SystemConfig,
    mem: Memory,
    gpu: Gpu,
    cpu: Cpu,
    trace: Option<&'a mut TraceWriter>,
    result: SystemResult,
    /// Last observed GP_GET / GP_PUT per channel.
    pointers: [[u64; 2]; 2],
    /// The thread whose allocation request is offered this cycle.
    alloc_thread: Option<usize>,
    /// Threads whose requests the allocator has taken, oldest first (answered in order).
    in_flight: std::collections::VecDeque<usize>,
    /// The thread whose guard release is offered to the semaphores this cycle.
    release_thread: Option<usize>,
    /// Last cycle's memory read, answered this cycle.
    read_addr: Option<u32>,
    /// GPU-created completion: Y released by the return block, then acquired by the CPU
    /// channel, and X waited for by the GPU channel again.
    y_released: bool,
    y_acquired: bool,
    x_rewaited: bool,
    done: Option<u64>,
}

impl Run<'_> {
    fn event(&mut self, cycle: u64, name: &str, fields: Value) -> Result<(), RunError> {
        match self.trace.as_deref_mut() {
            Some(t) => t.event(cycle, name, fields),
            None => Ok(()),
        }
    }
}

/// Run the system; events go to `trace` when given. Returns the figures and, when
/// `cfg.record_ports`, the cluster's port trace (with `cfg.record_host_ports` as well, the port
/// trace of its host interface instead, for the co-simulation of `host_interface`).
pub fn run(
    cfg: &SystemConfig,
    trace: Option<&mut TraceWriter>,
) -> Result<(SystemResult, Option<PortTrace>), RunError> {
    let out = crate::tb::TbOutput {
        vcd: cfg.vcd.as_deref(),
        record_ports: cfg.record_ports,
        engine: cfg.engine,
    };
    let uut = SysCluster::with_form(WrapForm::natural(cfg.entries as usize));
    let mut h = crate::tb::system_harness(uut, |u, c| u.clock.next = c.into(), &out, "wq_cluster")
        .map_err(RunError::Output)?;
    let mut run = Run {
        cfg,
        mem: Memory::new(),
        gpu: Gpu::new(cfg),
        cpu: Cpu::default(),
        trace,
        result: SystemResult::default(),
        pointers: [[0; 2]; 2],
        alloc_thread: None,
        in_flight: Default::default(),
        release_thread: None,
        read_addr: None,
        y_released: false,
        y_acquired: false,
        x_rewaited: false,
        done: None,
    };
    let mut host_ports =
        (cfg.record_ports && cfg.record_host_ports).then(|| ChildPortTrace::new("host"));
    let sim =
        |e: NoConvergence| RunError::Violation(format!("the cluster does not settle: {:?}", e));
    // Reset, then wait for the semaphore memory to clear itself (not part of the run's cycles).
    set_config(&mut h.uut, cfg);
    h.uut.reset.next = true;
    step(&mut h, &mut host_ports).map_err(sim)?;
    h.uut.reset.next = false;
    loop {
        h.settle().map_err(sim)?;
        if h.uut.ready.val() {
            break;
        }
        step(&mut h, &mut host_ports).map_err(sim)?;
    }
    let t0 = h.cycle();
    driver_setup(&mut run);
    let cap = cfg.cycle_cap();
    loop {
        let cycle = h.cycle() - t0;
        drive(&mut run, &mut h.uut, cycle);
        h.settle().map_err(sim)?;
        observe(&mut run, &h.uut, cycle)?;
        if let Some(done) = run.done {
            run.result.cycles = done;
            run.result.cpu_interactions = run.cpu.interactions;
            break;
        }
        if cycle >= cap {
            return Err(RunError::Violation(format!(
                "the run has not finished after {} cycles (the cap its scenario allows)",
                cap
            )));
        }
        step(&mut h, &mut host_ports).map_err(sim)?;
    }
    let ports = crate::tb::finish_waves(h, &out, save_groups).map_err(RunError::Output)?;
    match host_ports {
        Some(host) => Ok((run.result, Some(host.finish()))),
        None => Ok((run.result, ports)),
    }
}

/// One cycle of the harness, recording the host interface's ports first when asked.
fn step(
    h: &mut Harness<SysCluster>,
    host_ports: &mut Option<ChildPortTrace>,
) -> Result<(), NoConvergence> {
    if let Some(t) = host_ports {
        h.settle()?;
        t.sample(&h.uut);
    }
    h.step()
}

/// The GTKWave view of a run: the figures 6A-6F story, channel by channel.
fn save_groups(vars: &[(String, u32)]) -> Vec<crate::vcd::gtkw::Group> {
    use crate::vcd::gtkw::Group;
    let top = "wq_cluster";
    vec![
        Group::new("control").sigs(
            top,
            &["clock", "reset", "ready", "gpu_owned", "setup_valid"],
            vars,
        ),
        Group::new("CPU channel").sigs(top, &["gp_get$0", "gp_put$0", "chan_idle$0"], vars),
        Group::new("GPU channel").sigs(
            top,
            &["gp_get$1", "gp_put$1", "fill$1", "chan_idle$1"],
            vars,
        ),
        Group::new("host").sigs(
            top,
            &[
                "channel",
                "exec_valid",
                "exec_entry",
                "exec_opcode",
                "acquire_wait",
                "acquire_done",
                "acquire_sem",
                "release_valid",
                "release_sem",
                "release_value",
                "launch_valid",
                "launch_kernel",
                "host.state.q",
            ],
            vars,
        ),
        Group::new("threads").sigs(
            top,
            &[
                "alloc_valid",
                "alloc_count",
                "resp_valid",
                "resp_ok",
                "resp_first",
                "soft_gp_put",
                "shadow_gp_put",
                "thread_wr_valid",
                "thread_wr_sem",
                "thread_wr_value",
            ],
            vars,
        ),
        Group::new("memory").sigs(top, &["mem_rd_en", "mem_rd_addr", "mem_rd_data"], vars),
        Group::new("checks").sigs(top, &["error", "watchdog", "violation"], vars),
    ]
}

fn set_config(u: &mut SysCluster, cfg: &SystemConfig) {
    u.ring_entries.next = bits::<X_BITS>(cfg.entries);
    u.cmd_cycles.next = bits::<8>(cfg.host_cycles_per_command.min(255));
    // WQ-10: waiting *longer than* `watchdog_cycles` is the violation; the host interface
    // pulses once an acquire has waited `watchdog_limit` cycles, so its limit is one more
    // (the scenario keeps `watchdog_cycles` below 2^32 - 1).
    u.watchdog_limit.next = bits::<32>((cfg.watchdog_cycles + 1).min(u32::MAX as u64));
    u.ring_base[0].next = bits::<32>(CPU_RING_BASE as u64);
    u.ring_base[1].next = bits::<32>(GPU_RING_BASE as u64);
    u.launch_ready.next = true;
}

/// WQ-5 (and the baseline's first submission): what the driver writes at cycle 0.
fn driver_setup(run: &mut Run) {
    let bus = run.cfg.bus_latency;
    let cpu_block = match run.cfg.mode {
        Mode::GpuCreated => {
            let acquire_x = run.mem.block(&[Command::Acquire {
                sem: Sem::X,
                cond: Condition::CircGeq,
                value: 1,
            }]);
            run.mem.entry(GPU_RING_BASE, 0, acquire_x);
            run.cpu.setup_at = Some(bus);
            vec![
                Command::Launch { kernel: 0 },
                Command::Wfi,
                Command::Release {
                    sem: Sem::X,
                    value: 1,
                    after_wfi: false,
                },
                Command::Acquire {
                    sem: Sem::Y,
                    cond: Condition::CircGeq,
                    value: 1,
                },
            ]
        }
        Mode::CpuMediated => vec![
            Command::Launch { kernel: 0 },
            Command::Wfi,
            Command::Release {
                sem: Sem::Y,
                value: 1,
                after_wfi: false,
            },
        ],
    };
    let b = run.mem.block(&cpu_block);
    run.mem.entry(CPU_RING_BASE, 0, b);
    run.cpu.next_entry = 1;
    run.cpu.puts.push_back((bus, 1));
    run.cpu.interactions = 1;
}

/// Set the cluster's inputs for `cycle` from the model.
fn drive(run: &mut Run, u: &mut SysCluster, cycle: u64) {
    set_config(u, run.cfg);
    u.reset.next = false;
    let setup_at = run.cpu.setup_at;
    u.gpu_owned.next = setup_at.is_some_and(|s| cycle >= s);
    u.setup_valid.next = setup_at == Some(cycle);
    u.cpu_put_valid.next = false;
    while run.cpu.puts.front().is_some_and(|p| p.0 <= cycle) {
        let (_, put) = run.cpu.puts.pop_front().unwrap_or_default();
        u.cpu_put_valid.next = true;
        u.cpu_put_value.next = bits::<IDX_BITS>(put);
    }
    u.gpu_put_valid.next = false;
    u.mem_rd_data.next = bits::<32>(run.read_addr.map(|a| run.mem.read(a)).unwrap_or(0) as u64);
    let idle = run.gpu.update_kernels(cycle);
    u.chan_idle[0].next = idle[0];
    u.chan_idle[1].next = idle[1];
    run.alloc_thread = None;
    u.alloc_valid.next = false;
    if let Some((t, count)) = run.gpu.alloc_request(cycle) {
        u.alloc_valid.next = true;
        u.alloc_count.next = bits::<X_BITS>(count);
        run.alloc_thread = Some(t);
    }
    u.thread_wr_valid.next = false;
    run.release_thread = None;
    if let Some((t, sem, value)) = run.gpu.release_request() {
        run.release_thread = Some(t);
        u.thread_wr_valid.next = true;
        u.thread_wr_sem.next = bits::<SEM_BITS>(sem);
        u.thread_wr_value.next = bits::<32>(value as u64);
    }
}

/// Read the settled outputs of `cycle`: trace events, model updates, checks.
fn observe(run: &mut Run, u: &SysCluster, cycle: u64) -> Result<(), RunError> {
    // The release offered this cycle (decided before this cycle's writes made new ones).
    if let (Some(t), true) = (run.release_thread, u.thread_wr_ready.val()) {
        run.gpu.released(t, cycle);
    }
    allocation(run, u, cycle)?;
    writes(run, cycle)?;
    host_events(run, u, cycle)?;
    if run.cfg.mode == Mode::CpuMediated {
        run.gpu.record(cycle);
        cpu_mediated(run, cycle);
    }
    if u.violation.val() {
        return Err(RunError::Violation(format!(
            "cycle {}: the work-queue cluster raised violation",
            cycle
        )));
    }
    if u.error.val() {
        return Err(RunError::Violation(format!(
            "cycle {}: channel {} stopped at a malformed entry (WQ-10)",
            cycle,
            u.channel.val() as u8
        )));
    }
    if u.watchdog.val() {
        return Err(RunError::Violation(format!(
            "cycle {}: an acquire on channel {} has waited more than {} cycles \
             (watchdog_cycles, WQ-10)",
            cycle,
            u.watchdog_channel.val() as u8,
            run.cfg.watchdog_cycles
        )));
    }
    Ok(())
}

/// The allocator's answer to the request of two cycles ago (WQ-6), and this cycle's request.
fn allocation(run: &mut Run, u: &SysCluster, cycle: u64) -> Result<(), RunError> {
    if u.resp_valid.val() {
        let t = run.in_flight.pop_front().ok_or_else(|| {
            RunError::Violation(format!("cycle {}: an answer nobody asked for", cycle))
        })?;
        if run.gpu.threads[t].phase != Phase::AwaitResponse {
            return Err(RunError::Violation(format!(
                "cycle {}: an answer for thread {}, which does not wait for one",
                cycle, t
            )));
        }
        let ok = u.resp_ok.val();
        let first = u.resp_first.val().to_u64();
        let lap = u.resp_lap.val().to_u64();
        let count = run.gpu.threads[t].alloc_count();
        // The atomic operation happened at the edge that ended the cycle after the request's
        // (it saw the shadow updates up to the request's cycle).
        run.event(
            cycle.saturating_sub(1),
            "alloc",
            json!({"thread": t, "first": first, "count": count, "ok": ok}),
        )?;
        if ok {
            run.result.allocations_ok += 1;
        } else {
            run.result.allocations_refused += 1;
        }
        run.gpu
            .alloc_response(t, ok, first, lap, cycle, &mut run.mem);
    }
    if let (Some(t), true) = (run.alloc_thread, u.alloc_ready.val()) {
        run.gpu.threads[t].phase = Phase::AwaitResponse;
        run.in_flight.push_back(t);
    }
    Ok(())
}

/// Threads writing their entries, one per cycle each (`written`).
fn writes(run: &mut Run, cycle: u64) -> Result<(), RunError> {
    for t in 0..run.gpu.threads.len() {
        let Phase::Writing { next } = run.gpu.threads[t].phase else {
            continue;
        };
        let th = &run.gpu.threads[t];
        let entry = run.gpu.wrap((th.first + next) as i64);
        let block = th.blocks[next as usize];
        let count = th.count;
        let guard = th.guard;
        run.mem.entry(GPU_RING_BASE, entry, block);
        run.result.entries_written += 1;
        run.event(cycle, "written", json!({"thread": t, "entry": entry}))?;
        if next + 1 < count {
            run.gpu.threads[t].phase = Phase::Writing { next: next + 1 };
        } else if guard.is_some() {
            run.gpu.threads[t].phase = Phase::Release(guard);
        } else {
            run.gpu.released(t, cycle);
        }
    }
    Ok(())
}

/// The host's events of this cycle, in trace order.
fn host_events(run: &mut Run, u: &SysCluster, cycle: u64) -> Result<(), RunError> {
    let n = run.cfg.entries;
    let ch = u.channel.val() as u64;
    if u.exec_valid.val() {
        run.result.commands_executed += 1;
        let e = json!({"channel": ch, "entry": u.exec_entry.val().to_u64(),
            "command": opcode_name(u.exec_opcode.val().to_u64())});
        run.event(cycle, "exec", e)?;
    }
    if u.launch_valid.val() && u.launch_ready.val() {
        run.result.kernels_launched += 1;
        let k = u.launch_kernel.val().to_u64() as usize;
        let c = u.launch_channel.val() as usize;
        run.gpu.launch(k, cycle, c, run.cfg.mode);
    }
    if u.release_valid.val() {
        let sem = u.release_sem.val().to_u64();
        let value = u.release_value.val().to_u64();
        run.event(
            cycle,
            "release",
            json!({"channel": ch, "sem": sem_name(sem, n), "value": value}),
        )?;
        if sem == n + 1 {
            match run.cfg.mode {
                Mode::GpuCreated => run.y_released = true,
                Mode::CpuMediated => run.cpu.notices.push_back((cycle, value as u32)),
            }
        }
    }
    let sem = u.acquire_sem.val().to_u64();
    if u.acquire_wait.val() {
        run.event(
            cycle,
            "acquire_wait",
            json!({"channel": ch, "sem": sem_name(sem, n)}),
        )?;
        if ch == 1 && sem == n && run.y_released {
            run.x_rewaited = true;
        }
    }
    if u.acquire_done.val() {
        run.event(
            cycle,
            "acquire_done",
            json!({"channel": ch, "sem": sem_name(sem, n)}),
        )?;
        if ch == 0 && sem == n + 1 {
            run.y_acquired = true;
        }
    }
    for c in 0..2 {
        let get = u.gp_get[c].val().to_u64();
        let put = u.gp_put[c].val().to_u64();
        if get != run.pointers[c][0] {
            run.pointers[c][0] = get;
            run.event(cycle, "gp_get", json!({"channel": c, "value": get}))?;
        }
        if put != run.pointers[c][1] {
            run.pointers[c][1] = put;
            run.event(cycle, "gp_put", json!({"channel": c, "value": put}))?;
        }
    }
    run.read_addr = u
        .mem_rd_en
        .val()
        .then(|| u.mem_rd_addr.val().to_u64() as u32);
    if run.cfg.mode == Mode::GpuCreated
        && run.y_acquired
        && run.x_rewaited
        && run.pointers[0][0] == run.pointers[0][1]
    {
        run.done = Some(cycle);
    }
    Ok(())
}

/// The baseline's CPU: on each level's notification, submit what the level recorded.
fn cpu_mediated(run: &mut Run, cycle: u64) {
    let bus = run.cfg.bus_latency;
    // A release the GPU made: if nothing was recorded and nobody is still recording, the GPU's
    // work is complete at that release.
    if let Some(&(released, value)) = run.cpu.notices.front() {
        let recording = run
            .gpu
            .threads
            .iter()
            .any(|t| matches!(t.phase, Phase::Recording(_) | Phase::Idle) && !t.finished);
        if released == cycle && run.gpu.requested.is_empty() && !recording {
            run.done = Some(cycle);
            return;
        }
        if cycle >= released + bus {
            run.cpu.notices.pop_front();
            run.cpu.interactions += 1;
            let mut cmds: Vec<Command> = run
                .gpu
                .requested
                .drain(..)
                .map(|k| Command::Launch { kernel: k as u32 })
                .collect();
            cmds.push(Command::Wfi);
            cmds.push(Command::Release {
                sem: Sem::Y,
                value: value.wrapping_add(1),
                after_wfi: false,
            });
            let b = run.mem.block(&cmds);
            let n = run.cfg.entries;
            let e = run.cpu.next_entry;
            run.mem.entry(CPU_RING_BASE, e, b);
            run.cpu.next_entry = (e + 1) % n;
            run.cpu.puts.push_back((cycle + bus, run.cpu.next_entry));
            run.cpu.interactions += 1;
        }
    }
}

/// Under the Verilator engine: every port of the work-queue cluster.
impl<const IDX_BITS: usize, const X_BITS: usize, const SEM_BITS: usize> VerilatorTop
    for WqCluster<IDX_BITS, X_BITS, SEM_BITS>
{
    const TOP: &'static str = "wq_cluster";
    fn port_map() -> PortMap<Self> {
        let mut m = PortMap::<Self>::default();
        m.input("reset", |u| &mut u.reset)
            .input("ring_entries", |u| &mut u.ring_entries)
            .input("cmd_cycles", |u| &mut u.cmd_cycles)
            .input("watchdog_limit", |u| &mut u.watchdog_limit)
            .inputs("ring_base", 2, |u, i| &mut u.ring_base[i])
            .input("gpu_owned", |u| &mut u.gpu_owned)
            .input("cpu_put_valid", |u| &mut u.cpu_put_valid)
            .input("cpu_put_value", |u| &mut u.cpu_put_value)
            .input("gpu_put_valid", |u| &mut u.gpu_put_valid)
            .input("gpu_put_value", |u| &mut u.gpu_put_value)
            .input("setup_valid", |u| &mut u.setup_valid)
            .input("alloc_valid", |u| &mut u.alloc_valid)
            .input("alloc_count", |u| &mut u.alloc_count)
            .input("thread_wr_valid", |u| &mut u.thread_wr_valid)
            .input("thread_wr_sem", |u| &mut u.thread_wr_sem)
            .input("thread_wr_value", |u| &mut u.thread_wr_value)
            .inputs("chan_idle", 2, |u, i| &mut u.chan_idle[i])
            .input("mem_rd_data", |u| &mut u.mem_rd_data)
            .input("launch_ready", |u| &mut u.launch_ready);
        m.output("alloc_ready", |u| &mut u.alloc_ready)
            .output("resp_valid", |u| &mut u.resp_valid)
            .output("resp_ok", |u| &mut u.resp_ok)
            .output("resp_first", |u| &mut u.resp_first)
            .output("resp_lap", |u| &mut u.resp_lap)
            .output("thread_wr_ready", |u| &mut u.thread_wr_ready)
            .output("mem_rd_en", |u| &mut u.mem_rd_en)
            .output("mem_rd_addr", |u| &mut u.mem_rd_addr)
            .output("launch_valid", |u| &mut u.launch_valid)
            .output("launch_kernel", |u| &mut u.launch_kernel)
            .output("launch_channel", |u| &mut u.launch_channel)
            .outputs("gp_get${}", 2, |u, i| &mut u.gp_get[i])
            .outputs("gp_put${}", 2, |u, i| &mut u.gp_put[i])
            .output("channel", |u| &mut u.channel)
            .output("exec_valid", |u| &mut u.exec_valid)
            .output("exec_entry", |u| &mut u.exec_entry)
            .output("exec_opcode", |u| &mut u.exec_opcode)
            .output("acquire_wait", |u| &mut u.acquire_wait)
            .output("acquire_done", |u| &mut u.acquire_done)
            .output("acquire_sem", |u| &mut u.acquire_sem)
            .output("release_valid", |u| &mut u.release_valid)
            .output("release_sem", |u| &mut u.release_sem)
            .output("release_value", |u| &mut u.release_value)
            .output("error", |u| &mut u.error)
            .outputs("stopped${}", 2, |u, i| &mut u.stopped[i])
            .output("watchdog", |u| &mut u.watchdog)
            .output("watchdog_channel", |u| &mut u.watchdog_channel)
            .outputs("full${}", 2, |u, i| &mut u.full[i])
            .outputs("fill${}", 2, |u, i| &mut u.fill[i])
            .output("soft_gp_put", |u| &mut u.soft_gp_put)
            .output("shadow_gp_put", |u| &mut u.shadow_gp_put)
            .output("ready", |u| &mut u.ready)
            .output("violation", |u| &mut u.violation);
        m
    }
}
