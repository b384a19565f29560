// Formal properties of `so_unit` (SoUnit, one stream-output unit as exported; requirements
// SO-5, SO-7, SO-8, SO-9, SO-11 and the unit's doc comment), run by `ppu formal so_unit`:
// - HANDSHAKE (SO-5, SO-7, SO-11, valid/ready): a first request, a second request and a write
//   transfer, once offered, stay offered with the same payload until taken.
// - ORDER (SO-5, SO-7, SO-8, SO-9): per batch, the second request goes out only after its first
//   request was taken (it may go before or after the response, SO-8); a response is taken only
//   for a first request taken and not yet answered, once; a new first request only after the
//   previous batch's second request and response (one batch in the request stage).
// - COUNT (SO-7): the second request carries, per buffer, the sum (mod 2^32) of the bytes the
//   shader reported for that buffer since the batch packet was taken.
// - ADVANCE (SO-11, the doc's write order): inside a job (up to its `job_done`) the buffers are
//   written in ascending order, each in one run; a buffer's first transfer has `wr_index` 0 and
//   each later one the offset and index of the one before plus the bytes it wrote (no gap, no
//   overlap).
// observe: request_busy$q request_first_pending$q request_counting$q request_second_pending$q request_answered$q request_settled$q second_data_reg$q writing_reg$q slot_valid$0$q slot_valid$1$q slot_valid$2$q slot_valid$3$q slot_buffer$0$q slot_buffer$1$q slot_buffer$2$q slot_buffer$3$q slot_offset$0$q slot0_start$q job_bpc$q
`default_nettype none
module so_unit_props(
    input wire clock,
    input wire reset,
    input wire [31:0] bytes_per_cycle,
    input wire [127:0] buffer_size,
    input wire batch_valid,
    input wire [24:0] batch_data,
    input wire attr_valid,
    input wire [1:0] attr_buffer,
    input wire [31:0] attr_bytes,
    input wire end_valid,
    input wire first_ready,
    input wire second_ready,
    input wire resp_valid,
    input wire [127:0] resp_data,
    input wire wr_ready
);
`include "observe.vh"
    wire batch_ready, attr_ready, end_ready, first_valid, second_valid, resp_ready, wr_valid;
    wire [24:0] first_data;
    wire [127:0] second_data;
    wire [1:0] wr_buffer;
    wire [31:0] wr_offset, wr_bytes, wr_index;
    wire [13:0] wr_batch_id;
    wire [9:0] wr_task_number;
    wire busy, writing, overflow, job_done;
    so_unit dut(
        .clock(clock), .reset(reset), .bytes_per_cycle(bytes_per_cycle),
        .buffer_size(buffer_size),
        .batch_valid(batch_valid), .batch_ready(batch_ready), .batch_data(batch_data),
        .attr_valid(attr_valid), .attr_ready(attr_ready), .attr_buffer(attr_buffer),
        .attr_bytes(attr_bytes),
        .end_valid(end_valid), .end_ready(end_ready),
        .first_valid(first_valid), .first_ready(first_ready), .first_data(first_data),
        .second_valid(second_valid), .second_ready(second_ready), .second_data(second_data),
        .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_data(resp_data),
        .wr_valid(wr_valid), .wr_ready(wr_ready), .wr_buffer(wr_buffer), .wr_offset(wr_offset),
        .wr_bytes(wr_bytes), .wr_index(wr_index), .wr_batch_id(wr_batch_id),
        .wr_task_number(wr_task_number),
        .busy(busy), .writing(writing), .overflow(overflow), .job_done(job_done) `OBSERVE
    );

    // Environment: reset first. Every other input is free (no claim below needs the MPC, the
    // shader, SSYNC or the memory to keep their own handshake rules).
    reg past_valid = 1'b0;
    always @(posedge clock) past_valid <= 1'b1;
    always @(*) if (!past_valid) assume(reset);
    wire live = past_valid && !reset;

`ifndef MUTANT
    // Helper invariants for every property: a settled job in the request stage has sent both
    // requests and has its response (so the hand-over never drops a request on offer); the
    // stage counts or waits to send its second request, not both.
    always @(*) if (live) begin
        if (obs_request_settled_q)
            assert(obs_request_busy_q && !obs_request_first_pending_q && !obs_request_counting_q
                && !obs_request_second_pending_q && obs_request_answered_q);
        assert(!(obs_request_counting_q && obs_request_second_pending_q));
        // Before its first request is taken, a batch is counting or owes its second request,
        // and has no response.
        if (obs_request_busy_q && obs_request_first_pending_q)
            assert((obs_request_counting_q || obs_request_second_pending_q)
                && !obs_request_answered_q);
    end
`endif

`ifdef P_HANDSHAKE
    // An offer not taken is offered again in the next cycle, unchanged (unless reset).
    always @(posedge clock) if (past_valid && !$past(reset) && !reset) begin
        if ($past(first_valid && !first_ready))
            assert(first_valid && first_data == $past(first_data));
        if ($past(second_valid && !second_ready))
            assert(second_valid && second_data == $past(second_data));
        if ($past(wr_valid && !wr_ready))
            assert(wr_valid && wr_buffer == $past(wr_buffer) && wr_offset == $past(wr_offset)
                && wr_bytes == $past(wr_bytes) && wr_index == $past(wr_index)
                && wr_batch_id == $past(wr_batch_id) && wr_task_number == $past(wr_task_number));
    end
`endif

`ifdef P_ORDER
    // The props' own view of the batch in the request stage: its first request taken and its
    // second request not yet (`f_second_owed`), its first request taken and not yet answered
    // (`f_resp_owed`).
    reg f_second_owed = 1'b0, f_resp_owed = 1'b0;
    always @(posedge clock)
        if (reset) begin
            f_second_owed <= 1'b0; f_resp_owed <= 1'b0;
        end else begin
            if (first_valid && first_ready) begin f_second_owed <= 1'b1; f_resp_owed <= 1'b1; end
            if (second_valid && second_ready) f_second_owed <= 1'b0;
            if (resp_valid && resp_ready) f_resp_owed <= 1'b0;
        end
    always @(*) if (live) begin
        if (first_valid) assert(!f_second_owed && !f_resp_owed);
        if (second_valid) assert(f_second_owed);
        if (resp_ready) assert(f_resp_owed);
    end
`ifndef MUTANT
    // Helper invariants: the props' flags against the request stage's.
    always @(*) if (live) begin
        assert(f_second_owed == (obs_request_busy_q && !obs_request_first_pending_q
            && (obs_request_counting_q || obs_request_second_pending_q)));
        assert(f_resp_owed == (obs_request_busy_q && !obs_request_first_pending_q
            && !obs_request_answered_q));
    end
`endif
`endif

`ifdef P_COUNT
    // The props' per-buffer sums of the bytes reported since the batch packet was taken.
    reg [31:0] f_sum0 = 32'd0, f_sum1 = 32'd0, f_sum2 = 32'd0, f_sum3 = 32'd0;
    wire attr_take = attr_valid && attr_ready;
    always @(posedge clock)
        if (batch_valid && batch_ready) begin
            f_sum0 <= 32'd0; f_sum1 <= 32'd0; f_sum2 <= 32'd0; f_sum3 <= 32'd0;
        end else if (attr_take) begin
            if (attr_buffer == 2'd0) f_sum0 <= f_sum0 + attr_bytes;
            if (attr_buffer == 2'd1) f_sum1 <= f_sum1 + attr_bytes;
            if (attr_buffer == 2'd2) f_sum2 <= f_sum2 + attr_bytes;
            if (attr_buffer == 2'd3) f_sum3 <= f_sum3 + attr_bytes;
        end
    wire [127:0] f_sums = {f_sum3, f_sum2, f_sum1, f_sum0};
    always @(*) if (live && second_valid) assert(second_data == f_sums);
`ifndef MUTANT
    // Helper invariant: while a batch is in the request stage, the counts are the props' sums.
    always @(*) if (live && obs_request_busy_q)
        assert(obs_second_data_reg_q == f_sums);
`endif
`endif

`ifdef P_ADVANCE
    wire xfer = wr_valid && wr_ready;
    reg f_prev = 1'b0;
    reg [1:0] f_buf;
    reg [31:0] f_off, f_bytes, f_idx;
    always @(posedge clock)
        if (reset) f_prev <= 1'b0;
        else if (xfer) begin
            f_prev <= !job_done;
            f_buf <= wr_buffer; f_off <= wr_offset; f_bytes <= wr_bytes; f_idx <= wr_index;
        end
    wire f_same = f_prev && wr_buffer == f_buf;
    always @(*) if (live && xfer) begin
        if (f_prev) assert(wr_buffer >= f_buf);
        if (f_same) assert(wr_offset == f_off + f_bytes && wr_index == f_idx + f_bytes);
        else assert(wr_index == 32'd0);
    end
`ifndef MUTANT
    // Helper invariants: a job under way is being written; slot 0 is valid while writing, no
    // slot when idle; the valid slots hold ascending buffers; slot 0's offset and start against the last transfer
    // (of its buffer: then a full transfer of the job's bytes per transfer).
    always @(*) if (live) begin
        if (f_prev) assert(obs_writing_reg_q && obs_slot_buffer_0_q >= f_buf);
        if (obs_writing_reg_q) assert(obs_slot_valid_0_q);
        else assert(!obs_slot_valid_0_q && !obs_slot_valid_1_q && !obs_slot_valid_2_q
            && !obs_slot_valid_3_q);
        if (obs_slot_valid_1_q)
            assert(obs_slot_valid_0_q && obs_slot_buffer_0_q < obs_slot_buffer_1_q);
        if (obs_slot_valid_2_q)
            assert(obs_slot_valid_1_q && obs_slot_buffer_1_q < obs_slot_buffer_2_q);
        if (obs_slot_valid_3_q)
            assert(obs_slot_valid_2_q && obs_slot_buffer_2_q < obs_slot_buffer_3_q);
        if (f_prev && obs_slot_buffer_0_q == f_buf)
            assert(obs_slot_offset_0_q == f_off + f_bytes
                && obs_slot_offset_0_q - obs_slot0_start_q == f_idx + f_bytes
                && f_bytes == obs_job_bpc_q);
        else if (obs_writing_reg_q) assert(obs_slot_offset_0_q == obs_slot0_start_q);
    end
`endif
`endif
endmodule
`default_nettype wire
