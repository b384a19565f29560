// Formal properties of `prop` (Prop: barrier flags, 8-slot hold queue; SPEC BR-4..BR-6), run by
// `ppu formal prop`. One P_<PROPERTY> is defined per run.
//
// BR-4 / BR-5: a barrier passing PROP sets its flag (non-tiled, or its cache tile's); while the
// flag is set PROP holds the work behind it (everything for the non-tiled flag, that tile's
// items for a tile flag) until the back end's release clears it. BR-6: no item after a barrier
// passes PROP before that barrier's release. The unit promises each cache tile's items leave in
// arrival (API) order (its doc comment), so "behind a barrier" is counted at the output: an item
// of tile T may leave only when every barrier of T that left before it has been released. A
// barrier of T is itself an item of T, so at most one barrier of T (and one non-tiled barrier)
// is out and not released at any time, which NO_EARLY asserts: one bit per flag (`open_t`,
// `open_n`) is the count.
//
// Tracked: one cache tile T (any tile, a free constant) and, for ORDER, the N-th item of T to
// arrive (N free). Items of tile T are primitives and tiled barriers with tile T (a non-tiled
// barrier's tile field is unused). Stated on the ports; both are proved by k-induction with
// helper invariants over the unit's registers (the observed wires below).
// observe: tile_flags$*$q nontiled_flag$q pending_set_valid$q pending_set_tile$q arr_valid$*$q arr_item$*$q arr_tile$*$q arr_byte$*$q arr_mask$*$q arr_sel$*$q arr_stage_tile$*$q arr_relhit$*$q arr_pendhit$*$q arr_prev_relhit$*$q arr_prev_pendhit$*$q rel_valid$q rel_tiled$q rel_tile$q stage_valid$q stage_item$q stage_tile$q stage_flag$q stage_relhit$q stage_pendhit$q stage_free$q stage_stop$q hold_kind$*$q hold_prim$*$q hold_valid$*$q hold_tile$*$q hold_blocked$*$q hold_is_nontiled$*$q slot_relhit$*$q slot_pendhit$*$q hold_head_onehot$q hold_tail_onehot$q head_item$q head_go$q hold_count$q hold_empty$q hold_one$q hold_many$q hold_full$q hold_nontiled$q nontiled_one$q nontiled_many$q out_valid_reg$q arr_hold_match0$*$q arr_hold_match1$*$q arr_queued$*$q stage_queued$q
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
`include "observe.vh"
    localparam [1:0] KIND_PRIM = 2'd0, KIND_TILED = 2'd1, KIND_NONTILED = 2'd2, KIND_END = 2'd3;
    wire in_ready, out_valid, busy, violation;
    wire [25:0] out_item;
    wire [3:0] hold_fill;
    prop dut(
        .clock(clock), .reset(reset), .in_valid(in_valid), .in_ready(in_ready),
        .in_item(in_item), .out_valid(out_valid), .out_ready(out_ready), .out_item(out_item),
        .release_valid(release_valid), .release_tiled(release_tiled),
        .release_tile(release_tile), .hold_fill(hold_fill), .busy(busy),
        .violation(violation) `OBSERVE
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

    // Items of T taken and given out since the reset, mod 16 (at most 12 items are inside PROP
    // at once: two arrival slots, the stage, eight hold slots, the output register, so an index
    // mod 16 names one of them), and the tracked item (the N-th of T to arrive, mod 16).
    reg [25:0] tracked = 26'd0;
    // A barrier of T (non-tiled) has left and is not released yet.
    reg open_t = 1'b0, open_n = 1'b0;
    always @(posedge clock) begin
        if (reset) begin
            in_t <= 4'd0;
            out_t <= 4'd0;
            open_t <= 1'b0;
            open_n <= 1'b0;
        end else begin
            if (in_take && is_t(in_item, T)) begin
                if (in_t == N) tracked <= in_item;
                in_t <= in_t + 4'd1;
            end
            if (out_take && is_t(out_item, T)) out_t <= out_t + 4'd1;
            if (rel_t) open_t <= 1'b0;
            if (rel_n) open_n <= 1'b0;
            if (out_take && out_item[1:0] == KIND_TILED && out_item[25:18] == T) open_t <= 1'b1;
            if (out_take && out_item[1:0] == KIND_NONTILED) open_n <= 1'b1;
        end
    end
    always @(*) if (past_valid) begin
        if (rel_t) assume(open_t);
        if (rel_n) assume(open_n);
    end

