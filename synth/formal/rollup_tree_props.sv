// Formal properties of `rollup_tree` (RollupTree, N = 8 units, G = 4 connections,
// TREE_STAGES = S; SPEC ST-4), run by `ppu formal rollup_tree`. The runner defines S and the
// chain masks CHAIN0..CHAIN3 (bit i: unit i rolls up into that connection).
// observe:
module rollup_tree_props(
    input wire clock,
    input wire reset,
    input wire [7:0] halted_in, empty_in, not_stalled_in, not_quiescent_in
);
`include "observe.vh"
    wire [3:0] c_halted, c_empty, c_not_stalled, c_not_quiescent;
    wire all_halted, all_empty, none_stalled, none_quiescent;
    rollup_tree dut(
        .clock(clock), .reset(reset),
        .halted_in(halted_in), .empty_in(empty_in), .not_stalled_in(not_stalled_in),
        .not_quiescent_in(not_quiescent_in),
        .conn_halted$0(c_halted[0]), .conn_halted$1(c_halted[1]),
        .conn_halted$2(c_halted[2]), .conn_halted$3(c_halted[3]),
        .conn_empty$0(c_empty[0]), .conn_empty$1(c_empty[1]),
        .conn_empty$2(c_empty[2]), .conn_empty$3(c_empty[3]),
        .conn_not_stalled$0(c_not_stalled[0]), .conn_not_stalled$1(c_not_stalled[1]),
        .conn_not_stalled$2(c_not_stalled[2]), .conn_not_stalled$3(c_not_stalled[3]),
        .conn_not_quiescent$0(c_not_quiescent[0]), .conn_not_quiescent$1(c_not_quiescent[1]),
        .conn_not_quiescent$2(c_not_quiescent[2]), .conn_not_quiescent$3(c_not_quiescent[3]),
        .all_halted(all_halted), .all_empty(all_empty), .none_stalled(none_stalled),
        .none_quiescent(none_quiescent) `OBSERVE
    );

    `include "reset_first.vh"
    // Cycles since the start, saturating: $past(x, S) is defined once age >= S.
    reg [3:0] age = 4'd0;
    always @(posedge clock) if (age != 4'hf) age <= age + 4'd1;

    localparam [7:0] C0 = `CHAIN0, C1 = `CHAIN1, C2 = `CHAIN2, C3 = `CHAIN3;
    // A chain's AND of a flag vector: every member's bit set.
    function chain_and;
        input [7:0] flags, members;
        chain_and = &(flags | ~members);
    endfunction

    // The inputs and reset of 1..4 cycles ago (index j-1: j cycles ago).
    reg [7:0] h_q [0:3], e_q [0:3], ns_q [0:3], nq_q [0:3];
    reg [3:0] r_q = 4'b0;
    integer j;
    always @(posedge clock) begin
        h_q[0] <= halted_in; e_q[0] <= empty_in; ns_q[0] <= not_stalled_in; nq_q[0] <= not_quiescent_in;
        for (j = 1; j < 4; j = j + 1) begin
            h_q[j] <= h_q[j-1]; e_q[j] <= e_q[j-1]; ns_q[j] <= ns_q[j-1]; nq_q[j] <= nq_q[j-1];
        end
        r_q <= {r_q[2:0], reset};
    end
    // The flags of S cycles ago, or EMPTY's (halted 0, the others 1) when the tree was reset
    // within the last S cycles (a unit in reset is EMPTY).
    wire in_reset = |(r_q & ((4'b1 << `S) - 4'b1));
    wire [7:0] h = h_q[`S-1], e = e_q[`S-1], ns = ns_q[`S-1], nq = nq_q[`S-1];
    wire [3:0] exp_halted = in_reset ? 4'b0000
        : {chain_and(h, C3), chain_and(h, C2), chain_and(h, C1), chain_and(h, C0)};
    wire [3:0] exp_empty = in_reset ? 4'b1111
        : {chain_and(e, C3), chain_and(e, C2), chain_and(e, C1), chain_and(e, C0)};
    wire [3:0] exp_not_stalled = in_reset ? 4'b1111
        : {chain_and(ns, C3), chain_and(ns, C2), chain_and(ns, C1), chain_and(ns, C0)};
    wire [3:0] exp_not_quiescent = in_reset ? 4'b1111
        : {chain_and(nq, C3), chain_and(nq, C2), chain_and(nq, C1), chain_and(nq, C0)};

`ifdef P_DELAY
    // Each connection's flags are its chain's AND of the units' flags exactly S cycles earlier.
    always @(*) if (age >= `S) begin
        assert(c_halted == exp_halted);
        assert(c_empty == exp_empty);
        assert(c_not_stalled == exp_not_stalled);
        assert(c_not_quiescent == exp_not_quiescent);
    end
`endif

`ifdef P_FRONT_END
    // The front end's flags are the AND of the connections.
    always @(*) begin
        assert(all_halted == &c_halted);
        assert(all_empty == &c_empty);
        assert(none_stalled == &c_not_stalled);
        assert(none_quiescent == &c_not_quiescent);
    end
`endif
endmodule
