//! `HostInterface` — executes the work-queue entries of two channels (SPEC WQ-3, WQ-4, WQ-9,
//! WQ-10): channel 0 is the CPU's, channel 1 the GPU's.
//!
//! For the channel it serves, the host fetches the 8-byte entry at GP_GET (WQ-9 layout, see
//! [`super::gp_entry`]; `ring_base[c]` is the word address of entry 0, entry i at
//! `ring_base[c] + 2i`), then the entry's block two words per command ([`super::command`]),
//! executes each command, and when the last command has completed pulses `chan_advance[c]`
//! in the next cycle (registered; the [`super::gp_fifo::GpFifo`] moves GP_GET at the end of
//! it, and the host picks its next entry after that).
//!
//! | command | completes when |
//! | --- | --- |
//! | launch | `launch_valid`/`launch_ready` transfer (payload `launch_kernel`, `launch_channel`) |
//! | WFI | `chan_idle[c]`: every kernel launched from channel c has finished |
//! | release | the write (`sem_wr_*`); with release-after-WFI, once `chan_idle[c]` |
//! | acquire | the condition ([`super::acquire_check::AcquireCheck`]) holds on the semaphore |
//!
//! Channels (WQ-3): the host stays on a channel while it has entries and does not block; when
//! an acquire finds its condition false it emits `acquire_wait`, and moves to the other channel
//! if that one has work (unless the entry's NO_CONTEXT_SWITCH bit is set), else polls again.
//! Coming back, it resumes the pending acquire (polled again, no second `exec`). Reading: WFI
//! holds the host (only a blocked acquire yields, as WQ-3 says).
//!
//! Bad input (WQ-10): an entry whose length is 0 (a control entry), odd, or whose address lies
//! beyond 32-bit word addresses, or a command with an unknown opcode, an unknown condition or
//! an S[i] outside the ring stops the channel at that entry: `error` pulses, `stopped[c]` stays
//! high (until reset), GP_GET does not move, the other channel goes on. An acquire waiting
//! `watchdog_limit` cycles (0 = off), counted while it waits whichever channel the host serves,
//! pulses `watchdog` once (`watchdog_channel`) and keeps waiting.
//!
//! Semaphores are numbered as in [`super::semaphore_memory::SemaphoreMemory`]: S[i] at i, X at
//! n, Y at n+1, n the ring size `ring_entries` (both channels' rings have that size).
//!
//! Parameters: `IDX_BITS` (ring index width), `SEM_BITS` = `IDX_BITS` + 1.
//! Ports: `clock`, `reset`; configuration `ring_entries`, `cmd_cycles` (8 bits, >= 1: execution cycles of a
//! command), `watchdog_limit` (32), `ring_base[2]` (32); per channel `chan_empty_next`
//! (its ring's `empty` of the next cycle: the channel's "runnable" is a register),
//! `chan_gp_get`, `chan_idle` in and `chan_advance`, `stopped` out; memory read port
//! `mem_rd_en`/`mem_rd_addr` with `mem_rd_data` one cycle later; semaphores `sem_rd_sem` with
//! `sem_rd_value` two cycles later (the value after the writes of the cycle in between, as
//! [`super::semaphore_memory::SemaphoreMemory`] answers; `sem_rd_sem` shows the command's
//! semaphore from DECODE on, so the value arriving in ACQ_READ + 1 is the semaphore after
//! ACQ_READ's writes), `sem_wr_en`/`sem_wr_sem`/`sem_wr_value`; kernel launch
//! channel `launch_*`; events for the trace: `channel` (served now), `exec_valid` with
//! `exec_entry`/`exec_opcode` (a command starts), `acquire_wait`, `acquire_done` with
//! `acquire_sem`, `error`, `watchdog`; `violation` (internal: the acquire checker saw a
//! condition the decoder should have refused).
//!
//! Timing: an entry costs 3 cycles of fetch, a command 3 cycles of fetch and decode plus
//! `cmd_cycles` plus its completion (launch: the handshake; release: 1; acquire: 5 per poll: the
//! semaphore read, a register, the two stages of the check, the decision), and 1 to step to the
//! next command. A malformed entry is checked as its second word arrives and acted on (`error`,
//! stop) in the next cycle, HEADER_FETCH, which then fetches nothing; a command header is decoded
//! (and checked) as it arrives, so `exec_opcode`, `acquire_sem` and the semaphore read port show
//! the new command from DECODE on. `watchdog_limit` is configuration: the host compares the
//! waiting count with `watchdog_limit` - 1 through a register kept beside the count (the count's
//! next value compared with a registered `watchdog_limit` - 2, or a clear with `watchdog_limit`
//! == 1; `watchdog_limit` != 0 registered too), so a change of the limit reaches the watchdog
//! two cycles later. Outputs are decoded from registers.
//! For timing (iCE40 >= 100 MHz), every read address is a register or a register chosen by
//! the channel (the entry's address and the word after it are computed in the cycle before;
//! each channel keeps its block address and the word after it), the per-channel adders work
//! on that channel's registers, and the channel switch is decided apart from the state chain.
use super::acquire_check::AcquireCheck;
use super::command::{
    COND_LSB, NAMED_SEM_BIT, OPCODE_LSB, OP_ACQUIRE, OP_LAUNCH, OP_RELEASE, OP_WFI, RELEASE_WFI_BIT,
};
use super::gp_entry::{ENTRY0_NO_CONTEXT_SWITCH_BIT, ENTRY1_LENGTH_LSB};
use rust_hdl::prelude::*;

