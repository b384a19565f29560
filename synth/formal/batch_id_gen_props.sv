// Formal properties of `batch_id_gen` (BatchIdGen; requirement SO-1: consecutive 14-bit IDs, an
// ID not handed out again while in flight), run by `ppu formal batch_id_gen`. The runner defines
// W (WINDOW, the slots: 2, the smallest legal window, and 16, the exported one) and WB (log2 W).
// observe: next_slot_onehot$q next_slot_busy_q$q retire_valid_q$q done_valid_q$q slot_busy$*$q slot_batch_id$*$q retire_match$*$q done_match$*$q slot_next_batch_id$*$q id_plus_window$q
module batch_id_gen_props(
    input wire clock,
    input wire reset,
    input wire id_ready,
    input wire retire_valid,
    input wire [13:0] retire_batch_id,
    input wire done_valid,
    input wire [13:0] done_batch_id
);
`include "observe.vh"
    localparam W = `W, WB = `WB;
    wire id_valid, retire_ready, done_ready, stall, violation;
    wire [13:0] id_batch_id;
    batch_id_gen dut(
        .clock(clock), .reset(reset), .id_valid(id_valid), .id_ready(id_ready),
        .id_batch_id(id_batch_id), .retire_valid(retire_valid), .retire_ready(retire_ready),
        .retire_batch_id(retire_batch_id), .done_valid(done_valid), .done_ready(done_ready),
        .done_batch_id(done_batch_id), .stall(stall), .violation(violation) `OBSERVE
    );

    // Environment: reset first. Retire and done messages are free: any ID, in flight or not,
    // on both channels at once (the unit flags the bad ones).
    `include "reset_first.vh"

    wire hand_out = id_valid && id_ready;
    // a - b mod 2^14 (a function: the width of its result is 14 bits in any expression).
    function [13:0] dist;
        input [13:0] a, b;
        dist = a - b;
    endfunction

    // A tracked ID t (any, fixed): in flight from the cycle after it is handed out until a
    // retire or done message names it (SO-2).
    (* anyconst *) wire [13:0] t;
    reg t_in_flight = 1'b0;
    always @(posedge clock)
        if (reset) t_in_flight <= 1'b0;
        else begin
            if (hand_out && id_batch_id == t) t_in_flight <= 1'b1;
            if ((retire_valid && retire_batch_id == t) || (done_valid && done_batch_id == t))
                t_in_flight <= 1'b0;
        end
    // The ID the unit hands out next, by the props' own count: 0 after reset, +1 mod 2^14 per
    // ID handed out.
    reg [13:0] next_id = 14'd0;
    always @(posedge clock)
        if (reset) next_id <= 14'd0;
        else if (hand_out) next_id <= next_id + 14'd1;

`ifndef MUTANT
    // Helper invariants: the next ID's slot is ID mod W (one-hot) and its registered busy bit is
    // that slot's; each slot's next ID is the first ID >= the next one that maps to it; a busy
    // slot holds the last ID handed out into it (its next ID less W: so an ID = i mod W among
    // the last W handed out); a tracked ID in flight is in its slot; the registered message
    // matches of a busy slot are its tag against the message of last cycle (a free slot's are
    // not read).
    reg [13:0] retire_id_q = 14'd0, done_id_q = 14'd0;
    always @(posedge clock) begin retire_id_q <= retire_batch_id; done_id_q <= done_batch_id; end
    wire [W-1:0] busy = obs_slot_busy_q_all;
    wire [WB-1:0] next_slot = next_id[WB-1:0];
    wire [13:0] next_id_plus_w = next_id + W;  // mod 2^14
    integer i;
    always @(*) if (past_valid) assert(id_batch_id == next_id);
`ifdef P_IN_FLIGHT
    // The slot invariants, for IN_FLIGHT only (CONSECUTIVE needs none of them: at window 16
    // they made its induction step run past 100 s).
    always @(*) if (past_valid) begin
        assert(obs_next_slot_onehot_q == ({{(W-1){1'b0}}, 1'b1} << next_slot));
        assert(obs_next_slot_busy_q_q == busy[next_slot]);
        // A busy slot holds the last ID handed out into it: its next ID less W mod 2^14 (one
        // equality per slot; the same claim as "i mod W, among the last W handed out", whose
        // two range compares per slot made the induction step several times slower).
        for (i = 0; i < W; i = i + 1) if (busy[i])
            assert(obs_slot_batch_id_q_all[14*i +: 14]
                == dist(obs_slot_next_batch_id_q_all[14*i +: 14], W));
        if (t_in_flight) begin
            assert(busy[t[WB-1:0]]);
            assert(obs_slot_batch_id_q_all[14*t[WB-1:0] +: 14] == t);
        end
        assert(obs_id_plus_window_q == next_id_plus_w);
        for (i = 0; i < W; i = i + 1)
            assert(obs_slot_next_batch_id_q_all[14*i +: 14]
                == next_id + {{(14-WB){1'b0}}, i[WB-1:0] - next_slot});
        for (i = 0; i < W; i = i + 1) if (busy[i]) begin
            if (obs_retire_valid_q_q)
                assert(obs_retire_match_q_all[i] == (obs_slot_batch_id_q_all[14*i +: 14] == retire_id_q));
            if (obs_done_valid_q_q)
                assert(obs_done_match_q_all[i] == (obs_slot_batch_id_q_all[14*i +: 14] == done_id_q));
        end
    end
`endif
`endif

`ifdef P_CONSECUTIVE
    // SO-1: IDs are consecutive mod 2^14 from 0 after reset (the phase bit 13 flips as the
    // 13-bit counter wraps: a 14-bit increment), one per ID handed out.
    always @(*) if (past_valid && id_valid) assert(id_batch_id == next_id);
`endif

`ifdef P_IN_FLIGHT
    // SO-1: an ID in flight is never handed out again, and every ID in flight is among the
    // last W handed out: at most W <= 2^13 in flight, all within half the ID space of the next.
    always @(*) if (past_valid && t_in_flight) begin
        assert(!(id_valid && id_batch_id == t));
        assert(dist(next_id, t) >= 14'd1 && dist(next_id, t) <= W);
    end
`endif
endmodule
