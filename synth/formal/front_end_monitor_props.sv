// Formal properties of `front_end_monitor` (FrontEndMonitor, N = 8 units, G = 4 connections,
// TREE_STAGES = S; SPEC ST-5, issue #12), run by `ppu formal front_end_monitor`. The runner
// defines S. The roll-up flags, progress and the context store's done pulses are free inputs:
// the properties hold whatever the roll-up tree and the store do.
//
// ST-5: on a switch the monitor (1) raises halt, (2) waits until the roll-up shows all halted,
// keeping halt raised, (3) stores, (4) resets, (5) restores, (6) drops halt; "all halted" is
// trusted only after a full round trip of the tree, RT = 2*S+1 cycles (command tree S stages,
// one cycle for a unit's state, roll-up S stages). The drain protocol (drain_mode, ST-9) holds
// the feed stopped instead of halt and waits for all EMPTY instead of all HALTED.
//
// ST-7 (WATCHDOG): the deadlock watchdog, per roll-up connection g (its units: the roll-up
// tree's chains of the reference instance, 8'h07, 8'h08, 8'h30, 8'hc0). g is stuck in a cycle
// when the watchdog runs (IDLE; WAIT of the drain protocol; not while halt is held), the
// threshold is not 0, g shows a QUIESCENT or a STALLED unit, and g does not move: none of its
// units reports progress and its four flags are those of the previous cycle. In the first cycle
// beyond `deadlock_threshold` stuck cycles (counted since g last moved or was pulsed) the monitor
// pulses g's units' lines for that cycle (line_resume if g shows a QUIESCENT unit, else
// line_reset) and raises `deadlock`; never in any other cycle. The threshold is a configuration
// input, kept steady except in a reset cycle. A reset clears the monitor: in the first cycle after
// it, g's flags are compared with all low (the monitor keeps no flags across a reset), so a stuck
// run that spans a reset counts from the first cycle whose flags equal the cycle's before.
// observe: phase_cycles$q watchdog_cycles$*$q watchdog_reached$*$q threshold_minus_one$q previous_conn_halted$*$q previous_conn_empty$*$q previous_conn_not_stalled$*$q previous_conn_not_quiescent$*$q
`default_nettype none
module front_end_monitor_props(
    input wire clock,
    input wire reset,
    input wire switch_valid,
    input wire drain_mode,
    input wire [15:0] deadlock_threshold,
    input wire [3:0] c_halted, c_empty, c_not_stalled, c_not_quiescent,
    input wire [7:0] progress,
    input wire store_done,
    input wire restore_done
);
`include "observe.vh"
    localparam [7:0] RT = 2 * `S + 1;
    localparam [2:0] IDLE = 3'd0, WAIT = 3'd1, STORE = 3'd2, RESET = 3'd3, RESET_WAIT = 3'd4,
        RESTORE = 3'd5, RELEASE = 3'd6;
    wire switch_ready, store_req, restore_req, cmd_halt, cmd_reset, feed_stop;
    wire all_halted_seen, deadlock, violation;
    wire [7:0] line_resume, line_reset;
    wire [2:0] phase;
    front_end_monitor dut(
        .clock(clock), .reset(reset), .switch_valid(switch_valid), .switch_ready(switch_ready),
        .drain_mode(drain_mode), .deadlock_threshold(deadlock_threshold),
        .conn_halted$0(c_halted[0]), .conn_halted$1(c_halted[1]),
        .conn_halted$2(c_halted[2]), .conn_halted$3(c_halted[3]),
        .conn_empty$0(c_empty[0]), .conn_empty$1(c_empty[1]),
        .conn_empty$2(c_empty[2]), .conn_empty$3(c_empty[3]),
        .conn_not_stalled$0(c_not_stalled[0]), .conn_not_stalled$1(c_not_stalled[1]),
        .conn_not_stalled$2(c_not_stalled[2]), .conn_not_stalled$3(c_not_stalled[3]),
        .conn_not_quiescent$0(c_not_quiescent[0]), .conn_not_quiescent$1(c_not_quiescent[1]),
        .conn_not_quiescent$2(c_not_quiescent[2]), .conn_not_quiescent$3(c_not_quiescent[3]),
        .progress(progress), .store_req(store_req), .store_done(store_done),
        .restore_req(restore_req), .restore_done(restore_done), .cmd_halt(cmd_halt),
        .cmd_reset(cmd_reset), .line_resume(line_resume), .line_reset(line_reset),
        .feed_stop(feed_stop), .phase(phase), .all_halted_seen(all_halted_seen),
        .deadlock(deadlock), .violation(violation) `OBSERVE
    );

    // Environment: reset first; drain_mode is a configuration register kept steady during a
    // switch (the module's contract), i.e. it changes only while the monitor is IDLE.
    `include "reset_first.vh"
    reg drain_q = 1'b0;
    always @(posedge clock) drain_q <= drain_mode;
    always @(*) if (past_valid && phase != IDLE) assume(drain_mode == drain_q);

    // The protocol's hold (halt raised; drain: the feed stopped) and its target (the roll-up's
    // every connection HALTED; drain: EMPTY).
    wire held = drain_mode ? feed_stop : cmd_halt;
    wire target = drain_mode ? &c_empty : &c_halted;

    // Cycles the hold has been raised before this one without a break, saturating at RT: the
    // roll-up of this cycle reflects the hold once held_cycles == RT (a full round trip).
    reg [7:0] held_cycles = 8'd0;
    // During this hold, the roll-up has shown the target in a cycle a full round trip or more
    // after the hold was raised.
    reg seen = 1'b0;
    always @(posedge clock) begin
        if (!held) begin
            held_cycles <= 8'd0;
            seen <= 1'b0;
        end else begin
            if (held_cycles != RT) held_cycles <= held_cycles + 8'd1;
            if (held_cycles == RT && target) seen <= 1'b1;
        end
    end

    // ST-5's steps during this hold, in order: 1 a store completed (store_req with store_done),
    // 2 then reset issued (cmd_reset), 3 then a restore completed (restore_req with
    // restore_done).
    reg [1:0] step = 2'd0;
    always @(posedge clock) begin
        if (!held) step <= 2'd0;
        else if (step == 2'd0 && store_req && store_done) step <= 2'd1;
        else if (step == 2'd1 && cmd_reset) step <= 2'd2;
        else if (step == 2'd2 && restore_req && restore_done) step <= 2'd3;
    end
    // Last cycle's hold and reset.
    reg held_q = 1'b0, reset_q = 1'b0;
    always @(posedge clock) begin
        held_q <= held;
        reset_q <= reset;
    end

`ifndef MUTANT
    // Helper invariants: the hold and the observers follow the phase (WAIT: the hold's age is
    // the phase counter's, saturated at RT, nothing seen yet; STORE to RESTORE: the target was
    // seen, and the steps done so far are those of the phases passed).
    always @(*) if (past_valid) begin
        assert(phase <= RELEASE);
        if (phase == WAIT) begin
            assert(held_cycles == ((obs_phase_cycles_q >= RT) ? RT : obs_phase_cycles_q));
            assert(!seen && step == 2'd0);
        end
        if (phase == STORE || phase == RESET || phase == RESET_WAIT || phase == RESTORE)
            assert(seen);
        if (phase == STORE) assert(step == 2'd0);
        if (phase == RESET) assert(step == 2'd1);
        if (phase == RESET_WAIT || phase == RESTORE) assert(step == 2'd2);
    end
`endif

`ifdef P_STORE
    // ST-5 (2)-(3), issue #12: a context is stored only while the hold is raised and only after
    // the roll-up has shown every connection HALTED (drain: EMPTY) a full round trip or more
    // after the hold was raised.
    always @(*) if (store_req) assert(held && seen);
`endif

`ifdef P_STORE_DRAIN
    // ST-5 with the drain protocol (ST-9), drain mode on throughout: a context is stored only
    // while the feed is stopped and after the roll-up has shown every connection EMPTY (not
    // merely HALTED) a full round trip or more after the feed stopped.
    always @(*) assume(drain_mode);
    always @(*) if (store_req) assert(held && seen);
`endif

`ifdef P_WATCHDOG
    // ST-7: the watchdog fires for connection g exactly in the first cycle beyond
    // deadlock_threshold stuck cycles of g (see the header), never earlier and never otherwise.
    reg [15:0] threshold_q = 16'd0;
    always @(posedge clock) threshold_q <= deadlock_threshold;
    always @(*) if (past_valid && !reset) assume(deadlock_threshold == threshold_q);
    function [7:0] members(input integer g);
        members = (g == 0) ? 8'h07 : (g == 1) ? 8'h08 : (g == 2) ? 8'h30 : 8'hc0;
    endfunction
    // The flags of the previous cycle (all low after a reset).
    reg [3:0] prev_h = 4'd0, prev_e = 4'd0, prev_ns = 4'd0, prev_nq = 4'd0;
    always @(posedge clock)
        if (reset) begin
            prev_h <= 4'd0; prev_e <= 4'd0; prev_ns <= 4'd0; prev_nq <= 4'd0;
        end else begin
            prev_h <= c_halted; prev_e <= c_empty; prev_ns <= c_not_stalled;
            prev_nq <= c_not_quiescent;
        end
    wire running = phase == IDLE || (phase == WAIT && drain_mode);
    reg [3:0] stuck, fire;
    reg [7:0] want_resume, want_reset;
    // Stuck cycles of g counted since it last moved or was pulsed (16 bits each, g = 0 lowest).
    reg [63:0] run = 64'd0;
    integer g, gn, gh;
    always @(*) begin
        want_resume = 8'd0;
        want_reset = 8'd0;
        for (g = 0; g < 4; g = g + 1) begin
            stuck[g] = running && deadlock_threshold != 16'd0
                && (!c_not_quiescent[g] || !c_not_stalled[g])
                && (progress & members(g)) == 8'd0
                && c_halted[g] == prev_h[g] && c_empty[g] == prev_e[g]
                && c_not_stalled[g] == prev_ns[g] && c_not_quiescent[g] == prev_nq[g];
            fire[g] = stuck[g] && run[16*g +: 16] == deadlock_threshold;
            if (fire[g] && !c_not_quiescent[g]) want_resume = want_resume | members(g);
            if (fire[g] && c_not_quiescent[g]) want_reset = want_reset | members(g);
        end
    end
    always @(posedge clock)
        for (gn = 0; gn < 4; gn = gn + 1)
            run[16*gn +: 16] <= (!reset && stuck[gn] && !fire[gn]) ? run[16*gn +: 16] + 16'd1
                : 16'd0;
    always @(*) if (past_valid && !reset) begin
        assert(deadlock == (fire != 4'd0));
        assert(line_resume == want_resume);
        assert(line_reset == want_reset);
    end
`ifndef MUTANT
    // Helper invariants: the monitor's previous flags are the observer's; its threshold - 1 is
    // the threshold's; connection g's counter is the stuck run and its "reached" bit says the
    // run has reached the threshold.
    always @(*) if (past_valid) begin
        assert(obs_previous_conn_halted_q_all == prev_h && obs_previous_conn_empty_q_all == prev_e
            && obs_previous_conn_not_stalled_q_all == prev_ns
            && obs_previous_conn_not_quiescent_q_all == prev_nq);
        if (!reset) begin
            assert(obs_threshold_minus_one_q == deadlock_threshold - 16'd1);
            for (gh = 0; gh < 4; gh = gh + 1) begin
                assert(obs_watchdog_cycles_q_all[16*gh +: 16] == run[16*gh +: 16]);
                assert(run[16*gh +: 16] <= deadlock_threshold);
                assert(obs_watchdog_reached_q_all[gh]
                    == (deadlock_threshold != 16'd0 && run[16*gh +: 16] == deadlock_threshold));
            end
        end
    end
`endif
`endif

`ifdef P_RELEASE
    // ST-5 (3)-(6), issue #12: the hold is dropped (by anything but the monitor's own reset)
    // only after a store, then a reset, then a restore have completed during it.
    always @(*) if (past_valid && held_q && !held && !reset_q) assert(step == 2'd3);
`endif
endmodule
`default_nettype wire