/// The host's steps (codes of `state`), named so they differ early in a waveform list.
pub const STATE_PICK: u64 = 0;
pub const STATE_ENTRY_ADDRESS: u64 = 1;
pub const STATE_ENTRY_WORD0: u64 = 2;
pub const STATE_ENTRY_WORD1: u64 = 3;
pub const STATE_HEADER_FETCH: u64 = 4;
pub const STATE_PAYLOAD_FETCH: u64 = 5;
pub const STATE_DECODE: u64 = 6;
pub const STATE_EXECUTING: u64 = 7;
pub const STATE_LAUNCH: u64 = 8;
pub const STATE_WFI: u64 = 9;
pub const STATE_RELEASE: u64 = 10;
pub const STATE_ACQ_READ: u64 = 11;
pub const STATE_ACQ_COMPARE: u64 = 12;
pub const STATE_ACQ_DECIDE: u64 = 13;
pub const STATE_NEXT: u64 = 14;
pub const STATE_ACQ_COMPARE2: u64 = 15;
pub const STATE_ACQ_COMPARE3: u64 = 16;

#[derive(LogicBlock)]
pub struct HostInterface<const IDX_BITS: usize, const SEM_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ring_entries: Signal<In, Bits<SEM_BITS>>,
    pub cmd_cycles: Signal<In, Bits<8>>,
    pub watchdog_limit: Signal<In, Bits<32>>,
    pub ring_base: [Signal<In, Bits<32>>; 2],
    /// Each ring's `empty` of the next cycle (its `GpFifo`'s `empty_next`).
    pub chan_empty_next: [Signal<In, Bit>; 2],
    pub chan_gp_get: [Signal<In, Bits<IDX_BITS>>; 2],
    pub chan_idle: [Signal<In, Bit>; 2],
    pub chan_advance: [Signal<Out, Bit>; 2],
    pub stopped: [Signal<Out, Bit>; 2],
    pub mem_rd_en: Signal<Out, Bit>,
    pub mem_rd_addr: Signal<Out, Bits<32>>,
    pub mem_rd_data: Signal<In, Bits<32>>,
    pub sem_rd_sem: Signal<Out, Bits<SEM_BITS>>,
    pub sem_rd_value: Signal<In, Bits<32>>,
    pub sem_wr_en: Signal<Out, Bit>,
    pub sem_wr_sem: Signal<Out, Bits<SEM_BITS>>,
    pub sem_wr_value: Signal<Out, Bits<32>>,
    pub launch_valid: Signal<Out, Bit>,
    pub launch_ready: Signal<In, Bit>,
    pub launch_kernel: Signal<Out, Bits<32>>,
    pub launch_channel: Signal<Out, Bit>,
    pub channel: Signal<Out, Bit>,
    pub exec_valid: Signal<Out, Bit>,
    pub exec_entry: Signal<Out, Bits<IDX_BITS>>,
    pub exec_opcode: Signal<Out, Bits<4>>,
    pub acquire_wait: Signal<Out, Bit>,
    pub acquire_done: Signal<Out, Bit>,
    pub acquire_sem: Signal<Out, Bits<SEM_BITS>>,
    pub error: Signal<Out, Bit>,
    pub watchdog: Signal<Out, Bit>,
    pub watchdog_channel: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    state: DFF<Bits<5>>,
    /// The state is ENTRY_ADDRESS, ENTRY_WORD0, HEADER_FETCH, PAYLOAD_FETCH (one-hot copies
    /// of `state` for the memory read port).
    read_entry: DFF<Bit>,
    read_entry_next: DFF<Bit>,
    read_header: DFF<Bit>,
    read_payload: DFF<Bit>,
    /// The state is RELEASE (a one-hot copy for the semaphore write port).
    in_release: DFF<Bit>,
    /// The state after this cycle.
    next_state: Signal<Local, Bits<5>>,
    /// PICK starts the served channel's next entry or command.
    pick_go: Signal<Local, Bit>,
    /// The channel being served.
    current_channel: DFF<Bit>,
    /// Per channel: where its block continues, and its acquire and error state.
    chan_cmd_addr: [DFF<Bits<32>>; 2],
    /// `chan_cmd_addr` + 1 (the command's payload word), kept beside it.
    chan_cmd_addr_next: [DFF<Bits<32>>; 2],
    chan_cmd_left: [DFF<Bits<32>>; 2],
    /// `chan_cmd_left` is 2 (the block's last command), kept beside it as a register.
    chan_last_cmd: [DFF<Bit>; 2],
    chan_in_block: [DFF<Bit>; 2],
    chan_acquire_pending: [DFF<Bit>; 2],
    chan_no_switch: [DFF<Bit>; 2],
    chan_stopped: [DFF<Bit>; 2],
    /// Per channel: not stopped and its ring not empty, registered from the next values of
    /// both (so the pick reads one register per channel, not the ring's `empty` across the
    /// cluster).
    chan_runnable: [DFF<Bit>; 2],
    /// Per channel: runnable and no `chan_advance` pulse now (GP_GET not moving), the PICK
    /// condition, registered from the next values like `chan_runnable`.
    chan_pick_ok: [DFF<Bit>; 2],
    cur_pick_ok: Signal<Local, Bit>,
    chan_wait_cycles: [DFF<Bits<32>>; 2],
    chan_watchdog_fired: [DFF<Bit>; 2],
    /// `chan_wait_cycles` == `watchdog_limit` - 1, kept as a register beside the count (from
    /// the count's next value: + 1 compares the count with `watchdog_limit` - 2, a clear
    /// tests `watchdog_limit` == 1), so the watchdog pulse is one LUT of registers.
    chan_wait_at_last: [DFF<Bit>; 2],
    /// The entry's first word, the command being executed, decoded.
    entry_word0: DFF<Bits<32>>,
    cmd_header: DFF<Bits<32>>,
    /// The header just fetched is malformed (decided as it arrived).
    cmd_malformed_reg: DFF<Bit>,
    /// The entry just fetched is malformed (checked in ENTRY_WORD1, high in the next cycle).
    entry_malformed_reg: DFF<Bit>,
    cmd_payload: DFF<Bits<32>>,
    cmd_opcode: DFF<Bits<4>>,
    cmd_cond: DFF<Bits<3>>,
    cmd_release_wfi: DFF<Bit>,
    cmd_sem: DFF<Bits<SEM_BITS>>,
    exec_cycles: DFF<Bits<8>>,
    /// The semaphore read, registered before the acquire check (block RAM out to a register).
    sem_value_reg: DFF<Bits<32>>,
    /// Read addresses computed a cycle before they are used, so that no adder lies between the
    /// channel selection and `mem_rd_addr`: the entry's address and the word after it.
    entry_addr_reg: DFF<Bits<32>>,
    entry_addr_next: DFF<Bits<32>>,
    /// `watchdog_limit` - 2, registered (the limit is configuration).
    watchdog_before_last: DFF<Bits<32>>,
    /// `watchdog_limit` != 0, registered like `watchdog_before_last`.
    watchdog_on: DFF<Bit>,
    exec_pulse: DFF<Bit>,
    /// The served channel's entry is complete: `chan_advance` of that channel, one cycle after
    /// the last command (registered, so no combinational path leaves towards the rings).
    advance_pulse: [DFF<Bit>; 2],
    error_pulse: DFF<Bit>,
    check: AcquireCheck,
    // The served channel's view, selected this cycle.
    cur_cmd_addr: Signal<Local, Bits<32>>,
    cur_cmd_addr_next: Signal<Local, Bits<32>>,
    /// The block's word address, from the entry's two words (ENTRY_WORD1).
    block_addr: Signal<Local, Bits<32>>,
    /// The served channel's block has one command left (its `chan_cmd_left` is 2).
    cur_last_cmd: Signal<Local, Bit>,
    cur_in_block: Signal<Local, Bit>,
    cur_pending: Signal<Local, Bit>,
    cur_no_switch: Signal<Local, Bit>,
    cur_idle: Signal<Local, Bit>,
    cur_gp_get: Signal<Local, Bits<IDX_BITS>>,
    cur_ring_base: Signal<Local, Bits<32>>,
    cur_runnable: Signal<Local, Bit>,
    switch_channel: Signal<Local, Bit>,
    other_runnable: Signal<Local, Bit>,
    entry_addr: Signal<Local, Bits<32>>,
    block_length: Signal<Local, Bits<32>>,
    entry_malformed: Signal<Local, Bit>,
    header_opcode: Signal<Local, Bits<32>>,
    header_cond: Signal<Local, Bits<32>>,
    header_index: Signal<Local, Bits<32>>,
    header_named: Signal<Local, Bit>,
    cmd_malformed: Signal<Local, Bit>,
    // Codes, named in the Verilog too.
    chan_id: [Constant<Bit>; 2],
    op_launch: Constant<Bits<32>>,
    op_wfi: Constant<Bits<32>>,
    op_release: Constant<Bits<32>>,
    op_acquire: Constant<Bits<32>>,
    opcode_shift: Constant<Bits<32>>,
    cond_shift: Constant<Bits<32>>,
    length_shift: Constant<Bits<32>>,
    release_wfi_bit: Constant<Bits<32>>,
    named_sem_bit: Constant<Bits<32>>,
    no_switch_bit: Constant<Bits<32>>,
    last_cond: Constant<Bits<32>>,
    state_pick: Constant<Bits<5>>,
    state_entry_address: Constant<Bits<5>>,
    state_entry_word0: Constant<Bits<5>>,
    state_entry_word1: Constant<Bits<5>>,
    state_header_fetch: Constant<Bits<5>>,
    state_payload_fetch: Constant<Bits<5>>,
    state_decode: Constant<Bits<5>>,
    state_executing: Constant<Bits<5>>,
    state_launch: Constant<Bits<5>>,
    state_wfi: Constant<Bits<5>>,
    state_release: Constant<Bits<5>>,
    state_acq_read: Constant<Bits<5>>,
    state_acq_compare: Constant<Bits<5>>,
    state_acq_decide: Constant<Bits<5>>,
    state_acq_compare2: Constant<Bits<5>>,
    state_acq_compare3: Constant<Bits<5>>,
    state_next: Constant<Bits<5>>,
}

