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
// - REGION (SO-6, SO-11): every write transfer lies inside the region its job was granted: for
//   buffer b, `wr_offset` is the job's response SSOBO[b] plus `wr_index`, and `wr_index +
//   wr_bytes` (no wrap) is at most the bytes the job's second request counted for b; a
//   transfer writes at least one byte. The job of a transfer is the oldest whose `job_done` has
//   not pulsed, its response and counts as taken on the ports.
// observe: request_busy$q request_first_pending$q request_counting$q request_second_pending$q request_answered$q request_settled$q second_data_reg$q writing_reg$q request_offsets$q fit_check.writes$q prep_order*$q prep_bpc$q prep_excess$*$q prep_last$*$q slot_bytes$*$q slot_excess$*$q slot_last$*$q slot_offset$*$q slot_valid$*$q slot_buffer$*$q slot0_start$q job_bpc$q
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
    `include "reset_first.vh"
    wire live = past_valid && !reset;
    // Slot 0's transfer is the job's final one (its buffer's last, no buffer behind it).
    wire slot0_final = obs_slot_last_0_q && !obs_slot_valid_1_q;

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
                && (f_bytes == obs_job_bpc_q || slot0_final));
        else if (obs_writing_reg_q) assert(obs_slot_offset_0_q == obs_slot0_start_q);
    end
`endif
`endif
`ifdef P_REGION
    // `bytes_per_cycle` is at least 1 (the port's rule in the unit's doc).
    always @(*) assume(bytes_per_cycle != 32'd0);
    function [31:0] lane(input [127:0] m, input [1:0] b);
        lane = m >> {b, 5'd0};
    endfunction
    // The props' jobs: the batch in the request stage (response and counts as taken on the
    // ports), and a queue of the complete jobs whose `job_done` has not pulsed (head first).
    wire batch_take = batch_valid && batch_ready;
    wire resp_take = resp_valid && resp_ready;
    wire second_take = second_valid && second_ready;
    reg r_resp_got = 1'b0, r_second_got = 1'b0;
    reg [127:0] r_resp, r_cnt;
    wire r_resp_got_n = !batch_take && (r_resp_got || resp_take);
    wire r_second_got_n = !batch_take && (r_second_got || second_take);
    wire push = r_resp_got_n && r_second_got_n && !(r_resp_got && r_second_got);
    wire [127:0] push_resp = resp_take ? resp_data : r_resp;
    wire [127:0] push_cnt = second_take ? second_data : r_cnt;
    reg [1:0] q_n = 2'd0;
    reg [127:0] q_resp0, q_cnt0, q_resp1, q_cnt1;
    wire [1:0] q_after_pop = q_n - {1'b0, job_done && q_n != 2'd0};
    always @(posedge clock)
        if (reset) begin
            r_resp_got <= 1'b0; r_second_got <= 1'b0; q_n <= 2'd0;
        end else begin
            r_resp_got <= r_resp_got_n; r_second_got <= r_second_got_n;
            if (resp_take) r_resp <= resp_data;
            if (second_take) r_cnt <= second_data;
            if (job_done && q_n != 2'd0) begin q_resp0 <= q_resp1; q_cnt0 <= q_cnt1; end
            if (push) begin
                if (q_after_pop == 2'd0) begin q_resp0 <= push_resp; q_cnt0 <= push_cnt; end
                else begin q_resp1 <= push_resp; q_cnt1 <= push_cnt; end
            end
            q_n <= q_after_pop + {1'b0, push};
        end
    wire xfer = wr_valid && wr_ready;
    wire [31:0] g_off = lane(q_resp0, wr_buffer);
    wire [31:0] g_cnt = lane(q_cnt0, wr_buffer);
    always @(*) if (live) begin
        if (xfer) begin
            assert(q_n != 2'd0);
            assert(wr_offset == g_off + wr_index);
            assert({1'b0, wr_index} + {1'b0, wr_bytes} <= {1'b0, g_cnt});
            assert(wr_bytes != 32'd0);
        end
        if (job_done) assert(q_n != 2'd0);
    end
`ifndef MUTANT
    // Helper invariants: the props' request-stage flags and data are the stage's registers;
    // the queue holds the job being written (stage B) and the complete job waiting in stage A;
    // stage A's prepared figures describe its job once settled; stage B's slots hold the head
    // job's buffers: bytes left, offsets, the transfer size figures.
    wire a_complete = obs_request_busy_q && !obs_request_first_pending_q
        && !obs_request_counting_q && !obs_request_second_pending_q && obs_request_answered_q;
    wire [127:0] a_cnt = obs_second_data_reg_q;
    wire [3:0] a_nz = {lane(a_cnt, 2'd3) != 0, lane(a_cnt, 2'd2) != 0, lane(a_cnt, 2'd1) != 0,
        lane(a_cnt, 2'd0) != 0};
    // The k-th lowest buffer with bytes, one-hot (0: none).
    function [3:0] kth(input [3:0] nz, input [1:0] k);
        integer i; reg [2:0] seen;
        begin
            kth = 4'd0; seen = 3'd0;
            for (i = 0; i < 4; i = i + 1)
                if (nz[i]) begin
                    if (seen == {1'b0, k}) kth = 4'd1 << i;
                    seen = seen + 3'd1;
                end
        end
    endfunction
    // Stage B's slots and stage A's prepared figures, lane k of each packed vector (the observe
    // line's `*` patterns: every index concatenated, index 0 lowest).
    wire [127:0] s_bytes = obs_slot_bytes_q_all;
    wire [127:0] s_excess = obs_slot_excess_q_all;
    wire [127:0] s_off = obs_slot_offset_q_all;
    wire [127:0] p_excess = obs_prep_excess_q_all;
    wire [3:0] s_last = obs_slot_last_q_all;
    wire [3:0] s_valid = obs_slot_valid_q_all;
    wire [7:0] s_buf = obs_slot_buffer_q_all;
    wire [3:0] p_last = obs_prep_last_q_all;
    wire [15:0] p_order = obs_prep_order_q_all;
    wire [127:0] tail_resp = (q_n == 2'd2) ? q_resp1 : q_resp0;
    wire [127:0] tail_cnt = (q_n == 2'd2) ? q_cnt1 : q_cnt0;
    integer k;
    always @(*) if (live) begin
        assert(obs_prep_bpc_q != 32'd0);
        assert(q_n == {1'b0, obs_writing_reg_q} + {1'b0, a_complete});
        if (obs_request_busy_q) begin
            assert(r_resp_got == obs_request_answered_q);
            assert(r_second_got == (!obs_request_counting_q && !obs_request_second_pending_q));
            if (r_resp_got) assert(r_resp == obs_request_offsets_q);
            if (r_second_got) assert(r_cnt == a_cnt);
        end else assert(r_resp_got == r_second_got);
        if (a_complete) assert(tail_resp == obs_request_offsets_q && tail_cnt == a_cnt);
        if (obs_request_busy_q && !obs_request_counting_q && !obs_request_second_pending_q)
            assert(obs_fit_check_writes_q == a_nz);
        for (k = 0; k < 4; k = k + 1) begin
            if (obs_request_settled_q) begin
                assert(lane(p_excess, k) == lane(a_cnt, k) - obs_prep_bpc_q);
                assert(p_last[k] == !(obs_prep_bpc_q < lane(a_cnt, k)));
                assert(p_order[4 * k +: 4] == kth(a_nz, k));
            end
            if (obs_writing_reg_q && s_valid[k]) begin
                assert(lane(s_bytes, k) != 32'd0);
                // `job_bpc` follows `prep_bpc` while slot 0 is the job's final transfer.
                if (k != 0 || !slot0_final) begin
                    assert(lane(s_excess, k) == lane(s_bytes, k) - obs_job_bpc_q);
                    assert(s_last[k] == !(obs_job_bpc_q < lane(s_bytes, k)));
                end
                if (k != 0) begin
                    assert(lane(s_off, k) == lane(q_resp0, s_buf[2 * k +: 2]));
                    assert(lane(s_bytes, k) == lane(q_cnt0, s_buf[2 * k +: 2]));
                end
            end
        end
        // The valid slots are a prefix, in ascending buffer order, none when idle.
        if (!obs_writing_reg_q) assert(!obs_slot_valid_0_q && !obs_slot_valid_1_q
            && !obs_slot_valid_2_q && !obs_slot_valid_3_q);
        if (obs_slot_valid_1_q) assert(obs_slot_valid_0_q && obs_slot_buffer_0_q < obs_slot_buffer_1_q);
        if (obs_slot_valid_2_q) assert(obs_slot_valid_1_q && obs_slot_buffer_1_q < obs_slot_buffer_2_q);
        if (obs_slot_valid_3_q) assert(obs_slot_valid_2_q && obs_slot_buffer_2_q < obs_slot_buffer_3_q);
        if (obs_writing_reg_q) begin
            assert(obs_job_bpc_q != 32'd0 && obs_slot_valid_0_q);
            assert(obs_slot0_start_q == lane(q_resp0, obs_slot_buffer_0_q));
            assert({1'b0, obs_slot_offset_0_q - obs_slot0_start_q} + {1'b0, obs_slot_bytes_0_q}
                == {1'b0, lane(q_cnt0, obs_slot_buffer_0_q)});
        end
    end
`endif
`endif
endmodule
`default_nettype wire