`ifdef P_NO_EARLY
    // BR-4, BR-5, BR-6: an item of tile T leaves only when every barrier of T that left before
    // it has been released (a release given in an earlier cycle); any item leaves only when
    // every non-tiled barrier that left before it has been released.
    always @(*) if (past_valid && out_take) begin
        if (is_t(out_item, T)) assert(!open_t);
        assert(!open_n);
    end
`endif

`ifndef MUTANT
    // Helper invariants (k = 2; NO_EARLY's flag copies under P_NO_EARLY). Every cached copy of a
    // flag is the flag (read as `flags[T]`, under the copy's tile being T: one 256-way select
    // shared by all, not one per copy): the staged item's
    // (`stage_flag`, with this cycle's release and flag write as `stage_relhit` and
    // `stage_pendhit`), each hold slot's (`hold_blocked`, `slot_*hit`) and each arrival slot's
    // (its flag byte is last cycle's, corrected by `arr_prev_*hit`), for items of T (a release
    // of another tile is not constrained, so its copies may disagree, which T's items never
    // read); the hold queue is a ring (one-hot head and tail, valid slots from the head, the
    // counts and their compares, the head item a copy of the head slot); `head_go` only for a
    // head free to leave; a free staged item only without a non-tiled flag or barrier queued.
    // Tying the flags to the barriers given out: T's flag (or its pending write) is set exactly
    // while a barrier of T is in the output register, out and not released, or released this
    // cycle (the release is registered); the non-tiled flag likewise; and no item of T (no
    // item at all) sits in the output register while a barrier of T (a non-tiled one) is out.
    wire [255:0] flags = obs_tile_flags_q_all;
    function pend(input [7:0] t);
        pend = obs_pending_set_valid_q && obs_pending_set_tile_q == t;
    endfunction
    function relp(input [7:0] t);
        relp = obs_rel_valid_q && obs_rel_tiled_q && obs_rel_tile_q == t;
    endfunction
    wire relp_n = obs_rel_valid_q && !obs_rel_tiled_q;
    wire outbar_t = obs_out_valid_reg_q && out_item[1:0] == KIND_TILED && out_item[25:18] == T;
    wire outbar_n = obs_out_valid_reg_q && out_item[1:0] == KIND_NONTILED;
    wire [7:0] hv = obs_hold_valid_q_all;
    wire [7:0] hn = obs_hold_is_nontiled_q_all;
    wire [7:0] hb = obs_hold_blocked_q_all;
    wire [7:0] hrel = obs_slot_relhit_q_all;
    wire [7:0] hpend = obs_slot_pendhit_q_all;
    wire [15:0] hk = obs_hold_kind_q_all;
    wire [127:0] hp = obs_hold_prim_q_all;
    wire [63:0] ht = obs_hold_tile_q_all;
    function [3:0] idx(input [7:0] onehot);
        integer j;
        begin
            idx = 4'd0;
            for (j = 0; j < 8; j = j + 1) if (onehot[j]) idx = j;
        end
    endfunction
    function [3:0] pop(input [7:0] v);
        integer j;
        begin
            pop = 4'd0;
            for (j = 0; j < 8; j = j + 1) pop = pop + v[j];
        end
    endfunction
    wire [2:0] h = idx(obs_hold_head_onehot_q);
    wire [2:0] tl = idx(obs_hold_tail_onehot_q);
    wire [3:0] cnt = obs_hold_count_q;
    genvar gi;
    generate for (gi = 0; gi < 8; gi = gi + 1) begin : slot
        wire [2:0] off = gi - h;
        always @(*) if (past_valid) begin
            assert(hv[gi] == ({1'b0, off} < cnt));
            if (hv[gi]) assert(hn[gi] == (hk[2*gi +: 2] == KIND_NONTILED));
`ifdef P_NO_EARLY
            if (hv[gi] && ht[8*gi +: 8] == T) begin
                assert(hb[gi] == flags[T]);
                assert(hrel[gi] == relp(T));
                assert(hpend[gi] == pend(T));
            end