impl<const IDX_BITS: usize, const SEM_BITS: usize> Default for HostInterface<IDX_BITS, SEM_BITS> {
    fn default() -> Self {
        assert!(
            SEM_BITS == IDX_BITS + 1,
            "HostInterface: SEM_BITS = IDX_BITS + 1"
        );
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ring_entries: Default::default(),
            cmd_cycles: Default::default(),
            watchdog_limit: Default::default(),
            ring_base: Default::default(),
            chan_empty_next: Default::default(),
            chan_gp_get: Default::default(),
            chan_idle: Default::default(),
            chan_advance: Default::default(),
            stopped: Default::default(),
            mem_rd_en: Default::default(),
            mem_rd_addr: Default::default(),
            mem_rd_data: Default::default(),
            sem_rd_sem: Default::default(),
            sem_rd_value: Default::default(),
            sem_wr_en: Default::default(),
            sem_wr_sem: Default::default(),
            sem_wr_value: Default::default(),
            launch_valid: Default::default(),
            launch_ready: Default::default(),
            launch_kernel: Default::default(),
            launch_channel: Default::default(),
            channel: Default::default(),
            exec_valid: Default::default(),
            exec_entry: Default::default(),
            exec_opcode: Default::default(),
            acquire_wait: Default::default(),
            acquire_done: Default::default(),
            acquire_sem: Default::default(),
            error: Default::default(),
            watchdog: Default::default(),
            watchdog_channel: Default::default(),
            violation: Default::default(),
            state: Default::default(),
            read_entry: Default::default(),
            read_entry_next: Default::default(),
            read_header: Default::default(),
            read_payload: Default::default(),
            in_release: Default::default(),
            next_state: Default::default(),
            pick_go: Default::default(),
            current_channel: Default::default(),
            chan_cmd_addr: Default::default(),
            chan_cmd_addr_next: Default::default(),
            chan_cmd_left: Default::default(),
            chan_last_cmd: Default::default(),
            chan_in_block: Default::default(),
            chan_acquire_pending: Default::default(),
            chan_no_switch: Default::default(),
            chan_stopped: Default::default(),
            chan_runnable: Default::default(),
            chan_pick_ok: Default::default(),
            cur_pick_ok: Default::default(),
            chan_wait_cycles: Default::default(),
            chan_watchdog_fired: Default::default(),
            chan_wait_at_last: Default::default(),
            entry_word0: Default::default(),
            cmd_header: Default::default(),
            cmd_malformed_reg: Default::default(),
            entry_malformed_reg: Default::default(),
            cmd_payload: Default::default(),
            cmd_opcode: Default::default(),
            cmd_cond: Default::default(),
            cmd_release_wfi: Default::default(),
            cmd_sem: Default::default(),
            exec_cycles: Default::default(),
            sem_value_reg: Default::default(),
            entry_addr_reg: Default::default(),
            entry_addr_next: Default::default(),
            watchdog_before_last: Default::default(),
            watchdog_on: Default::default(),
            exec_pulse: Default::default(),
            advance_pulse: Default::default(),
            error_pulse: Default::default(),
            check: Default::default(),
            cur_cmd_addr: Default::default(),
            cur_cmd_addr_next: Default::default(),
            block_addr: Default::default(),
            cur_last_cmd: Default::default(),
            cur_in_block: Default::default(),
            cur_pending: Default::default(),
            cur_no_switch: Default::default(),
            cur_idle: Default::default(),
            cur_gp_get: Default::default(),
            cur_ring_base: Default::default(),
            cur_runnable: Default::default(),
            switch_channel: Default::default(),
            other_runnable: Default::default(),
            entry_addr: Default::default(),
            block_length: Default::default(),
            entry_malformed: Default::default(),
            header_opcode: Default::default(),
            header_cond: Default::default(),
            header_index: Default::default(),
            header_named: Default::default(),
            cmd_malformed: Default::default(),
            chan_id: [Constant::new(false), Constant::new(true)],
            op_launch: c32(OP_LAUNCH),
            op_wfi: c32(OP_WFI),
            op_release: c32(OP_RELEASE),
            op_acquire: c32(OP_ACQUIRE),
            opcode_shift: c32(OPCODE_LSB as u64),
            cond_shift: c32(COND_LSB as u64),
            length_shift: c32(ENTRY1_LENGTH_LSB as u64),
            release_wfi_bit: c32(1 << RELEASE_WFI_BIT),
            named_sem_bit: c32(1 << NAMED_SEM_BIT),
            no_switch_bit: c32(1 << ENTRY0_NO_CONTEXT_SWITCH_BIT),
            last_cond: c32(4),
            state_pick: Constant::new(bits::<5>(STATE_PICK)),
            state_entry_address: Constant::new(bits::<5>(STATE_ENTRY_ADDRESS)),
            state_entry_word0: Constant::new(bits::<5>(STATE_ENTRY_WORD0)),
            state_entry_word1: Constant::new(bits::<5>(STATE_ENTRY_WORD1)),
            state_header_fetch: Constant::new(bits::<5>(STATE_HEADER_FETCH)),
            state_payload_fetch: Constant::new(bits::<5>(STATE_PAYLOAD_FETCH)),
            state_decode: Constant::new(bits::<5>(STATE_DECODE)),
            state_executing: Constant::new(bits::<5>(STATE_EXECUTING)),
            state_launch: Constant::new(bits::<5>(STATE_LAUNCH)),
            state_wfi: Constant::new(bits::<5>(STATE_WFI)),
            state_release: Constant::new(bits::<5>(STATE_RELEASE)),
            state_acq_read: Constant::new(bits::<5>(STATE_ACQ_READ)),
            state_acq_compare: Constant::new(bits::<5>(STATE_ACQ_COMPARE)),
            state_acq_decide: Constant::new(bits::<5>(STATE_ACQ_DECIDE)),
            state_acq_compare2: Constant::new(bits::<5>(STATE_ACQ_COMPARE2)),
            state_acq_compare3: Constant::new(bits::<5>(STATE_ACQ_COMPARE3)),
            state_next: Constant::new(bits::<5>(STATE_NEXT)),
        }
    }
}

