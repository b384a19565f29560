//! `BarrierCounter` — the back end's barrier command counter (SPEC BR-4, BR-5).
//!
//! Every screen-space pipeline sends its barriers here after ROP; a round-robin arbiter takes
//! one per cycle. A non-tiled barrier counts in one register; a tiled barrier counts in its
//! cache tile's word of a block RAM (one 4-bit count per cache tile). When a count reaches
//! `PIPES` the block sends `release` (with the tile, or non-tiled) to every PROP and the count
//! goes back to 0, so back-to-back barriers are counted and released one by one.
//!
//! Parameters: `PIPES` screen-space pipelines (1..=15), `SRC_BITS` = clog2(PIPES).
//!
//! Ports: `clock`, `reset`; per pipeline `token_valid[i]`/`token_ready[i]`/`token[i]`
//! ([`BarrierToken`]: a barrier kind and a cache tile); `token_source` (the pipeline whose
//! token is taken); `release_valid` (one-cycle pulse), `release_tiled`,
//! `release_tile`; `ready` (the clear sweep is over); `violation` (a primitive arrived as a
//! token, or the arbiter saw a requester drop `valid`).
//!
//! Timing: after reset a clear sweep writes 0 into all 256 tile counts (256 cycles, tokens
//! wait). Then one token per cycle in five stages: the arbiter's choice is registered as an
//! index beside every pipeline's token (the input stage: the arbitration and the token
//! multiplexer are in different cycles); stage 0 picks the taken token with that registered
//! index (one multiplexer level) and addresses its tile's count; stage 1 registers the block RAM's word as it is (no logic after the RAM) and whether
//! the token ahead (in stage 2 now), the one before it (in the write stage now) or the one
//! before that (whose write is at this edge, so the word read is undefined) has the same tile;
//! stage 2 takes its count from the newest of those, adds one and releases or registers the
//! count to write; the write stage writes it into the block RAM from registers. Every count
//! register also keeps its successor (`+ 1`, 0 at `PIPES`: `*_next`), so stage 2 adds one
//! only to the RAM's word, through a 16-entry table (one LUT per bit, no carry chain), and
//! picks the result with one-hot selects registered in stage 1 (the two older tokens' counts
//! already merged into one register there).
//!
//! Latency: a token taken in cycle t shows its release in cycle t+4 (t+3 before session 17,
//! which added the input stage); still one token per cycle. `violation` for a primitive
//! rises in cycle t+1 (from the input stage's registers).
use super::item::*;
use crate::widgets::block_ram::BlockRam;
use crate::widgets::rr_arbiter::RrArbiter;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BarrierCounter<const PIPES: usize, const SRC_BITS: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub token_valid: [Signal<In, Bit>; PIPES],
    pub token_ready: [Signal<Out, Bit>; PIPES],
    pub token: [Signal<In, BarrierToken>; PIPES],
    /// The pipeline whose token was taken this cycle (valid with a taken token).
    pub token_source: Signal<Out, Bits<SRC_BITS>>,
    pub release_valid: Signal<Out, Bit>,
    pub release_tiled: Signal<Out, Bit>,
    pub release_tile: Signal<Out, Bits<TILE_BITS>>,
    pub ready: Signal<Out, Bit>,
    pub violation: Signal<Out, Bit>,
    arbiter: RrArbiter<BarrierToken, PIPES, SRC_BITS>,
    tile_counts: BlockRam<Bits<4>, TILE_BITS>,
    clearing: DFF<Bit>,
    clear_tile: DFF<Bits<TILE_BITS>>,
    /// Input stage: whether a token was taken last cycle, which pipeline's (`in_source`, the
    /// arbiter's choice), and every pipeline's token as it was at that edge (`in_token`, loaded
    /// every cycle): the taken token is `in_token[in_source]`, a multiplexer with a registered
    /// select, so no cycle holds both the arbitration and the token multiplexer.
    in_valid: DFF<Bit>,
    in_source: DFF<Bits<SRC_BITS>>,
    in_token: [DFF<BarrierToken>; PIPES],
    /// The token taken last cycle (`in_token[in_source]`): its kind and tile (the read address).
    in_tiled: Signal<Local, Bit>,
    in_tile: Signal<Local, Bits<TILE_BITS>>,
    in_kind: Signal<Local, Bits<2>>,
    in_taken: Signal<Local, BarrierToken>,
    /// Stage 1: the token whose count the block RAM reads (address given last cycle).
    read_valid: DFF<Bit>,
    read_tiled: DFF<Bit>,
    read_tile: DFF<Bits<TILE_BITS>>,
    /// Stage 2: the token being counted, with the word read for its tile and one-hot selects
    /// of where its new count comes from: the word plus one (`sel_raw`), the token ahead of it
    /// (`sel_last`: it counted the same tile), one of the two before that (`sel_alt`, their
    /// successor merged into `alt_next` in stage 1), the non-tiled count (`sel_nontiled`).
    count_valid: DFF<Bit>,
    count_tiled: DFF<Bit>,
    count_tile: DFF<Bits<TILE_BITS>>,
    count_raw: DFF<Bits<4>>,
    sel_raw: DFF<Bit>,
    sel_last: DFF<Bit>,
    sel_alt: DFF<Bit>,
    sel_nontiled: DFF<Bit>,
    alt_next: DFF<Bits<4>>,
    /// Write stage: the count stage 2 decided last cycle (written into the block RAM now) and
    /// its successor.
    wr_valid: DFF<Bit>,
    wr_tile: DFF<Bits<TILE_BITS>>,
    wr_count: DFF<Bits<4>>,
    wr_next: DFF<Bits<4>>,
    /// The count written at the last clock edge (its tile and successor): a read of that tile
    /// in the same edge returns an undefined word, so the token that read it takes this value.
    written_valid: DFF<Bit>,
    written_tile: DFF<Bits<TILE_BITS>>,
    written_next: DFF<Bits<4>>,
    /// The successor of the non-tiled count.
    nontiled_next: DFF<Bits<4>>,
    release_valid_reg: DFF<Bit>,
    release_tiled_reg: DFF<Bit>,
    release_tile_reg: DFF<Bits<TILE_BITS>>,
    /// This cycle's new count of the counted token and its successor.
    count_written: Signal<Local, Bits<4>>,
    count_written_next: Signal<Local, Bits<4>>,
    count_reached: Signal<Local, Bit>,
    /// The new count from a register source (`sel_last`, `sel_alt`, `sel_nontiled`).
    other_written: Signal<Local, Bits<4>>,
    other_written_next: Signal<Local, Bits<4>>,
    raw_written: Signal<Local, Bits<4>>,
    raw_written_next: Signal<Local, Bits<4>>,
    /// Stage 1's view of the tokens ahead (same tile as the token read).
    hit_last: Signal<Local, Bit>,
    hit_older: Signal<Local, Bit>,
    hit_oldest: Signal<Local, Bit>,
    /// `count_index[k]` = k; `count_succ[k]` = (k + 1) mod `PIPES`; `count_succ2[k]` = (k + 2)
    /// mod `PIPES` (for k < `PIPES`; 0 otherwise).
    count_index: [Constant<Bits<4>>; 16],
    count_succ: [Constant<Bits<4>>; 16],
    count_succ2: [Constant<Bits<4>>; 16],
    take_token: Signal<Local, Bit>,
    /// `source_index[i]` = i.
    source_index: [Constant<Bits<SRC_BITS>>; PIPES],
    last_tile: Constant<Bits<TILE_BITS>>,
    kind_prim: Constant<Bits<2>>,
    kind_tiled: Constant<Bits<2>>,
}

