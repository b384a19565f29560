// Formal properties of `gp_fifo` (GpFifo, AND-form wrap) and `gp_fifo_compare` (compare-form
// wrap), IDX_BITS = 8; requirements WQ-1, WQ-2. Run by `ppu formal gp_fifo` and
// `ppu formal gp_fifo_compare`: both checks name this file (`FormalCheck::props`), and the
// compare check defines COMPARE_FORM, which selects `gp_fifo_compare` as the module under test
// and the compare form's wrap. ENTRIES is `ring_entries`, any legal size, fixed from reset on.
// observe: get_prev_reg$q put_next_reg$q get_comp_reg$q last_index_reg$q get_next_reg$q empty_reg$q size_bad_reg$q
module gp_fifo_props(
    input wire clock,
    input wire reset,
    input wire put_valid,
    input wire [7:0] put_value,
    input wire put_follow,
    input wire get_advance
);
`include "observe.vh"
    // ENTRIES: one legal size for the whole trace (WQ-1 Reading: 2..=256, a power of two for
    // the AND form), set while reset is high and kept, as the unit's ports require.
    (* anyconst *) wire [9:0] n;
`ifdef COMPARE_FORM
    always @(*) assume(n >= 10'd2 && n <= 10'd256);
`else
    always @(*) assume(n >= 10'd2 && n <= 10'd256 && (n & (n - 10'd1)) == 10'd0);
`endif
    wire [7:0] gp_get, gp_put, fill;
    wire empty, full, violation;
`ifdef COMPARE_FORM
    gp_fifo_compare dut(
`else
    gp_fifo dut(
`endif
        .clock(clock), .reset(reset), .ring_entries(n), .put_valid(put_valid),
        .put_value(put_value), .put_follow(put_follow), .get_advance(get_advance),
        .gp_get(gp_get), .gp_put(gp_put), .empty(empty), .full(full), .fill(fill),
        .violation(violation) `OBSERVE
    );

    // Environment: reset first; software writes GP_PUT within the ring (its owner keeps it
    // within WQ-1; a value beyond it is flagged as a violation, not defined).
    `include "reset_first.vh"
    always @(*) if (put_valid && !put_follow) assume({2'b00, put_value} < n);

    // WQ-2, as written: wrap(x, n) = x & (n-1) for a power of two; x+n if x<0, x-n if x>=n,
    // else x otherwise. x is a ring index plus or minus at most n (12-bit two's complement).
    function [7:0] wrap;
        input signed [11:0] x;
        input [9:0] size;
        reg signed [11:0] s;
        begin
            s = $signed({2'b00, size});
`ifdef COMPARE_FORM
            if (x < 0) wrap = x + s;
            else if (x >= s) wrap = x - s;
            else wrap = x;
`else
            wrap = x & (s - 12'sd1);
`endif
        end
    endfunction
    wire signed [11:0] get_s = $signed({4'b0000, gp_get});
    wire signed [11:0] put_s = $signed({4'b0000, gp_put});

`ifndef MUTANT
    // Helper invariants: the pointers are indices of the ring, and the registers kept beside
    // them hold what their names say.
    always @(*) if (past_valid) begin
        assert({2'b00, gp_get} < n && {2'b00, gp_put} < n);
        assert({2'b00, obs_last_index_reg_q} == n - 10'd1);
        assert(obs_get_next_reg_q == wrap(get_s + 12'sd1, n));
        assert(obs_get_prev_reg_q == wrap(get_s - 12'sd1, n));
        assert(obs_put_next_reg_q == wrap(put_s + 12'sd1, n));
        assert(obs_get_comp_reg_q == n - {2'b00, gp_get});
        assert(obs_empty_reg_q == (gp_get == gp_put));
        assert(!obs_size_bad_reg_q);
    end
`endif

`ifdef P_EMPTY_FULL
    // WQ-1: the ring is empty when GP_GET == GP_PUT and full when
    // GP_GET == (GP_PUT + 1) mod ENTRIES.
    always @(*) if (past_valid) begin
        assert(empty == (gp_get == gp_put));
        assert(full == ({2'b00, gp_get} == ({2'b00, gp_put} + 10'd1) % n));
    end
`endif

`ifdef P_WRAP
    // WQ-2 in the ring: GP_GET advances to wrap(GP_GET + 1) (an advance while empty is refused),
    // a following GP_PUT is wrap(GP_GET - 1), and fill is wrap(GP_PUT - GP_GET), each with the
    // form's own definition of wrap.
    always @(*) if (past_valid) assert(fill == wrap(put_s - get_s, n));
    always @(posedge clock) if (past_valid && !$past(reset)) begin
        if ($past(get_advance && !empty))
            assert(gp_get == wrap($signed({4'b0000, $past(gp_get)}) + 12'sd1, n));
        else
            assert(gp_get == $past(gp_get));
        if ($past(put_follow))
            assert(gp_put == wrap(get_s - 12'sd1, n));
    end
`endif
endmodule
