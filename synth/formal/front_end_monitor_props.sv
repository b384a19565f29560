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
// observe: phase_cycles$q
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
    reg past_valid = 1'b0;
    always @(posedge clock) past_valid <= 1'b1;
    always @(*) if (!past_valid) assume(reset);
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

`ifdef P_RELEASE
    // ST-5 (3)-(6), issue #12: the hold is dropped (by anything but the monitor's own reset)
    // only after a store, then a reset, then a restore have completed during it.
    always @(*) if (past_valid && held_q && !held && !reset_q) assert(step == 2'd3);
`endif
endmodule