impl<const PIPES: usize, const SRC_BITS: usize> Default for BarrierCounter<PIPES, SRC_BITS> {
    fn default() -> Self {
        assert!(
            (1..=15).contains(&PIPES),
            "BarrierCounter: PIPES = {}",
            PIPES
        );
        assert_eq!(
            SRC_BITS,
            clog2(PIPES).max(1),
            "BarrierCounter: SRC_BITS must be clog2(PIPES)"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            token_valid: std::array::from_fn(|_| Default::default()),
            token_ready: std::array::from_fn(|_| Default::default()),
            token: std::array::from_fn(|_| Default::default()),
            token_source: Default::default(),
            release_valid: Default::default(),
            release_tiled: Default::default(),
            release_tile: Default::default(),
            ready: Default::default(),
            violation: Default::default(),
            arbiter: Default::default(),
            tile_counts: Default::default(),
            clearing: Default::default(),
            clear_tile: Default::default(),
            in_valid: Default::default(),
            in_source: Default::default(),
            in_token: std::array::from_fn(|_| Default::default()),
            in_tiled: Default::default(),
            in_tile: Default::default(),
            in_kind: Default::default(),
            in_taken: Default::default(),
            read_valid: Default::default(),
            read_tiled: Default::default(),
            read_tile: Default::default(),
            count_valid: Default::default(),
            count_tiled: Default::default(),
            count_tile: Default::default(),
            count_raw: Default::default(),
            sel_raw: Default::default(),
            sel_last: Default::default(),
            sel_alt: Default::default(),
            sel_nontiled: Default::default(),
            alt_next: Default::default(),
            wr_valid: Default::default(),
            wr_tile: Default::default(),
            wr_count: Default::default(),
            wr_next: Default::default(),
            written_valid: Default::default(),
            written_tile: Default::default(),
            written_next: Default::default(),
            nontiled_next: Default::default(),
            release_valid_reg: Default::default(),
            release_tiled_reg: Default::default(),
            release_tile_reg: Default::default(),
            count_written: Default::default(),
            count_written_next: Default::default(),
            count_reached: Default::default(),
            other_written: Default::default(),
            other_written_next: Default::default(),
            raw_written: Default::default(),
            raw_written_next: Default::default(),
            hit_last: Default::default(),
            hit_older: Default::default(),
            hit_oldest: Default::default(),
            count_index: std::array::from_fn(|k| Constant::new(bits::<4>(k as u64))),
            count_succ: std::array::from_fn(|k| Constant::new(bits::<4>(succ(k, 1, PIPES)))),
            count_succ2: std::array::from_fn(|k| Constant::new(bits::<4>(succ(k, 2, PIPES)))),
            take_token: Default::default(),
            source_index: std::array::from_fn(|i| Constant::new(bits::<SRC_BITS>(i as u64))),
            last_tile: Constant::new(bits::<TILE_BITS>((MAX_TILES - 1) as u64)),
            kind_prim: Constant::new(bits::<2>(KIND_PRIM)),
            kind_tiled: Constant::new(bits::<2>(KIND_TILED_BARRIER)),
        }
    }
}

