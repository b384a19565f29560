// Formal properties of `rr_arbiter` (RrArbiter, N = 4 requesters, 25-bit payload; SPEC X-1/X-2),
// run by `ppu formal rr_arbiter`. One P_<PROPERTY> is defined per run.
// observe: held$q held_grant$q held_source$q rr_mask$q
module rr_arbiter_props(
    input wire clock,
    input wire reset,
    input wire [3:0] valid,
    input wire [24:0] data0, data1, data2, data3,
    input wire grant_ready
);
`include "observe.vh"
    wire [3:0] ready;
    wire grant_valid, violation;
    wire [24:0] grant_data;
    wire [1:0] grant_source;
    rr_arbiter dut(
        .clock(clock), .reset(reset),
        .req_valid$0(valid[0]), .req_valid$1(valid[1]), .req_valid$2(valid[2]), .req_valid$3(valid[3]),
        .req_ready$0(ready[0]), .req_ready$1(ready[1]), .req_ready$2(ready[2]), .req_ready$3(ready[3]),
        .req_data$0(data0), .req_data$1(data1), .req_data$2(data2), .req_data$3(data3),
        .grant_valid(grant_valid), .grant_ready(grant_ready), .grant_data(grant_data),
        .grant_source(grant_source), .violation(violation) `OBSERVE
    );

    // Environment (SPEC X-2): reset first; every requester holds valid and its payload until
    // its transfer.
    `include "reset_first.vh"
    wire [24:0] data_of [0:3];
    assign data_of[0] = data0;
    assign data_of[1] = data1;
    assign data_of[2] = data2;
    assign data_of[3] = data3;
    always @(posedge clock)
        if (past_valid) begin
            if ($past(valid[0] && !ready[0])) begin assume(valid[0]); assume(data0 == $past(data0)); end
            if ($past(valid[1] && !ready[1])) begin assume(valid[1]); assume(data1 == $past(data1)); end
            if ($past(valid[2] && !ready[2])) begin assume(valid[2]); assume(data2 == $past(data2)); end
            if ($past(valid[3] && !ready[3])) begin assume(valid[3]); assume(data3 == $past(data3)); end
        end

    wire transfer = grant_valid && grant_ready;

`ifndef MUTANT
    // Helper invariants: a held choice is one requester, and it is valid (the environment
    // keeps it valid); the round-robin mask is all bits above one requester, or none.
    always @(*) if (past_valid && !reset) begin
        if (obs_held_q) begin
            assert(obs_held_grant_q == (4'b1 << obs_held_source_q));
            assert(valid[obs_held_source_q]);
        end
        assert(obs_rr_mask_q == 4'b0000 || obs_rr_mask_q == 4'b1110
            || obs_rr_mask_q == 4'b1100 || obs_rr_mask_q == 4'b1000);
        assert(!violation);
    end
`endif

`ifdef P_ONE_GRANT
    // A grant names one valid requester, its payload, and only it is ready.
    always @(*) if (past_valid && !reset && grant_valid) begin
        assert(valid[grant_source]);
        assert(grant_data == data_of[grant_source]);
        assert(ready == (grant_ready ? (4'b1 << grant_source) : 4'b0));
    end
    always @(*) if (past_valid && !reset) assert(grant_valid == (valid != 4'b0));
`endif

`ifdef P_HOLD
    // Once offered, a grant is held (same requester, same payload) until taken.
    always @(posedge clock)
        if (past_valid && !reset && !$past(reset) && $past(grant_valid && !grant_ready)) begin
            assert(grant_valid);
            assert(grant_source == $past(grant_source));
            assert(grant_data == $past(grant_data));
        end
`endif

`ifdef P_FAIR
    // A requester holding valid sees at most N-1 = 3 transfers to others before its own.
    reg [2:0] waited [0:3];
    integer j;
    initial for (j = 0; j < 4; j = j + 1) waited[j] = 3'd0;
    always @(posedge clock)
        for (j = 0; j < 4; j = j + 1)
            if (reset || !valid[j] || (transfer && grant_source == j)) waited[j] <= 3'd0;
            else if (transfer && waited[j] != 3'd7) waited[j] <= waited[j] + 3'd1;
    always @(*) if (past_valid && !reset) begin
        assert(waited[0] <= 3); assert(waited[1] <= 3);
        assert(waited[2] <= 3); assert(waited[3] <= 3);
    end
`ifndef MUTANT
    // Helper invariants: the mask names the last requester served (`last`: all bits above it;
    // none for requester 3, as after a reset); `dist(j)` other requesters come before j in the
    // round-robin order from there, and each transfer to another while j waits serves one of
    // them and moves `last` past it, so j's waited transfers plus its distance stay within 3.
    // A held choice made while j waited comes before j.
    wire [1:0] last = obs_rr_mask_q == 4'b1110 ? 2'd0 : obs_rr_mask_q == 4'b1100 ? 2'd1
        : obs_rr_mask_q == 4'b1000 ? 2'd2 : 2'd3;
    function [1:0] dist(input [1:0] r);
        dist = r - last - 2'd1;
    endfunction
    genvar gj;
    generate for (gj = 0; gj < 4; gj = gj + 1) begin : wait_bound
        always @(*) if (past_valid && !reset && valid[gj]) begin
            assert({1'b0, waited[gj]} + {2'b0, dist(gj)} <= 4'd3);
            if (obs_held_q && waited[gj] != 3'd0 && obs_held_source_q != gj)
                assert(dist(obs_held_source_q) < dist(gj));
        end
    end endgenerate
`endif
`endif
endmodule