`endif
        end
    end endgenerate
    generate for (gi = 0; gi < 2; gi = gi + 1) begin : arr
        wire av = obs_arr_valid_q_all[gi];
        wire [25:0] ai = obs_arr_item_q_all[26*gi +: 26];
        wire [7:0] at = obs_arr_tile_q_all[8*gi +: 8];
        wire [7:0] ab = obs_arr_byte_q_all[8*gi +: 8];
        always @(*) if (past_valid) begin
            assert(at == ai[25:18]);
            assert(obs_arr_mask_q_all[8*gi +: 8] == (8'd1 << at[2:0]));
            assert(obs_arr_sel_q_all[32*gi +: 32] == (32'd1 << at[7:3]));
            if (av) assert(obs_arr_stage_tile_q_all[gi] == (at == obs_stage_tile_q));
`ifdef P_NO_EARLY
            if (av && at == T) begin
                assert(flags[T] == ((ab[T[2:0]] && !obs_arr_prev_relhit_q_all[gi])
                    || obs_arr_prev_pendhit_q_all[gi]));
                assert(obs_arr_relhit_q_all[gi] == relp(T));
                assert(obs_arr_pendhit_q_all[gi] == pend(T));
            end
`endif
        end
    end endgenerate
    always @(*) if (past_valid) begin
        // the hold queue
        assert(obs_hold_head_onehot_q != 0 && (obs_hold_head_onehot_q & (obs_hold_head_onehot_q - 8'd1)) == 0);
        assert(obs_hold_tail_onehot_q != 0 && (obs_hold_tail_onehot_q & (obs_hold_tail_onehot_q - 8'd1)) == 0);
        assert(cnt <= 4'd8);
        assert(pop(hv) == cnt);
        assert(tl == h + cnt[2:0]);
        assert(obs_hold_empty_q == (cnt == 4'd0));
        assert(obs_hold_one_q == (cnt == 4'd1));
        assert(obs_hold_many_q == (cnt > 4'd1));
        assert(obs_hold_full_q == (cnt == 4'd8));
        assert(obs_hold_nontiled_q == pop(hv & hn));
        assert(obs_nontiled_one_q == (obs_hold_nontiled_q == 4'd1));
        assert(obs_nontiled_many_q == (obs_hold_nontiled_q > 4'd1));
        if (cnt != 4'd0) assert(obs_head_item_q == {ht[8*h +: 8], hp[16*h +: 16], hk[2*h +: 2]});
        if (obs_head_go_q) begin
            assert(cnt != 4'd0 && !obs_nontiled_flag_q && !obs_pending_set_valid_q);
            assert(hn[h] || !hb[h]);
        end
        // the arrival slots and the stage
        assert(!obs_arr_valid_q_all[1] || obs_arr_valid_q_all[0]);
        assert(obs_stage_tile_q == obs_stage_item_q[25:18]);
        assert(obs_stage_valid_q == (obs_stage_free_q || obs_stage_stop_q));
`ifdef P_NO_EARLY
        if (obs_stage_valid_q && obs_stage_tile_q == T) begin
            assert(obs_stage_flag_q == flags[T]);
            assert(obs_stage_relhit_q == relp(T));
            assert(obs_stage_pendhit_q == pend(T));
        end
`endif
        if (obs_stage_valid_q && obs_stage_free_q)
            assert(!obs_nontiled_flag_q && obs_hold_nontiled_q == 4'd0);
`ifdef P_NO_EARLY
        // the flags against the barriers given out (tile T, non-tiled)
        assert((flags[T] || pend(T)) == (open_t || outbar_t || relp(T)));
        assert(!(open_t && outbar_t) && !(open_t && relp(T)) && !(outbar_t && relp(T)));
        if (pend(T)) assert(outbar_t && !flags[T]);
        if (obs_out_valid_reg_q && is_t(out_item, T)) assert(!open_t && !relp(T));
        assert(obs_nontiled_flag_q == (open_n || outbar_n || relp_n));
        assert(!(open_n && outbar_n) && !(open_n && relp_n) && !(outbar_n && relp_n));
        if (obs_out_valid_reg_q) assert(!open_n && !relp_n);
