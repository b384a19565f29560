// Formal properties of `provoking_vertex_cache` (ProvokingVertexCache; requirement PA-6: the
// vertex cache after the GS, a provoking vertex never shared), run by
// `ppu formal provoking_vertex_cache`. `capacity` is static (assumed constant from the reset
// on) and at most `CAP (a runner define, 4): the 64 entries are the same logic each, the FIFO
// pointer wraps after `capacity` allocations, and a small capacity lets a counterexample wrap
// it in a few lookups. Lookups and result back-pressure are free (a lookup may be withdrawn).
//
// The wrapper's model of the cache, from the doc comment's words: `capacity` entries, each
// valid with a tag (vertex, viewport), and an allocation pointer (0 after the reset, wrapping
// from capacity - 1 to 0). Lookups are processed one at a time in the order taken: a
// non-provoking lookup whose tag a valid entry holds hits that entry; otherwise, and always
// for a provoking lookup, an entry is allocated at the pointer (the tag written, valid) and
// the pointer advances; a provoking lookup whose tag a valid entry holds invalidates that entry
// first (`invalidated`) and never hits. The model steps when the unit decides a lookup (its
// internal `b_commit`): only when it steps, never what it computes, comes from the unit, and
// it takes the lookup from its own queue of lookups taken.
//
// Properties:
// - RESULT (PA-6): every result on offer is the model's for the oldest lookup not yet answered:
//   hit, slot, invalidated, and the lookup echoed (results in lookup order, nothing answered
//   that was not looked up). A provoking lookup therefore never hits and gets a fresh entry.
// - UNIQUE (PA-6): never two valid entries with the same tag, and no entry at or above
//   `capacity` ever valid.
// observe: bank_lo.valid$*$q bank_lo.tag_vertex$*$q bank_lo.tag_viewport$*$q bank_hi.valid$*$q a_valid$q a_vertex$q a_viewport$q a_provoking$q m_valid$q m_vertex$q m_viewport$q m_provoking$q b_valid$q b_vertex$q b_viewport$q b_provoking$q b_match_lo$q b_match_hi$q m_cur_lo m_cur_hi m_same_b$q a_same_b$q b_found alloc_now b_commit b_alloc_forced$q b_alloc_open$q b_found_excl_lo$*$q b_found_excl_hi$*$q b_found_at_lo$*$q b_found_at_hi$*$q b_at_taken$q alloc_ptr$q alloc_next$q alloc_onehot_lo$q alloc_onehot_hi$q w_mask_lo$q w_mask_hi$q w_vertex$q w_viewport$q a_same_w$q r_valid$q s_valid$q s_result$q capacity_bad$q cap_last$q
`default_nettype none
module provoking_vertex_cache_props(
    input wire clock,
    input wire reset,
    input wire [6:0] capacity,
    input wire lookup_valid,
    input wire [15:0] lookup_vertex,
    input wire [3:0] lookup_viewport,
    input wire lookup_provoking,
    input wire result_ready
);
`include "observe.vh"
    localparam C = `CAP;
    wire lookup_ready, result_valid, result_hit, result_invalidated, result_provoking, violation;
    wire [5:0] result_slot;
    wire [15:0] result_vertex;
    wire [3:0] result_viewport;
    provoking_vertex_cache dut(
        .clock(clock), .reset(reset), .capacity(capacity),
        .lookup_valid(lookup_valid), .lookup_ready(lookup_ready),
        .lookup_vertex(lookup_vertex), .lookup_viewport(lookup_viewport),
        .lookup_provoking(lookup_provoking),
        .result_valid(result_valid), .result_ready(result_ready), .result_hit(result_hit),
        .result_slot(result_slot), .result_invalidated(result_invalidated),
        .result_vertex(result_vertex), .result_viewport(result_viewport),
        .result_provoking(result_provoking), .violation(violation) `OBSERVE
    );

    // Environment: reset first; `capacity` in 1..CAP and constant; everything else free.
    `include "reset_first.vh"
    always @(*) assume(capacity >= 7'd1 && capacity <= C);
    always @(posedge clock) if (past_valid) assume(capacity == $past(capacity));

    integer i, j;
    wire take = lookup_valid && lookup_ready;
    wire taken = result_valid && result_ready;
    wire step = obs_b_commit;

    // Lookups taken, not yet decided: {provoking, viewport, vertex}, oldest first.
    reg [20:0] ql0 = 21'd0, ql1 = 21'd0, ql2 = 21'd0;
    reg [1:0] qn = 2'd0;
    // Results decided, not yet taken: {hit, slot, invalidated, provoking, viewport, vertex}.
    reg [28:0] rq0 = 29'd0, rq1 = 29'd0;
    reg [1:0] rn = 2'd0;
    // The model: entry valid bits, tags ({viewport, vertex}), pointer.
    reg [C-1:0] mv = 0;
    reg [20*C-1:0] mt = 0;
    reg [5:0] mp = 6'd0;

    // The model's answer for the oldest lookup.
    wire [19:0] t0 = ql0[19:0];
    wire p0 = ql0[20];
    reg found;
    reg [5:0] fidx;
    always @(*) begin
        found = 1'b0; fidx = 6'd0;
        for (i = 0; i < C; i = i + 1)
            if (mv[i] && mt[20*i +: 20] == t0) begin found = 1'b1; fidx = i; end
    end
    wire e_hit = found && !p0;
    wire [5:0] e_slot = e_hit ? fidx : mp;
    wire e_inval = found && p0;
    wire [5:0] mp_next = ({1'b0, mp} + 7'd1 == capacity) ? 6'd0 : mp + 6'd1;
    wire [28:0] e_result = {e_hit, e_slot, e_inval, ql0};
    reg [C-1:0] mv_n;
    reg [20*C-1:0] mt_n;
    always @(*) begin
        mv_n = mv; mt_n = mt;
        if (e_inval) mv_n[fidx] = 1'b0;
        if (!e_hit) begin mv_n[mp] = 1'b1; mt_n[20*mp +: 20] = t0; end
    end

    wire [1:0] qn_pop = qn - (step ? 2'd1 : 2'd0);
    wire [1:0] rn_pop = rn - (taken ? 2'd1 : 2'd0);
    always @(posedge clock)
        if (reset) begin
            qn <= 2'd0; rn <= 2'd0; mv <= 0; mp <= 6'd0;
        end else begin
            if (step) begin
                ql0 <= ql1; ql1 <= ql2;
                mv <= mv_n; mt <= mt_n;
                if (!e_hit) mp <= mp_next;
            end
            if (take) begin
                if (qn_pop == 2'd0) ql0 <= {lookup_provoking, lookup_viewport, lookup_vertex};
                if (qn_pop == 2'd1) ql1 <= {lookup_provoking, lookup_viewport, lookup_vertex};
                if (qn_pop == 2'd2) ql2 <= {lookup_provoking, lookup_viewport, lookup_vertex};
            end
            qn <= qn_pop + (take ? 2'd1 : 2'd0);
            if (taken) rq0 <= rq1;
            if (step) begin
                if (rn_pop == 2'd0) rq0 <= e_result;
                if (rn_pop == 2'd1) rq1 <= e_result;
            end
            rn <= rn_pop + (step ? 2'd1 : 2'd0);
        end

    wire [63:0] valid_all = {obs_bank_hi_valid_q_all, obs_bank_lo_valid_q_all};
    wire [19:0] bank_tag [0:C-1];
    genvar g;
    generate for (g = 0; g < C; g = g + 1) begin : tags
        assign bank_tag[g] = {obs_bank_lo_tag_viewport_q_all[4*g +: 4], obs_bank_lo_tag_vertex_q_all[16*g +: 16]};
    end endgenerate

`ifndef MUTANT
    // Helper invariants: the model's tags are unique (by construction), and so are the entries'
    // (UNIQUE itself); the unit's entries with the allocation written one cycle after its
    // decision (`w_*`) applied, and its pointer, are the model's; the lookups in stages
    // B, M, A (in that order, any of them empty) are the model's queue of lookups; B's match
    // vector, found and allocation decision, M's current matches, and the stages' same-tag
    // registers are what their doc comments say against the entries; the two result slots are
    // the model's queue of results.
    wire [19:0] a_tag = {obs_a_viewport_q, obs_a_vertex_q};
    wire [19:0] m_tag = {obs_m_viewport_q, obs_m_vertex_q};
    wire [19:0] b_tag = {obs_b_viewport_q, obs_b_vertex_q};
    reg [63:0] b_model_match, m_model_match;
    always @(*) begin
        b_model_match = 64'd0; m_model_match = 64'd0;
        for (i = 0; i < C; i = i + 1) begin
            b_model_match[i] = mv[i] && mt[20*i +: 20] == b_tag;
            m_model_match[i] = mv[i] && mt[20*i +: 20] == m_tag;
        end
    end
    // A result as the unit packs it ({provoking, viewport, vertex, invalidated, slot, hit}).
    function [28:0] unit_layout(input [28:0] r);
        unit_layout = {r[20], r[19:16], r[15:0], r[21], r[27:22], r[28]};
    endfunction
    wire [1:0] m_pos = {1'b0, obs_b_valid_q};
    wire [1:0] a_pos = {1'b0, obs_b_valid_q} + {1'b0, obs_m_valid_q};
    wire [20:0] ql [0:2];
    assign ql[0] = ql0; assign ql[1] = ql1; assign ql[2] = ql2;
    wire [63:0] w_mask = {obs_w_mask_hi_q, obs_w_mask_lo_q};
    wire [19:0] w_tag = {obs_w_viewport_q, obs_w_vertex_q};
    always @(*) if (past_valid && !reset) begin
        assert(!obs_capacity_bad_q);
        assert(obs_cap_last_q == capacity - 7'd1);
        assert({1'b0, mp} < capacity);
        assert(obs_alloc_ptr_q == mp);
        assert(obs_alloc_next_q == mp_next);
        assert({obs_alloc_onehot_hi_q, obs_alloc_onehot_lo_q} == 64'd1 << mp);
        for (i = 0; i < 64; i = i + 1)
            if (i >= C) assert(!valid_all[i] && !w_mask[i]);
        for (i = 0; i < C; i = i + 1)
            for (j = i + 1; j < C; j = j + 1) begin
                assert(!(mv[i] && mv[j] && mt[20*i +: 20] == mt[20*j +: 20]));
                assert(!(valid_all[i] && valid_all[j] && bank_tag[i] == bank_tag[j]));
            end
        for (i = 0; i < C; i = i + 1) begin
            assert((valid_all[i] || w_mask[i]) == mv[i]);
            if (mv[i]) assert((w_mask[i] ? w_tag : bank_tag[i]) == mt[20*i +: 20]);
            if (i >= capacity) assert(!mv[i]);
        end
        assert(qn == {1'b0, obs_a_valid_q} + {1'b0, obs_m_valid_q} + {1'b0, obs_b_valid_q});
        if (obs_b_valid_q) assert(ql0 == {obs_b_provoking_q, b_tag});
        if (obs_m_valid_q) assert(ql[m_pos] == {obs_m_provoking_q, m_tag});
        if (obs_a_valid_q) assert(ql[a_pos] == {obs_a_provoking_q, a_tag});
        if (obs_b_valid_q) begin
            assert({obs_b_match_hi_q, obs_b_match_lo_q} == b_model_match);
            assert(obs_b_found == (b_model_match != 64'd0));
            assert((obs_b_alloc_forced_q || (obs_b_alloc_open_q
                    && !(|obs_b_found_excl_lo_q_all || |obs_b_found_excl_hi_q_all)
                    && !((|obs_b_found_at_lo_q_all || |obs_b_found_at_hi_q_all) && !obs_b_at_taken_q)))
                   == (obs_b_provoking_q || b_model_match == 64'd0));
            assert(obs_alloc_now == (obs_b_commit && (obs_b_provoking_q || b_model_match == 64'd0)));
        end else assert(!obs_b_commit && !obs_alloc_now);
        if (obs_m_valid_q) assert({obs_m_cur_hi, obs_m_cur_lo} == m_model_match);
        if (obs_m_valid_q && obs_b_valid_q) assert(obs_m_same_b_q == (m_tag == b_tag));
        if (obs_a_valid_q && obs_b_valid_q) assert(obs_a_same_b_q == (a_tag == b_tag));
        if (obs_a_valid_q && w_mask != 64'd0) assert(obs_a_same_w_q == (a_tag == w_tag));
        assert(rn == {1'b0, obs_r_valid_q} + {1'b0, obs_s_valid_q});
        if (obs_s_valid_q) assert(obs_r_valid_q && obs_s_result_q == unit_layout(rq1));
    end
`endif

`ifdef P_RESULT
    // PA-6: the result on offer is the model's for the oldest lookup not yet answered.
    always @(*) if (past_valid && !reset && result_valid) begin
        assert(rn != 2'd0);
        assert(result_hit == rq0[28]);
        assert(result_slot == rq0[27:22]);
        assert(result_invalidated == rq0[21]);
        assert({result_provoking, result_viewport, result_vertex} == rq0[20:0]);
    end
`endif

`ifdef P_UNIQUE
    // PA-6: never two valid entries with one tag; no entry at or above `capacity` valid.
    always @(*) if (past_valid && !reset) begin
        for (i = 0; i < 64; i = i + 1)
            if (i >= capacity) assert(!valid_all[i]);
        for (i = 0; i < C; i = i + 1)
            for (j = i + 1; j < C; j = j + 1)
                assert(!(valid_all[i] && valid_all[j] && bank_tag[i] == bank_tag[j]));
    end
`endif

endmodule
`default_nettype wire
