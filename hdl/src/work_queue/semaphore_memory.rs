//! `SemaphoreMemory` — the work queue's semaphores (SPEC WQ-5, WQ-6): one per ring entry
//! (S[0..n-1]) plus X and Y, 32 bits each, in block RAM.
//!
//! Index: S[i] at i, X at n, Y at n+1 (n = the ring size; the host computes the index). The
//! RAM holds 2^`SEM_BITS` words. After reset a clear sweep writes 0 to every word (the driver's
//! set-up zeroes X and Y; the entry semaphores start at 0 too): `ready` is low for
//! 2^`SEM_BITS` cycles, and no write or read is served meanwhile (`rd_value` shows 0).
//!
//! Writes: `host_wr_*` (the host interface executing a release) always wins;
//! `thread_wr_valid`/`thread_wr_ready` (GPU threads releasing their guard, or the CPU) is a
//! valid/ready channel whose `thread_wr_ready` is low in a cycle the host writes.
//! Read: `rd_sem` in cycle t, `rd_value` in cycle t+1, the value after the write of cycle t
//! when it was to the same semaphore (write-first bypass, so a block RAM's undefined
//! read-during-write never reaches an acquire).
//!
//! Parameters: `SEM_BITS` (index width; n + 2 <= 2^`SEM_BITS`).
//! Ports: `clock`, `reset`, `host_wr_en`/`host_wr_sem`/`host_wr_value`, `thread_wr_valid`/
//! `thread_wr_ready`/`thread_wr_sem`/`thread_wr_value`, `rd_sem`, `rd_value`, `ready`,
//! `violation` (a host write during the clear sweep: it is lost).
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
    /// Last cycle's read hit last cycle's write: serve the written value.
    bypass: DFF<Bit>,
    bypass_value: DFF<Bits<32>>,
    write_now: Signal<Local, Bit>,
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
            bypass: Default::default(),
            bypass_value: Default::default(),
            write_now: Default::default(),
            write_sem: Default::default(),
            write_value: Default::default(),
            last_index: Constant::new(bits::<SEM_BITS>((1u64 << SEM_BITS) - 1)),
        }
    }
}

impl<const SEM_BITS: usize> Logic for SemaphoreMemory<SEM_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, clearing, clear_index, bypass, bypass_value);
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
        self.ram.write_enable.next = self.write_now.val();
        self.ram.write_address.next = self.write_sem.val();
        self.ram.write_data.next = self.write_value.val();
        self.ram.read_address.next = self.rd_sem.val();
        self.bypass.d.next = self.write_now.val() & (self.write_sem.val() == self.rd_sem.val());
        self.bypass_value.d.next = self.write_value.val();
        if self.bypass.q.val() {
            self.rd_value.next = self.bypass_value.q.val();
        } else {
            self.rd_value.next = self.ram.read_data.val();
        }
        // Nothing is served during reset and the clear sweep: the block RAM's words are not
        // defined yet (X in Verilog), so the read port shows 0.
        if self.clearing.q.val() | self.reset.val() {
            self.rd_value.next = bits::<32>(0);
        }
        self.ready.next = !self.clearing.q.val();
        self.violation.next = self.clearing.q.val() & self.host_wr_en.val();
        if self.reset.val() {
            self.clearing.d.next = true;
            self.clear_index.d.next = bits::<SEM_BITS>(0);
            self.bypass.d.next = false;
            self.violation.next = false;
        }
    }
}
