//! `FitCheck` — the one SO-12 overflow test, shared by [`Ssync`](crate::stream_out::ssync::Ssync)
//! (which decides whether the SSOBOs advance) and [`SoUnit`](crate::stream_out::so_unit::SoUnit)
//! (which decides whether it writes), so the two can never disagree (SPEC SO-12).
//!
//! Definition: a batch/task that needs `bytes[i]` bytes in buffer i, appended at `offsets[i]`,
//! fits when for every buffer i either `bytes[i] == 0` (the batch/task writes nothing there: a
//! buffer it does not write always fits, wherever an offset bundle or earlier batches left its
//! offset), or `bytes[i] <= size[i]` and `offsets[i] <= size[i] - bytes[i]` (that is
//! `offsets[i] + bytes[i] <= size[i]` without a 33-bit sum).
//!
//! Ports: `offsets`, `bytes`, `size` (four 32-bit lanes each, lane i = buffer i); `fits`.
//! Timing: purely combinational (no clock); two 32-bit compares and a subtract per lane.
use crate::msg::Msg128;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct FitCheck {
    pub offsets: Signal<In, Msg128>,
    pub bytes: Signal<In, Msg128>,
    pub size: Signal<In, Msg128>,
    pub fits: Signal<Out, Bit>,
    overflow0: Signal<Local, Bit>,
    overflow1: Signal<Local, Bit>,
    overflow2: Signal<Local, Bit>,
    overflow3: Signal<Local, Bit>,
}

impl Logic for FitCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.overflow0.next = (self.bytes.val().lane0 != bits::<32>(0))
            & ((self.bytes.val().lane0 > self.size.val().lane0)
                | (self.offsets.val().lane0 > (self.size.val().lane0 - self.bytes.val().lane0)));
        self.overflow1.next = (self.bytes.val().lane1 != bits::<32>(0))
            & ((self.bytes.val().lane1 > self.size.val().lane1)
                | (self.offsets.val().lane1 > (self.size.val().lane1 - self.bytes.val().lane1)));
        self.overflow2.next = (self.bytes.val().lane2 != bits::<32>(0))
            & ((self.bytes.val().lane2 > self.size.val().lane2)
                | (self.offsets.val().lane2 > (self.size.val().lane2 - self.bytes.val().lane2)));
        self.overflow3.next = (self.bytes.val().lane3 != bits::<32>(0))
            & ((self.bytes.val().lane3 > self.size.val().lane3)
                | (self.offsets.val().lane3 > (self.size.val().lane3 - self.bytes.val().lane3)));
        self.fits.next = !(self.overflow0.val()
            | self.overflow1.val()
            | self.overflow2.val()
            | self.overflow3.val());
    }
}
