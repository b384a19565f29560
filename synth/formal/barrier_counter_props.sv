// Formal properties of `barrier_counter` (BarrierCounter, PIPES = 2 or 4 pipelines; SPEC BR-4, BR-5),
// run by `ppu formal barrier_counter`. One P_<PROPERTY> is defined per run; the runner defines
// PIPES.
//
// BR-4 / BR-5: the back end counts barriers, one counter per cache tile (tiled) and one for the
// non-tiled barrier; when a count has a barrier from every pipeline (PIPES of them) it sends
// release for that tile (or non-tiled) to every PROP and starts again from 0. The unit's timing:
// a token taken in cycle t shows its release in cycle t+4.
//
// The block RAM of tile counts is abstracted in the formal copy of the Verilog (the runner's
// `verilog` for this unit): its read data is free ($anyseq) and this wrapper constrains it for
// one tracked cache tile T (any tile, a free constant): a read of T at a clock edge with no
// write of T at that edge returns the word last written to T (`word_t`, kept here from the
// RAM's write port). A read at the edge that writes T returns anything, as the iCE40/ECP5 block
// RAM without read-write check does. Every other tile's word is arbitrary: the properties hold
// whatever the RAM answers for other tiles, so they hold for the real RAM.
//
// After a reset the unit clears every tile's count (the sweep, 256 cycles, proved by SWEEP on
// the unit as exported); `word_t` starts at 0 at a reset for that reason. EARLY, ONCE and COUNT
// run on a formal copy whose sweep is cut to one tile (`last_tile` = 0), so that tokens are
// taken two cycles after a reset and the mutants fail within a few cycles; the cut changes
// nothing else.
//
// `arbiter.grant` is the choice of the RrArbiter sub-block, one-hot (a local of it, no port):
// the runner flattens the formal copy to reach it. "The choice is one-hot and names
// token_source" is the helper invariant that closes the induction at k = 2.
// observe: clearing$q clear_tile$q in_valid$q in_tiled in_tile read_valid$q read_tiled$q read_tile$q count_valid$q count_tiled$q count_tile$q count_raw$q sel_raw$q sel_last$q sel_alt$q sel_nontiled$q alt_next$q wr_valid$q wr_tile$q wr_count$q wr_next$q written_valid$q written_tile$q written_next$q nontiled_next$q release_valid_reg$q tile_counts$read_address tile_counts$read_data tile_counts$write_address tile_counts$write_data tile_counts$write_enable arbiter.grant
`default_nettype none
module barrier_counter_props(
    input wire clock,
    input wire reset,
    input wire [3:0] valid,
    input wire [9:0] token0, token1, token2, token3
);
`include "observe.vh"
    localparam [1:0] KIND_TILED = 2'd1, KIND_NONTILED = 2'd2;
    localparam [3:0] P = `PIPES;
    wire [3:0] ready;
`ifdef FOUR_PIPES
    wire [1:0] token_source;
