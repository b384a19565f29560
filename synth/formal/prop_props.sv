// Formal properties of `prop` (Prop: barrier flags, 8-slot hold queue; SPEC BR-4..BR-6), run by
// `ppu formal prop`. One P_<PROPERTY> is defined per run.
//
// BR-4 / BR-5: a barrier passing PROP sets its flag (non-tiled, or its cache tile's); while the
// flag is set PROP holds the work behind it (everything for the non-tiled flag, that tile's
// items for a tile flag) until the back end's release clears it. BR-6: no item after a barrier
// passes PROP before that barrier's release. The unit promises each cache tile's items leave in
// arrival (API) order (its doc comment), so "behind a barrier" is counted at the output: an item
// of tile T may leave only when every barrier of T that left before it has been released.
//
// Tracked: one cache tile T (any tile, a free constant) and, for ORDER, the N-th item of T to
// arrive (N free). Items of tile T are primitives and tiled barriers with tile T (a non-tiled
// barrier's tile field is unused). Stated on the ports only; checked by BMC (the runner's depth,
// justified in `sim/src/barrier/formal.rs`).
`default_nettype none
module prop_props(
    input wire clock,
    input wire reset,
    input wire in_valid,
    input wire [25:0] in_item,
    input wire out_ready,
    input wire release_valid,
    input wire release_tiled,
    input wire [7:0] release_tile
);
    localparam [1:0] KIND_PRIM = 2'd0, KIND_TILED = 2'd1, KIND_NONTILED = 2'd2, KIND_END = 2'd3;
    wire in_ready, out_valid, busy, violation;
    wire [25:0] out_item;
    wire [3:0] hold_fill;
    prop dut(
        .clock(clock), .reset(reset), .in_valid(in_valid), .in_ready(in_ready),
        .in_item(in_item), .out_valid(out_valid), .out_ready(out_ready), .out_item(out_item),
        .release_valid(release_valid), .release_tiled(release_tiled),
        .release_tile(release_tile), .hold_fill(hold_fill), .busy(busy),
        .violation(violation)
    );

    (* anyconst *) reg [7:0] T;
    (* anyconst *) reg [3:0] N;

    // Item fields (ScreenItem: kind 1:0, prim 17:2, tile 25:18).
    function is_t(input [25:0] item, input [7:0] tile);
        is_t = (item[1:0] == KIND_PRIM || item[1:0] == KIND_TILED) && item[25:18] == tile;
    endfunction

    // Items of T taken since the reset, and given out.
    reg [3:0] in_t = 4'd0, out_t = 4'd0;

    // Environment (SPEC X-2): reset first; the producer holds valid and its item until the
    // transfer; no end marker reaches PROP (BR-8's bad input, flagged by `violation`); the back
    // end releases tile T (non-tiled) only for a barrier of T (non-tiled) that has left PROP and
    // is not released yet (it reaches the back end after ROP).
    `include "reset_first.vh"
    always @(posedge clock)
        if (past_valid && $past(in_valid && !in_ready)) begin
            assume(in_valid);
            assume(in_item == $past(in_item));
        end
    always @(*) if (in_valid) assume(in_item[1:0] != KIND_END);
    // Tags (data independence: PROP copies `prim` and never decides on it): an item of T
    // carries its arrival index among T's items in `prim`, every other item 0. ORDER then tells
    // the items of T apart, and the solver has no free 16-bit payload per cycle.
    always @(*) if (in_valid) begin
        if (is_t(in_item, T)) assume(in_item[17:2] == {12'd0, in_t});
        else assume(in_item[17:2] == 16'd0);
    end

    wire in_take = !reset && in_valid && in_ready;
    wire out_take = !reset && out_valid && out_ready;
    wire rel_t = !reset && release_valid && release_tiled && release_tile == T;
    wire rel_n = !reset && release_valid && !release_tiled;

    // Counts since the reset (saturating; the BMC depth keeps them small): items of T taken and
    // given out, barriers of T (non-tiled) given out and released.
    reg [3:0] out_bar_t = 4'd0, rels_t = 4'd0, out_bar_n = 4'd0, rels_n = 4'd0;
    // The tracked item (the N-th of T to arrive).
    reg [25:0] tracked = 26'd0;
    always @(posedge clock) begin
        if (reset) begin
            in_t <= 4'd0;
            out_t <= 4'd0;
            out_bar_t <= 4'd0;
            rels_t <= 4'd0;
            out_bar_n <= 4'd0;
            rels_n <= 4'd0;
        end else begin
            if (in_take && is_t(in_item, T)) begin
                if (in_t == N) tracked <= in_item;
                if (in_t != 4'hf) in_t <= in_t + 4'd1;
            end
            if (out_take && is_t(out_item, T) && out_t != 4'hf) out_t <= out_t + 4'd1;
            if (out_take && out_item[1:0] == KIND_TILED && out_item[25:18] == T
                && out_bar_t != 4'hf) out_bar_t <= out_bar_t + 4'd1;
            if (out_take && out_item[1:0] == KIND_NONTILED && out_bar_n != 4'hf)
                out_bar_n <= out_bar_n + 4'd1;
            if (rel_t && rels_t != 4'hf) rels_t <= rels_t + 4'd1;
            if (rel_n && rels_n != 4'hf) rels_n <= rels_n + 4'd1;
        end
    end
    always @(*) if (past_valid) begin
        if (rel_t) assume(out_bar_t > rels_t);
        if (rel_n) assume(out_bar_n > rels_n);
    end

`ifdef P_NO_EARLY
    // BR-4, BR-5, BR-6: an item of tile T leaves only when every barrier of T that left before
    // it has been released (a release given in an earlier cycle); any item leaves only when
    // every non-tiled barrier that left before it has been released.
    always @(*) if (past_valid && out_take) begin
        if (is_t(out_item, T)) assert(rels_t >= out_bar_t);
        assert(rels_n >= out_bar_n);
    end
`endif

`ifdef P_ORDER
    // BR-6, BR-8 (nothing lost or duplicated), the unit's per-tile order: the items of tile T
    // leave in the order they arrived, each once: the N-th to leave is the N-th that arrived,
    // unchanged, and no item of T leaves that has not arrived.
    always @(*) if (past_valid && out_take && is_t(out_item, T)) begin
        assert(out_t < in_t);
        if (out_t == N) assert(out_item == tracked);
    end
`endif
endmodule
`default_nettype wire
