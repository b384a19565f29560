//! `WqCluster` — the work-queue mechanism's top block (SPEC WQ-1..WQ-10): a CPU channel and a
//! GPU channel ([`GpFifo`]), the [`HostInterface`] serving both, the [`SoftPutAllocator`] the
//! GPU threads allocate from, and the [`SemaphoreMemory`] (S[0..ENTRIES-1], X, Y).
//!
//! Wiring: the host's `chan_advance[c]` moves channel c's GP_GET; with `gpu_owned` high the
//! GPU channel's GP_PUT follows wrap(GP_GET - 1) (WQ-5) and so does the allocator's shadow
//! GP_PUT, updated in the same edge as GP_GET (the host's advance carries the new GP_GET); `setup_valid` performs the driver's set-up of the allocator (soft
//! GP_PUT = GP_GET + 1, shadow = GP_GET - 1). The host's releases write the semaphores through
//! the host port; the threads' guard releases (and the CPU's writes) through `thread_wr_*`.
//! Memory (entries and command blocks) and kernels are outside: `mem_rd_*` and `launch_*`.
//!
//! Parameters: `IDX_BITS` (ring index width: rings of up to 2^`IDX_BITS` entries), `X_BITS` =
//! `IDX_BITS`+2, `SEM_BITS` = `IDX_BITS`+1; the ring size n of both channels is the
//! configuration input `ring_entries`, the wrap form a construction parameter
//! ([`WqCluster::with_form`]). After reset the semaphore memory clears itself (2^`SEM_BITS`
//! cycles) and the host waits for it: it leaves reset one cycle after the sweep ends (a
//! registered hold, so no path runs from the sweep's state into the host's outputs), the
//! cycle `ready` rises.
//! Ports: as the sub-blocks, plus `gp_get[c]`/`gp_put[c]` of both channels, `release_valid` (with
//! `release_sem`, `release_value`: the host's release this cycle), `full[c]`, `fill[c]`, `soft_gp_put`,
//! `shadow_gp_put` (for waves), `ready` (the semaphores are cleared and the host runs), `violation` (any sub-block's, registered: one cycle after the sub-block's).
//! Timing: the sub-blocks' (the host's command timing; an allocation answered 2 cycles after
//! its request, one per cycle).
use super::gp_fifo::GpFifo;
use super::host_interface::HostInterface;
use super::ring_wrap::WrapForm;
use super::semaphore_memory::SemaphoreMemory;
use super::soft_put_allocator::SoftPutAllocator;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WqCluster<const IDX_BITS: usize, const X_BITS: usize, const SEM_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ring_entries: Signal<In, Bits<X_BITS>>,
    pub cmd_cycles: Signal<In, Bits<8>>,
    pub watchdog_limit: Signal<In, Bits<32>>,
    pub ring_base: [Signal<In, Bits<32>>; 2],
    pub gpu_owned: Signal<In, Bit>,
    pub cpu_put_valid: Signal<In, Bit>,
    pub cpu_put_value: Signal<In, Bits<IDX_BITS>>,
    pub gpu_put_valid: Signal<In, Bit>,
    pub gpu_put_value: Signal<In, Bits<IDX_BITS>>,
    pub setup_valid: Signal<In, Bit>,
    pub alloc_valid: Signal<In, Bit>,
    pub alloc_ready: Signal<Out, Bit>,
    pub alloc_count: Signal<In, Bits<X_BITS>>,
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ok: Signal<Out, Bit>,
    pub resp_first: Signal<Out, Bits<IDX_BITS>>,
    pub resp_lap: Signal<Out, Bits<16>>,
    pub thread_wr_valid: Signal<In, Bit>,
    pub thread_wr_ready: Signal<Out, Bit>,
    pub thread_wr_sem: Signal<In, Bits<SEM_BITS>>,
    pub thread_wr_value: Signal<In, Bits<32>>,
    pub chan_idle: [Signal<In, Bit>; 2],
    pub mem_rd_en: Signal<Out, Bit>,
    pub mem_rd_addr: Signal<Out, Bits<32>>,
    pub mem_rd_data: Signal<In, Bits<32>>,
    pub launch_valid: Signal<Out, Bit>,
    pub launch_ready: Signal<In, Bit>,
    pub launch_kernel: Signal<Out, Bits<32>>,
    pub launch_channel: Signal<Out, Bit>,
    pub gp_get: [Signal<Out, Bits<IDX_BITS>>; 2],
    pub gp_put: [Signal<Out, Bits<IDX_BITS>>; 2],
    pub channel: Signal<Out, Bit>,
    pub exec_valid: Signal<Out, Bit>,
    pub exec_entry: Signal<Out, Bits<IDX_BITS>>,
    pub exec_opcode: Signal<Out, Bits<4>>,
    pub acquire_wait: Signal<Out, Bit>,
    pub acquire_done: Signal<Out, Bit>,
    pub acquire_sem: Signal<Out, Bits<SEM_BITS>>,
    pub release_valid: Signal<Out, Bit>,
    pub release_sem: Signal<Out, Bits<SEM_BITS>>,
    pub release_value: Signal<Out, Bits<32>>,
    pub error: Signal<Out, Bit>,
    pub stopped: [Signal<Out, Bit>; 2],
    pub watchdog: Signal<Out, Bit>,
    pub watchdog_channel: Signal<Out, Bit>,
    pub full: [Signal<Out, Bit>; 2],
    pub fill: [Signal<Out, Bits<IDX_BITS>>; 2],
    pub soft_gp_put: Signal<Out, Bits<IDX_BITS>>,
    pub shadow_gp_put: Signal<Out, Bits<IDX_BITS>>,
    pub ready: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    cpu_ring: GpFifo<IDX_BITS, X_BITS>,
    gpu_ring: GpFifo<IDX_BITS, X_BITS>,
    host: HostInterface<IDX_BITS, SEM_BITS>,
    allocator: SoftPutAllocator<IDX_BITS, X_BITS>,
    semaphores: SemaphoreMemory<SEM_BITS>,
    /// The host is held in reset: during reset and the semaphores' clear sweep, registered.
    host_held: DFF<Bit>,
    violation_reg: DFF<Bit>,
}

