// Formal properties of `viewport_multicast` (ViewportMulticast; requirements PA-2, PA-3, PA-4 strict order), run by
// `ppu formal viewport_multicast`. One accepted primitive is tracked (the free input `track`
// picks it): the wrapper keeps the mask bits it has still to emit and the number of primitives
// ahead of it (accepted earlier, last beat not yet taken). Solved with cvc5; flattened.
// observe: cur_valid$q cur_kill$q cur_viewport$q cur_rest$q cur_rest_empty$q cur_first$q cur_prim$q cur_layer$q cur_instance$q pend_valid$q pend_kill$q pend_viewport$q pend_rest$q pend_rest_empty$q pend_prim$q pend_layer$q pend_instance$q
module viewport_multicast_props(
    input wire clock,
    input wire reset,
    input wire layer_offset,
    input wire in_valid,
    input wire [15:0] in_mask,
    input wire [31:0] in_layer,
    input wire [31:0] in_prim,
    input wire [31:0] in_instance,
    input wire out_ready,
    input wire track
);
`include "observe.vh"
    wire in_ready, out_valid, out_kill, out_first, out_last;
    wire [31:0] out_prim, out_instance, out_layer;
    wire [3:0] out_viewport;
    viewport_multicast dut(
        .clock(clock), .reset(reset), .layer_offset(layer_offset), .in_valid(in_valid),
        .in_ready(in_ready), .in_mask(in_mask), .in_layer(in_layer), .in_prim(in_prim),
        .in_instance(in_instance), .out_valid(out_valid), .out_ready(out_ready),
        .out_kill(out_kill), .out_prim(out_prim), .out_instance(out_instance),
        .out_viewport(out_viewport), .out_layer(out_layer), .out_first(out_first),
        .out_last(out_last) `OBSERVE
    );

    // Environment: reset first; everything else free.
    `include "reset_first.vh"

    wire accept = in_valid && in_ready;
    wire beat = out_valid && out_ready;
    wire done = beat && out_last;
    // Primitives accepted whose last beat has not been taken.
    reg [1:0] n = 2'd0;
    // The tracked primitive: its mask bits not yet emitted, its primitive ID, whether no beat
    // of it has been taken, and how many primitives are ahead of it.
    reg trk = 1'b0;
    reg [15:0] rem = 16'd0;
    reg [31:0] prim = 32'd0;
    reg [31:0] layer = 32'd0;
    reg [31:0] inst = 32'd0;
    reg first = 1'b0;
    reg [1:0] ahead = 2'd0;
    // The beat on offer is the tracked primitive's.
    wire mine = trk && ahead == 2'd0;
    wire [15:0] out_bit = 16'd1 << out_viewport;
    always @(posedge clock) begin
        if (reset) begin
            n <= 2'd0;
            trk <= 1'b0;
        end else begin
            n <= n + accept - done;
            if (trk) begin
                if (done && ahead != 2'd0) ahead <= ahead - 2'd1;
                if (mine && beat) begin
                    rem <= rem & ~out_bit;
                    first <= 1'b0;
                    if (out_last) trk <= 1'b0;
                end
            end else if (accept && track) begin
                trk <= 1'b1;
                rem <= in_mask;
                prim <= in_prim;
                layer <= in_layer;
                inst <= in_instance;
                first <= 1'b1;
                ahead <= n - done;
            end
        end
    end

`ifndef MUTANT
    // Helper invariants: the count is the unit's two valid flags; the tracked primitive is the
    // current one (ahead 0, current valid) or the pending one (ahead 1, or ahead 0 with no
    // current), and that register holds its remaining mask encoded as the unit encodes it.
    wire in_cur = trk && ahead == 2'd0 && obs_cur_valid_q;
    wire in_pend = trk && (ahead == 2'd1 || (ahead == 2'd0 && !obs_cur_valid_q));
    wire [15:0] cur_bit = 16'd1 << obs_cur_viewport_q;
    wire [15:0] pend_bit = 16'd1 << obs_pend_viewport_q;
    always @(*) if (past_valid && !reset) begin
        assert(n == {1'b0, obs_cur_valid_q} + {1'b0, obs_pend_valid_q});
        if (trk) assert(ahead <= 2'd1);
        if (trk && ahead == 2'd1) assert(obs_cur_valid_q && obs_pend_valid_q);
        if (in_cur) begin
            assert(obs_cur_prim_q == prim);
            assert(obs_cur_layer_q == layer && obs_cur_instance_q == inst);
            assert(obs_cur_first_q == first);
            assert(obs_cur_kill_q == (rem == 16'd0));
            assert(obs_cur_rest_empty_q == (obs_cur_rest_q == 16'd0));
            if (rem == 16'd0) assert(obs_cur_viewport_q == 4'd0 && obs_cur_rest_q == 16'd0);
            else begin
                assert(rem == (obs_cur_rest_q | cur_bit));
                assert((obs_cur_rest_q & ((cur_bit << 1) - 16'd1)) == 16'd0);
            end
        end
        if (in_pend) begin
            assert(obs_pend_valid_q);
            assert(first);
            assert(obs_pend_prim_q == prim);
            assert(obs_pend_layer_q == layer && obs_pend_instance_q == inst);
            assert(obs_pend_kill_q == (rem == 16'd0));
            assert(obs_pend_rest_empty_q == (obs_pend_rest_q == 16'd0));
            if (rem == 16'd0) assert(obs_pend_viewport_q == 4'd0 && obs_pend_rest_q == 16'd0);
            else begin
                assert(rem == (obs_pend_rest_q | pend_bit));
                assert((obs_pend_rest_q & ((pend_bit << 1) - 16'd1)) == 16'd0);
            end
        end
    end
`endif

`ifdef P_ORDER
    // PA-2, PA-4 (strict order): every beat on offer while the tracked primitive is at the front is its own
    // (its primitive ID), and names the lowest viewport of the mask bits it has still to emit;
    // taking it clears that bit, and the beat is flagged last exactly when no bit is left, after
    // which the next beat belongs to the next primitive. Its first beat is flagged first. A
    // mask of 0 leaves as one kill beat (viewport 0, first and last).
    always @(*) if (past_valid && !reset && mine && out_valid) begin
        assert(out_prim == prim);
        assert(out_first == first);
        if (rem == 16'd0) assert(out_kill && out_last && out_viewport == 4'd0);
        else begin
            assert(!out_kill);
            assert(rem[out_viewport]);
            assert((rem & (out_bit - 16'd1)) == 16'd0);
            assert(out_last == ((rem & ~out_bit) == 16'd0));
        end
    end
`endif

`ifdef P_LAYER
    // PA-3: every beat of the tracked primitive carries its instance, and its layer is the
    // primitive's plus the beat's viewport (mod 2^32) when the layer offset is on, the
    // primitive's otherwise; a kill beat's layer is the primitive's.
    always @(*) if (past_valid && !reset && mine && out_valid) begin
        assert(out_instance == inst);
        if (layer_offset && rem != 16'd0) assert(out_layer == layer + {28'd0, out_viewport});
        else assert(out_layer == layer);
    end
`endif
endmodule
