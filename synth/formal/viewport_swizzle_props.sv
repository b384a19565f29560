// Formal properties of `viewport_swizzle` (ViewportSwizzle; requirement PA-5), run by
// `ppu formal viewport_swizzle`. The swizzle is checked from stage 1 (the vertex and the code
// of its viewport, registered when it is accepted) to the output register, for every code: the
// code register is free in the induction step. Solved with cvc5 (Z3 4.8.12 does not return on
// this model, flat or hierarchical); flattened.
// observe: s1_vertex$q s1_code$q
module viewport_swizzle_props(
    input wire clock,
    input wire reset,
    input wire cfg_valid,
    input wire [3:0] cfg_viewport,
    input wire [15:0] cfg_value,
    input wire cfg_register_format,
    input wire in_valid,
    input wire [3:0] in_viewport,
    input wire [127:0] in_vertex,
    input wire [7:0] in_slot,
    input wire out_ready
);
`include "observe.vh"
    wire cfg_error, in_ready, out_valid;
    wire [127:0] out_vertex;
    wire [3:0] out_viewport;
    wire [7:0] out_slot;
    viewport_swizzle dut(
        .clock(clock), .reset(reset), .cfg_valid(cfg_valid), .cfg_viewport(cfg_viewport),
        .cfg_value(cfg_value), .cfg_register_format(cfg_register_format), .cfg_error(cfg_error),
        .in_valid(in_valid), .in_ready(in_ready), .in_viewport(in_viewport),
        .in_vertex(in_vertex), .in_slot(in_slot), .out_valid(out_valid), .out_ready(out_ready),
        .out_vertex(out_vertex), .out_viewport(out_viewport), .out_slot(out_slot) `OBSERVE
    );

    // Environment: reset first; everything else free.
    `include "reset_first.vh"

    // PA-5, as written: field c of the code (bits 3c+2:3c) chooses output component c (x, y, z,
    // w at bits 32c+31:32c) among +x=0, -x=1, +y=2, -y=3, +z=4, -z=5, +w=6, -w=7; negation
    // flips the sign bit (31) of the 32-bit float.
    function [31:0] pick;
        input [127:0] v;
        input [2:0] f;
        begin
            case (f[2:1])
                2'd0: pick = v[31:0];
                2'd1: pick = v[63:32];
                2'd2: pick = v[95:64];
                default: pick = v[127:96];
            endcase
            if (f[0]) pick = pick ^ 32'h80000000;
        end
    endfunction
    function [127:0] swizzle;
        input [127:0] v;
        input [11:0] code;
        swizzle = {pick(v, code[11:9]), pick(v, code[8:6]), pick(v, code[5:3]), pick(v, code[2:0])};
    endfunction
    // The stage-2 register loads whenever the output is free or taken.
    reg loaded = 1'b0;
    reg [127:0] v_then = 128'd0;
    reg [11:0] code_then = 12'd0;
    always @(posedge clock) begin
        loaded <= !out_valid || out_ready;
        v_then <= obs_s1_vertex_q;
        code_then <= obs_s1_code_q;
    end

`ifdef P_SELECT
    // Every output component is the component its field names, negated when the field is odd,
    // for every code (the definition of PA-5).
    always @(*) if (past_valid && loaded) assert(out_vertex == swizzle(v_then, code_then));
`endif

`ifdef P_BIJECTION
    // For a code whose four fields name four different source components (a permutation, with
    // any signs) the swizzle is a bijection on the 128-bit pattern: the inverse swizzle (put
    // output c back at the component its field names, its sign bit flipped back) recovers the
    // vertex bit for bit. (A code that names a component twice, e.g. +x +x +x +x, is legal in
    // PA-5 and is not one-to-one; it is not claimed.)
    wire [1:0] sx = code_then[2:1], sy = code_then[5:4], sz = code_then[8:7], sw = code_then[11:10];
    wire permutation = sx != sy && sx != sz && sx != sw && sy != sz && sy != sw && sz != sw;
    reg [127:0] back;
    always @(*) begin
        back = 128'd0;
        back[32*sx +: 32] = out_vertex[31:0] ^ {code_then[0], 31'd0};
        back[32*sy +: 32] = out_vertex[63:32] ^ {code_then[3], 31'd0};
        back[32*sz +: 32] = out_vertex[95:64] ^ {code_then[6], 31'd0};
        back[32*sw +: 32] = out_vertex[127:96] ^ {code_then[9], 31'd0};
    end
    always @(*) if (past_valid && loaded && permutation) assert(back == v_then);
`endif
endmodule