impl<const IDX_BITS: usize, const X_BITS: usize, const SEM_BITS: usize> Default
    for WqCluster<IDX_BITS, X_BITS, SEM_BITS>
{
    fn default() -> Self {
        Self::with_form(WrapForm::Pow2)
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize, const SEM_BITS: usize>
    WqCluster<IDX_BITS, X_BITS, SEM_BITS>
{
    /// A cluster whose rings and allocator wrap with `form` (WQ-2): the AND form for
    /// power-of-two ring sizes, the compare form for any size.
    pub fn with_form(form: WrapForm) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ring_entries: Default::default(),
            cmd_cycles: Default::default(),
            watchdog_limit: Default::default(),
            ring_base: Default::default(),
            gpu_owned: Default::default(),
            cpu_put_valid: Default::default(),
            cpu_put_value: Default::default(),
            gpu_put_valid: Default::default(),
            gpu_put_value: Default::default(),
            setup_valid: Default::default(),
            alloc_valid: Default::default(),
            alloc_ready: Default::default(),
            alloc_count: Default::default(),
            resp_valid: Default::default(),
            resp_ok: Default::default(),
            resp_first: Default::default(),
            resp_lap: Default::default(),
            thread_wr_valid: Default::default(),
            thread_wr_ready: Default::default(),
            thread_wr_sem: Default::default(),
            thread_wr_value: Default::default(),
            chan_idle: Default::default(),
            mem_rd_en: Default::default(),
            mem_rd_addr: Default::default(),
            mem_rd_data: Default::default(),
            launch_valid: Default::default(),
            launch_ready: Default::default(),
            launch_kernel: Default::default(),
            launch_channel: Default::default(),
            gp_get: Default::default(),
            gp_put: Default::default(),
            channel: Default::default(),
            exec_valid: Default::default(),
            exec_entry: Default::default(),
            exec_opcode: Default::default(),
            acquire_wait: Default::default(),
            acquire_done: Default::default(),
            acquire_sem: Default::default(),
            release_valid: Default::default(),
            release_sem: Default::default(),
            release_value: Default::default(),
            error: Default::default(),
            stopped: Default::default(),
            watchdog: Default::default(),
            watchdog_channel: Default::default(),
            full: Default::default(),
            fill: Default::default(),
            soft_gp_put: Default::default(),
            shadow_gp_put: Default::default(),
            ready: Default::default(),
            violation: Default::default(),
            cpu_ring: GpFifo::with_form(form),
            gpu_ring: GpFifo::with_form(form),
            host: Default::default(),
            allocator: SoftPutAllocator::with_form(form),
            semaphores: Default::default(),
            host_held: Default::default(),
            violation_reg: Default::default(),
        }
    }
}

