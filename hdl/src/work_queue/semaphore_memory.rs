//! `SemaphoreMemory` — the work queue's semaphores (SPEC WQ-5, WQ-6): one per ring entry
//! (S[0..n-1]) plus X and Y, 32 bits each, in block RAM.
//!
//! Index: S[i] at i, X at n, Y at n+1 (n = the ring size; the host computes the index). The
//! RAM holds 2^`SEM_BITS` words. After reset a clear sweep writes 0 to every word (the driver's
//! set-up zeroes X and Y; the entry semaphores start at 0 too): `ready` is low for
//! 2^`SEM_BITS` cycles, and no write or read is served meanwhile (`rd_value` shows 0, also for
//! a read issued in the sweep's last cycles: the bypasses never see the sweep's writes).
//!
//! Writes: `host_wr_*` (the host interface executing a release) always wins;
//! `thread_wr_valid`/`thread_wr_ready` (GPU threads releasing their guard, or the CPU) is a
//! valid/ready channel whose `thread_wr_ready` is low in a cycle the host writes.
//! Read: `rd_sem` in cycle t, `rd_value` in cycle t+2: the semaphore's value after the writes
//! of cycle t+1 (the freshest value a register can hold then). The block RAM's word read in
//! cycle t is registered with no logic after the RAM (on ECP5 the `DP16KD`'s own output
//! register), and a write of cycle t or t+1 to the same semaphore is forwarded instead
//! (write-first bypass, so a block RAM's undefined read-during-write never reaches an
//! acquire). The RAM's write port is registered: a write accepted in cycle t is written into
//! the RAM in cycle t+1 (so the host's write decision does not reach the RAM's address pins),
//! and a read in cycle t+1 of that semaphore takes the pending write's value too. A user holding `rd_sem` steady sees in cycle t+1 the value after the writes of
//! cycle t, as a one-cycle read would give it: the host interface presents the command's
//! semaphore from its decode on and reads it a cycle later.
//!
//! Parameters: `SEM_BITS` (index width; n + 2 <= 2^`SEM_BITS`).
//! Ports: `clock`, `reset`, `host_wr_en`/`host_wr_sem`/`host_wr_value`, `thread_wr_valid`/
//! `thread_wr_ready`/`thread_wr_sem`/`thread_wr_value`, `rd_sem`, `rd_value`, `ready`,
//! `violation` (a host write during the clear sweep: it is lost).
//! Timing: one write and one read per cycle, read latency 2; `rd_value` comes from registers
//! through a one-hot 4:1 multiplexer (the RAM's word, or the value written one, two or three
//! cycles before, kept in a shift register loaded every cycle; ECP5 row: the block RAM's read
//! data feeds no logic, and the write decision only reaches select flip-flops).
use crate::widgets::block_ram::BlockRam;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SemaphoreMemory<const SEM_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub host_wr_en: Signal<In, Bit>,
    pub host_wr_sem: Signal<In, Bits<SEM_BITS>>,
    pub host_wr_value: Signal<In, Bits<32>>,
    pub thread_wr_valid: Signal<In, Bit>,
    pub thread_wr_ready: Signal<Out, Bit>,
    pub thread_wr_sem: Signal<In, Bits<SEM_BITS>>,
    pub thread_wr_value: Signal<In, Bits<32>>,
    pub rd_sem: Signal<In, Bits<SEM_BITS>>,
    pub rd_value: Signal<Out, Bits<32>>,
    pub ready: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    ram: BlockRam<Bits<32>, SEM_BITS>,
    /// The clear sweep runs; `clear_index` is the next word it zeroes.
    clearing: DFF<Bit>,
    clear_index: DFF<Bits<SEM_BITS>>,
    /// Stage 1 (the cycle after the read): the read's semaphore, whether a host or thread
    /// write of the read's cycle went to it, and whether the pending write (of the cycle
    /// before the read) did.
    read_sem: DFF<Bits<SEM_BITS>>,
    hit_read_cycle: DFF<Bit>,
    hit_before: DFF<Bit>,
    /// The read was issued during reset or the clear sweep (stage 1, stage 2): not served.
    read_in_sweep: DFF<Bit>,
    answer_in_sweep: DFF<Bit>,
    /// The write accepted in the cycle before, on its way into the block RAM (the write port
    /// is registered, so no write decision reaches the RAM's address pins).
    pend_write: DFF<Bit>,
    pend_sem: DFF<Bits<SEM_BITS>>,
    pend_value: DFF<Bits<32>>,
    /// The values written one and two cycles before `pend_value`'s (loaded every cycle: the
    /// write decision selects no data register).
    pend_value_prev: DFF<Bits<32>>,
    pend_value_prev2: DFF<Bits<32>>,
    /// Stage 2 (the answer, read in cycle t): the block RAM's word, registered straight from
    /// the RAM, and which write, if any, is the latest to the semaphore up to cycle t+1: that
    /// of t+1 (`pend_value` now), of t (`pend_value_prev`) or of t-1 (`pend_value_prev2`;
    /// it reached the RAM in t, whose read of it is undefined). One-hot or none.
    ram_word: DFF<Bits<32>>,
    answer_from_t1: DFF<Bit>,
    answer_from_t0: DFF<Bit>,
    answer_from_tm1: DFF<Bit>,
    write_now: Signal<Local, Bit>,
    early_host: Signal<Local, Bit>,
    early_thread: Signal<Local, Bit>,
    hit_host: Signal<Local, Bit>,
    hit_thread: Signal<Local, Bit>,
    /// This cycle's write goes to the semaphore read in the cycle before.
    hit_now: Signal<Local, Bit>,
    /// This cycle's host or thread write goes to the semaphore read in this cycle.
    hit_early: Signal<Local, Bit>,
    /// The pending write (reaching the RAM in this cycle) goes to the semaphore read.
    hit_pending: Signal<Local, Bit>,
    write_sem: Signal<Local, Bits<SEM_BITS>>,
    write_value: Signal<Local, Bits<32>>,
    last_index: Constant<Bits<SEM_BITS>>,
}