`endif
    end
`endif

`ifdef P_ORDER
    // BR-6, BR-8 (nothing lost or duplicated), the unit's per-tile order: the items of tile T
    // leave in the order they arrived, each once and unchanged: the M-th to leave carries
    // arrival index M (mod 16), the N-th to leave is the N-th that arrived, and none leaves
    // while none is inside.
    always @(*) if (past_valid && out_take && is_t(out_item, T)) begin
        assert(out_t != in_t);
        assert(out_item[17:2] == {12'd0, out_t});
        if (out_t == N) assert(out_item == tracked);
    end
`ifndef MUTANT
    // Helper invariants (k = 2): T's items inside PROP are, oldest first, the one in the output
    // register, those in the hold ring from its head, the staged one and those in the arrival
    // slots 0 and 1; their count is in_t - out_t and each carries its index, out_t plus the
    // items of T ahead of it (the tracked one equal to `tracked`). A staged or arriving item of
    // T with an item of T in the ring is marked queued (the staged one is held), so none
    // overtakes the ring; the arrival slots' tile matches against the hold slots are current.
    wire oT = obs_out_valid_reg_q && is_t(out_item, T);
    wire [7:0] rT;
    wire [3:0] ringT = pop(rT);
    wire sT = obs_stage_valid_q && is_t(obs_stage_item_q, T);
    wire [25:0] a0 = obs_arr_item_q_all[25:0];
    wire [25:0] a1 = obs_arr_item_q_all[51:26];
    wire aT0 = obs_arr_valid_q_all[0] && is_t(a0, T);
    wire aT1 = obs_arr_valid_q_all[1] && is_t(a1, T);
    wire [3:0] base_ring = out_t + oT;
    wire [3:0] tag_s = base_ring + ringT;
    wire [3:0] tag_a0 = tag_s + sT;
    wire [3:0] tag_a1 = tag_a0 + aT0;
    generate for (gi = 0; gi < 8; gi = gi + 1) begin : oslot
        wire [25:0] it = {ht[8*gi +: 8], hp[16*gi +: 16], hk[2*gi +: 2]};
        assign rT[gi] = hv[gi] && is_t(it, T);
        wire [2:0] off = gi - h;
        wire [7:0] ahead;
        genvar gj;
        for (gj = 0; gj < 8; gj = gj + 1) begin : a
            wire [2:0] offj = gj - h;
            assign ahead[gj] = rT[gj] && offj < off;
        end
        always @(*) if (past_valid) begin
            if (rT[gi]) begin
                assert(hp[16*gi +: 16] == {12'd0, base_ring + pop(ahead)});
                if (hp[16*gi +: 4] == N) assert(it == tracked);
            end
            assert(obs_arr_hold_match0_q_all[gi] == (ht[8*gi +: 8] == a0[25:18]));
            assert(obs_arr_hold_match1_q_all[gi] == (ht[8*gi +: 8] == a1[25:18]));
        end
    end endgenerate
    always @(*) if (past_valid) begin
        assert(in_t - out_t == oT + ringT + sT + aT0 + aT1);
        if (oT) begin
            assert(out_item[17:2] == {12'd0, out_t});
            if (out_t == N) assert(out_item == tracked);
        end
        if (sT) begin
            assert(obs_stage_item_q[17:2] == {12'd0, tag_s});
            if (tag_s == N) assert(obs_stage_item_q == tracked);
            if (ringT != 0) assert(obs_stage_queued_q && obs_stage_stop_q);
        end
        if (aT0) begin
            assert(a0[17:2] == {12'd0, tag_a0});
            if (tag_a0 == N) assert(a0 == tracked);
            if (ringT != 0) assert(obs_arr_queued_q_all[0]);
        end
        if (aT1) begin
            assert(a1[17:2] == {12'd0, tag_a1});
            if (tag_a1 == N) assert(a1 == tracked);
            if (ringT != 0) assert(obs_arr_queued_q_all[1]);
        end
        assert(!(obs_stage_free_q && obs_stage_stop_q));
    end
`endif
`endif
endmodule
`default_nettype wire
