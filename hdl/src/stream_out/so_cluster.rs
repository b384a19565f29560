//! `SoCluster` — the stream-output subsystem composed (SPEC SO-1..SO-13): the WDU's batch-ID
//! generator, SSYNC, the crossbar and `SO_UNITS` SO units, wired as in the seed's figure.
//!
//! Outside it (behavioural in the system simulation): the driver / WDU packet stream, the GPCs'
//! MPC and shaders (batch-ID packets, attribute bytes, batch-end packets per SO unit) and the
//! memory holding the four stream output buffers.
//!
//! Parameters: `SO_UNITS`, `SRC_BITS` (SSYNC and crossbar), `OPS`, `OP_BITS`, `FILL_BITS`
//! (operation FIFO), `WINDOW`, `WBITS` (batch IDs in flight).
//! Ports: `clock`, `reset`, `bytes_per_cycle` and `buffer_size` (to every SO unit and SSYNC);
//! the WDU side: `id_*` (next batch ID), `cmd_*` (work tokens and state bundles to SSYNC),
//! `done_*` (batches outside stream output finished by the pipeline); per SO unit the MPC side
//! (`batch_*`, `attr_*`, `end_*`) and the memory side (`wr_*`). SSYNC's retire messages go to
//! the batch-ID generator inside. Sub-blocks are public so simulations can watch them.
//! Timing: that of the parts; the crossbar's arbiters register their choice and then the
//! payload (two cycles from an SO unit's request to SSYNC), so no path runs from an SO unit's
//! request through an arbiter into SSYNC's table; the response route is combinational.
use crate::msg::{FirstRequest, Msg128};
use crate::stream_out::batch_id_gen::BatchIdGen;
use crate::stream_out::so_crossbar::SoCrossbar;
use crate::stream_out::so_unit::SoUnit;
use crate::stream_out::ssync::Ssync;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct SoCluster<
    const SO_UNITS: usize,
    const SRC_BITS: usize,
    const OPS: usize,
    const OP_BITS: usize,
    const FILL_BITS: usize,
    const WINDOW: usize,
    const WBITS: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub bytes_per_cycle: Signal<In, Bits<32>>,
    pub buffer_size: Signal<In, Msg128>,
    pub id_valid: Signal<Out, Bit>,
    pub id_ready: Signal<In, Bit>,
    pub id_batch_id: Signal<Out, Bits<14>>,
    pub cmd_valid: Signal<In, Bit>,
    pub cmd_ready: Signal<Out, Bit>,
    pub cmd_kind: Signal<In, Bits<2>>,
    pub cmd_batch_id: Signal<In, Bits<14>>,
    pub cmd_offsets: Signal<In, Msg128>,
    pub done_valid: Signal<In, Bit>,
    pub done_ready: Signal<Out, Bit>,
    pub done_batch_id: Signal<In, Bits<14>>,
    pub batch_valid: [Signal<In, Bit>; SO_UNITS],
    pub batch_ready: [Signal<Out, Bit>; SO_UNITS],
    pub batch_data: [Signal<In, FirstRequest>; SO_UNITS],
    pub attr_valid: [Signal<In, Bit>; SO_UNITS],
    pub attr_ready: [Signal<Out, Bit>; SO_UNITS],
    pub attr_buffer: [Signal<In, Bits<2>>; SO_UNITS],
    pub attr_bytes: [Signal<In, Bits<32>>; SO_UNITS],
    pub end_valid: [Signal<In, Bit>; SO_UNITS],
    pub end_ready: [Signal<Out, Bit>; SO_UNITS],
    pub wr_valid: [Signal<Out, Bit>; SO_UNITS],
    pub wr_ready: [Signal<In, Bit>; SO_UNITS],
    pub wr_buffer: [Signal<Out, Bits<2>>; SO_UNITS],
    pub wr_offset: [Signal<Out, Bits<32>>; SO_UNITS],
    pub wr_bytes: [Signal<Out, Bits<32>>; SO_UNITS],
    pub wr_index: [Signal<Out, Bits<32>>; SO_UNITS],
    pub wr_batch_id: [Signal<Out, Bits<14>>; SO_UNITS],
    pub wr_task_number: [Signal<Out, Bits<10>>; SO_UNITS],
    pub violation: Signal<Out, Bit>,
    pub ids: BatchIdGen<WINDOW, WBITS>,
    pub ssync: Ssync<SO_UNITS, SRC_BITS, OPS, OP_BITS, FILL_BITS>,
    pub xbar: SoCrossbar<SO_UNITS, SRC_BITS>,
    pub so: [SoUnit; SO_UNITS],
}

