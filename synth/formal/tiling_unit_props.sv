// Formal properties of `tiling_unit` (TilingUnit as exported, its four block RAMs abstracted:
// every read is a free value; requirements BR-3, BR-4 and the unit's doc comment), run by
// `ppu formal tiling_unit`:
// - OUT_HOLD (output handshake towards setup): an item offered and not taken is offered again
//   in the next cycle, unchanged.
// - CAPACITY (BR-3, `bin_capacity`): every flush reports at most `bin_capacity` entries, and a
//   `threshold` flush exactly `bin_capacity` (the entry that makes the count reach it is binned,
//   then the unit flushes).
// - BARRIER (BR-4): a non-tiled barrier goes down the pipeline only after a flush with reason
//   `barrier` has started, once per such flush, and before the next flush starts.
// - TILE_ORDER (BR-4, the unit's flush order): per cache tile, the unit sends the tile's
//   primitive entries and every tiled barrier in input order (checked with the block RAMs cut
//   to `RAM_WORDS` words, `tiles` <= `TILES_MAX` and `bin_capacity` <= `RAM_WORDS`, so every
//   address stays inside the cut RAMs and the cut is exact).
// Item layout (ScreenItem): kind [1:0] (0 primitive, 1 tiled barrier, 2 non-tiled barrier,
// 3 end), prim [17:2], tile [25:18]. Flush reasons: 0 threshold, 1 barrier, 2 end.
// observe: state$q bin_count$q bin_count_plus1$q bin_count_plus2$q bin_last$q flush_reason_reg$q
`default_nettype none
module tiling_unit_props(
    input wire clock,
    input wire reset,
    input wire [8:0] tiles,
    input wire [8:0] bin_capacity,
    input wire in_valid,
    input wire [25:0] in_item,
    input wire out_ready
);
`include "observe.vh"
    wire in_ready, out_valid, flush_valid, idle, violation;
    wire [25:0] out_item;
    wire [1:0] flush_reason;
    wire [8:0] flush_entries;
    tiling_unit dut(
        .clock(clock), .reset(reset), .tiles(tiles), .bin_capacity(bin_capacity),
        .in_valid(in_valid), .in_ready(in_ready), .in_item(in_item),
        .out_valid(out_valid), .out_ready(out_ready), .out_item(out_item),
        .flush_valid(flush_valid), .flush_reason(flush_reason), .flush_entries(flush_entries),
        .idle(idle), .violation(violation) `OBSERVE
    );

    // Environment: reset first; `bin_capacity` is configuration: in 1..=256 (the documented
    // range) and steady. Every other input is free.
    `include "reset_first.vh"
    always @(*) assume(bin_capacity >= 9'd1 && bin_capacity <= 9'd256);
    always @(posedge clock) if (past_valid) assume(bin_capacity == $past(bin_capacity));
    wire live = past_valid && !reset;

`ifdef P_OUT_HOLD
    always @(posedge clock) if (past_valid && !$past(reset) && !reset)
        if ($past(out_valid && !out_ready))
            assert(out_valid && out_item == $past(out_item));
`endif

`ifdef P_CAPACITY
    always @(*) if (live && flush_valid) begin
        assert(flush_entries <= bin_capacity);
        if (flush_reason == 2'd0) assert(flush_entries == bin_capacity);
    end
`ifndef MUTANT
    // Helper invariants: the count's companions, and the count against the capacity per state
    // (0 accept, 1 flush start).
    always @(*) if (live) begin
        assert(obs_state_q <= 4'd9);
        assert(obs_bin_count_plus1_q == obs_bin_count_q + 9'd1);
        assert(obs_bin_count_plus2_q == obs_bin_count_q + 9'd2);
        assert(obs_bin_last_q == (obs_bin_count_q + 9'd1 == bin_capacity));
        if (obs_state_q == 4'd0) assert(obs_bin_count_q < bin_capacity);
        else assert(obs_bin_count_q <= bin_capacity);
        if (obs_state_q != 4'd0 && obs_flush_reason_reg_q == 2'd0)
            assert(obs_bin_count_q == bin_capacity);
    end
`endif
`endif

`ifdef P_BARRIER
    // A new offer: the output holds an item it did not hold (or held and handed over) last cycle.
    reg f_was_offered = 1'b0, f_owed = 1'b0;
    always @(posedge clock) f_was_offered <= !reset && out_valid && !out_ready;
    wire new_offer = out_valid && !f_was_offered;
    wire new_nontiled = new_offer && out_item[1:0] == 2'd2;
    always @(posedge clock)
        if (reset) f_owed <= 1'b0;
        else if (flush_valid) f_owed <= flush_reason == 2'd1;
        else if (new_nontiled) f_owed <= 1'b0;
    always @(*) if (live) begin
        if (new_nontiled) assert(f_owed);
        if (flush_valid) assert(!f_owed);
    end
`ifndef MUTANT
    // Helper invariant: a `barrier` flush under way owes its barrier (states other than 0
    // accept and 1 flush start), and still in the accept state that follows its last state,
    // while its barrier is offered for the first cycle (only there: the last state of a
    // `barrier` flush loads it and moves to accept).
    always @(*) if (live) begin
        assert(obs_state_q <= 4'd9);
        if (new_nontiled) assert(obs_state_q == 4'd0 && obs_flush_reason_reg_q == 2'd1);
        assert(f_owed == (obs_flush_reason_reg_q == 2'd1 && (
            (obs_state_q != 4'd0 && obs_state_q != 4'd1) || (obs_state_q == 4'd0 && new_nontiled))));
    end
`endif
`endif

`ifdef P_TILE_ORDER
    // Cache tile T's sequence (T any tile below `tiles`): its primitive entries and every tiled
    // barrier, in input order. A flush sends, tile by tile, each tile's entries between the
    // barriers they came between, and each tiled barrier once per tile (with that tile), so at
    // the output the items with tile T (entries, and tiled barriers with tile T) are T's
    // sequence: the M-th to leave is the M-th taken, with its kind and (a primitive) its prim;
    // none leaves that was not taken; and whenever the unit is `idle` every one has left.
    (* anyconst *) reg [7:0] T;
    (* anyconst *) reg [4:0] N;
    // The cut: `tiles` and the capacity keep every tile and entry address below RAM_WORDS.
    always @(*) assume(tiles >= 9'd1 && tiles <= `TILES_MAX && {1'b0, T} < tiles
        && bin_capacity <= `RAM_WORDS);
    always @(posedge clock) if (past_valid) assume(tiles == $past(tiles));
    // A primitive's entry names a tile of the screen (BR-2). Tags (data independence: the unit
    // stores `prim` and never decides on it): T's primitives carry their position in T's
    // sequence, every other item 0.
    reg [4:0] in_seq_n = 5'd0, out_seq_n = 5'd0;
    reg [17:0] tracked = 18'd0;
    wire in_seq = (in_item[1:0] == 2'd0 && in_item[25:18] == T) || in_item[1:0] == 2'd1;
    always @(*) if (in_valid) begin
        if (in_item[1:0] == 2'd0) assume({1'b0, in_item[25:18]} < tiles);
        if (in_item[1:0] == 2'd0 && in_item[25:18] == T) assume(in_item[17:2] == {11'd0, in_seq_n});
        else assume(in_item[17:2] == 16'd0);
    end
    wire f_in_take = live && in_valid && in_ready;
    wire f_out_take = live && out_valid && out_ready;
    wire out_seq = out_item[25:18] == T && (out_item[1:0] == 2'd0 || out_item[1:0] == 2'd1);
    always @(posedge clock)
        if (reset) begin
            in_seq_n <= 5'd0;
            out_seq_n <= 5'd0;
        end else begin
            if (f_in_take && in_seq) begin
                if (in_seq_n == N) tracked <= in_item[17:0];
                in_seq_n <= in_seq_n + 5'd1;
            end
            if (f_out_take && out_seq) out_seq_n <= out_seq_n + 5'd1;
        end
    always @(*) if (live) begin
        if (f_out_take && out_seq) begin
            assert(out_seq_n < in_seq_n);
            if (out_seq_n == N) assert(out_item[17:0] == tracked);
        end
        if (idle) assert(out_seq_n == in_seq_n);
    end
`endif
endmodule
`default_nettype wire
