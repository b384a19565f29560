//! `FitCheck` — the SO-12 overflow test of an SO unit's job (SPEC SO-12), one compare per lane
//! behind registers; a sub-block of [`SoUnit`](crate::stream_out::so_unit::SoUnit).
//!
//! Definition: a batch/task that needs `bytes[i]` bytes in buffer i, appended at `offsets[i]`,
//! fits when for every buffer i either `bytes[i] == 0` (the batch/task writes nothing there: a
//! buffer it does not write always fits, wherever an offset bundle or earlier batches left its
//! offset), or `bytes[i] <= size[i]` and `offsets[i] <= size[i] - bytes[i]` (that is
//! `offsets[i] + bytes[i] <= size[i]` without a 33-bit sum). SSYNC applies the same definition
//! to its SSOBOs ([`SsoboAccount`](crate::stream_out::ssobo_account::SsoboAccount), with a
//! headroom register per lane), so the two agree on every batch/task.
//!
//! Structure: per lane, `room = size - bytes`, `bytes > size` and `bytes != 0` are registered
//! (one subtract and two compares from the inputs); then each lane's overflow bit is one
//! compare of `offsets` against the registered room (in 16-bit halves that run side by side:
//! two short carry chains) and is registered on its own; `fits` is the NOR of the four
//! registered lane bits (no path from a compare across the lanes).
//!
//! Ports: `clock`; `offsets`, `bytes`, `size` (four 32-bit lanes each, lane i = buffer i);
//! `fits` (one LUT after registers); `writes_buffer` (bit i: `bytes[i] != 0`, registered).
//! Timing: `fits` describes `bytes` and `size` of two cycles before and `offsets` of the cycle
//! before: valid from the third cycle after `bytes` / `size` last changed and the second after
//! `offsets` did (the same cycle as a register of the former one-cycle test would be).
use crate::msg::Msg128;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct FitCheck {
    pub clock: Signal<In, Clock>,
    pub offsets: Signal<In, Msg128>,
    pub bytes: Signal<In, Msg128>,
    pub size: Signal<In, Msg128>,
    pub fits: Signal<Out, Bit>,
    /// Bit i: `bytes[i] != 0` (the batch/task writes buffer i), registered like the room.
    pub writes_buffer: Signal<Out, Bits<4>>,
    /// Per lane: size - bytes.
    room: DFF<Msg128>,
    /// Bit i: bytes\[i\] > size\[i\] (the batch/task cannot fit buffer i at any offset).
    too_big: DFF<Bits<4>>,
    /// Bit i: bytes\[i\] != 0.
    writes: DFF<Bits<4>>,
    /// Bit i: lane i overflows (registered per lane).
    lane_over: DFF<Bits<4>>,
    lane_over_next: Signal<Local, Bits<4>>,
    too_big_next: Signal<Local, Bits<4>>,
    writes_next: Signal<Local, Bits<4>>,
    big0: Signal<Local, Bit>,
    big1: Signal<Local, Bit>,
    big2: Signal<Local, Bit>,
    big3: Signal<Local, Bit>,
    nz0: Signal<Local, Bit>,
    nz1: Signal<Local, Bit>,
    nz2: Signal<Local, Bit>,
    nz3: Signal<Local, Bit>,
    overflow0: Signal<Local, Bit>,
    offset0: Signal<Local, Bits<32>>,
    room0: Signal<Local, Bits<32>>,
    overflow1: Signal<Local, Bit>,
    offset1: Signal<Local, Bits<32>>,
    room1: Signal<Local, Bits<32>>,
    overflow2: Signal<Local, Bit>,
    offset2: Signal<Local, Bits<32>>,
    room2: Signal<Local, Bits<32>>,
    overflow3: Signal<Local, Bit>,
    offset3: Signal<Local, Bits<32>>,
    room3: Signal<Local, Bits<32>>,
}

