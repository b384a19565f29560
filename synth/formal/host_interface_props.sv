// Formal properties of `host_interface` (HostInterface, IDX_BITS = 8 as exported; requirements
// WQ-3, WQ-9, WQ-10 and the launch channel's valid/ready rule X-2), run by
// `ppu formal host_interface`. Configuration (ring size, command cycles, watchdog limit, ring
// bases) is one free value for the whole trace; memory words, semaphore values, `chan_idle`,
// `chan_empty_next` and `launch_ready` are free in every cycle; GP_GET of a channel changes
// only in the cycle after its `chan_advance` (its ring moves it at the end of the pulse).
// Properties:
// - STOP (WQ-10): `stopped[c]`, once high, stays high until a reset; it rises only in a cycle
//   where `error` pulses for the channel being served (`channel` == c), and `error` always
//   stops the channel it names.
// - ADVANCE (WQ-3, WQ-9, WQ-10): `chan_advance[c]` pulses only for a channel that is not
//   stopped, and only after a command of that channel's entry started (`exec_valid` with
//   `channel` == c since its previous advance or the reset), never for both channels in one
//   cycle; a command starts only on a channel that is not stopped, at that channel's GP_GET.
// - LAUNCH (X-2): a kernel launch offered and not taken stays offered with the same kernel and
//   channel in the next cycle (unless a reset, which withdraws it in its cycle).
// Helper invariants (proved with every property) on the host's step (`state`, codes as in
// the unit's documentation) and served channel: a legal step; the state a reset leaves;
// outside PICK the served channel is not stopped; `error` and `chan_advance` show in PICK; a
// command has started on the served channel's entry from its execution on (EXECUTING after
// its first cycle, the command's own steps, NEXT), and on every channel with a pending
// acquire; a pending acquire is polled again, never executed again.
// observe: state$q current_channel$q chan_acquire_pending$*$q
`default_nettype none
module host_interface_props(
    input wire clock,
    input wire reset,
    input wire [1:0] chan_empty_next,
    input wire [7:0] gp_get_next0, gp_get_next1,
    input wire [1:0] chan_idle,
    input wire [31:0] mem_rd_data,
    input wire [31:0] sem_rd_value,
    input wire launch_ready
);
`include "observe.vh"
    (* anyconst *) wire [8:0] ring_entries;
    (* anyconst *) wire [7:0] cmd_cycles;
    (* anyconst *) wire [31:0] watchdog_limit, ring_base0, ring_base1;
    always @(*) assume(ring_entries >= 9'd2 && ring_entries <= 9'd256 && cmd_cycles >= 8'd1);

    wire [1:0] chan_advance, stopped;
    wire mem_rd_en, sem_wr_en, launch_valid, launch_channel, channel, exec_valid;
    wire acquire_wait, acquire_done, error, watchdog, watchdog_channel, violation;
    wire [31:0] mem_rd_addr, sem_wr_value, launch_kernel;
    wire [8:0] sem_rd_sem, sem_wr_sem, acquire_sem;
    wire [7:0] exec_entry;
    wire [3:0] exec_opcode;
    // GP_GET: a register per channel, loaded from the free input only after an advance.
    reg [7:0] gp_get0 = 8'd0, gp_get1 = 8'd0;
    always @(posedge clock) begin
        if (chan_advance[0]) gp_get0 <= gp_get_next0;
        if (chan_advance[1]) gp_get1 <= gp_get_next1;
    end
    host_interface dut(
        .clock(clock), .reset(reset), .ring_entries(ring_entries), .cmd_cycles(cmd_cycles),
        .watchdog_limit(watchdog_limit), .ring_base$0(ring_base0), .ring_base$1(ring_base1),
        .chan_empty_next$0(chan_empty_next[0]), .chan_empty_next$1(chan_empty_next[1]),
        .chan_gp_get$0(gp_get0), .chan_gp_get$1(gp_get1),
        .chan_idle$0(chan_idle[0]), .chan_idle$1(chan_idle[1]),
        .chan_advance$0(chan_advance[0]), .chan_advance$1(chan_advance[1]),
        .stopped$0(stopped[0]), .stopped$1(stopped[1]),
        .mem_rd_en(mem_rd_en), .mem_rd_addr(mem_rd_addr), .mem_rd_data(mem_rd_data),
        .sem_rd_sem(sem_rd_sem), .sem_rd_value(sem_rd_value), .sem_wr_en(sem_wr_en),
        .sem_wr_sem(sem_wr_sem), .sem_wr_value(sem_wr_value), .launch_valid(launch_valid),
        .launch_ready(launch_ready), .launch_kernel(launch_kernel),
        .launch_channel(launch_channel), .channel(channel), .exec_valid(exec_valid),
        .exec_entry(exec_entry), .exec_opcode(exec_opcode), .acquire_wait(acquire_wait),
        .acquire_done(acquire_done), .acquire_sem(acquire_sem), .error(error),
        .watchdog(watchdog), .watchdog_channel(watchdog_channel), .violation(violation)
        `OBSERVE
    );

    // Environment: reset first.
    `include "reset_first.vh"

    // Since the last advance (or reset), a command of the channel started.
    reg [1:0] executed = 2'b00;
    reg [1:0] stopped1 = 2'b00;
    reg reset1 = 1'b0, launch_waiting1 = 1'b0, launch_channel1 = 1'b0;
    reg [31:0] launch_kernel1 = 32'd0;
    always @(posedge clock) begin
        reset1 <= reset;
        stopped1 <= stopped;
        launch_waiting1 <= launch_valid && !launch_ready;
        launch_kernel1 <= launch_kernel;
        launch_channel1 <= launch_channel;
        if (exec_valid) executed[channel] <= 1'b1;
        if (chan_advance[0]) executed[0] <= 1'b0;
        if (chan_advance[1]) executed[1] <= 1'b0;
        if (reset) executed <= 2'b00;
    end
    wire [7:0] served_gp_get = channel ? gp_get1 : gp_get0;

    localparam [4:0] PICK = 5'd0, EXECUTING = 5'd7, RELEASE = 5'd10, NEXT = 5'd14,
        ACQ_COMPARE3 = 5'd16;
    wire [4:0] step = obs_state_q;
    wire served = obs_current_channel_q;
    // The served entry's command is under way: started (exec_valid marks its first cycle).
    wire started = (step == EXECUTING && !exec_valid) || (step > EXECUTING && step <= ACQ_COMPARE3);
    always @(*) if (past_valid) begin
`ifndef MUTANT
        assert(step <= ACQ_COMPARE3);
        // The state a reset leaves.
        if (reset1) assert(step == PICK && stopped == 2'b00 && !exec_valid && !error
            && chan_advance == 2'b00 && obs_chan_acquire_pending_q_all == 2'b00 && !launch_valid);
        if (step != PICK) assert(!stopped[served]);
        if (error || chan_advance != 2'b00) assert(step == PICK);
        if (exec_valid) assert(step == EXECUTING);
        if (started && !reset1) assert(executed[served]);
        if (!reset1) assert((obs_chan_acquire_pending_q_all & ~executed) == 2'b00);
        // A pending acquire is polled again, never executed again.
        if (obs_chan_acquire_pending_q_all[served])
            assert(!(step >= EXECUTING && step <= RELEASE) && step != NEXT);
        assert(channel == served);
`endif
    end

    always @(*) if (past_valid && !reset1) begin
`ifdef P_STOP
        assert((stopped & stopped1) == stopped1);
        assert((stopped & ~stopped1) == (error ? (channel ? 2'b10 : 2'b01) : 2'b00));
`endif
`ifdef P_ADVANCE
        assert(chan_advance != 2'b11);
        assert((chan_advance & stopped) == 2'b00);
        assert((chan_advance & ~executed) == 2'b00);
        if (exec_valid) assert(!stopped[channel] && exec_entry == served_gp_get);
`endif
`ifdef P_LAUNCH
        if (launch_waiting1 && !reset) begin
            assert(launch_valid);
            assert(launch_kernel == launch_kernel1 && launch_channel == launch_channel1);
        end
`endif
    end
endmodule
`default_nettype wire
