// Formal properties of `status_fsm` (StatusFsm; SPEC ST-1..ST-4), run by `ppu formal status_fsm`.
// The next-state function below is the ST-3 table written out row by row, first match wins.
// observe:
module status_fsm_props(
    input wire clock,
    input wire reset,
    input wire halt, resume, in_active, busy, out_valid, out_blocked,
    input wire mem_pending, pending, nack, can_halt
);
`include "observe.vh"
    wire [2:0] status;
    wire halted, empty, not_stalled, not_quiescent, violation;
    status_fsm dut(
        .clock(clock), .reset(reset), .halt(halt), .resume(resume), .in_active(in_active),
        .busy(busy), .out_valid(out_valid), .out_blocked(out_blocked),
        .mem_pending(mem_pending), .pending(pending), .nack(nack), .can_halt(can_halt),
        .status(status), .halted(halted), .empty(empty), .not_stalled(not_stalled),
        .not_quiescent(not_quiescent), .violation(violation) `OBSERVE
    );
    localparam EMPTY = 3'd0, ACTIVE = 3'd1, QUIESCENT = 3'd3, STALLED = 3'd5, HALTED = 3'd7;

    `include "reset_first.vh"

    // ST-3, row by row.
    function [2:0] st3;
        input [2:0] from;
        input rst, hlt, res, in_act, bsy, o_valid, o_blocked, mem_p, pend, nck, can_h;
        begin
            if (rst) st3 = EMPTY;
            else case (from)
                EMPTY:
                    if (hlt && can_h) st3 = HALTED;
                    else if (in_act) st3 = ACTIVE;
                    else st3 = EMPTY;
                ACTIVE:
                    if (hlt && can_h) st3 = HALTED;
                    else if (nck) st3 = QUIESCENT;
                    else if (o_blocked) st3 = STALLED;
                    else if (in_act || bsy || o_valid) st3 = ACTIVE;
                    else if (pend || mem_p) st3 = QUIESCENT;
                    else st3 = EMPTY;
                STALLED:
                    if (hlt && can_h) st3 = HALTED;
                    else if (o_blocked) st3 = STALLED;
                    else st3 = ACTIVE;
                QUIESCENT:
                    if (hlt && can_h) st3 = HALTED;
                    else if (in_act || bsy || o_valid || res) st3 = ACTIVE;
                    else st3 = QUIESCENT;
                HALTED:
                    if (hlt) st3 = HALTED;
                    else if (in_act || bsy || o_valid) st3 = ACTIVE;
                    else if (pend || mem_p) st3 = QUIESCENT;
                    else st3 = EMPTY;
                default: st3 = EMPTY;
            endcase
        end
    endfunction

    wire legal = status == EMPTY || status == ACTIVE || status == QUIESCENT
        || status == STALLED || status == HALTED;

`ifndef MUTANT
    // Helper invariant: the state register holds a legal code (ST-1).
    always @(*) if (past_valid) assert(legal);
`endif

`ifdef P_LEGAL
    // ST-1: the reported code is always one of the five.
    always @(*) if (past_valid) assert(legal);
`endif

`ifdef P_TABLE
    // ST-3: every transition is the first matching row of the table.
    always @(posedge clock)
        if (past_valid)
            assert(status == st3($past(status), $past(reset), $past(halt), $past(resume),
                $past(in_active), $past(busy), $past(out_valid), $past(out_blocked),
                $past(mem_pending), $past(pending), $past(nack), $past(can_halt)));
`endif

`ifdef P_FLAGS
    // ST-4: the four roll-up flags decode the state.
    always @(*) begin
        assert(halted == (status == HALTED));
        assert(empty == (status == EMPTY));
        assert(not_stalled == (status != STALLED));
        assert(not_quiescent == (status != QUIESCENT));
    end
`endif

`ifdef P_VIOLATION
    // ST-2: violation exactly on out_blocked without out_valid.
    always @(*) assert(violation == (out_blocked && !out_valid));
`endif
endmodule