`else
    wire [0:0] token_source;
    // Two pipelines: the other two requesters are absent.
    assign ready[3:2] = 2'b00;
    always @(*) assume(valid[3:2] == 2'b00);
`endif
    wire release_valid, release_tiled, ready_out, violation;
    wire [7:0] release_tile;
    barrier_counter dut(
        .clock(clock), .reset(reset),
        .token_valid$0(valid[0]), .token_valid$1(valid[1]),
        .token_ready$0(ready[0]), .token_ready$1(ready[1]),
        .token$0(token0), .token$1(token1),
`ifdef FOUR_PIPES
        .token_valid$2(valid[2]), .token_valid$3(valid[3]),
        .token_ready$2(ready[2]), .token_ready$3(ready[3]),
        .token$2(token2), .token$3(token3),
`endif
        .token_source(token_source), .release_valid(release_valid),
        .release_tiled(release_tiled), .release_tile(release_tile), .ready(ready_out),
        .violation(violation) `OBSERVE
    );

    // The tracked cache tile: any tile, the same for the whole trace.
    (* anyconst *) reg [7:0] T;

    // Environment (SPEC X-2): reset first; every pipeline holds valid and its token until the
    // transfer; only barriers arrive (a primitive is BR-8's bad input, flagged by `violation`).
    `include "reset_first.vh"
    always @(posedge clock)
        if (past_valid) begin
            if ($past(valid[0] && !ready[0])) begin assume(valid[0]); assume(token0 == $past(token0)); end
            if ($past(valid[1] && !ready[1])) begin assume(valid[1]); assume(token1 == $past(token1)); end
            if ($past(valid[2] && !ready[2])) begin assume(valid[2]); assume(token2 == $past(token2)); end
            if ($past(valid[3] && !ready[3])) begin assume(valid[3]); assume(token3 == $past(token3)); end
        end
    always @(*) begin
        if (valid[0]) assume(token0[1:0] == KIND_TILED || token0[1:0] == KIND_NONTILED);
        if (valid[1]) assume(token1[1:0] == KIND_TILED || token1[1:0] == KIND_NONTILED);
        if (valid[2]) assume(token2[1:0] == KIND_TILED || token2[1:0] == KIND_NONTILED);
        if (valid[3]) assume(token3[1:0] == KIND_TILED || token3[1:0] == KIND_NONTILED);
    end

    // The block RAM's word of tile T, kept from the write port; 0 after a reset (the sweep).
    wire ram_we = obs_tile_counts_write_enable;
    wire write_t = ram_we && obs_tile_counts_write_address == T;
    reg [3:0] word_t = 4'd0;
    reg read_t = 1'b0;
    always @(posedge clock) begin
        if (reset) word_t <= 4'd0;
        else if (write_t) word_t <= obs_tile_counts_write_data;
        read_t <= obs_tile_counts_read_address == T && !write_t;
    end
    always @(*) if (read_t) assume(obs_tile_counts_read_data == word_t);

    // The tokens taken this cycle (one per cycle: the arbiter) and their kinds.
    wire [3:0] take = valid & ready;
    wire [9:0] taken =
        take[0] ? token0 : take[1] ? token1 : take[2] ? token2 : token3;
    wire take_t = !reset && take != 4'd0 && taken[1:0] == KIND_TILED && taken[9:2] == T;
    wire take_n = !reset && take != 4'd0 && taken[1:0] == KIND_NONTILED;

    // Barriers of tile T (and non-tiled) taken since the last completed set, mod PIPES, and the
    // completing ones in flight: due_*[j] = a token that completed a set of PIPES was taken
    // j+1 cycles ago, so its release is due when j = 3 (t+4).
    reg [3:0] count_t = 4'd0, count_n = 4'd0;
    reg [3:0] due_t = 4'd0, due_n = 4'd0;
    always @(posedge clock) begin
        if (reset) begin
            count_t <= 4'd0;
            count_n <= 4'd0;
            due_t <= 4'd0;
            due_n <= 4'd0;
        end else begin
            due_t <= {due_t[2:0], take_t && count_t == P - 4'd1};
            due_n <= {due_n[2:0], take_n && count_n == P - 4'd1};
            if (take_t) count_t <= (count_t == P - 4'd1) ? 4'd0 : count_t + 4'd1;
            if (take_n) count_n <= (count_n == P - 4'd1) ? 4'd0 : count_n + 4'd1;
        end
    end
    wire release_t = release_valid && release_tiled && release_tile == T;
    wire release_n = release_valid && !release_tiled;

    function [3:0] succ(input [3:0] x);
        succ = (x == P - 4'd1) ? 4'd0 : x + 4'd1;
    endfunction
    // x mod PIPES for x < PIPES + 3 (a count plus up to three tokens in flight).
    function [3:0] modp(input [3:0] x);
        reg [3:0] y;
        begin
            y = (x >= P) ? x - P : x;
            y = (y >= P) ? y - P : y;
            modp = (y >= P) ? y - P : y;
        end
    endfunction

    // Tile T's (and non-tiled) tokens in each stage; the count of T decided last (the write
    // stage's, else the RAM word) and the non-tiled count (its register keeps the successor).
    wire in_t = obs_in_valid_q && obs_in_tiled && obs_in_tile == T;
    wire rd_t = obs_read_valid_q && obs_read_tiled_q && obs_read_tile_q == T;
    wire ct_t = obs_count_valid_q && obs_count_tiled_q && obs_count_tile_q == T;
    wire wr_t = obs_wr_valid_q && obs_wr_tile_q == T;
    wire wn_t = obs_written_valid_q && obs_written_tile_q == T;
    wire in_n = obs_in_valid_q && !obs_in_tiled;
    wire rd_n = obs_read_valid_q && !obs_read_tiled_q;
    wire ct_n = obs_count_valid_q && !obs_count_tiled_q;
    wire [3:0] last_t = wr_t ? obs_wr_count_q : word_t;
    wire [3:0] last_n = (obs_nontiled_next_q == 4'd0) ? P - 4'd1 : obs_nontiled_next_q - 4'd1;
`ifndef MUTANT
`ifndef P_SWEEP
    // Helper invariants: the count of T the RTL has decided last (the write stage's, else the
    // RAM word) plus T's tokens in the input, read and count stages is count_t; the non-tiled
    // count (the register keeps its successor) plus the non-tiled tokens in those stages is
    // count_n; each stage's due bit is its token completing a set; the count stage's selects
    // name where its count comes from (the write stage, the word or the successor of the word
    // bypassed, the word read, the non-tiled count); the arbiter's choice is one-hot (or none)
    // and is the requester `token_source` names.
    // Every count register (any tile) holds a count below PIPES, in reset cycles too (a reset
    // leaves them).
    always @(*) if (past_valid)
        assert(obs_wr_count_q < P && obs_wr_next_q < P && obs_alt_next_q < P
            && obs_written_next_q < P);
    always @(*) if (past_valid && !reset) begin
        assert(obs_arbiter_grant == 0 || obs_arbiter_grant == (1 << token_source));
        assert(word_t < P && last_t < P && obs_nontiled_next_q < P);
        assert(count_t == modp(last_t + in_t + rd_t + ct_t));
        assert(count_n == modp(last_n + in_n + rd_n + ct_n));
        assert(due_t[0] == (in_t && count_t == 4'd0));
        assert(due_t[1] == (rd_t && modp(last_t + ct_t + 4'd1) == 4'd0));
        assert(due_t[2] == (ct_t && succ(last_t) == 4'd0));
        assert(due_t[3] == release_t);
        assert(due_n[0] == (in_n && count_n == 4'd0));
        assert(due_n[1] == (rd_n && modp(last_n + ct_n + 4'd1) == 4'd0));
        assert(due_n[2] == (ct_n && succ(last_n) == 4'd0));
        assert(due_n[3] == release_n);
        if (obs_clearing_q) begin
            assert(!obs_in_valid_q && !obs_read_valid_q && !obs_count_valid_q
                && !obs_wr_valid_q && !obs_written_valid_q && !obs_release_valid_reg_q);
            assert(word_t == 4'd0 && count_t == 4'd0 && count_n == 4'd0 && last_n == 4'd0);
            assert(due_t == 4'd0 && due_n == 4'd0);
        end
        if (rd_t) assert(read_t || wn_t);
        if (obs_count_valid_q) begin
            assert(obs_sel_nontiled_q == !obs_count_tiled_q);
            assert(obs_sel_raw_q + obs_sel_last_q + obs_sel_alt_q + obs_sel_nontiled_q == 1);
        end
        if (ct_t) begin
            if (obs_sel_last_q) assert(wr_t);
            if (obs_sel_alt_q) assert(!wr_t && obs_alt_next_q == succ(word_t));
            if (obs_sel_raw_q) assert(!wr_t && obs_count_raw_q == word_t);
        end
        if (wr_t) assert(obs_wr_next_q == succ(obs_wr_count_q));
        if (wn_t) assert(obs_written_next_q == succ(word_t));
    end
`endif
`endif

`ifdef P_EARLY
    // BR-4, BR-5: no release before PIPES barriers have arrived: a release of tile T (or
    // non-tiled) comes only 4 cycles after the token that completed a set of PIPES.
    always @(*) if (past_valid && !reset) begin
        if (release_t) assert(due_t[3]);
        if (release_n) assert(due_n[3]);
    end
`endif

`ifdef P_ONCE
    // BR-4, BR-5: every completed set of PIPES barriers of tile T (or non-tiled) is released,
    // once, 4 cycles after the token that completed it (the unit's documented latency).
    always @(*) if (past_valid && !reset) begin
        if (due_t[3]) assert(release_t);
        if (due_n[3]) assert(release_n);
    end
`endif

`ifdef P_COUNT
    // BR-5: a tile's count never passes PIPES - 1: every count written into the block RAM (any
    // tile) is below PIPES, and tile T's word is its barriers since its last release mod PIPES
    // once its tokens in flight are written; the non-tiled count too.
    always @(*) if (past_valid && !reset) begin
        if (ram_we) assert(obs_tile_counts_write_data < P);
        assert(obs_nontiled_next_q < P);
        if (!in_t && !rd_t && !ct_t && !wr_t) assert(word_t == count_t);
    end
`endif

`ifdef P_SWEEP
    // BR-5 (the sweep after reset): until every tile's count has been written 0 the unit takes
    // no token and `ready` is low; `ready` then stays high until the next reset. `cleared_t`:
    // tile T's word was written 0 since the last reset.
    reg cleared_t = 1'b0;
    always @(posedge clock)
        if (reset) cleared_t <= 1'b0;
        else if (write_t && obs_tile_counts_write_data == 4'd0) cleared_t <= 1'b1;
    always @(*) if (past_valid && !reset) begin
        if (!cleared_t) assert(!ready_out && take == 4'd0);
    end
    always @(posedge clock)
        if (past_valid && !reset && !$past(reset) && $past(ready_out)) assert(ready_out);
`ifndef MUTANT
    always @(*) if (past_valid && !reset) begin
        assert(ready_out == !obs_clearing_q);
        if (obs_clearing_q) assert(cleared_t == (T < obs_clear_tile_q));
        else assert(cleared_t);
    end
`endif
`endif
endmodule
`default_nettype wire
