// Formal properties of `soft_put_allocator` (SoftPutAllocator, compare-form wrap as exported;
// requirements WQ-5, WQ-6, WQ-10), run by `ppu formal soft_put_allocator`, at IDX_BITS =
// `IDX (defined by the check): n is `ring_entries`, any size 2..=2^IDX, fixed from reset on.
//
// A model of the allocator in the words of WQ-5/WQ-6 and the unit's documentation, one atomic
// operation per cycle, applied at the end of the cycle of its request:
// - reset: soft GP_PUT = shadow GP_PUT = 0, lap 0 (free = wrap(shadow - soft) = 0: nothing can
//   be allocated before a set-up or a shadow update), every other input of the cycle ignored;
// - set-up with GP_GET = G: soft = wrap(G + 1), shadow = wrap(G - 1), lap 0; an allocation or a
//   shadow update of the same cycle is ignored;
// - otherwise a shadow update moves shadow GP_PUT first, and an allocation of count entries is
//   granted exactly when 1 <= count <= wrap(shadow - soft) with that shadow: soft advances to
//   wrap(soft + count), the lap counts a wrap, the old soft and lap are the answer.
// Properties:
// - RESP: the answer to an allocation in t comes in t+2 (unless a reset in t+1 cuts it): valid,
//   ok exactly when granted, first entry and lap as before the operation; no answer for a
//   cycle without a request (or with a set-up, or in reset); soft_gp_put shows in t+2 the soft
//   GP_PUT after t, shadow_gp_put in t+1 the shadow after t. The host obeys WQ-6 (a shadow
//   update never passes soft GP_PUT).
// - PASSED: violation exactly as documented: in the cycle of a count of 0, of a set-up index or
//   shadow value outside the ring, and two cycles after a shadow update that leaves more than
//   n - 1 free entries (unless a reset in between); never while reset is high. Checked until
//   the first such update after a reset or set-up (after it the unit's free count is beyond
//   the ring, which WQ-6 rules out; a set-up or reset starts again).
// - RESET: a shadow update seen while reset is high moves nothing: right after a reset, every
//   allocation is refused until a set-up or a shadow update outside reset.
// observe: soft_granted$q soft_kept$q last_granted$q free_granted$q free_kept$q soft_lap$q lap_wrap$q shadow_minus_n$q shadow_plus_n$q last_index$q entries_plus_one$q
`default_nettype none
module soft_put_allocator_props #(parameter I = `IDX, parameter X = `IDX + 2) (
    input wire clock,
    input wire reset,
    input wire setup_valid,
    input wire [I-1:0] setup_gp_get,
    input wire shadow_valid,
    input wire [I-1:0] shadow_gp_put_value,
    input wire alloc_valid,
    input wire [X-1:0] alloc_count
);
`include "observe.vh"
    (* anyconst *) wire [X-1:0] n;
    always @(*) assume(n >= 2 && n <= (1 << I));

    wire alloc_ready, resp_valid, resp_ok, violation;
    wire [I-1:0] resp_first, soft_gp_put, shadow_gp_put;
    wire [15:0] resp_lap;
    soft_put_allocator dut(
        .clock(clock), .reset(reset), .ring_entries(n), .setup_valid(setup_valid),
        .setup_gp_get(setup_gp_get), .shadow_valid(shadow_valid),
        .shadow_gp_put_value(shadow_gp_put_value), .alloc_valid(alloc_valid),
        .alloc_ready(alloc_ready), .alloc_count(alloc_count), .resp_valid(resp_valid),
        .resp_ok(resp_ok), .resp_first(resp_first), .resp_lap(resp_lap),
        .soft_gp_put(soft_gp_put), .shadow_gp_put(shadow_gp_put), .violation(violation)
        `OBSERVE
    );

    // Environment: reset first; n is fixed. Index inputs lie in the ring except where PASSED
    // checks the flag for them.
    `include "reset_first.vh"
`ifndef P_PASSED
    always @(*) if (setup_valid) assume({2'b00, setup_gp_get} < n);
    always @(*) if (shadow_valid) assume({2'b00, shadow_gp_put_value} < n);
`endif

    // wrap(a - b), wrap(a + 1), wrap(a - 1) of ring indices (WQ-2's definition; both < n).
    function [X-1:0] wrap_diff(input [X-1:0] a, input [X-1:0] b, input [X-1:0] size);
        wrap_diff = (a >= b) ? a - b : a + size - b;
    endfunction

    // The model.
    reg [X-1:0] m_soft = {X{1'b0}}, m_shadow = {X{1'b0}};
    reg [15:0] m_lap = 16'd0;
    // broken: since the last reset or set-up, a shadow update passed soft GP_PUT or an index
    // input lay outside the ring (both flagged, neither defined further by WQ-6).
    reg broken = 1'b0;
    wire take = !reset && !setup_valid;
    wire [X-1:0] sh = (take && shadow_valid) ? {2'b00, shadow_gp_put_value} : m_shadow;
    wire [X-1:0] free_old = wrap_diff(m_shadow, m_soft, n);
    wire [X-1:0] moved = wrap_diff({2'b00, shadow_gp_put_value}, m_shadow, n);
    wire passing = take && shadow_valid && ({2'b00, shadow_gp_put_value} < n)
        && (free_old + moved >= n);
    wire [X-1:0] free = wrap_diff(sh, m_soft, n);
    wire asked = take && alloc_valid;
    wire granted = asked && alloc_count != {X{1'b0}} && alloc_count <= free;
    wire [X:0] soft_sum = {1'b0, m_soft} + {1'b0, alloc_count};
    wire wraps = soft_sum >= {1'b0, n};
    wire [X-1:0] g1 = {2'b00, setup_gp_get} + 1;
    always @(posedge clock) begin
        if (reset) begin
            m_soft <= {X{1'b0}};
            m_shadow <= {X{1'b0}};
            m_lap <= 16'd0;
            broken <= 1'b0;
        end else if (setup_valid) begin
            m_soft <= (g1 == n) ? {X{1'b0}} : g1;
            m_shadow <= (setup_gp_get == {I{1'b0}}) ? n - 1 : {2'b00, setup_gp_get} - 1;
            m_lap <= 16'd0;
            broken <= {2'b00, setup_gp_get} >= n;
        end else begin
            m_shadow <= sh;
            if (passing || (shadow_valid && {2'b00, shadow_gp_put_value} >= n)) broken <= 1'b1;
            if (granted) begin
                m_soft <= wraps ? soft_sum[X-1:0] - n : soft_sum[X-1:0];
                m_lap <= m_lap + {15'd0, wraps};
            end
        end
    end
`ifdef P_RESP
    // WQ-6: the host never moves shadow GP_PUT past soft GP_PUT.
    always @(*) assume(!passing);
`endif

    // The expected answers, delayed to their cycle.
    reg asked1 = 1'b0, asked2 = 1'b0, granted1, granted2, reset1 = 1'b0, reset2 = 1'b0;
    reg [X-1:0] first1, first2, m_soft_d1;
    reg [15:0] lap1, lap2, m_lap_d1;
    reg [X-1:0] m_shadow_d1;
    reg passing1 = 1'b0, passing2 = 1'b0, broken1 = 1'b0, broken2 = 1'b0;
    // An allocation asked in the first cycle out of a reset, without a shadow update.
    wire first_ask = asked && reset1 && !shadow_valid;
    // A shadow value outside the ring: flagged in its cycle, what follows is not defined.
    wire shadow_outside = take && shadow_valid && {2'b00, shadow_gp_put_value} >= n;
    reg shadow_outside1 = 1'b0, shadow_outside2 = 1'b0;
    reg first_ask1 = 1'b0, first_ask2 = 1'b0;
    always @(posedge clock) begin
        asked1 <= asked; asked2 <= asked1 && !reset;
        granted1 <= granted; granted2 <= granted1;
        first1 <= m_soft; first2 <= first1;
        lap1 <= m_lap; lap2 <= lap1;
        reset1 <= reset; reset2 <= reset1;
        m_soft_d1 <= m_soft; m_lap_d1 <= m_lap; m_shadow_d1 <= m_shadow;
        passing1 <= passing; passing2 <= passing1 && !reset;
        broken1 <= broken; broken2 <= broken1;
        shadow_outside1 <= shadow_outside; shadow_outside2 <= shadow_outside1;
        first_ask1 <= first_ask; first_ask2 <= first_ask1 && !reset;
    end
    wire bad_now = (alloc_valid && alloc_count == {X{1'b0}})
        || (setup_valid && {2'b00, setup_gp_get} >= n)
        || (shadow_valid && {2'b00, shadow_gp_put_value} >= n);

    // The unit's state against the model (helper invariants, proved with the property): the
    // ring constants loaded in reset; shadow GP_PUT and shadow GP_PUT -/+ n; the atomic
    // operation's soft GP_PUT, free count and lap (each picked from its two kept outcomes)
    // equal the model one cycle earlier.
    wire [I-1:0] last_index = n - 1'b1;
    wire [I-1:0] soft_now = obs_last_granted_q ? obs_soft_granted_q : obs_soft_kept_q;
    wire [X-1:0] free_now = obs_last_granted_q ? obs_free_granted_q : obs_free_kept_q;
    wire [15:0] lap_now = obs_soft_lap_q + {15'd0, obs_last_granted_q & obs_lap_wrap_q};
    always @(*) if (past_valid) begin
`ifndef MUTANT
        assert(obs_last_index_q == last_index);
        assert(obs_entries_plus_one_q == n + 1);
        if (!broken) assert(m_shadow < n && m_soft < n);
        assert(obs_shadow_minus_n_q == m_shadow - n);
        assert(obs_shadow_plus_n_q == m_shadow + n);
        assert({2'b00, shadow_gp_put} == m_shadow);
        if (reset1) begin
            assert(soft_now == {I{1'b0}} && free_now == {X{1'b0}} && lap_now == 16'd0);
        end else if (!broken1) begin
            assert({2'b00, soft_now} == m_soft_d1);
            assert(free_now == wrap_diff(m_shadow_d1, m_soft_d1, n));
            assert(lap_now == m_lap_d1);
        end
`endif
`ifdef P_RESP
        assert(!broken);
        assert(resp_valid == (asked2 && !reset1));
        if (asked2 && !reset1) begin
            assert(resp_ok == granted2);
            if (granted2) assert({2'b00, resp_first} == first2 && resp_lap == lap2);
        end
        if (!reset1) assert({2'b00, soft_gp_put} == m_soft_d1);
        assert(alloc_ready == !reset);
`endif
`ifdef P_PASSED
        if (reset) assert(!violation);
        else if (!broken2 && !shadow_outside2) assert(violation == (bad_now || (passing2 && !reset1)));
`endif
`ifdef P_RESET
        // Right after a reset nothing is free: an allocation asked in the first cycle out of
        // reset is refused, whatever came in during the reset.
        if (first_ask2) assert(resp_valid && !resp_ok);
`endif
    end
endmodule
`default_nettype wire
