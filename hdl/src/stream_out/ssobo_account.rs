//! `SsoboAccount` — SSYNC's accounting stages: the four SSOBOs, the SO-12 fit test and the
//! needed/written/overflow statistics (SPEC SO-6, SO-7, SO-12); a sub-block of
//! [`Ssync`](crate::stream_out::ssync::Ssync).
//!
//! What it does: SSYNC decides to account a batch/task (`in_commit`; its SBBN comes one cycle
//! later, `in_sbbn_late`, read from the message table's block RAM, with which of its lanes are
//! non-zero, `in_nonzero_late`) or to apply an offset bundle (`in_offset`, the new
//! SSOBOs in `in_word`); this block applies it in three register stages:
//! - stage R (the cycle after the decision): the SBBN arrives from the RAM and is registered;
//! - stage F (one cycle later): the SO-12 compares, per lane, against both candidate
//!   headrooms (registered for S), and the headroom of the next step;
//! - stage S (one cycle later): the fit decision (the lanes against the headroom the step
//!   before chose), the SSOBOs and the statistics. An offset bundle replaces the
//!   SSOBOs; an accounted batch/task always adds its SBBN to `stat_needed`, and if it fits it
//!   adds it to the SSOBOs and `stat_written`, otherwise the SSOBOs stay and `overflow_count`
//!   increments (`commit` / `commit_overflow` show it in this cycle).
//! `ssobo_next` is stage S's next SSOBO value: two cycles after a decision it holds the
//! SSOBOs after every step decided before that decision, which is what a response decided
//! with it carries (SO-6).
//!
//! Fit test (SO-12), the same definition as [`FitCheck`](crate::stream_out::fit_check::FitCheck)
//! (which the SO unit applies to the SSOBOs of its response, so the two agree): lane i fits
//! when SBBN\[i\] = 0, or SSOBO\[i\] + SBBN\[i\] <= size\[i\]. No compare on the loop: a
//! register per lane holds the headroom size\[i\] - SSOBO\[i\] before the step now in S, another
//! that headroom less that step's SBBN, and whether SSOBO\[i\] is past size\[i\] (`past_end`).
//! Stage F compares its step against both and registers the eight lane results; in the next
//! cycle stage S picks one set with the decision of the step before (`took`), ANDs it, and
//! that decision (`took_now`) picks the headroom stage F passes on. The loop is
//! register -> AND -> select -> register; each compare runs from registers to a register. Whenever both stages are idle the headroom is
//! recomputed from the registered size and the SSOBOs. `buffer_size` (API state) is registered
//! on entry, with whether it changed (compared on the input); a change seen in cycle t raises
//! `pause_next` in cycles t+1..t+3 and `pause` in t+2..t+4: the parent decides nothing while
//! paused, so the stages go idle and the headroom follows the new size before the next
//! batch/task is tested. Reading: a batch/task is tested against `buffer_size` as it was in
//! the cycle before its accounting was decided, or later (the input register's cycle).
//!
//! Ports: `clock`, `reset`; `buffer_size`; `in_commit`, `in_offset`, `in_word`, `in_sbbn_late`,
//! `in_nonzero_late`;
//! `ssobo`, `ssobo_next`; `commit` / `commit_overflow`; `stat_needed`, `stat_written`,
//! `overflow_count`; `pause_next` (from registers: decide nothing next cycle), `pause` (registered: decide nothing this cycle).
//! Timing: a decision in cycle t is compared in t+2, fits or not in t+3 and reaches `ssobo` in
//! t+4 (`ssobo_next` in t+3); one step per cycle.
use crate::msg::Msg128;
use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct SsoboAccount {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub buffer_size: Signal<In, Msg128>,
    pub in_commit: Signal<In, Bit>,
    pub in_offset: Signal<In, Bit>,
    /// The offset bundle's SSOBOs (with `in_offset`).
    pub in_word: Signal<In, Msg128>,
    /// The accounted batch/task's SBBN, one cycle after `in_commit` (block-RAM read data).
    pub in_sbbn_late: Signal<In, Msg128>,
    /// Which lanes of `in_sbbn_late` are non-zero (the same cycle).
    pub in_nonzero_late: Signal<In, Bits<4>>,
    pub ssobo: Signal<Out, Msg128>,
    pub ssobo_next: Signal<Out, Msg128>,
    pub commit: Signal<Out, Bit>,
    pub commit_overflow: Signal<Out, Bit>,
    pub stat_needed: Signal<Out, Msg128>,
    pub stat_written: Signal<Out, Msg128>,
    pub overflow_count: Signal<Out, Bits<16>>,
    pub pause_next: Signal<Out, Bit>,
    pub pause: Signal<Out, Bit>,
    // stage F: the step to test (registered from the inputs), the headroom
    // stage R: the decided step while the message table's RAM reads its SBBN
    read_commit: DFF<Bit>,
    read_offset: DFF<Bit>,
    read_word: DFF<Msg128>,
    test_commit: DFF<Bit>,
    test_offset: DFF<Bit>,
    test_value: DFF<Msg128>,
    test_nonzero: DFF<Bits<4>>,
    /// The headroom before the previous step, and that headroom less the previous step's SBBN
    /// (which of the two is this step's is decided in this cycle by stage S: `took_now`).
    room_keep: DFF<Msg128>,
    room_take: DFF<Msg128>,
    past_end: DFF<Bits<4>>,
    // stage S: the tested step, its lanes' fit against either headroom, the SSOBOs and the
    // statistics; `took`: the step before it was a batch/task that fit (so the `take`
    // headroom was this step's)
    apply_commit: DFF<Bit>,
    apply_offset: DFF<Bit>,
    apply_fit_keep: DFF<Bits<4>>,
    apply_fit_take: DFF<Bits<4>>,
    took: DFF<Bit>,
    apply_value: DFF<Msg128>,
    ssobo_reg: DFF<Msg128>,
    stat_needed_reg: DFF<Msg128>,
    stat_written_reg: DFF<Msg128>,
    overflow_count_reg: DFF<Bits<16>>,
    // buffer sizes: `size_in` the input registered, `size_moving` whether it differs from the
    // size before it (compared on the input, so no 128-bit compare reaches `pause_next`)
    size_in: DFF<Msg128>,
    size_moving: DFF<Bit>,
    size_reg: DFF<Msg128>,
    size_changed: DFF<Bit>,
    size_changed_before: DFF<Bit>,
    size_changed_before2: DFF<Bit>,
    // combinational
    room0: Signal<Local, Bits<32>>,
    value0: Signal<Local, Bits<32>>,
    keep0: Signal<Local, Bits<32>>,
    take0: Signal<Local, Bits<32>>,
    fit_keep0: Signal<Local, Bit>,
    fit_take0: Signal<Local, Bit>,
    wide_value0: Signal<Local, Bits<33>>,
    wide_keep0: Signal<Local, Bits<33>>,
    wide_take0: Signal<Local, Bits<33>>,
    /// The headroom less the SBBN, with the borrow in bit 32 (the SBBN does not fit).
    diff_keep0: Signal<Local, Bits<33>>,
    diff_take0: Signal<Local, Bits<33>>,
    room1: Signal<Local, Bits<32>>,
    value1: Signal<Local, Bits<32>>,
    keep1: Signal<Local, Bits<32>>,
    take1: Signal<Local, Bits<32>>,
    fit_keep1: Signal<Local, Bit>,
    fit_take1: Signal<Local, Bit>,
    wide_value1: Signal<Local, Bits<33>>,
    wide_keep1: Signal<Local, Bits<33>>,
    wide_take1: Signal<Local, Bits<33>>,
    /// The headroom less the SBBN, with the borrow in bit 32 (the SBBN does not fit).
    diff_keep1: Signal<Local, Bits<33>>,
    diff_take1: Signal<Local, Bits<33>>,
    room2: Signal<Local, Bits<32>>,
    value2: Signal<Local, Bits<32>>,
    keep2: Signal<Local, Bits<32>>,
    take2: Signal<Local, Bits<32>>,
    fit_keep2: Signal<Local, Bit>,
    fit_take2: Signal<Local, Bit>,
    wide_value2: Signal<Local, Bits<33>>,
    wide_keep2: Signal<Local, Bits<33>>,
    wide_take2: Signal<Local, Bits<33>>,
    /// The headroom less the SBBN, with the borrow in bit 32 (the SBBN does not fit).
    diff_keep2: Signal<Local, Bits<33>>,
    diff_take2: Signal<Local, Bits<33>>,
    room3: Signal<Local, Bits<32>>,
    value3: Signal<Local, Bits<32>>,
    keep3: Signal<Local, Bits<32>>,
    take3: Signal<Local, Bits<32>>,
    fit_keep3: Signal<Local, Bit>,
    fit_take3: Signal<Local, Bit>,
    wide_value3: Signal<Local, Bits<33>>,
    wide_keep3: Signal<Local, Bits<33>>,
    wide_take3: Signal<Local, Bits<33>>,
    /// The headroom less the SBBN, with the borrow in bit 32 (the SBBN does not fit).
    diff_keep3: Signal<Local, Bits<33>>,
    diff_take3: Signal<Local, Bits<33>>,
    fit_keep_lanes: Signal<Local, Bits<4>>,
    fit_take_lanes: Signal<Local, Bits<4>>,
    /// Stage S: the step fits (SO-12) / it is a batch/task that fits (its SBBN is taken).
    fits: Signal<Local, Bit>,
    took_now: Signal<Local, Bit>,
    value_msg: Signal<Local, Msg128>,
    size_changing: Signal<Local, Bit>,
    idle: Signal<Local, Bit>,
    /// What the headroom is recomputed from: the bundle's SSOBOs, or the SSOBOs when idle.
    base: Signal<Local, Msg128>,
    past_end_next: Signal<Local, Bits<4>>,
    past0: Signal<Local, Bit>,
    past1: Signal<Local, Bit>,
    past2: Signal<Local, Bit>,
    past3: Signal<Local, Bit>,
}

