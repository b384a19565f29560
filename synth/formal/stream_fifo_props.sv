// Formal properties of `stream_fifo` (StreamFifo, SPEC X-1/X-2), run by `ppu formal stream_fifo`.
// The runner exposes the internal registers named below as extra outputs of the exported
// module (Yosys `expose`) and defines: DEPTH, CW (fill width), PW (pointer width), the
// `OBSERVE` port connections and one P_<PROPERTY> per run.
// observe: wr_ptr$q rd_ptr$q count$q slots$*$q
module stream_fifo_props(
    input wire clock,
    input wire reset,
    input wire wr_valid,
    input wire [15:0] wr_data,
    input wire rd_ready,
    input wire mark_a,
    input wire mark_b
);
`include "observe.vh"
    wire wr_ready, rd_valid;
    wire [15:0] rd_data;
    wire [`CW-1:0] fill;
    stream_fifo dut(
        .clock(clock), .reset(reset),
        .wr_valid(wr_valid), .wr_ready(wr_ready), .wr_data(wr_data),
        .rd_valid(rd_valid), .rd_ready(rd_ready), .rd_data(rd_data),
        .fill(fill) `OBSERVE
    );

    // Environment (SPEC X-2): reset in the first cycle; the producer holds wr_valid and
    // wr_data until the transfer. The consumer's rd_ready is free.
    `include "reset_first.vh"
    always @(posedge clock)
        if (past_valid && $past(wr_valid && !wr_ready)) begin
            assume(wr_valid);
            assume(wr_data == $past(wr_data));
        end

    wire push = wr_valid && wr_ready;
    wire pop = rd_valid && rd_ready;

    // Shadow count: pushes minus pops since reset.
    reg [7:0] count = 8'd0;
    always @(posedge clock)
        if (reset) count <= 8'd0;
        else count <= count + push - pop;

    // Helper invariants for k-induction (asserted, so proved too; left out of mutant runs so
    // that a mutant is caught by the property's own assertions): the registers agree with the
    // shadow count, the pointers stay below DEPTH and are `count` apart (mod DEPTH).
    wire [7:0] rd_ptr = obs_rd_ptr_q;
    wire [7:0] wr_ptr = obs_wr_ptr_q;
    wire [7:0] ptr_sum = rd_ptr + count;
    wire [7:0] ptr_wrap = (ptr_sum >= `DEPTH) ? ptr_sum - `DEPTH : ptr_sum;
`ifndef MUTANT
    always @(*) if (past_valid && !reset) begin
        assert(count <= `DEPTH);
        assert(obs_count_q == count);
        assert(rd_ptr < `DEPTH && wr_ptr < `DEPTH);
        assert(wr_ptr == ptr_wrap);
    end
`endif

`ifdef P_FILL
    // fill == pushes - pops, never above DEPTH.
    always @(*) if (past_valid && !reset) assert(fill == count);
`endif

`ifdef P_FULL_EMPTY
    // Accepts exactly when not full, presents exactly when not empty.
    always @(*) if (past_valid) begin
        assert(wr_ready == (count != `DEPTH));
        assert(rd_valid == (count != 0));
    end
`endif

`ifdef P_STABLE
    // rd_data (and rd_valid) stable while rd_valid && !rd_ready.
    always @(posedge clock)
        if (past_valid && !reset && !$past(reset) && $past(rd_valid && !rd_ready)) begin
            assert(rd_valid);
            assert(rd_data == $past(rd_data));
        end
`endif

`ifdef P_ORDER
    // Two tracked words: word A, chosen freely by mark_a at any write, and word B, chosen by
    // mark_b at a later write, each leave with the value they entered with, when as many
    // words as were ahead of them have left, and A before B.
    reg a_in = 1'b0, a_out = 1'b0, b_in = 1'b0;
    reg [15:0] a_data = 16'd0, b_data = 16'd0;
    reg [7:0] a_ahead = 8'd0, b_ahead = 8'd0;
    wire [7:0] a_slot_sum = rd_ptr + a_ahead;
    wire [7:0] a_slot = (a_slot_sum >= `DEPTH) ? a_slot_sum - `DEPTH : a_slot_sum;
    wire [7:0] b_slot_sum = rd_ptr + b_ahead;
    wire [7:0] b_slot = (b_slot_sum >= `DEPTH) ? b_slot_sum - `DEPTH : b_slot_sum;
    always @(posedge clock) begin
        if (reset) begin
            a_in <= 1'b0; a_out <= 1'b0; b_in <= 1'b0;
        end else begin
            if (pop && a_in) begin
                if (a_ahead == 0) begin a_in <= 1'b0; a_out <= 1'b1; end
                else a_ahead <= a_ahead - 1;
            end
            if (pop && b_in) begin
                if (b_ahead == 0) b_in <= 1'b0;
                else b_ahead <= b_ahead - 1;
            end
            if (push && mark_a && !a_in && !a_out && !b_in) begin
                a_in <= 1'b1; a_data <= wr_data; a_ahead <= count - pop;
            end
            if (push && mark_b && (a_in || a_out) && !b_in && !(mark_a && !a_in && !a_out)) begin
                b_in <= 1'b1; b_data <= wr_data; b_ahead <= count - pop;
            end
        end
    end
`ifndef MUTANT
    always @(*) if (past_valid && !reset) begin
        // Invariants: a tracked word is inside, at its slot, behind the words ahead of it.
        if (a_in) begin
            assert(a_ahead < count);
            assert(obs_slots_q_all[a_slot*16 +: 16] == a_data);
        end
        if (b_in) begin
            assert(b_ahead < count);
            assert(obs_slots_q_all[b_slot*16 +: 16] == b_data);
            assert(a_in || a_out);
            assert(!a_in || a_ahead < b_ahead);
        end
    end
`endif
    always @(*) if (past_valid && !reset) begin
        // The claims: each leaves with its value when it is the head, A before B.
        if (pop && a_in && a_ahead == 0) assert(rd_data == a_data);
        if (pop && b_in && b_ahead == 0) begin
            assert(rd_data == b_data);
            assert(a_out);
        end
    end
`endif
endmodule
