// Formal properties of `acquire_check` (AcquireCheck; requirement WQ-4: the five semaphore
// acquire conditions), run by `ppu formal acquire_check`.
`default_nettype none
module acquire_check_props(
    input wire clock,
    input wire reset,
    input wire [2:0] cond,
    input wire [31:0] sem_value,
    input wire [31:0] value
);
    wire satisfied, cond_legal;
    acquire_check dut(
        .clock(clock), .reset(reset), .cond(cond), .sem_value(sem_value), .value(value),
        .satisfied(satisfied), .cond_legal(cond_legal)
    );

    // Environment: reset first; the inputs are free in every cycle.
    `include "reset_first.vh"

    // WQ-4, in its words: 0 equal (sem == value), 1 unsigned >= (sem >= value), 2 circular >=
    // (the 32-bit difference sem - value read as a signed number is >= 0), 3 AND non-zero
    // ((sem & value) != 0), 4 NOR non-zero (the bitwise NOR of sem and value is not 0); codes
    // 5..7 name no condition (not satisfied, not legal).
    function condition(input [2:0] c, input [31:0] s, input [31:0] v);
        reg [31:0] d;
        begin
            d = s - v;
            case (c)
                3'd0: condition = s == v;
                3'd1: condition = s >= v;
                3'd2: condition = $signed(d) >= 0;
                3'd3: condition = (s & v) != 32'd0;
                3'd4: condition = ~(s | v) != 32'd0;
                default: condition = 1'b0;
            endcase
        end
    endfunction

    // The check of cycle t answers in t+2 (latency 2, one check a cycle); a reset in t+1
    // answers "not satisfied, legal" in t+2.
    reg [2:0] c1, c2;
    reg [31:0] s1, s2, v1, v2;
    always @(posedge clock) begin
        c1 <= cond; s1 <= sem_value; v1 <= value; reset1 <= reset;
        c2 <= c1; s2 <= s1; v2 <= v1; reset2 <= reset1;
    end
    // reset2: a reset in t (the checked cycle); reset1: in t+1.
    always @(*) if (past_valid) begin
`ifdef P_COND
        if (!reset2 && !reset1) begin
            assert(satisfied == condition(c2, s2, v2));
            assert(cond_legal == (c2 <= 3'd4));
        end
`endif
`ifdef P_RESET
        if (reset1) assert(!satisfied && cond_legal);
`endif
    end
endmodule
`default_nettype wire