impl<const IDX_BITS: usize, const X_BITS: usize, const SEM_BITS: usize> Logic
    for WqCluster<IDX_BITS, X_BITS, SEM_BITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, cpu_ring, gpu_ring, host, allocator, semaphores);
        self.cpu_ring.reset.next = self.reset.val();
        self.gpu_ring.reset.next = self.reset.val();
        // The host starts once the semaphores are cleared, from a register (the clear sweep's
        // end reaches the host one cycle later; `ready` says when the host runs).
        self.host_held.clock.next = self.clock.val();
        self.host_held.d.next = self.reset.val() | !self.semaphores.ready.val();
        self.host.reset.next = self.reset.val() | self.host_held.q.val();
        self.allocator.reset.next = self.reset.val();
        self.semaphores.reset.next = self.reset.val();
        // Rings: the CPU writes its channel's GP_PUT; the GPU channel's follows its GP_GET.
        self.cpu_ring.ring_entries.next = self.ring_entries.val();
        self.gpu_ring.ring_entries.next = self.ring_entries.val();
        self.allocator.ring_entries.next = self.ring_entries.val();
        self.host.ring_entries.next = self.ring_entries.val().get_bits::<SEM_BITS>(0);
        self.cpu_ring.put_valid.next = self.cpu_put_valid.val();
        self.cpu_ring.put_value.next = self.cpu_put_value.val();
        self.cpu_ring.put_follow.next = false;
        self.cpu_ring.get_advance.next = self.host.chan_advance[0].val();
        self.gpu_ring.put_valid.next = self.gpu_put_valid.val();
        self.gpu_ring.put_value.next = self.gpu_put_value.val();
        self.gpu_ring.put_follow.next = self.gpu_owned.val();
        self.gpu_ring.get_advance.next = self.host.chan_advance[1].val();
        // Host.
        self.host.cmd_cycles.next = self.cmd_cycles.val();
        self.host.watchdog_limit.next = self.watchdog_limit.val();
        self.host.ring_base[0].next = self.ring_base[0].val();
        self.host.ring_base[1].next = self.ring_base[1].val();
        self.host.chan_empty_next[0].next = self.cpu_ring.empty_next.val();
        self.host.chan_empty_next[1].next = self.gpu_ring.empty_next.val();
        self.host.chan_gp_get[0].next = self.cpu_ring.gp_get.val();
        self.host.chan_gp_get[1].next = self.gpu_ring.gp_get.val();
        self.host.chan_idle[0].next = self.chan_idle[0].val();
        self.host.chan_idle[1].next = self.chan_idle[1].val();
        self.host.mem_rd_data.next = self.mem_rd_data.val();
        self.host.sem_rd_value.next = self.semaphores.rd_value.val();
        self.host.launch_ready.next = self.launch_ready.val();
        // Allocator: set-up by the driver, shadow GP_PUT following the GPU channel.
        self.allocator.setup_valid.next = self.setup_valid.val();
        self.allocator.setup_gp_get.next = self.gpu_ring.gp_get.val();
        self.allocator.shadow_valid.next = self.gpu_owned.val() & self.host.chan_advance[1].val();
        // After an advance shadow GP_PUT = wrap(GP_GET - 1) is the GP_GET being left.
        self.allocator.shadow_gp_put_value.next = self.gpu_ring.gp_get.val();
        self.allocator.alloc_valid.next = self.alloc_valid.val();
        self.allocator.alloc_count.next = self.alloc_count.val();
        // Semaphores.
        self.semaphores.host_wr_en.next = self.host.sem_wr_en.val();
        self.semaphores.host_wr_sem.next = self.host.sem_wr_sem.val();
        self.semaphores.host_wr_value.next = self.host.sem_wr_value.val();
        self.semaphores.thread_wr_valid.next = self.thread_wr_valid.val();
        self.thread_wr_ready.next = self.semaphores.thread_wr_ready.val();
        self.semaphores.thread_wr_sem.next = self.thread_wr_sem.val();
        self.semaphores.thread_wr_value.next = self.thread_wr_value.val();
        self.semaphores.rd_sem.next = self.host.sem_rd_sem.val();
        // Outputs.
        self.alloc_ready.next = self.allocator.alloc_ready.val();
        self.resp_valid.next = self.allocator.resp_valid.val();
        self.resp_ok.next = self.allocator.resp_ok.val();
        self.resp_first.next = self.allocator.resp_first.val();
        self.resp_lap.next = self.allocator.resp_lap.val();
        self.mem_rd_en.next = self.host.mem_rd_en.val();
        self.mem_rd_addr.next = self.host.mem_rd_addr.val();
        self.launch_valid.next = self.host.launch_valid.val();
        self.launch_kernel.next = self.host.launch_kernel.val();
        self.launch_channel.next = self.host.launch_channel.val();
        self.gp_get[0].next = self.cpu_ring.gp_get.val();
        self.gp_get[1].next = self.gpu_ring.gp_get.val();
        self.gp_put[0].next = self.cpu_ring.gp_put.val();
        self.gp_put[1].next = self.gpu_ring.gp_put.val();
        self.channel.next = self.host.channel.val();
        self.exec_valid.next = self.host.exec_valid.val();
        self.exec_entry.next = self.host.exec_entry.val();
        self.exec_opcode.next = self.host.exec_opcode.val();
        self.acquire_wait.next = self.host.acquire_wait.val();
        self.acquire_done.next = self.host.acquire_done.val();
        self.acquire_sem.next = self.host.acquire_sem.val();
        self.release_valid.next = self.host.sem_wr_en.val();
        self.release_sem.next = self.host.sem_wr_sem.val();
        self.release_value.next = self.host.sem_wr_value.val();
        self.error.next = self.host.error.val();
        self.stopped[0].next = self.host.stopped[0].val();
        self.stopped[1].next = self.host.stopped[1].val();
        self.watchdog.next = self.host.watchdog.val();
        self.watchdog_channel.next = self.host.watchdog_channel.val();
        self.full[0].next = self.cpu_ring.full.val();
        self.full[1].next = self.gpu_ring.full.val();
        self.fill[0].next = self.cpu_ring.fill.val();
        self.fill[1].next = self.gpu_ring.fill.val();
        self.soft_gp_put.next = self.allocator.soft_gp_put.val();
        self.shadow_gp_put.next = self.allocator.shadow_gp_put.val();
        self.ready.next = !self.host_held.q.val() & !self.reset.val();
        // Registered: the sub-blocks' checks are combinational on their inputs.
        self.violation_reg.clock.next = self.clock.val();
        self.violation_reg.d.next = (self.cpu_ring.violation.val()
            | self.gpu_ring.violation.val()
            | self.allocator.violation.val()
            | self.semaphores.violation.val()
            | self.host.violation.val())
            & !self.reset.val();
        self.violation.next = self.violation_reg.q.val();
    }
}