impl Logic for FitCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, room, too_big, writes, lane_over);
        self.room.d.next.lane0 = self.size.val().lane0 - self.bytes.val().lane0;
        self.room.d.next.lane1 = self.size.val().lane1 - self.bytes.val().lane1;
        self.room.d.next.lane2 = self.size.val().lane2 - self.bytes.val().lane2;
        self.room.d.next.lane3 = self.size.val().lane3 - self.bytes.val().lane3;
        self.big0.next = self.bytes.val().lane0 > self.size.val().lane0;
        self.big1.next = self.bytes.val().lane1 > self.size.val().lane1;
        self.big2.next = self.bytes.val().lane2 > self.size.val().lane2;
        self.big3.next = self.bytes.val().lane3 > self.size.val().lane3;
        self.nz0.next = self.bytes.val().lane0 != bits::<32>(0);
        self.nz1.next = self.bytes.val().lane1 != bits::<32>(0);
        self.nz2.next = self.bytes.val().lane2 != bits::<32>(0);
        self.nz3.next = self.bytes.val().lane3 != bits::<32>(0);
        self.too_big_next.next = bits::<4>(0);
        self.writes_next.next = bits::<4>(0);
        if self.big0.val() {
            self.too_big_next.next = self.too_big_next.val() | bits::<4>(1);
        }
        if self.big1.val() {
            self.too_big_next.next = self.too_big_next.val() | bits::<4>(2);
        }
        if self.big2.val() {
            self.too_big_next.next = self.too_big_next.val() | bits::<4>(4);
        }
        if self.big3.val() {
            self.too_big_next.next = self.too_big_next.val() | bits::<4>(8);
        }
        if self.nz0.val() {
            self.writes_next.next = self.writes_next.val() | bits::<4>(1);
        }
        if self.nz1.val() {
            self.writes_next.next = self.writes_next.val() | bits::<4>(2);
        }
        if self.nz2.val() {
            self.writes_next.next = self.writes_next.val() | bits::<4>(4);
        }
        if self.nz3.val() {
            self.writes_next.next = self.writes_next.val() | bits::<4>(8);
        }
        self.too_big.d.next = self.too_big_next.val();
        self.writes.d.next = self.writes_next.val();
        self.offset0.next = self.offsets.val().lane0;
        self.room0.next = self.room.q.val().lane0;
        self.overflow0.next = self.writes.q.val().get_bit(0)
            & (self.too_big.q.val().get_bit(0)
                | (self.offset0.val().get_bits::<16>(16) > self.room0.val().get_bits::<16>(16))
                | ((self.offset0.val().get_bits::<16>(16) == self.room0.val().get_bits::<16>(16))
                    & (self.offset0.val().get_bits::<16>(0) > self.room0.val().get_bits::<16>(0))));
        self.offset1.next = self.offsets.val().lane1;
        self.room1.next = self.room.q.val().lane1;
        self.overflow1.next = self.writes.q.val().get_bit(1)
            & (self.too_big.q.val().get_bit(1)
                | (self.offset1.val().get_bits::<16>(16) > self.room1.val().get_bits::<16>(16))
                | ((self.offset1.val().get_bits::<16>(16) == self.room1.val().get_bits::<16>(16))
                    & (self.offset1.val().get_bits::<16>(0) > self.room1.val().get_bits::<16>(0))));
        self.offset2.next = self.offsets.val().lane2;
        self.room2.next = self.room.q.val().lane2;
        self.overflow2.next = self.writes.q.val().get_bit(2)
            & (self.too_big.q.val().get_bit(2)
                | (self.offset2.val().get_bits::<16>(16) > self.room2.val().get_bits::<16>(16))
                | ((self.offset2.val().get_bits::<16>(16) == self.room2.val().get_bits::<16>(16))
                    & (self.offset2.val().get_bits::<16>(0) > self.room2.val().get_bits::<16>(0))));
        self.offset3.next = self.offsets.val().lane3;
        self.room3.next = self.room.q.val().lane3;
        self.overflow3.next = self.writes.q.val().get_bit(3)
            & (self.too_big.q.val().get_bit(3)
                | (self.offset3.val().get_bits::<16>(16) > self.room3.val().get_bits::<16>(16))
                | ((self.offset3.val().get_bits::<16>(16) == self.room3.val().get_bits::<16>(16))
                    & (self.offset3.val().get_bits::<16>(0) > self.room3.val().get_bits::<16>(0))));
        self.writes_buffer.next = self.writes.q.val();
        self.lane_over_next.next = bits::<4>(0);
        if self.overflow0.val() {
            self.lane_over_next.next = self.lane_over_next.val() | bits::<4>(1);
        }
        if self.overflow1.val() {
            self.lane_over_next.next = self.lane_over_next.val() | bits::<4>(2);
        }
        if self.overflow2.val() {
            self.lane_over_next.next = self.lane_over_next.val() | bits::<4>(4);
        }
        if self.overflow3.val() {
            self.lane_over_next.next = self.lane_over_next.val() | bits::<4>(8);
        }
        self.lane_over.d.next = self.lane_over_next.val();
        self.fits.next = self.lane_over.q.val() == bits::<4>(0);
    }
}