impl<const SEM_BITS: usize> Default for SemaphoreMemory<SEM_BITS> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            host_wr_en: Default::default(),
            host_wr_sem: Default::default(),
            host_wr_value: Default::default(),
            thread_wr_valid: Default::default(),
            thread_wr_ready: Default::default(),
            thread_wr_sem: Default::default(),
            thread_wr_value: Default::default(),
            rd_sem: Default::default(),
            rd_value: Default::default(),
            ready: Default::default(),
            violation: Default::default(),
            ram: Default::default(),
            clearing: Default::default(),
            clear_index: Default::default(),
            read_sem: Default::default(),
            read_in_sweep: Default::default(),
            answer_in_sweep: Default::default(),
            pend_write: Default::default(),
            pend_sem: Default::default(),
            pend_value: Default::default(),
            pend_value_prev: Default::default(),
            pend_value_prev2: Default::default(),
            hit_read_cycle: Default::default(),
            hit_before: Default::default(),
            answer_from_t1: Default::default(),
            answer_from_t0: Default::default(),
            answer_from_tm1: Default::default(),
            ram_word: Default::default(),
            write_now: Default::default(),
            early_host: Default::default(),
            early_thread: Default::default(),
            hit_host: Default::default(),
            hit_thread: Default::default(),
            hit_now: Default::default(),
            hit_early: Default::default(),
            hit_pending: Default::default(),
            write_sem: Default::default(),
            write_value: Default::default(),
            last_index: Constant::new(bits::<SEM_BITS>((1u64 << SEM_BITS) - 1)),
        }
    }
}