/// (k + step) mod `pipes` for a count k < `pipes`; 0 for a word no count reaches.
fn succ(k: usize, step: usize, pipes: usize) -> u64 {
    if k < pipes {
        ((k + step) % pipes) as u64
    } else {
        0
    }
}

impl<const PIPES: usize, const SRC_BITS: usize> Logic for BarrierCounter<PIPES, SRC_BITS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            clearing,
            clear_tile,
            in_valid,
            in_source,
            read_valid,
            read_tiled,
            read_tile,
            count_valid,
            count_tiled,
            count_tile,
            count_raw,
            sel_raw,
            sel_last,
            sel_alt,
            sel_nontiled,
            alt_next,
            wr_valid,
            wr_tile,
            wr_count,
            wr_next,
            written_valid,
            written_tile,
            written_next,
            nontiled_next,
            release_valid_reg,
            release_tiled_reg,
            release_tile_reg
        );
        clock!(self, clock, arbiter, tile_counts);
        self.arbiter.reset.next = self.reset.val();
        for i in 0..PIPES {
            self.arbiter.req_valid[i].next = self.token_valid[i].val();
            self.arbiter.req_data[i].next = self.token[i].val();
            self.token_ready[i].next = self.arbiter.req_ready[i].val();
        }
        for i in 0..PIPES {
            self.in_token[i].clock.next = self.clock.val();
            self.in_token[i].d.next = self.token[i].val();
        }
        self.token_source.next = self.arbiter.grant_source.val();
        // Stage 2: count the token; register its new count for the write, or release.
        self.raw_written.next = bits::<4>(0);
        self.raw_written_next.next = bits::<4>(0);
        for k in 0..16 {
            if self.count_raw.q.val() == self.count_index[k].val() {
                self.raw_written.next = self.count_succ[k].val();
                self.raw_written_next.next = self.count_succ2[k].val();
            }
        }
        self.other_written.next = bits::<4>(0);
        if self.sel_last.q.val() {
            self.other_written.next = self.wr_next.q.val();
        }
        if self.sel_alt.q.val() {
            self.other_written.next = self.alt_next.q.val();
        }
        if self.sel_nontiled.q.val() {
            self.other_written.next = self.nontiled_next.q.val();
        }
        self.other_written_next.next = bits::<4>(0);
        for k in 0..16 {
            if self.other_written.val() == self.count_index[k].val() {
                self.other_written_next.next = self.count_succ[k].val();
            }
        }
        self.count_written.next = self.other_written.val();
        self.count_written_next.next = self.other_written_next.val();
        if self.sel_raw.q.val() {
            self.count_written.next = self.raw_written.val();
            self.count_written_next.next = self.raw_written_next.val();
        }
        // The count went back to 0: it reached `PIPES`.
        self.count_reached.next = !self.count_written.val().any();
        self.release_valid_reg.d.next = self.count_valid.q.val() & self.count_reached.val();
        self.release_tiled_reg.d.next = self.count_tiled.q.val();
        self.release_tile_reg.d.next = self.count_tile.q.val();
        self.wr_valid.d.next = self.count_valid.q.val() & self.count_tiled.q.val();
        self.wr_tile.d.next = self.count_tile.q.val();
        self.wr_count.d.next = self.count_written.val();
        self.wr_next.d.next = self.count_written_next.val();
        if self.count_valid.q.val() & !self.count_tiled.q.val() {
            self.nontiled_next.d.next = self.count_written_next.val();
        }
        // Write stage: the count decided last cycle goes into the block RAM from registers.
        self.tile_counts.write_address.next = self.wr_tile.q.val();
        self.tile_counts.write_data.next = self.wr_count.q.val();
        self.tile_counts.write_enable.next = self.wr_valid.q.val();
        self.written_valid.d.next = self.wr_valid.q.val();
        self.written_tile.d.next = self.wr_tile.q.val();
        self.written_next.d.next = self.wr_next.q.val();
        // Stage 1: the word read for the next token, and which token ahead counted its tile
        // last: the one in stage 2 (its count is decided this cycle), the one in the write
        // stage, or the one written at this edge (their successors are registers now).
        self.count_raw.d.next = self.tile_counts.read_data.val();
        self.hit_last.next = self.count_valid.q.val()
            & self.count_tiled.q.val()
            & (self.count_tile.q.val() == self.read_tile.q.val());
        self.hit_older.next =
            self.wr_valid.q.val() & (self.wr_tile.q.val() == self.read_tile.q.val());
        self.hit_oldest.next =
            self.written_valid.q.val() & (self.written_tile.q.val() == self.read_tile.q.val());
        self.alt_next.d.next = self.written_next.q.val();
        if self.hit_older.val() {
            self.alt_next.d.next = self.wr_next.q.val();
        }
        self.sel_nontiled.d.next = !self.read_tiled.q.val();
        self.sel_last.d.next = self.read_tiled.q.val() & self.hit_last.val();
        self.sel_alt.d.next = self.read_tiled.q.val()
            & !self.hit_last.val()
            & (self.hit_older.val() | self.hit_oldest.val());
        self.sel_raw.d.next = self.read_tiled.q.val()
            & !self.hit_last.val()
            & !self.hit_older.val()
            & !self.hit_oldest.val();
        self.count_valid.d.next = self.read_valid.q.val();
        self.count_tiled.d.next = self.read_tiled.q.val();
        self.count_tile.d.next = self.read_tile.q.val();
        // Stage 0: read the count of the token in the input stage.
        self.in_taken.next = self.in_token[0].q.val();
        for i in 0..PIPES {
            if self.in_source.q.val() == self.source_index[i].val() {
                self.in_taken.next = self.in_token[i].q.val();
            }
        }
        self.in_kind.next = self.in_taken.val().kind;
        self.in_tile.next = self.in_taken.val().tile;
        self.in_tiled.next = self.in_kind.val() == self.kind_tiled.val();
        self.tile_counts.read_address.next = self.in_tile.val();
        self.read_valid.d.next = self.in_valid.q.val();
        self.read_tiled.d.next = self.in_tiled.val();
        self.read_tile.d.next = self.in_tile.val();
        // Input stage: take the next token (none during the clear sweep).
        self.take_token.next = self.arbiter.grant_valid.val() & !self.clearing.q.val();
        self.arbiter.grant_ready.next = !self.clearing.q.val();
        self.in_valid.d.next = self.take_token.val();
        self.in_source.d.next = self.arbiter.grant_source.val();
        // The clear sweep after reset.
        if self.clearing.q.val() {
            self.tile_counts.write_address.next = self.clear_tile.q.val();
            self.tile_counts.write_data.next = bits::<4>(0);
            self.tile_counts.write_enable.next = true;
            self.clear_tile.d.next = self.clear_tile.q.val() + bits::<TILE_BITS>(1);
            if self.clear_tile.q.val() == self.last_tile.val() {
                self.clearing.d.next = false;
            }
        }
        self.release_valid.next = self.release_valid_reg.q.val();
        self.release_tiled.next = self.release_tiled_reg.q.val();
        self.release_tile.next = self.release_tile_reg.q.val();
        self.ready.next = !self.clearing.q.val();
        self.violation.next = self.arbiter.violation.val()
            | (self.in_valid.q.val() & (self.in_kind.val() == self.kind_prim.val()));
        if self.reset.val() {
            self.clearing.d.next = true;
            self.clear_tile.d.next = bits::<TILE_BITS>(0);
            self.in_valid.d.next = false;
            self.read_valid.d.next = false;
            self.count_valid.d.next = false;
            self.wr_valid.d.next = false;
            self.written_valid.d.next = false;
            self.nontiled_next.d.next = self.count_succ[0].val();
            self.release_valid_reg.d.next = false;
            self.release_tiled_reg.d.next = false;
            self.release_tile_reg.d.next = bits::<TILE_BITS>(0);
        }
    }
}