impl Logic for SsoboAccount {
    /// Long because the four lanes of every 128-bit register are written out one by one
    /// (rust-hdl has no loop over a struct's fields).
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            read_commit,
            read_offset,
            read_word,
            test_commit,
            test_offset,
            test_value,
            test_nonzero,
            room_keep,
            room_take,
            past_end,
            apply_commit,
            apply_offset,
            apply_fit_keep,
            apply_fit_take,
            took,
            apply_value,
            ssobo_reg,
            stat_needed_reg,
            stat_written_reg,
            overflow_count_reg,
            size_in,
            size_moving,
            size_reg,
            size_changed,
            size_changed_before,
            size_changed_before2
        );
        self.read_commit.d.next = self.in_commit.val();
        self.read_offset.d.next = self.in_offset.val();
        self.read_word.d.next = self.in_word.val();
        // ---- stage R: the step's value, the SBBN from the message table's RAM or the bundle's
        // word (zero when there is no step: RAM words never read are never used).
        self.value_msg.next.lane0 = bits::<32>(0);
        self.value_msg.next.lane1 = bits::<32>(0);
        self.value_msg.next.lane2 = bits::<32>(0);
        self.value_msg.next.lane3 = bits::<32>(0);
        if self.read_commit.q.val() {
            self.value_msg.next = self.in_sbbn_late.val();
        }
        if self.read_offset.q.val() {
            self.value_msg.next = self.read_word.q.val();
        }
        self.test_commit.d.next = self.read_commit.q.val();
        self.test_offset.d.next = self.read_offset.q.val();
        self.test_value.d.next = self.value_msg.val();
        self.test_nonzero.d.next = self.in_nonzero_late.val();
        self.size_in.d.next = self.buffer_size.val();
        self.size_moving.d.next = self.buffer_size.val() != self.size_in.q.val();
        self.size_reg.d.next = self.size_in.q.val();
        self.size_changing.next = self.size_moving.q.val();
        self.size_changed.d.next = self.size_changing.val();
        self.size_changed_before.d.next = self.size_changed.q.val();
        self.size_changed_before2.d.next = self.size_changed_before.q.val();
        self.pause_next.next =
            self.size_changing.val() | self.size_changed.q.val() | self.size_changed_before.q.val();
        self.pause.next = self.size_changed.q.val()
            | self.size_changed_before.q.val()
            | self.size_changed_before2.q.val();
        // ---- stage S's decision, first because stage F's headroom follows it: the step in S
        // fits when every lane fits against its headroom, `room_take`'s lanes when the step
        // before it fit (`took`), `room_keep`'s otherwise (both tested in F and registered:
        // from registers this is one AND and a select).
        self.fits.next = self.apply_fit_keep.q.val() == bits::<4>(15);
        if self.took.q.val() {
            self.fits.next = self.apply_fit_take.q.val() == bits::<4>(15);
        }
        self.took_now.next = self.apply_commit.q.val() & self.fits.val();
        // ---- stage F: the headroom of this step is `room_take` when the step now in S fits
        // (`took_now`), `room_keep` otherwise. The step is tested against both candidates,
        // lane by lane, and the eight results registered for S: no compare follows the
        // decision, and the decision follows no compare in its cycle.
        self.room0.next = self.room_keep.q.val().lane0;
        self.room1.next = self.room_keep.q.val().lane1;
        self.room2.next = self.room_keep.q.val().lane2;
        self.room3.next = self.room_keep.q.val().lane3;
        if self.took_now.val() {
            self.room0.next = self.room_take.q.val().lane0;
            self.room1.next = self.room_take.q.val().lane1;
            self.room2.next = self.room_take.q.val().lane2;
            self.room3.next = self.room_take.q.val().lane3;
        }
        self.value0.next = self.test_value.q.val().lane0;
        self.value1.next = self.test_value.q.val().lane1;
        self.value2.next = self.test_value.q.val().lane2;
        self.value3.next = self.test_value.q.val().lane3;
        // SO-12 per lane, against either headroom: nothing to write, or not past the end and
        // SBBN <= headroom, which is no borrow out of the 33-bit headroom - SBBN: one carry
        // chain per candidate gives the compare and the next headroom (its low 32 bits).
        self.keep0.next = self.room_keep.q.val().lane0;
        self.take0.next = self.room_take.q.val().lane0;
        self.wide_value0.next = bit_cast::<33, 32>(self.value0.val());
        self.wide_keep0.next = bit_cast::<33, 32>(self.keep0.val());
        self.wide_take0.next = bit_cast::<33, 32>(self.take0.val());
        self.diff_keep0.next = self.wide_keep0.val() - self.wide_value0.val();
        self.diff_take0.next = self.wide_take0.val() - self.wide_value0.val();
        self.fit_keep0.next = !self.test_nonzero.q.val().get_bit(0)
            | (!self.past_end.q.val().get_bit(0) & !self.diff_keep0.val().get_bit(32));
        self.fit_take0.next = !self.test_nonzero.q.val().get_bit(0)
            | (!self.past_end.q.val().get_bit(0) & !self.diff_take0.val().get_bit(32));
        self.keep1.next = self.room_keep.q.val().lane1;
        self.take1.next = self.room_take.q.val().lane1;
        self.wide_value1.next = bit_cast::<33, 32>(self.value1.val());
        self.wide_keep1.next = bit_cast::<33, 32>(self.keep1.val());
        self.wide_take1.next = bit_cast::<33, 32>(self.take1.val());
        self.diff_keep1.next = self.wide_keep1.val() - self.wide_value1.val();
        self.diff_take1.next = self.wide_take1.val() - self.wide_value1.val();
        self.fit_keep1.next = !self.test_nonzero.q.val().get_bit(1)
            | (!self.past_end.q.val().get_bit(1) & !self.diff_keep1.val().get_bit(32));
        self.fit_take1.next = !self.test_nonzero.q.val().get_bit(1)
            | (!self.past_end.q.val().get_bit(1) & !self.diff_take1.val().get_bit(32));
        self.keep2.next = self.room_keep.q.val().lane2;
        self.take2.next = self.room_take.q.val().lane2;
        self.wide_value2.next = bit_cast::<33, 32>(self.value2.val());
        self.wide_keep2.next = bit_cast::<33, 32>(self.keep2.val());
        self.wide_take2.next = bit_cast::<33, 32>(self.take2.val());
        self.diff_keep2.next = self.wide_keep2.val() - self.wide_value2.val();
        self.diff_take2.next = self.wide_take2.val() - self.wide_value2.val();
        self.fit_keep2.next = !self.test_nonzero.q.val().get_bit(2)
            | (!self.past_end.q.val().get_bit(2) & !self.diff_keep2.val().get_bit(32));
        self.fit_take2.next = !self.test_nonzero.q.val().get_bit(2)
            | (!self.past_end.q.val().get_bit(2) & !self.diff_take2.val().get_bit(32));
        self.keep3.next = self.room_keep.q.val().lane3;
        self.take3.next = self.room_take.q.val().lane3;
        self.wide_value3.next = bit_cast::<33, 32>(self.value3.val());
        self.wide_keep3.next = bit_cast::<33, 32>(self.keep3.val());
        self.wide_take3.next = bit_cast::<33, 32>(self.take3.val());
        self.diff_keep3.next = self.wide_keep3.val() - self.wide_value3.val();
        self.diff_take3.next = self.wide_take3.val() - self.wide_value3.val();
        self.fit_keep3.next = !self.test_nonzero.q.val().get_bit(3)
            | (!self.past_end.q.val().get_bit(3) & !self.diff_keep3.val().get_bit(32));
        self.fit_take3.next = !self.test_nonzero.q.val().get_bit(3)
            | (!self.past_end.q.val().get_bit(3) & !self.diff_take3.val().get_bit(32));
        self.fit_keep_lanes.next = bits::<4>(0);
        self.fit_take_lanes.next = bits::<4>(0);
        if self.fit_keep0.val() {
            self.fit_keep_lanes.next = self.fit_keep_lanes.val() | bits::<4>(1);
        }
        if self.fit_keep1.val() {
            self.fit_keep_lanes.next = self.fit_keep_lanes.val() | bits::<4>(2);
        }
        if self.fit_keep2.val() {
            self.fit_keep_lanes.next = self.fit_keep_lanes.val() | bits::<4>(4);
        }
        if self.fit_keep3.val() {
            self.fit_keep_lanes.next = self.fit_keep_lanes.val() | bits::<4>(8);
        }
        if self.fit_take0.val() {
            self.fit_take_lanes.next = self.fit_take_lanes.val() | bits::<4>(1);
        }
        if self.fit_take1.val() {
            self.fit_take_lanes.next = self.fit_take_lanes.val() | bits::<4>(2);
        }
        if self.fit_take2.val() {
            self.fit_take_lanes.next = self.fit_take_lanes.val() | bits::<4>(4);
        }
        if self.fit_take3.val() {
            self.fit_take_lanes.next = self.fit_take_lanes.val() | bits::<4>(8);
        }
        self.apply_commit.d.next = self.test_commit.q.val();
        self.apply_offset.d.next = self.test_offset.q.val();
        self.apply_fit_keep.d.next = self.fit_keep_lanes.val();
        self.apply_fit_take.d.next = self.fit_take_lanes.val();
        self.apply_value.d.next = self.test_value.q.val();
        // Next step's headroom: this one, and this one less the SBBN; recomputed from the
        // size for a bundle, and when both stages are idle (the SSOBOs are then final).
        self.took.d.next = self.took_now.val();
        self.room_keep.d.next.lane0 = self.room0.val();
        self.room_keep.d.next.lane1 = self.room1.val();
        self.room_keep.d.next.lane2 = self.room2.val();
        self.room_keep.d.next.lane3 = self.room3.val();
        if self.took_now.val() {
            self.room_take.d.next.lane0 = self.diff_take0.val().get_bits::<32>(0);
            self.room_take.d.next.lane1 = self.diff_take1.val().get_bits::<32>(0);
            self.room_take.d.next.lane2 = self.diff_take2.val().get_bits::<32>(0);
            self.room_take.d.next.lane3 = self.diff_take3.val().get_bits::<32>(0);
        } else {
            self.room_take.d.next.lane0 = self.diff_keep0.val().get_bits::<32>(0);
            self.room_take.d.next.lane1 = self.diff_keep1.val().get_bits::<32>(0);
            self.room_take.d.next.lane2 = self.diff_keep2.val().get_bits::<32>(0);
            self.room_take.d.next.lane3 = self.diff_keep3.val().get_bits::<32>(0);
        }
        self.idle.next = !self.read_commit.q.val()
            & !self.read_offset.q.val()
            & !self.test_commit.q.val()
            & !self.test_offset.q.val()
            & !self.apply_commit.q.val()
            & !self.apply_offset.q.val();
        self.base.next = self.ssobo_reg.q.val();
        if self.test_offset.q.val() {
            self.base.next = self.test_value.q.val();
        }
        self.past0.next = self.base.val().lane0 > self.size_reg.q.val().lane0;
        self.past1.next = self.base.val().lane1 > self.size_reg.q.val().lane1;
        self.past2.next = self.base.val().lane2 > self.size_reg.q.val().lane2;
        self.past3.next = self.base.val().lane3 > self.size_reg.q.val().lane3;
        self.past_end_next.next = bits::<4>(0);
        if self.test_offset.q.val() | self.idle.val() {
            self.room_keep.d.next.lane0 = self.size_reg.q.val().lane0 - self.base.val().lane0;
            self.room_keep.d.next.lane1 = self.size_reg.q.val().lane1 - self.base.val().lane1;
            self.room_keep.d.next.lane2 = self.size_reg.q.val().lane2 - self.base.val().lane2;
            self.room_keep.d.next.lane3 = self.size_reg.q.val().lane3 - self.base.val().lane3;
            if self.past0.val() {
                self.past_end_next.next = self.past_end_next.val() | bits::<4>(1);
            }
            if self.past1.val() {
                self.past_end_next.next = self.past_end_next.val() | bits::<4>(2);
            }
            if self.past2.val() {
                self.past_end_next.next = self.past_end_next.val() | bits::<4>(4);
            }
            if self.past3.val() {
                self.past_end_next.next = self.past_end_next.val() | bits::<4>(8);
            }
            self.past_end.d.next = self.past_end_next.val();
        }
        // ---- stage S: the SSOBOs and the statistics.
        self.commit.next = self.apply_commit.q.val();
        self.commit_overflow.next = self.apply_commit.q.val() & !self.fits.val();
        if self.apply_commit.q.val() {
            self.stat_needed_reg.d.next.lane0 =
                self.stat_needed_reg.q.val().lane0 + self.apply_value.q.val().lane0;
            self.stat_needed_reg.d.next.lane1 =
                self.stat_needed_reg.q.val().lane1 + self.apply_value.q.val().lane1;
            self.stat_needed_reg.d.next.lane2 =
                self.stat_needed_reg.q.val().lane2 + self.apply_value.q.val().lane2;
            self.stat_needed_reg.d.next.lane3 =
                self.stat_needed_reg.q.val().lane3 + self.apply_value.q.val().lane3;
            if self.fits.val() {
                self.ssobo_reg.d.next.lane0 =
                    self.ssobo_reg.q.val().lane0 + self.apply_value.q.val().lane0;
                self.ssobo_reg.d.next.lane1 =
                    self.ssobo_reg.q.val().lane1 + self.apply_value.q.val().lane1;
                self.ssobo_reg.d.next.lane2 =
                    self.ssobo_reg.q.val().lane2 + self.apply_value.q.val().lane2;
                self.ssobo_reg.d.next.lane3 =
                    self.ssobo_reg.q.val().lane3 + self.apply_value.q.val().lane3;
                self.stat_written_reg.d.next.lane0 =
                    self.stat_written_reg.q.val().lane0 + self.apply_value.q.val().lane0;
                self.stat_written_reg.d.next.lane1 =
                    self.stat_written_reg.q.val().lane1 + self.apply_value.q.val().lane1;
                self.stat_written_reg.d.next.lane2 =
                    self.stat_written_reg.q.val().lane2 + self.apply_value.q.val().lane2;
                self.stat_written_reg.d.next.lane3 =
                    self.stat_written_reg.q.val().lane3 + self.apply_value.q.val().lane3;
            } else {
                self.overflow_count_reg.d.next = self.overflow_count_reg.q.val() + bits::<16>(1);
            }
        }
        if self.apply_offset.q.val() {
            self.ssobo_reg.d.next = self.apply_value.q.val();
        }
        // Synchronous reset: SSOBOs 0, the headroom the whole buffer.
        if self.reset.val() {
            self.read_commit.d.next = false;
            self.read_offset.d.next = false;
            self.test_commit.d.next = false;
            self.test_offset.d.next = false;
            self.apply_commit.d.next = false;
            self.apply_offset.d.next = false;
            self.room_keep.d.next = self.buffer_size.val();
            self.took.d.next = false;
            self.past_end.d.next = bits::<4>(0);
            self.size_changed.d.next = false;
            self.size_changed_before.d.next = false;
            self.size_changed_before2.d.next = false;
            self.ssobo_reg.d.next.lane0 = bits::<32>(0);
            self.ssobo_reg.d.next.lane1 = bits::<32>(0);
            self.ssobo_reg.d.next.lane2 = bits::<32>(0);
            self.ssobo_reg.d.next.lane3 = bits::<32>(0);
            self.stat_needed_reg.d.next.lane0 = bits::<32>(0);
            self.stat_needed_reg.d.next.lane1 = bits::<32>(0);
            self.stat_needed_reg.d.next.lane2 = bits::<32>(0);
            self.stat_needed_reg.d.next.lane3 = bits::<32>(0);
            self.stat_written_reg.d.next.lane0 = bits::<32>(0);
            self.stat_written_reg.d.next.lane1 = bits::<32>(0);
            self.stat_written_reg.d.next.lane2 = bits::<32>(0);
            self.stat_written_reg.d.next.lane3 = bits::<32>(0);
            self.overflow_count_reg.d.next = bits::<16>(0);
        }
        self.ssobo_next.next = self.ssobo_reg.d.val();
        self.ssobo.next = self.ssobo_reg.q.val();
        self.stat_needed.next = self.stat_needed_reg.q.val();
        self.stat_written.next = self.stat_written_reg.q.val();
        self.overflow_count.next = self.overflow_count_reg.q.val();
    }
}