impl<const SEM_BITS: usize> Logic for SemaphoreMemory<SEM_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            clearing,
            clear_index,
            read_sem,
            hit_read_cycle,
            hit_before,
            read_in_sweep,
            answer_in_sweep,
            pend_write,
            pend_sem,
            pend_value,
            pend_value_prev,
            pend_value_prev2,
            ram_word,
            answer_from_t1,
            answer_from_t0,
            answer_from_tm1
        );
        clock!(self, clock, ram);
        self.thread_wr_ready.next = !self.clearing.q.val() & !self.host_wr_en.val();
        self.write_now.next = false;
        self.write_sem.next = self.host_wr_sem.val();
        self.write_value.next = self.host_wr_value.val();
        if self.clearing.q.val() {
            self.write_now.next = true;
            self.write_sem.next = self.clear_index.q.val();
            self.write_value.next = bits::<32>(0);
            self.clear_index.d.next = self.clear_index.q.val() + bits::<SEM_BITS>(1);
            if self.clear_index.q.val() == self.last_index.val() {
                self.clearing.d.next = false;
            }
        } else if self.host_wr_en.val() {
            self.write_now.next = true;
        } else if self.thread_wr_valid.val() {
            self.write_now.next = true;
            self.write_sem.next = self.thread_wr_sem.val();
            self.write_value.next = self.thread_wr_value.val();
        }
        self.pend_write.d.next = self.write_now.val();
        self.pend_sem.d.next = self.write_sem.val();
        self.pend_value.d.next = self.write_value.val();
        self.ram.write_enable.next = self.pend_write.q.val();
        self.ram.write_address.next = self.pend_sem.q.val();
        self.ram.write_data.next = self.pend_value.q.val();
        self.ram.read_address.next = self.rd_sem.val();
        // Stage 1: a write accepted in the read's cycle (it reaches the RAM a cycle later), or
        // the pending write reaching the RAM in the read's cycle (the RAM's read of it is
        // undefined); the newer one wins.
        self.read_sem.d.next = self.rd_sem.val();
        // A read issued during reset or the clear sweep is not served (its answer shows 0), so
        // the bypasses only look at host and thread writes, each compared on its own.
        self.read_in_sweep.d.next = self.clearing.q.val() | self.reset.val();
        self.answer_in_sweep.d.next = self.read_in_sweep.q.val();
        self.pend_value_prev.d.next = self.pend_value.q.val();
        self.pend_value_prev2.d.next = self.pend_value_prev.q.val();
        self.early_host.next = self.host_wr_sem.val() == self.rd_sem.val();
        self.early_thread.next = self.thread_wr_sem.val() == self.rd_sem.val();
        self.hit_early.next = self.thread_wr_valid.val() & self.early_thread.val();
        if self.host_wr_en.val() {
            self.hit_early.next = self.early_host.val();
        }
        self.hit_pending.next =
            self.pend_write.q.val() & (self.pend_sem.q.val() == self.rd_sem.val());
        self.hit_read_cycle.d.next = self.hit_early.val();
        self.hit_before.d.next = self.hit_pending.val();
        // Stage 2: the RAM's word as it left the RAM; the newest write to the semaphore wins.
        self.ram_word.d.next = self.ram.read_data.val();
        // Each write source is compared with the read's (registered) semaphore on its own, so
        // the late `host_wr_en` only picks among registered-input compares, and drives select
        // bits, not 32-bit enables.
        self.hit_host.next = self.host_wr_sem.val() == self.read_sem.q.val();
        self.hit_thread.next = self.thread_wr_sem.val() == self.read_sem.q.val();
        self.hit_now.next = self.thread_wr_valid.val() & self.hit_thread.val();
        if self.host_wr_en.val() {
            self.hit_now.next = self.hit_host.val();
        }
        self.answer_from_t1.d.next = self.hit_now.val();
        self.answer_from_t0.d.next = self.hit_read_cycle.q.val() & !self.hit_now.val();
        self.answer_from_tm1.d.next =
            self.hit_before.q.val() & !self.hit_read_cycle.q.val() & !self.hit_now.val();
        self.rd_value.next = self.ram_word.q.val();
        if self.answer_from_t1.q.val() {
            self.rd_value.next = self.pend_value.q.val();
        }
        if self.answer_from_t0.q.val() {
            self.rd_value.next = self.pend_value_prev.q.val();
        }
        if self.answer_from_tm1.q.val() {
            self.rd_value.next = self.pend_value_prev2.q.val();
        }
        // Nothing is served during reset and the clear sweep: the block RAM's words are not
        // defined yet (X in Verilog), so the read port shows 0.
        if self.answer_in_sweep.q.val() | self.clearing.q.val() | self.reset.val() {
            self.rd_value.next = bits::<32>(0);
        }
        self.ready.next = !self.clearing.q.val();
        self.violation.next = self.clearing.q.val() & self.host_wr_en.val();
        if self.reset.val() {
            self.clearing.d.next = true;
            self.clear_index.d.next = bits::<SEM_BITS>(0);
            self.pend_write.d.next = false;
            self.hit_read_cycle.d.next = false;
            self.hit_before.d.next = false;
            self.answer_from_t1.d.next = false;
            self.answer_from_t0.d.next = false;
            self.answer_from_tm1.d.next = false;
            self.violation.next = false;
        }
    }
}
