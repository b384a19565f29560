// Formal properties of `command_tree` (CommandTree, N = 8 units, TREE_STAGES = S; SPEC ST-4,
// ST-5, ST-7), run by `ppu formal command_tree`. The runner defines S.
// observe:
module command_tree_props(
    input wire clock,
    input wire reset,
    input wire cmd_halt, cmd_reset, cmd_resume,
    input wire [7:0] line_reset, line_resume
);
`include "observe.vh"
    wire [7:0] unit_halt, unit_reset, unit_resume;
    wire unit_reset_broadcast;
    command_tree dut(
        .clock(clock), .reset(reset), .cmd_halt(cmd_halt), .cmd_reset(cmd_reset),
        .cmd_resume(cmd_resume), .line_reset(line_reset), .line_resume(line_resume),
        .unit_halt(unit_halt), .unit_reset(unit_reset), .unit_resume(unit_resume),
        .unit_reset_broadcast(unit_reset_broadcast) `OBSERVE
    );

    `include "reset_first.vh"
    reg [3:0] age = 4'd0;
    always @(posedge clock) if (age != 4'hf) age <= age + 4'd1;

    // The inputs and reset of 1..4 cycles ago (index j-1: j cycles ago).
    reg [3:0] halt_q = 4'b0, creset_q = 4'b0, resume_q = 4'b0, r_q = 4'b0;
    reg [7:0] lr_q [0:3], lm_q [0:3];
    integer j;
    always @(posedge clock) begin
        halt_q <= {halt_q[2:0], cmd_halt};
        creset_q <= {creset_q[2:0], cmd_reset};
        resume_q <= {resume_q[2:0], cmd_resume};
        r_q <= {r_q[2:0], reset};
        lr_q[0] <= line_reset; lm_q[0] <= line_resume;
        for (j = 1; j < 4; j = j + 1) begin lr_q[j] <= lr_q[j-1]; lm_q[j] <= lm_q[j-1]; end
    end
    // A reset within the last S cycles cleared every stage: no command in flight.
    wire in_reset = |(r_q & ((4'b1 << `S) - 4'b1));
    wire halt_then = !in_reset && halt_q[`S-1];
    wire reset_then = !in_reset && creset_q[`S-1];
    wire resume_then = !in_reset && resume_q[`S-1];
    wire [7:0] line_reset_then = in_reset ? 8'h00 : lr_q[`S-1];
    wire [7:0] line_resume_then = in_reset ? 8'h00 : lm_q[`S-1];

`ifdef P_DELAY
    // Every unit sees, exactly S cycles later and all in the same cycle, the broadcast command
    // OR its own line.
    always @(*) if (age >= `S) begin
        assert(unit_halt == {8{halt_then}});
        assert(unit_reset == ({8{reset_then}} | line_reset_then));
        assert(unit_resume == ({8{resume_then}} | line_resume_then));
        assert(unit_reset_broadcast == reset_then);
    end
`endif
endmodule