impl<
        const SO_UNITS: usize,
        const SRC_BITS: usize,
        const OPS: usize,
        const OP_BITS: usize,
        const FILL_BITS: usize,
        const WINDOW: usize,
        const WBITS: usize,
    > Default for SoCluster<SO_UNITS, SRC_BITS, OPS, OP_BITS, FILL_BITS, WINDOW, WBITS>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            bytes_per_cycle: Default::default(),
            buffer_size: Default::default(),
            id_valid: Default::default(),
            id_ready: Default::default(),
            id_batch_id: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            cmd_kind: Default::default(),
            cmd_batch_id: Default::default(),
            cmd_offsets: Default::default(),
            done_valid: Default::default(),
            done_ready: Default::default(),
            done_batch_id: Default::default(),
            batch_valid: std::array::from_fn(|_| Default::default()),
            batch_ready: std::array::from_fn(|_| Default::default()),
            batch_data: std::array::from_fn(|_| Default::default()),
            attr_valid: std::array::from_fn(|_| Default::default()),
            attr_ready: std::array::from_fn(|_| Default::default()),
            attr_buffer: std::array::from_fn(|_| Default::default()),
            attr_bytes: std::array::from_fn(|_| Default::default()),
            end_valid: std::array::from_fn(|_| Default::default()),
            end_ready: std::array::from_fn(|_| Default::default()),
            wr_valid: std::array::from_fn(|_| Default::default()),
            wr_ready: std::array::from_fn(|_| Default::default()),
            wr_buffer: std::array::from_fn(|_| Default::default()),
            wr_offset: std::array::from_fn(|_| Default::default()),
            wr_bytes: std::array::from_fn(|_| Default::default()),
            wr_index: std::array::from_fn(|_| Default::default()),
            wr_batch_id: std::array::from_fn(|_| Default::default()),
            wr_task_number: std::array::from_fn(|_| Default::default()),
            violation: Default::default(),
            ids: Default::default(),
            ssync: Default::default(),
            xbar: Default::default(),
            so: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<
        const SO_UNITS: usize,
        const SRC_BITS: usize,
        const OPS: usize,
        const OP_BITS: usize,
        const FILL_BITS: usize,
        const WINDOW: usize,
        const WBITS: usize,
    > Logic for SoCluster<SO_UNITS, SRC_BITS, OPS, OP_BITS, FILL_BITS, WINDOW, WBITS>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.ids.clock.next = self.clock.val();
        self.ids.reset.next = self.reset.val();
        self.ssync.clock.next = self.clock.val();
        self.ssync.reset.next = self.reset.val();
        self.xbar.clock.next = self.clock.val();
        self.xbar.reset.next = self.reset.val();
        // WDU side
        self.id_valid.next = self.ids.id_valid.val();
        self.id_batch_id.next = self.ids.id_batch_id.val();
        self.ids.id_ready.next = self.id_ready.val();
        self.ids.done_valid.next = self.done_valid.val();
        self.ids.done_batch_id.next = self.done_batch_id.val();
        self.done_ready.next = self.ids.done_ready.val();
        self.ssync.cmd_valid.next = self.cmd_valid.val();
        self.ssync.cmd_kind.next = self.cmd_kind.val();
        self.ssync.cmd_batch_id.next = self.cmd_batch_id.val();
        self.ssync.cmd_offsets.next = self.cmd_offsets.val();
        self.cmd_ready.next = self.ssync.cmd_ready.val();
        self.ssync.buffer_size.next = self.buffer_size.val();
        // SSYNC retire -> batch-ID generator
        self.ids.retire_valid.next = self.ssync.retire_valid.val();
        self.ids.retire_batch_id.next = self.ssync.retire_batch_id.val();
        self.ssync.retire_ready.next = self.ids.retire_ready.val();
        // crossbar -> SSYNC (the crossbar's outputs are registers)
        self.ssync.first_valid.next = self.xbar.first_valid.val();
        self.ssync.first_data.next = self.xbar.first_data.val();
        self.ssync.first_source.next = self.xbar.first_source.val();
        self.xbar.first_ready.next = self.ssync.first_ready.val();
        self.ssync.second_valid.next = self.xbar.second_valid.val();
        self.ssync.second_data.next = self.xbar.second_data.val();
        self.ssync.second_source.next = self.xbar.second_source.val();
        self.xbar.second_ready.next = self.ssync.second_ready.val();
        self.xbar.resp_valid.next = self.ssync.resp_valid.val();
        self.xbar.resp_data.next = self.ssync.resp_data.val();
        self.xbar.resp_dest.next = self.ssync.resp_dest.val();
        self.ssync.resp_ready.next = self.xbar.resp_ready.val();
        // SO units
        for i in 0..SO_UNITS {
            self.so[i].clock.next = self.clock.val();
            self.so[i].reset.next = self.reset.val();
            self.so[i].bytes_per_cycle.next = self.bytes_per_cycle.val();
            self.so[i].buffer_size.next = self.buffer_size.val();
            self.so[i].batch_valid.next = self.batch_valid[i].val();
            self.so[i].batch_data.next = self.batch_data[i].val();
            self.batch_ready[i].next = self.so[i].batch_ready.val();
            self.so[i].attr_valid.next = self.attr_valid[i].val();
            self.so[i].attr_buffer.next = self.attr_buffer[i].val();
            self.so[i].attr_bytes.next = self.attr_bytes[i].val();
            self.attr_ready[i].next = self.so[i].attr_ready.val();
            self.so[i].end_valid.next = self.end_valid[i].val();
            self.end_ready[i].next = self.so[i].end_ready.val();
            self.xbar.so_first_valid[i].next = self.so[i].first_valid.val();
            self.xbar.so_first_data[i].next = self.so[i].first_data.val();
            self.so[i].first_ready.next = self.xbar.so_first_ready[i].val();
            self.xbar.so_second_valid[i].next = self.so[i].second_valid.val();
            self.xbar.so_second_data[i].next = self.so[i].second_data.val();
            self.so[i].second_ready.next = self.xbar.so_second_ready[i].val();
            self.so[i].resp_valid.next = self.xbar.so_resp_valid[i].val();
            self.so[i].resp_data.next = self.xbar.so_resp_data[i].val();
            self.xbar.so_resp_ready[i].next = self.so[i].resp_ready.val();
            self.wr_valid[i].next = self.so[i].wr_valid.val();
            self.so[i].wr_ready.next = self.wr_ready[i].val();
            self.wr_buffer[i].next = self.so[i].wr_buffer.val();
            self.wr_offset[i].next = self.so[i].wr_offset.val();
            self.wr_bytes[i].next = self.so[i].wr_bytes.val();
            self.wr_index[i].next = self.so[i].wr_index.val();
            self.wr_batch_id[i].next = self.so[i].wr_batch_id.val();
            self.wr_task_number[i].next = self.so[i].wr_task_number.val();
        }
        self.violation.next =
            self.ssync.violation.val() | self.ids.violation.val() | self.xbar.violation.val();
    }
}
