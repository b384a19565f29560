// Formal properties of `order_sequencer` (OrderSequencer; requirement PA-4 viewport order, with
// PA-2 multicast and PA-3 layer offset), run by `ppu formal order_sequencer`. Reading of the
// ports: `batch_size` and `layer_offset` are static (assumed constant from the reset on), and
// `batch_size` is at most `BS (a runner define, 2): a batch of two primitives already has two
// primitives per viewport pass and kill beats before the passes; every batch size runs the same
// scan. The unit's four block RAMs are abstracted in the formal copy (read data free, nothing
// stored); this wrapper models their words 0 and 1 (all a batch of at most 2 uses) from the
// write port and constrains a read of them, free when the read's address is written at the
// same edge (the block RAM's undefined read-during-write).
//
// One batch is tracked (the free input `pick` at a batch's first primitive chooses it): the
// wrapper keeps its primitives (mask, layer, primitive, instance), the beats it still owes
// (mask bits not yet sent, a kill beat per mask-0 primitive) and the beats of earlier
// primitives still to leave (`ahead`: each primitive owes one beat per mask bit, one if its
// mask is 0). Batches close after `batch_size` primitives or at `in_end`.
//
// Properties:
// - ORDER (PA-4 viewport order, PA-2): once the beats ahead have left, the tracked batch's beats
//   leave in the documented order: first a kill beat (viewport 0, first and last) per mask-0
//   primitive in primitive order, then for each viewport v ascending that a primitive has, one
//   beat per primitive with bit v, in primitive order, flagged first/last exactly when v is the
//   lowest/highest bit of its mask; each owed beat exactly once; no beat of a batch before it
//   closes; no beat that no primitive owes.
// - LAYER (PA-3): each beat of the tracked batch carries its primitive's instance, and its
//   layer is the primitive's plus v (mod 2^32) with `layer_offset`, the primitive's otherwise
//   and on a kill beat.
// - HOLD: a beat on offer and not taken stays on offer, unchanged, the next cycle.
// - NOFULL: with a valid `batch_size`, `violation` stays low: a beat never finds the beat FIFO
//   full (the doc's issue rule: a read only while the FIFO holds fewer than 3 beats, room for
//   the three on their way).
// observe: entry_mask$write_enable entry_mask$write_address entry_mask$read_address entry_mask$write_data entry_layer$write_data entry_prim$write_data entry_instance$write_data entry_mask$read_data entry_layer$read_data entry_prim$read_data entry_instance$read_data beats$fill read_valid$q test_valid$q push_valid$q batch_ok$q beats.count$q beats.rd_ptr$q beats.wr_ptr$q
`default_nettype none
module order_sequencer_props(
    input wire clock,
    input wire reset,
    input wire [8:0] batch_size,
    input wire layer_offset,
    input wire in_valid,
    input wire [15:0] in_mask,
    input wire [31:0] in_layer,
    input wire [31:0] in_prim,
    input wire [31:0] in_instance,
    input wire in_end,
    input wire out_ready,
    input wire pick
);
`include "observe.vh"
    wire in_ready, out_valid, out_kill, out_first, out_last, violation;
    wire [31:0] out_prim, out_instance, out_layer;
    wire [3:0] out_viewport;
    order_sequencer dut(
        .clock(clock), .reset(reset), .batch_size(batch_size), .layer_offset(layer_offset),
        .in_valid(in_valid), .in_ready(in_ready), .in_mask(in_mask), .in_layer(in_layer),
        .in_prim(in_prim), .in_instance(in_instance), .in_end(in_end),
        .out_valid(out_valid), .out_ready(out_ready), .out_kill(out_kill),
        .out_prim(out_prim), .out_instance(out_instance), .out_viewport(out_viewport),
        .out_layer(out_layer), .out_first(out_first), .out_last(out_last),
        .violation(violation) `OBSERVE
    );

    // Environment: reset first; batch_size in 1..BS and layer_offset constant; the rest free.
    `include "reset_first.vh"
    always @(*) assume(batch_size >= 9'd1 && batch_size <= `BS);
    always @(posedge clock) if (past_valid) assume(batch_size == $past(batch_size) && layer_offset == $past(layer_offset));

    // The block RAMs' words 0 and 1 ({instance, primitive, layer, mask}).
    wire [111:0] wr_word = {obs_entry_instance_write_data, obs_entry_prim_write_data,
                            obs_entry_layer_write_data, obs_entry_mask_write_data};
    wire [111:0] rd_data = {obs_entry_instance_read_data, obs_entry_prim_read_data,
                            obs_entry_layer_read_data, obs_entry_mask_read_data};
    wire we = obs_entry_mask_write_enable;
    wire [7:0] wa = obs_entry_mask_write_address;
    wire [7:0] ra = obs_entry_mask_read_address;
    reg [111:0] ram0, ram1, ram_rd_word;
    reg ram_rd_ok = 1'b0;
    always @(posedge clock) begin
        if (we && wa == 8'd0) ram0 <= wr_word;
        if (we && wa == 8'd1) ram1 <= wr_word;
        ram_rd_word <= ra[0] ? ram1 : ram0;
        ram_rd_ok <= ra < 8'd2 && !(we && wa == ra);
    end
    always @(*) if (ram_rd_ok) assume(rd_data == ram_rd_word);

    wire accept = in_valid && in_ready;
    wire beat = out_valid && out_ready;
    function [4:0] owes(input [15:0] m);
        integer b;
        begin
            owes = 5'd0;
            for (b = 0; b < 16; b = b + 1) owes = owes + m[b];
            if (m == 16'd0) owes = 5'd1;
        end
    endfunction
    // Beats owed by the primitives taken, not yet taken at the output.
    reg [9:0] owed = 10'd0;
    // Primitives of the open batch taken so far; the primitive taken now closes its batch.
    reg [8:0] gn = 9'd0;
    wire closes = in_end || gn + 9'd1 == batch_size;

    // The tracked batch: 0 none, 1 open (its first primitive taken), 2 closed.
    reg [1:0] trk = 2'd0;
    reg [9:0] ahead = 10'd0;
    reg [15:0] m0, m1, r0, r1;
    reg [31:0] l0, l1, p0, p1, i0, i1;
    reg k0, k1;
    // The beat it owes next: kill beats first, then the lowest viewport any primitive still
    // has, its first primitive with that bit.
    wire [15:0] rall = r0 | r1;
    reg [3:0] v;
    integer b;
    always @(*) begin
        v = 4'd0;
        for (b = 15; b >= 0; b = b - 1) if (rall[b]) v = b;
    end
    wire e = k0 ? 1'b0 : k1 ? 1'b1 : !r0[v];
    wire e_kill = k0 || k1;
    wire [15:0] e_mask = e ? m1 : m0;
    wire [15:0] vbit = 16'd1 << v;
    wire e_first = e_kill || (e_mask & (vbit - 16'd1)) == 16'd0;
    wire e_last = e_kill || (e_mask & ~((vbit << 1) - 16'd1)) == 16'd0;
    wire [31:0] e_prim = e ? p1 : p0;
    wire [31:0] e_inst = e ? i1 : i0;
    wire [31:0] e_layer = (e ? l1 : l0) + (layer_offset && !e_kill ? {28'd0, v} : 32'd0);
    wire mine = trk == 2'd2 && ahead == 10'd0;
    wire [15:0] r0_n = r0 & ~(!e_kill && !e ? vbit : 16'd0);
    wire [15:0] r1_n = r1 & ~(!e_kill && e ? vbit : 16'd0);
    wire k0_n = 1'b0;
    wire k1_n = k0 && k1;

    always @(posedge clock)
        if (reset) begin
            owed <= 10'd0;
            gn <= 9'd0;
            trk <= 2'd0;
        end else begin
            owed <= owed + (accept ? owes(in_mask) : 5'd0) - (beat ? 10'd1 : 10'd0);
            if (accept) gn <= closes ? 9'd0 : gn + 9'd1;
            if (trk != 2'd0 && beat && ahead != 10'd0) ahead <= ahead - 10'd1;
            if (mine && beat) begin
                k0 <= k0_n;
                k1 <= k1_n;
                r0 <= r0_n;
                r1 <= r1_n;
                if (!k1_n && r0_n == 16'd0 && r1_n == 16'd0) trk <= 2'd0;
            end
            if (accept && trk == 2'd0 && gn == 9'd0 && pick) begin
                trk <= closes ? 2'd2 : 2'd1;
                ahead <= owed - (beat ? 10'd1 : 10'd0);
                m0 <= in_mask; r0 <= in_mask; k0 <= in_mask == 16'd0;
                l0 <= in_layer; p0 <= in_prim; i0 <= in_instance;
                m1 <= 16'd0; r1 <= 16'd0; k1 <= 1'b0;
            end
            if (accept && trk == 2'd1) begin
                // (batch_size <= 2: the second primitive closes the batch.)
                trk <= 2'd2;
                m1 <= in_mask; r1 <= in_mask; k1 <= in_mask == 16'd0;
                l1 <= in_layer; p1 <= in_prim; i1 <= in_instance;
            end
        end

`ifndef MUTANT
    // Helper invariants (the beat FIFO and the issue rule): the FIFO's count is its fill, at
    // most 6, its write pointer its read pointer plus its count (mod 6); the fill and the beats
    // on their way (read, registered, tested) never exceed its 6 slots; `batch_size` valid.
    wire [3:0] rd_plus = {1'b0, obs_beats_rd_ptr_q} + {1'b0, obs_beats_count_q};
    always @(*) if (past_valid && !reset) begin
        assert(obs_batch_ok_q);
        assert(obs_beats_fill == obs_beats_count_q);
        assert(obs_beats_count_q <= 3'd6 && obs_beats_rd_ptr_q <= 3'd5 && obs_beats_wr_ptr_q <= 3'd5);
        assert({1'b0, obs_beats_wr_ptr_q} == (rd_plus >= 4'd6 ? rd_plus - 4'd6 : rd_plus));
        assert({1'b0, obs_beats_count_q} + obs_read_valid_q + obs_test_valid_q + obs_push_valid_q <= 4'd6);
    end
`endif

`ifdef P_NOFULL
    always @(*) if (past_valid && !reset) assert(!violation);
`endif

`ifdef P_ORDER
    always @(*) if (past_valid && !reset) begin
        if (beat) assert(owed != 10'd0);
        if (trk == 2'd1 && ahead == 10'd0) assert(!out_valid);
        if (mine && out_valid) begin
            assert(out_kill == e_kill);
            assert(out_prim == e_prim);
            assert(out_viewport == (e_kill ? 4'd0 : v));
            assert(out_first == e_first);
            assert(out_last == e_last);
        end
    end
`endif

`ifdef P_LAYER
    always @(*) if (past_valid && !reset && mine && out_valid) begin
        assert(out_instance == e_inst);
        assert(out_layer == e_layer);
    end
`endif

`ifdef P_HOLD
    always @(posedge clock) if (past_valid && !$past(reset) && !reset && $past(out_valid && !out_ready)) begin
        assert(out_valid);
        assert(out_kill == $past(out_kill) && out_prim == $past(out_prim));
        assert(out_instance == $past(out_instance) && out_viewport == $past(out_viewport));
        assert(out_layer == $past(out_layer));
        assert(out_first == $past(out_first) && out_last == $past(out_last));
    end
`endif
endmodule
`default_nettype wire
