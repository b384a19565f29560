// Formal properties of `semaphore_memory` (SemaphoreMemory; requirements WQ-5, WQ-6: the work
// queue's semaphores, read by the host interface's acquires and written by its releases and
// by GPU threads), run by `ppu formal semaphore_memory`. The runner defines SB (SEM_BITS, the
// index width) and, for READ, the unit's block RAM is abstracted in the formal copy (its read
// data free, nothing stored); this wrapper models the tracked semaphore's RAM word from the
// RAM's write port and constrains a read of it, as `barrier_counter_props.sv` does.
// observe: clearing$q clear_index$q pend_write$q pend_sem$q pend_value$q ram$write_enable ram$write_address ram$write_data ram$read_address ram$read_data
`default_nettype none
module semaphore_memory_props(
    input wire clock,
    input wire reset,
    input wire host_wr_en,
    input wire [`SB-1:0] host_wr_sem,
    input wire [31:0] host_wr_value,
    input wire thread_wr_valid,
    input wire [`SB-1:0] thread_wr_sem,
    input wire [31:0] thread_wr_value,
    input wire [`SB-1:0] rd_sem
);
`include "observe.vh"
    localparam SB = `SB;
    wire thread_wr_ready, ready, violation;
    wire [31:0] rd_value;
    semaphore_memory dut(
        .clock(clock), .reset(reset),
        .host_wr_en(host_wr_en), .host_wr_sem(host_wr_sem), .host_wr_value(host_wr_value),
        .thread_wr_valid(thread_wr_valid), .thread_wr_ready(thread_wr_ready),
        .thread_wr_sem(thread_wr_sem), .thread_wr_value(thread_wr_value),
        .rd_sem(rd_sem), .rd_value(rd_value), .ready(ready), .violation(violation) `OBSERVE
    );

    // Environment: reset first. Writes and reads are free in every cycle (a thread write may
    // be withdrawn: the unit does not rely on the thread holding it); a host write during the
    // clear sweep is allowed (the unit flags it and drops it).
    `include "reset_first.vh"

    // Cycles since the last reset, saturating at 2^SB + 2 (the sweep takes 2^SB cycles).
    reg [SB+1:0] since_reset = 0;
    always @(posedge clock)
        if (reset) since_reset <= 0;
        else if (since_reset < (1 << SB) + 2) since_reset <= since_reset + 1'b1;

`ifdef P_SWEEP
    // WQ-6 set-up: after a reset `ready` is low for exactly 2^SB cycles (the sweep writes 0 to
    // every word) and then high until the next reset; no thread write is taken while it is
    // low or while the host writes (the host wins); a host write while it is low is flagged
    // (`violation`) and nothing else is.
    always @(*) if (past_valid && !reset) begin
        assert(ready == (since_reset >= (1 << SB)));
        assert(thread_wr_ready == (ready && !host_wr_en));
        assert(violation == (!ready && host_wr_en));
    end
`ifndef MUTANT
    always @(*) if (past_valid && !reset) begin
        assert(since_reset <= (1 << SB) + 2);
        assert(obs_clearing_q == (since_reset < (1 << SB)));
        if (obs_clearing_q) assert(obs_clear_index_q == since_reset[SB-1:0]);
    end
`endif
`endif

`ifdef P_READ
    // A tracked semaphore T (any index, fixed) and its value by the SPEC's words: 0 after the
    // reset's sweep; each cycle the host's write to it (taken when `ready`: the host always
    // wins), else a thread write to it that is taken (valid and ready).
    (* anyconst *) wire [SB-1:0] T;
    wire host_takes = ready && host_wr_en;
    wire thread_takes = thread_wr_valid && thread_wr_ready;
    reg [31:0] sem_t = 32'd0;
    always @(posedge clock)
        if (reset) sem_t <= 32'd0;
        else if (host_takes && host_wr_sem == T) sem_t <= host_wr_value;
        else if (thread_takes && thread_wr_sem == T) sem_t <= thread_wr_value;

    // The block RAM at T, from its write port (free at step 0, like the RAM's X); a read of T
    // at an edge that also writes T stays free (the block RAM's read-during-write).
    reg [31:0] ram_t, ram_rd_word;
    reg ram_rd_ok = 1'b0;
    always @(posedge clock) begin
        if (obs_ram_write_enable && obs_ram_write_address == T) ram_t <= obs_ram_write_data;
        ram_rd_word <= ram_t;
        ram_rd_ok <= obs_ram_read_address == T
            && !(obs_ram_write_enable && obs_ram_write_address == T);
    end
    always @(*) if (ram_rd_ok) assume(obs_ram_read_data == ram_rd_word);

    // WQ-5/WQ-6 read: `rd_sem` in cycle t, `rd_value` in t+2 is the semaphore's value after
    // the writes of t+1 (the newest write wins, also one reaching the RAM in the read's
    // cycle). A read not served (issued while `ready` is low or in reset, or a reset before its
    // answer) answers 0, and so does every cycle in reset.
    reg read_t1 = 1'b0, read_t2 = 1'b0, zero_t1 = 1'b0, zero_t2 = 1'b0;
    always @(posedge clock) begin
        read_t1 <= past_valid && !reset && ready && rd_sem == T;
        read_t2 <= read_t1 && !reset;
        zero_t1 <= !past_valid || reset || !ready;
        zero_t2 <= zero_t1 || reset;
    end
    always @(*) if (past_valid) begin
        if (read_t2 && !reset) assert(rd_value == sem_t);
        if (zero_t2 || reset) assert(rd_value == 32'd0);
    end

`ifndef MUTANT
    // Helper invariants: while the sweep has not written T, T's value is 0; the pending write
    // (taken last cycle, reaching the RAM now) to T carries T's value; otherwise the RAM holds
    // it.
    always @(*) if (past_valid && !reset) begin
        if (obs_clearing_q) assert(sem_t == 32'd0);
        if (obs_pend_write_q && obs_pend_sem_q == T) assert(obs_pend_value_q == sem_t);
        else if (!(obs_clearing_q && obs_clear_index_q <= T)) assert(ram_t == sem_t);
    end
`endif
`endif
endmodule
`default_nettype wire