impl<const IDX_BITS: usize, const SEM_BITS: usize> Logic for HostInterface<IDX_BITS, SEM_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            read_entry,
            read_entry_next,
            read_header,
            read_payload,
            in_release,
            current_channel,
            entry_word0,
            cmd_header,
            cmd_malformed_reg,
            entry_malformed_reg,
            cmd_payload,
            cmd_opcode,
            cmd_cond,
            cmd_release_wfi,
            cmd_sem,
            exec_cycles,
            sem_value_reg,
            entry_addr_reg,
            entry_addr_next,
            watchdog_before_last,
            watchdog_on,
            exec_pulse,
            error_pulse
        );
        clock!(self, clock, check);
        // Defaults: every per-channel register holds, every pulse is low.
        self.exec_pulse.d.next = false;
        self.error_pulse.d.next = false;
        self.entry_malformed_reg.d.next = false;
        self.sem_wr_en.next = false;
        self.next_state.next = self.state.q.val();
        self.launch_valid.next = false;
        self.acquire_wait.next = false;
        self.acquire_done.next = false;
        self.watchdog.next = false;
        self.watchdog_channel.next = false;
        self.cur_cmd_addr.next = self.chan_cmd_addr[0].q.val();
        self.cur_cmd_addr_next.next = self.chan_cmd_addr_next[0].q.val();
        self.cur_last_cmd.next = self.chan_last_cmd[0].q.val();
        self.cur_in_block.next = self.chan_in_block[0].q.val();
        self.cur_pending.next = self.chan_acquire_pending[0].q.val();
        self.cur_no_switch.next = self.chan_no_switch[0].q.val();
        self.cur_idle.next = self.chan_idle[0].val();
        self.cur_gp_get.next = self.chan_gp_get[0].val();
        self.cur_ring_base.next = self.ring_base[0].val();
        self.cur_runnable.next = false;
        self.cur_pick_ok.next = false;
        self.other_runnable.next = false;
        for i in 0..2 {
            self.chan_cmd_addr[i].clock.next = self.clock.val();
            self.chan_cmd_addr_next[i].clock.next = self.clock.val();
            self.chan_cmd_left[i].clock.next = self.clock.val();
            self.chan_last_cmd[i].clock.next = self.clock.val();
            self.chan_in_block[i].clock.next = self.clock.val();
            self.chan_acquire_pending[i].clock.next = self.clock.val();
            self.chan_no_switch[i].clock.next = self.clock.val();
            self.chan_stopped[i].clock.next = self.clock.val();
            self.chan_runnable[i].clock.next = self.clock.val();
            self.chan_pick_ok[i].clock.next = self.clock.val();
            self.chan_wait_cycles[i].clock.next = self.clock.val();
            self.chan_watchdog_fired[i].clock.next = self.clock.val();
            self.chan_wait_at_last[i].clock.next = self.clock.val();
            self.chan_cmd_addr[i].d.next = self.chan_cmd_addr[i].q.val();
            self.chan_cmd_addr_next[i].d.next = self.chan_cmd_addr_next[i].q.val();
            self.chan_cmd_left[i].d.next = self.chan_cmd_left[i].q.val();
            self.chan_last_cmd[i].d.next = self.chan_last_cmd[i].q.val();
            self.chan_in_block[i].d.next = self.chan_in_block[i].q.val();
            self.chan_acquire_pending[i].d.next = self.chan_acquire_pending[i].q.val();
            self.chan_no_switch[i].d.next = self.chan_no_switch[i].q.val();
            self.chan_stopped[i].d.next = self.chan_stopped[i].q.val();
            self.chan_wait_cycles[i].d.next = self.chan_wait_cycles[i].q.val();
            self.chan_watchdog_fired[i].d.next = self.chan_watchdog_fired[i].q.val();
            self.chan_wait_at_last[i].d.next = self.chan_wait_at_last[i].q.val();
            self.advance_pulse[i].clock.next = self.clock.val();
            self.advance_pulse[i].d.next = false;
            self.chan_advance[i].next = self.advance_pulse[i].q.val();
            self.stopped[i].next = self.chan_stopped[i].q.val();
            if self.current_channel.q.val() == self.chan_id[i].val() {
                self.cur_cmd_addr.next = self.chan_cmd_addr[i].q.val();
                self.cur_cmd_addr_next.next = self.chan_cmd_addr_next[i].q.val();
                self.cur_last_cmd.next = self.chan_last_cmd[i].q.val();
                self.cur_in_block.next = self.chan_in_block[i].q.val();
                self.cur_pending.next = self.chan_acquire_pending[i].q.val();
                self.cur_no_switch.next = self.chan_no_switch[i].q.val();
                self.cur_idle.next = self.chan_idle[i].val();
                self.cur_gp_get.next = self.chan_gp_get[i].val();
                self.cur_ring_base.next = self.ring_base[i].val();
                self.cur_runnable.next = self.chan_runnable[i].q.val();
                self.cur_pick_ok.next = self.chan_pick_ok[i].q.val();
            } else {
                self.other_runnable.next = self.chan_runnable[i].q.val();
            }
            // WQ-10 watchdog: counts while the channel's acquire waits, reports once.
            if self.chan_acquire_pending[i].q.val() & !self.chan_watchdog_fired[i].q.val() {
                self.chan_wait_cycles[i].d.next = self.chan_wait_cycles[i].q.val() + bits::<32>(1);
                self.chan_wait_at_last[i].d.next =
                    self.chan_wait_cycles[i].q.val() == self.watchdog_before_last.q.val();
                if self.watchdog_on.q.val() & self.chan_wait_at_last[i].q.val() {
                    self.chan_watchdog_fired[i].d.next = true;
                    self.watchdog.next = true;
                    self.watchdog_channel.next = self.chan_id[i].val();
                }
            }
        }
        self.watchdog_before_last.d.next = self.watchdog_limit.val() - bits::<32>(2);
        self.watchdog_on.d.next = self.watchdog_limit.val() != bits::<32>(0);
        // The entry (WQ-9): word address from GET / GET_HI, length in words.
        self.entry_addr.next = self.cur_ring_base.val()
            + (bit_cast::<32, IDX_BITS>(self.cur_gp_get.val()) << bits::<32>(1));
        // Used in the next cycle: PICK precedes ENTRY_ADDRESS (same channel, GP_GET still),
        // ENTRY_ADDRESS precedes ENTRY_WORD0.
        self.entry_addr_reg.d.next = self.entry_addr.val();
        self.entry_addr_next.d.next = self.entry_addr_reg.q.val() + bits::<32>(1);

        self.block_length.next =
            (self.mem_rd_data.val() >> self.length_shift.val()) & bits::<32>(0x1F_FFFF);
        self.block_addr.next = (self.entry_word0.q.val() >> bits::<32>(2))
            | ((self.mem_rd_data.val() & bits::<32>(3)) << bits::<32>(30));
        self.entry_malformed.next = (self.block_length.val() == bits::<32>(0))
            | self.block_length.val().get_bit(0)
            | ((self.mem_rd_data.val() & bits::<32>(0xFC)) != bits::<32>(0));
        // The command header (see `command`).
        // Decoded as the header word arrives (PAYLOAD_FETCH) and registered: DECODE acts on
        // registers only.
        self.header_opcode.next = self.mem_rd_data.val() >> self.opcode_shift.val();
        self.header_cond.next = (self.mem_rd_data.val() >> self.cond_shift.val()) & bits::<32>(7);
        self.header_index.next = self.mem_rd_data.val() & bits::<32>(0x7FFF);
        self.header_named.next =
            (self.mem_rd_data.val() & self.named_sem_bit.val()) != bits::<32>(0);
        self.cmd_malformed.next = true;
        if (self.header_opcode.val() == self.op_launch.val())
            | (self.header_opcode.val() == self.op_wfi.val())
        {
            self.cmd_malformed.next = false;
        }
        if (self.header_opcode.val() == self.op_release.val())
            | (self.header_opcode.val() == self.op_acquire.val())
        {
            self.cmd_malformed.next = !self.header_named.val()
                & (self.header_index.val() >= bit_cast::<32, SEM_BITS>(self.ring_entries.val()));
        }
        if (self.header_opcode.val() == self.op_acquire.val())
            & (self.header_cond.val() > self.last_cond.val())
        {
            self.cmd_malformed.next = true;
        }
        // The acquire check reads the semaphore after ACQ_READ's writes: the read issued in the
        // cycle before ACQ_READ (the address is the command's from DECODE on), answered in
        // ACQ_READ + 1 and registered here.
        self.check.cond.next = self.cmd_cond.q.val();
        self.sem_value_reg.d.next = self.sem_rd_value.val();
        self.check.sem_value.next = self.sem_value_reg.q.val();
        self.check.value.next = self.cmd_payload.q.val();
        self.check.reset.next = self.reset.val();
        if self.state.q.val() == self.state_pick.val() {
            // Not while an advance pulse shows (GP_GET moves at the end of this cycle:
            // decide once it has): `cur_pick_ok`.
            if self.cur_pick_ok.val() {
                if self.cur_in_block.val() {
                    self.next_state.next = self.state_header_fetch.val();
                } else {
                    self.next_state.next = self.state_entry_address.val();
                }
            }
        } else if self.state.q.val() == self.state_entry_address.val() {
            self.next_state.next = self.state_entry_word0.val();
        } else if self.state.q.val() == self.state_entry_word0.val() {
            self.entry_word0.d.next = self.mem_rd_data.val();
            self.next_state.next = self.state_entry_word1.val();
        } else if self.state.q.val() == self.state_entry_word1.val() {
            // Checked as the word arrives, acted on in HEADER_FETCH (from a register).
            self.entry_malformed_reg.d.next = self.entry_malformed.val();
            self.next_state.next = self.state_header_fetch.val();
        } else if self.state.q.val() == self.state_header_fetch.val() {
            if self.entry_malformed_reg.q.val() {
                self.error_pulse.d.next = true;
                self.next_state.next = self.state_pick.val();
            } else {
                self.next_state.next = self.state_payload_fetch.val();
            }
        } else if self.state.q.val() == self.state_payload_fetch.val() {
            self.cmd_header.d.next = self.mem_rd_data.val();
            self.cmd_opcode.d.next = self.header_opcode.val().get_bits::<4>(0);
            self.cmd_cond.d.next = self.header_cond.val().get_bits::<3>(0);
            self.cmd_release_wfi.d.next =
                (self.mem_rd_data.val() & self.release_wfi_bit.val()) != bits::<32>(0);
            if self.header_named.val() {
                self.cmd_sem.d.next = self.ring_entries.val()
                    + bit_cast::<SEM_BITS, 1>(self.mem_rd_data.val().get_bits::<1>(0));
            } else {
                self.cmd_sem.d.next = self.header_index.val().get_bits::<SEM_BITS>(0);
            }
            self.cmd_malformed_reg.d.next = self.cmd_malformed.val();
            self.next_state.next = self.state_decode.val();
        } else if self.state.q.val() == self.state_decode.val() {
            self.cmd_payload.d.next = self.mem_rd_data.val();
            self.exec_cycles.d.next = bits::<8>(1);
            if self.cmd_malformed_reg.q.val() {
                self.error_pulse.d.next = true;
                self.next_state.next = self.state_pick.val();
            } else if self.cur_pending.val() {
                self.next_state.next = self.state_acq_read.val();
            } else {
                self.exec_pulse.d.next = true;
                self.next_state.next = self.state_executing.val();
            }
        } else if self.state.q.val() == self.state_executing.val() {
            self.exec_cycles.d.next = self.exec_cycles.q.val() + bits::<8>(1);
            if self.exec_cycles.q.val() >= self.cmd_cycles.val() {
                if self.cmd_opcode.q.val() == self.op_launch.val().get_bits::<4>(0) {
                    self.next_state.next = self.state_launch.val();
                } else if self.cmd_opcode.q.val() == self.op_wfi.val().get_bits::<4>(0) {
                    self.next_state.next = self.state_wfi.val();
                } else if self.cmd_opcode.q.val() == self.op_release.val().get_bits::<4>(0) {
                    self.next_state.next = self.state_release.val();
                } else {
                    self.next_state.next = self.state_acq_read.val();
                }
            }
        } else if self.state.q.val() == self.state_launch.val() {
            self.launch_valid.next = true;
            if self.launch_ready.val() {
                self.next_state.next = self.state_next.val();
            }
        } else if self.state.q.val() == self.state_wfi.val() {
            if self.cur_idle.val() {
                self.next_state.next = self.state_next.val();
            }
        } else if self.state.q.val() == self.state_release.val() {
            // (the write itself, `sem_wr_en`, comes from the one-hot `in_release` below)
            if !self.cmd_release_wfi.q.val() | self.cur_idle.val() {
                self.next_state.next = self.state_next.val();
            }
        } else if self.state.q.val() == self.state_acq_read.val() {
            self.next_state.next = self.state_acq_compare.val();
        } else if self.state.q.val() == self.state_acq_compare.val() {
            self.next_state.next = self.state_acq_compare2.val();
        } else if self.state.q.val() == self.state_acq_compare2.val() {
            self.next_state.next = self.state_acq_compare3.val();
        } else if self.state.q.val() == self.state_acq_compare3.val() {
            self.next_state.next = self.state_acq_decide.val();
        } else if self.state.q.val() == self.state_acq_decide.val() {
            if self.check.satisfied.val() {
                self.acquire_done.next = true;
                self.next_state.next = self.state_next.val();
            } else {
                self.acquire_wait.next = !self.cur_pending.val();
                if self.other_runnable.val() & !self.cur_no_switch.val() {
                    self.next_state.next = self.state_pick.val();
                } else {
                    self.next_state.next = self.state_acq_read.val();
                }
            }
        } else if self.state.q.val() == self.state_next.val() {
            if self.cur_last_cmd.val() {
                self.next_state.next = self.state_pick.val();
            } else {
                self.next_state.next = self.state_header_fetch.val();
            }
        } else {
            self.next_state.next = self.state_pick.val();
        }
        // The channel switch (PICK with nothing to do here, or a blocked acquire in
        // ACQ_DECIDE), decided apart from the state chain so its enable stays shallow.
        self.switch_channel.next = ((self.state.q.val() == self.state_pick.val())
            & !self.advance_pulse[0].q.val()
            & !self.advance_pulse[1].q.val()
            & !self.cur_runnable.val()
            & self.other_runnable.val())
            | ((self.state.q.val() == self.state_acq_decide.val())
                & !self.check.satisfied.val()
                & self.other_runnable.val()
                & !self.cur_no_switch.val());
        if self.switch_channel.val() {
            self.current_channel.d.next = !self.current_channel.q.val();
        }
        // Per-channel register updates of the served channel.
        for i in 0..2 {
            if self.current_channel.q.val() == self.chan_id[i].val() {
                // Written whatever the entry (a malformed one stops the channel below, and
                // a stopped channel reads its block no more), so the check stays off the
                // enables of these registers.
                if self.state.q.val() == self.state_entry_word1.val() {
                    self.chan_cmd_addr[i].d.next = self.block_addr.val();
                    self.chan_cmd_addr_next[i].d.next = self.block_addr.val() + bits::<32>(1);
                    self.chan_cmd_left[i].d.next = self.block_length.val();
                    self.chan_last_cmd[i].d.next = self.block_length.val() == bits::<32>(2);
                    self.chan_in_block[i].d.next = true;
                    self.chan_no_switch[i].d.next =
                        (self.entry_word0.q.val() & self.no_switch_bit.val()) != bits::<32>(0);
                }
                if ((self.state.q.val() == self.state_header_fetch.val())
                    & self.entry_malformed_reg.q.val())
                    | ((self.state.q.val() == self.state_decode.val())
                        & self.cmd_malformed_reg.q.val())
                {
                    self.chan_stopped[i].d.next = true;
                    self.chan_in_block[i].d.next = false;
                    self.chan_acquire_pending[i].d.next = false;
                }
                if (self.state.q.val() == self.state_acq_decide.val()) & !self.check.satisfied.val()
                {
                    self.chan_acquire_pending[i].d.next = true;
                }
                if (self.state.q.val() == self.state_acq_decide.val()) & self.check.satisfied.val()
                {
                    self.chan_acquire_pending[i].d.next = false;
                    self.chan_wait_cycles[i].d.next = bits::<32>(0);
                    self.chan_wait_at_last[i].d.next = self.watchdog_limit.val() == bits::<32>(1);
                    self.chan_watchdog_fired[i].d.next = false;
                }
                if self.state.q.val() == self.state_next.val() {
                    // The served channel's own registers (no channel mux before the adders).
                    self.chan_cmd_addr[i].d.next = self.chan_cmd_addr[i].q.val() + bits::<32>(2);
                    self.chan_cmd_addr_next[i].d.next =
                        self.chan_cmd_addr_next[i].q.val() + bits::<32>(2);
                    self.chan_cmd_left[i].d.next = self.chan_cmd_left[i].q.val() - bits::<32>(2);
                    self.chan_last_cmd[i].d.next = self.chan_cmd_left[i].q.val() == bits::<32>(4);
                    if self.chan_last_cmd[i].q.val() {
                        self.chan_in_block[i].d.next = false;
                        self.advance_pulse[i].d.next = true;
                    }
                }
            }
            if self.reset.val() {
                self.chan_cmd_addr[i].d.next = bits::<32>(0);
                self.chan_cmd_addr_next[i].d.next = bits::<32>(1);
                self.chan_cmd_left[i].d.next = bits::<32>(0);
                self.chan_last_cmd[i].d.next = false;
                self.chan_in_block[i].d.next = false;
                self.chan_acquire_pending[i].d.next = false;
                self.chan_no_switch[i].d.next = false;
                self.chan_stopped[i].d.next = false;
                self.chan_wait_cycles[i].d.next = bits::<32>(0);
                self.chan_wait_at_last[i].d.next = self.watchdog_limit.val() == bits::<32>(1);
                self.chan_watchdog_fired[i].d.next = false;
                self.advance_pulse[i].d.next = false;
            }
            self.chan_runnable[i].d.next =
                !self.chan_stopped[i].d.val() & !self.chan_empty_next[i].val();
        }
        for i in 0..2 {
            self.chan_pick_ok[i].d.next = self.chan_runnable[i].d.val()
                & !self.advance_pulse[0].d.val()
                & !self.advance_pulse[1].d.val();
        }
        // Outputs decoded from registers.
        self.channel.next = self.current_channel.q.val();
        self.sem_rd_sem.next = self.cmd_sem.q.val();
        self.sem_wr_sem.next = self.cmd_sem.q.val();
        self.sem_wr_value.next = self.cmd_payload.q.val();
        self.launch_kernel.next = self.cmd_payload.q.val();
        self.launch_channel.next = self.current_channel.q.val();
        self.exec_valid.next = self.exec_pulse.q.val();
        self.exec_entry.next = self.cur_gp_get.val();
        self.exec_opcode.next = self.cmd_opcode.q.val();
        self.acquire_sem.next = self.cmd_sem.q.val();
        self.error.next = self.error_pulse.q.val();
        // The decoder admits only conditions 0..4: the checker must agree.
        self.violation.next =
            (self.state.q.val() == self.state_acq_decide.val()) & !self.check.cond_legal.val();
        // The memory read port from registers: which of the four fetch steps comes next is
        // registered beside the state (one-hot), so the address is an AND-OR of registers
        // and `mem_rd_en` an OR, with no state decode in front of them.
        self.mem_rd_en.next = self.read_entry.q.val()
            | self.read_entry_next.q.val()
            | (self.read_header.q.val() & !self.entry_malformed_reg.q.val())
            | self.read_payload.q.val();
        self.mem_rd_addr.next = bits::<32>(0);
        if self.read_entry.q.val() {
            self.mem_rd_addr.next = self.mem_rd_addr.val() | self.entry_addr_reg.q.val();
        }
        if self.read_entry_next.q.val() {
            self.mem_rd_addr.next = self.mem_rd_addr.val() | self.entry_addr_next.q.val();
        }
        if self.read_header.q.val() {
            self.mem_rd_addr.next = self.mem_rd_addr.val() | self.cur_cmd_addr.val();
        }
        if self.read_payload.q.val() {
            self.mem_rd_addr.next = self.mem_rd_addr.val() | self.cur_cmd_addr_next.val();
        }
        // The release's write from a one-hot copy of RELEASE: no state decode (and no reset)
        // in front of the semaphore memory's write port. Reset clears `in_release` at its
        // edge, so a release due in reset's first cycle is still written then (the cluster's
        // semaphores clear themselves after reset anyway).
        self.sem_wr_en.next =
            self.in_release.q.val() & (!self.cmd_release_wfi.q.val() | self.cur_idle.val());
        if self.reset.val() {
            self.mem_rd_en.next = false;
            self.next_state.next = self.state_pick.val();
            self.current_channel.d.next = false;
            self.exec_pulse.d.next = false;
            self.error_pulse.d.next = false;
            self.launch_valid.next = false;
            self.acquire_wait.next = false;
            self.acquire_done.next = false;
            self.watchdog.next = false;
        }
        self.state.d.next = self.next_state.val();
        // The one-hot copies, from the transitions into the four states (the same conditions
        // as the state chain above, without its priority): ENTRY_ADDRESS and HEADER_FETCH
        // from PICK, ENTRY_WORD0 after ENTRY_ADDRESS, HEADER_FETCH after ENTRY_WORD1 and after
        // NEXT of a command that was not the block's last, PAYLOAD_FETCH after a HEADER_FETCH
        // whose entry was well formed.
        self.pick_go.next = (self.state.q.val() == self.state_pick.val())
            & self.cur_pick_ok.val()
            & !self.reset.val();
        self.read_entry.d.next = self.pick_go.val() & !self.cur_in_block.val();
        self.read_entry_next.d.next = self.read_entry.q.val() & !self.reset.val();
        self.read_header.d.next = (self.pick_go.val() & self.cur_in_block.val())
            | (((self.state.q.val() == self.state_entry_word1.val())
                | ((self.state.q.val() == self.state_next.val()) & !self.cur_last_cmd.val()))
                & !self.reset.val());
        // RELEASE: entered from EXECUTING when a release's cycles are done, left once the write
        // happens (at once, or after WFI when the channel is idle).
        self.in_release.d.next = (((self.state.q.val() == self.state_executing.val())
            & (self.exec_cycles.q.val() >= self.cmd_cycles.val())
            & (self.cmd_opcode.q.val() == self.op_release.val().get_bits::<4>(0)))
            | (self.in_release.q.val() & self.cmd_release_wfi.q.val() & !self.cur_idle.val()))
            & !self.reset.val();
        self.read_payload.d.next =
            self.read_header.q.val() & !self.entry_malformed_reg.q.val() & !self.reset.val();
    }
}
