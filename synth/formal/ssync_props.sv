// Formal properties of `ssync` (Ssync, SO_UNITS = 2, OPS = 2; SPEC SO-2, SO-3, SO-6, SO-7,
// SO-9, SO-10, SO-12, SO-13), run by `ppu formal ssync`. One P_<PROPERTY> is defined per run.
//
// The two block RAMs (the operation FIFO's offset-bundle words, `op_fifo.entry_word`, and the
// message table's SBBNs, `msg_table.sbbn_ram`, two 128-bit words each) are abstracted in the
// formal copy of the Verilog: their read data is free ($anyseq). This wrapper models each RAM
// exactly from its write port (`opw0/opw1`, `sbw0/sbw1`, free at step 0 like the RAM's X) and
// constrains a read to the word stored at the read address before the edge, except a read of
// the address written at the same edge, which stays free: the iCE40/ECP5 block RAM without
// read-write check returns undefined data there. An over-approximation of the RAM, and the
// words are registers a helper invariant can name.
//
// The causes of a bad entry (SO-13) other than an unstreamed work token (the operation FIFO's
// probe, the "behind the current batch/task" test) are free in the formal copy too; the one
// constraint on them is below (an entry is not flagged in the cycle it is accounted).
//
// Environment (SPEC X-2): reset first; the WDU and the crossbar hold valid and the payload until
// the transfer. The receivers' ready (`resp_ready`, `retire_ready`) and `buffer_size` are free
// except in SSOBO (see there). Bad input (SO-13) is allowed except in SSOBO.
//
// RESPOND, ORDER, RETIRE, RETIRE_AFTER and SSOBO are proved (k = 1) on ABC; for SSOBO the SMT
// solvers do not return from its 4 x 32-bit headroom and fit arithmetic (see `ssync_ssobo` in
// sim/src/stream_out/formal.rs).
// observe: msg_table$respond_now msg_table$commit_now msg_table$selected_unit offset_now op_fifo$pop op_fifo$head_is_offset op_fifo$head_start op_fifo$head_word op_fifo$head_word_ok op_fifo.push op_fifo.entry_word$read_address op_fifo.entry_word$read_data op_fifo.entry_word$write_address op_fifo.entry_word$write_data op_fifo.entry_word$write_enable msg_table.sbbn_ram$read_address msg_table.sbbn_ram$read_data msg_table.sbbn_ram$write_address msg_table.sbbn_ram$write_data msg_table.sbbn_ram$write_enable msg_table.entry_valid$*$q msg_table.entry_answered$*$q msg_table.entry_batch$*$q msg_table.entry_task$*$q msg_table.entry_last$*$q msg_table.match_same$*$q msg_table.match_task$*$q msg_table.match_batch$*$q sel_same$q sel_task$q sel_batch$q current_batch_next$q current_task_next$q resp_pending$q resp_pending_dest$q resp_pending2$q resp_pending2_dest$q resp_credits$q resp_queue.count$q resp_queue.rd_ptr$q resp_queue.wr_ptr$q resp_queue_dest.count$q resp_queue_dest.rd_ptr$q resp_queue_dest.wr_ptr$q resp_queue_dest.slots$*$q retire_queue.held_valid$q retire_queue.held_batch$q retire_queue.slot_valid$*$q retire_queue.slot_batch$*$q retire_queue.slot_owed$*$q retire_queue.wr_ptr$q retire_queue.rd_ptr$q retire_queue.out_valid$q retire_queue.out_batch$q retire_queue.credits$q op_fifo.read_slot$q op_fifo.write_slot$q op_fifo.tail_slot$q op_fifo.tail_is_offset$q op_fifo.entry_valid$*$q op_fifo.entry_is_offset$*$q op_fifo.entry_start$*$q msg_table.entry_bad$*$d msg_table.entry_bad$*$q msg_table.commit_ok$* op_done$q account$ssobo_next msg_table$selected_sbbn msg_table$selected_nonzero account.fits account.took_now account.apply_fit_keep$q account.apply_fit_take$q account.read_commit$q account.read_offset$q account.read_word$q account.test_commit$q account.test_offset$q account.test_value$q account.test_nonzero$q account.apply_commit$q account.apply_offset$q account.apply_value$q account.room_keep$q account.room_take$q account.took$q account.past_end$q account.size_in$q account.size_moving$q account.size_reg$q msg_table.entry_second$*$q msg_table.entry_nonzero$*$q msg_table.ram_write$q msg_table.ram_write_unit$q msg_table.ram_write_word$q
`default_nettype none
module ssync_props(
    input wire clock,
    input wire reset,
    input wire cmd_valid,
    input wire [1:0] cmd_kind,
    input wire [13:0] cmd_batch_id,
    input wire [127:0] cmd_offsets,
    input wire first_valid,
    input wire [24:0] first_data,
    input wire first_source,
    input wire second_valid,
    input wire [127:0] second_data,
    input wire second_source,
    input wire resp_ready,
    input wire retire_ready,
    input wire [127:0] buffer_size,
    input wire mark
);
`include "observe.vh"
`ifdef P_ORDER
`define RAM_MODEL
`endif
`ifdef P_SSOBO
`define RAM_MODEL
`endif


`ifdef P_RETIRE_AFTER
`define P_RETIRE
`define RETIRE_AFTER
`endif
`ifdef P_RESPOND
`define TABLE_INV
`endif
`ifdef P_RETIRE
`define TABLE_INV
`endif
`ifdef P_SSOBO
`define TABLE_INV
`endif
    localparam [1:0] KIND_WORK = 2'd0, KIND_OFFSET = 2'd3;
    wire cmd_ready, first_ready, second_ready, resp_valid, resp_dest, retire_valid;
    wire [127:0] resp_data, ssobo, stat_needed, stat_written;
    wire [13:0] retire_batch_id, current_batch_id;
    wire [9:0] current_task;
    wire op_active, op_full, outstanding, commit, commit_overflow, violation;
    wire [1:0] op_fill;
    wire [15:0] overflow_count;
    wire [2:0] violation_code;
    ssync dut(
        .clock(clock), .reset(reset),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_kind(cmd_kind),
        .cmd_batch_id(cmd_batch_id), .cmd_offsets(cmd_offsets),
        .first_valid(first_valid), .first_ready(first_ready), .first_data(first_data),
        .first_source(first_source),
        .second_valid(second_valid), .second_ready(second_ready), .second_data(second_data),
        .second_source(second_source),
        .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_data(resp_data),
        .resp_dest(resp_dest),
        .retire_valid(retire_valid), .retire_ready(retire_ready),
        .retire_batch_id(retire_batch_id),
        .buffer_size(buffer_size), .ssobo(ssobo), .current_batch_id(current_batch_id),
        .current_task(current_task), .op_active(op_active), .op_fill(op_fill),
        .op_full(op_full), .outstanding(outstanding), .stat_needed(stat_needed),
        .stat_written(stat_written), .overflow_count(overflow_count), .commit(commit),
        .commit_overflow(commit_overflow), .violation(violation),
        .violation_code(violation_code) `OBSERVE
    );

    // Environment (SPEC X-2).
    `include "reset_first.vh"
    always @(posedge clock)
        if (past_valid) begin
            if ($past(cmd_valid && !cmd_ready)) begin
                assume(cmd_valid);
                assume(cmd_kind == $past(cmd_kind) && cmd_batch_id == $past(cmd_batch_id));
`ifdef RAM_MODEL
                assume(cmd_offsets == $past(cmd_offsets));
`endif
            end
            if ($past(first_valid && !first_ready)) begin
                assume(first_valid);
                assume(first_data == $past(first_data) && first_source == $past(first_source));
            end
            if ($past(second_valid && !second_ready)) begin
                assume(second_valid);
                assume(second_source == $past(second_source));
`ifdef RAM_MODEL
                assume(second_data == $past(second_data));
`endif
            end
        end

    // The bad-entry causes (SO-13) are abstracted (free, see the check's doc), constrained by
    // what holds of the real ones: no entry is flagged bad in the cycle it is accounted (it
    // then holds the current batch/task, so it is not behind it, and it lies in the operation
    // being served, so the probe covers it; an unstreamed token naming it reaches the table
    // at the earliest one cycle after the token is taken, and until then `next_work_id`, kept
    // consecutive by the operation FIFO's ID check, names that batch, so it is not matched).
    always @(*) assume((obs_msg_table_commit_ok__all & obs_msg_table_entry_bad_d_all) == 2'b00);

`ifdef RAM_MODEL
    // The block RAMs, modelled from their write ports (see the top).
    wire [127:0] opw0, opw1, op_rd_word, sbw0, sbw1, sb_rd_word;
    wire op_rd_ok, sb_rd_ok;
    ram2_model op_ram(
        .clock(clock), .we(obs_op_fifo_entry_word_write_enable),
        .wa(obs_op_fifo_entry_word_write_address), .wd(obs_op_fifo_entry_word_write_data),
        .ra(obs_op_fifo_entry_word_read_address), .rd(obs_op_fifo_entry_word_read_data),
        .w0(opw0), .w1(opw1), .rd_word(op_rd_word), .rd_ok(op_rd_ok));
    ram2_model sb_ram(
        .clock(clock), .we(obs_msg_table_sbbn_ram_write_enable),
        .wa(obs_msg_table_sbbn_ram_write_address), .wd(obs_msg_table_sbbn_ram_write_data),
        .ra(obs_msg_table_sbbn_ram_read_address), .rd(obs_msg_table_sbbn_ram_read_data),
        .w0(sbw0), .w1(sbw1), .rd_word(sb_rd_word), .rd_ok(sb_rd_ok));
`endif

    // Accepted first requests (SO-5) and what each unit asked for last: batch, task, last.
    wire [13:0] f_batch = first_data[24:11];
    wire [9:0] f_task = first_data[10:1];
    wire f_last = first_data[0];
    wire acc_first = past_valid && !reset && first_valid && first_ready;
    reg [13:0] rb0, rb1;
    reg [9:0] rt0, rt1;
    reg rl0, rl1;
    always @(posedge clock)
        if (acc_first) begin
            if (first_source) begin rb1 <= f_batch; rt1 <= f_task; rl1 <= f_last; end
            else begin rb0 <= f_batch; rt0 <= f_task; rl0 <= f_last; end
        end
    // The decisions (SO-6, SO-7, SO-10): a response to `sel_unit`, an accounting of its entry.
    wire sel_unit = obs_msg_table_selected_unit;
    wire decide_resp = past_valid && !reset && obs_msg_table_respond_now;
    wire decide_commit = past_valid && !reset && obs_msg_table_commit_now;

`ifdef TABLE_INV
`ifndef MUTANT
    // Helper invariants of the message table (RESPOND, RETIRE): the current batch/task's
    // successors; each entry's match bits name last cycle's (b, t), (b, t+1), (b+1, 0) against
    // its key and the selects say how the current batch/task moved since (so a hit is an entry
    // holding the current batch/task, and only a valid one); no two valid entries hold the same
    // batch/task; a valid entry holds its unit's last accepted first request; a select is
    // raised only while an operation is served.
    wire [1:0] ev = obs_msg_table_entry_valid_q_all;
    wire [27:0] eb = obs_msg_table_entry_batch_q_all;
    wire [19:0] et = obs_msg_table_entry_task_q_all;
    wire [1:0] el = obs_msg_table_entry_last_q_all;
    wire [1:0] ms = obs_msg_table_match_same_q_all;
    wire [1:0] mt = obs_msg_table_match_task_q_all;
    wire [1:0] mb = obs_msg_table_match_batch_q_all;
    wire ss = obs_sel_same_q, st = obs_sel_task_q, sbt = obs_sel_batch_q;
    reg [13:0] pb = 14'd0;
    reg [9:0] pt = 10'd0;
    always @(posedge clock) begin
        pb <= current_batch_id;
        pt <= current_task;
    end
    wire [1:0] hit = ({2{ss}} & ms) | ({2{st}} & mt) | ({2{sbt}} & mb);
    wire [1:0] live = ev;
    // `was_done`: the entry was accounted last cycle (its match bits may still be set).
    reg [1:0] was_done = 2'b00;
    always @(posedge clock) was_done <= reset ? 2'b00 : obs_msg_table_commit_ok__all;
    always @(*) if (past_valid && !reset) begin
        assert(obs_current_batch_next_q == current_batch_id + 14'd1);
        assert(obs_current_task_next_q == current_task + 10'd1);
        if (ss) assert(current_batch_id == pb && current_task == pt);
        if (st) assert(current_batch_id == pb && current_task == pt + 10'd1);
        if (sbt) assert(current_batch_id == pb + 14'd1 && current_task == 10'd0);
        if (ss || st || sbt) assert(op_active);
        assert(!(ss && st) && !(ss && sbt) && !(st && sbt));
        if (ms[0]) assert(eb[13:0] == pb && et[9:0] == pt);
        if (ms[1]) assert(eb[27:14] == pb && et[19:10] == pt);
        if (mt[0]) assert(eb[13:0] == pb && et[9:0] == pt + 10'd1);
        if (mt[1]) assert(eb[27:14] == pb && et[19:10] == pt + 10'd1);
        if (mb[0]) assert(eb[13:0] == pb + 14'd1 && et[9:0] == 10'd0);
        if (mb[1]) assert(eb[27:14] == pb + 14'd1 && et[19:10] == 10'd0);
        assert((hit & ~live) == 2'b00);
        assert(((ms | mt | mb) & ~live & ~was_done) == 2'b00);
        assert((obs_msg_table_entry_bad_q_all & ~ev) == 2'b00);
        if (was_done != 2'b00) assert(!ss);
        if (was_done[0]) assert(eb[13:0] == pb && et[9:0] == pt);
        if (was_done[1]) assert(eb[27:14] == pb && et[19:10] == pt);
        if (live == 2'b11) assert(eb[13:0] != eb[27:14] || et[9:0] != et[19:10]);
        if (live[0]) assert(eb[13:0] == rb0 && et[9:0] == rt0 && el[0] == rl0);
        if (live[1]) assert(eb[27:14] == rb1 && et[19:10] == rt1 && el[1] == rl1);
    end
`endif
`endif

`ifdef P_RESPOND
    // SO-6, SO-9, SO-10: a response to SO unit U (any unit) is decided only while an operation is
    // served, for U's last accepted first request, and only when that request's batch/task is
    // the current one; between two responses to U there is an accepted first request of U (at
    // most one response per request); at the response port, every response to U leaves after
    // a response to U was decided and not yet sent (none invented or repeated on the way).
    (* anyconst *) reg U;
    wire acc_u = acc_first && first_source == U;
    wire dec_u = decide_resp && sel_unit == U;
    wire out_u = past_valid && !reset && resp_valid && resp_ready && resp_dest == U;
    reg credit = 1'b0;
    reg [2:0] owed = 3'd0;
    always @(posedge clock)
        if (reset) begin
            credit <= 1'b0;
            owed <= 3'd0;
        end else begin
            if (dec_u) credit <= 1'b0;
            if (acc_u) credit <= 1'b1;
            owed <= owed + dec_u - out_u;
        end
    wire [13:0] rb_u = U ? rb1 : rb0;
    wire [9:0] rt_u = U ? rt1 : rt0;
    always @(*) if (past_valid && !reset) begin
        if (dec_u) begin
            assert(credit);
            assert(rb_u == current_batch_id && rt_u == current_task);
            assert(op_active);
        end
        if (out_u) assert(owed != 3'd0);
    end

`ifndef MUTANT
    // Helper invariants: U's valid entry is unanswered exactly while U holds a credit; the
    // responses owed to U are those decided one and two cycles ago for U and U's in the
    // response queue (its data and destination halves in lockstep, never overfilled, and
    // `resp_credits` its room left after the decided ones).
    wire [1:0] ea = obs_msg_table_entry_answered_q_all;
    wire p1 = obs_resp_pending_q, p2 = obs_resp_pending2_q;
    wire [2:0] qc = obs_resp_queue_dest_count_q;
    wire [1:0] qr = obs_resp_queue_dest_rd_ptr_q, qw = obs_resp_queue_dest_wr_ptr_q;
    wire [3:0] qs = obs_resp_queue_dest_slots_q_all;
    function in_q(input [1:0] j, input [1:0] r, input [2:0] c);
        reg [1:0] d;
        begin
            d = j - r;
            in_q = {1'b0, d} < c;
        end
    endfunction
    wire [2:0] queued_u = (in_q(2'd0, qr, qc) && qs[0] == U) + (in_q(2'd1, qr, qc) && qs[1] == U)
        + (in_q(2'd2, qr, qc) && qs[2] == U) + (in_q(2'd3, qr, qc) && qs[3] == U);
    always @(*) if (past_valid && !reset) begin
        if (live[U]) assert(credit == !ea[U]);
        assert(obs_resp_queue_count_q == qc && obs_resp_queue_rd_ptr_q == qr
            && obs_resp_queue_wr_ptr_q == qw);
        assert(qc <= 3'd4 && qw == qr + qc[1:0]);
        assert(qc + p1 + p2 <= 3'd4);
        // The room counter is that room exactly.
        assert(obs_resp_credits_q == 3'd4 - qc - p1 - p2);
        assert(owed == (p1 && obs_resp_pending_dest_q == U) + (p2 && obs_resp_pending2_dest_q == U)
            + queued_u);
    end
`endif
`endif

`ifdef P_RETIRE
    // SO-2, SO-10: a retire message follows the accounting of the last task of a batch (a first
    // request with `last`, accounted in an operation) and carries that batch's ID, once: the
    // N-th retire sent is for the N-th last task accounted, none without one. `pend`: last
    // tasks accounted whose retire has not been sent; the tracked one (`mark`, any) is sent
    // after the `t_ahead` before it. RETIRE_AFTER: it is sent only once its task is accounted
    // for and answered: in the third cycle after the decision or later (the accounting stage S
    // shows the task's `commit` in that third cycle), and after every response decided up to
    // the decision's cycle has left the response port (`t_resp`: those not yet sent).
    wire last_u = sel_unit ? rl1 : rl0;
    wire [13:0] batch_u = sel_unit ? rb1 : rb0;
    wire done_last = decide_commit && last_u;
    wire sent = past_valid && !reset && retire_valid && retire_ready;
    wire resp_out = past_valid && !reset && resp_valid && resp_ready;
    reg [2:0] resp_owed = 3'd0;
    reg [2:0] pend = 3'd0;
    reg t_in = 1'b0;
    reg [2:0] t_ahead = 3'd0;
    reg [13:0] t_batch = 14'd0;
    reg [2:0] t_resp = 3'd0;
    reg [1:0] t_age = 2'd0;
    always @(posedge clock)
        if (reset) begin
            resp_owed <= 3'd0;
            pend <= 3'd0;
            t_in <= 1'b0;
        end else begin
            resp_owed <= resp_owed + decide_resp - resp_out;
            pend <= pend + done_last - sent;
            if (t_in) begin
                if (resp_out && t_resp != 3'd0) t_resp <= t_resp - 3'd1;
                if (t_age != 2'd3) t_age <= t_age + 2'd1;
            end
            if (sent && t_in) begin
                if (t_ahead == 3'd0) t_in <= 1'b0;
                else t_ahead <= t_ahead - 3'd1;
            end
            if (done_last && mark && !t_in) begin
                t_in <= 1'b1;
                t_batch <= batch_u;
                t_ahead <= pend - sent;
                t_resp <= resp_owed + decide_resp - resp_out;
                t_age <= 2'd1;
            end
        end
    always @(*) if (past_valid && !reset) begin
        if (sent) assert(pend != 3'd0);
        if (sent && t_in && t_ahead == 3'd0) begin
`ifdef RETIRE_AFTER
            assert(t_resp == 3'd0);
            assert(t_age == 2'd3);
`else
            assert(retire_batch_id == t_batch);
`endif
        end
    end

`ifndef MUTANT
    // Helper invariants: the responses owed are the response stages' and queue's, and the
    // response credits their room; the retires owed are the output register, the queue's
    // entries from its read pointer (contiguous, counted by the credits) and the held stage,
    // in that order; the tracked one is where `t_ahead` places it, with its age and its count
    // of responses owed (`t_resp`: the queue entry's count, all owed while it is held).
    wire hv = obs_retire_queue_held_valid_q, ov = obs_retire_queue_out_valid_q;
    wire [3:0] sv = obs_retire_queue_slot_valid_q_all;
    wire [55:0] sb = obs_retire_queue_slot_batch_q_all;
    wire [11:0] so = obs_retire_queue_slot_owed_q_all;
    wire [1:0] rp = obs_retire_queue_rd_ptr_q, wp = obs_retire_queue_wr_ptr_q;
    wire [2:0] n = sv[0] + sv[1] + sv[2] + sv[3];
    wire [2:0] k = t_ahead - ov;
    wire [1:0] ts = rp + k[1:0];
    always @(*) if (past_valid && !reset) begin
        assert({1'b0, obs_resp_queue_count_q} + obs_resp_pending_q + obs_resp_pending2_q
            == {1'b0, resp_owed});
        assert(resp_owed <= 3'd4);
        assert(obs_resp_credits_q == 3'd4 - resp_owed);
        assert(pend == ov + n + hv);
        assert(n + hv <= 3'd4);
        assert(obs_retire_queue_credits_q == 3'd4 - n - hv);
        assert(wp == rp + n[1:0]);
        assert(sv[rp] == (n > 3'd0));
        assert(sv[rp + 2'd1] == (n > 3'd1));
        assert(sv[rp + 2'd2] == (n > 3'd2));
        assert(sv[rp + 2'd3] == (n > 3'd3));
        if (t_in) begin
            assert(t_ahead < pend);
            assert(t_age != 2'd0);
            if (ov && t_ahead == 3'd0) begin
                assert(obs_retire_queue_out_batch_q == t_batch);
                assert(t_resp == 3'd0 && t_age == 2'd3);
            end else if (k < n) begin
                assert(sb[14 * ts +: 14] == t_batch);
                assert(so[3 * ts +: 3] == t_resp);
                assert(t_age >= 2'd2);
            end else begin
                assert(hv && obs_retire_queue_held_batch_q == t_batch);
                assert(t_resp == resp_owed && t_age == 2'd1);
            end
        end
    end
`endif
`endif

`ifdef P_ORDER
    // SO-3: the operation FIFO never loses or reorders an entry: the tracked entry A (`mark`
    // at any push) leaves by the pop after the entries that were ahead of it, as pushed: its
    // kind, an operation's start, an offset bundle's word (the last bundle word merged into it:
    // a bundle right behind a bundle that is not at the head replaces its word). No pop of an
    // empty FIFO, no push into a full one.
    wire push = past_valid && !reset && obs_op_fifo_push;
    wire pop = past_valid && !reset && obs_op_fifo_pop;
    wire merged = past_valid && !reset && cmd_valid && cmd_ready && cmd_kind == KIND_OFFSET
        && !obs_op_fifo_push;
    reg [1:0] count = 2'd0;
    reg a_in = 1'b0, a_tail = 1'b0, a_offset = 1'b0;
    reg [1:0] a_ahead = 2'd0;
    reg [13:0] a_start = 14'd0;
    reg [127:0] a_word = 128'd0;
    always @(posedge clock)
        if (reset) begin
            count <= 2'd0;
            a_in <= 1'b0;
            a_tail <= 1'b0;
        end else begin
            count <= count + push - pop;
            if (push) a_tail <= 1'b0;
            if (pop && a_in) begin
                if (a_ahead == 2'd0) begin
                    a_in <= 1'b0;
                    a_tail <= 1'b0;
                end else a_ahead <= a_ahead - 2'd1;
            end
            if (merged && a_in && a_tail && a_offset) a_word <= cmd_offsets;
            if (push && mark && !a_in) begin
                a_in <= 1'b1;
                a_tail <= 1'b1;
                a_offset <= cmd_kind == KIND_OFFSET;
                a_start <= cmd_batch_id;
                a_word <= cmd_offsets;
                a_ahead <= count - pop;
            end
        end
    always @(*) if (past_valid && !reset) begin
        if (pop) assert(count != 2'd0);
        if (push) assert(count != 2'd2);
        if (pop && a_in && a_ahead == 2'd0) begin
            assert(obs_op_fifo_head_is_offset == a_offset);
            if (!a_offset) assert(obs_op_fifo_head_start == a_start);
            else assert(obs_op_fifo_head_word_ok && obs_op_fifo_head_word == a_word);
        end
    end

`ifndef MUTANT
    // Helper invariants: the fill level is the count; the write slot is `count` past the read
    // slot and the tail slot the last entry's, with its kind; the valid bits are the occupied
    // slots; A is at its slot with its kind and start, its word in the RAM; A is the tail
    // exactly while no entry was pushed after it; a head word marked ready is the word at the
    // read slot; an active operation is the head.
    wire rs = obs_op_fifo_read_slot_q, ws = obs_op_fifo_write_slot_q;
    wire ts = obs_op_fifo_tail_slot_q, tio = obs_op_fifo_tail_is_offset_q;
    wire [1:0] fv = obs_op_fifo_entry_valid_q_all, fo = obs_op_fifo_entry_is_offset_q_all;
    wire [27:0] fs = obs_op_fifo_entry_start_q_all;
    wire a_slot = rs ^ a_ahead[0];
    wire [13:0] a_slot_start = a_slot ? fs[27:14] : fs[13:0];
    wire [127:0] a_slot_word = a_slot ? opw1 : opw0;
    always @(*) if (past_valid && !reset) begin
        assert(count <= 2'd2 && op_fill == count);
        assert(ws == (rs ^ (count == 2'd1)));
        assert(fv == (count == 2'd0 ? 2'b00 : count == 2'd2 ? 2'b11 : rs ? 2'b10 : 2'b01));
        if (count != 2'd0) assert(ts == (rs ^ (count == 2'd2)) && tio == fo[ts]);
        if (a_in) begin
            assert(a_ahead < count);
            assert(fo[a_slot] == a_offset);
            if (!a_offset) assert(a_slot_start == a_start);
            else assert(a_slot_word == a_word);
            if (a_tail) assert(a_ahead + 2'd1 == count);
            else assert(a_ahead + 2'd1 < count);
        end else assert(!a_tail);
        if (obs_op_fifo_head_word_ok) assert(op_rd_ok && op_rd_word == (rs ? opw1 : opw0));
        // The operation being served is the head entry until its end pops it.
        if (op_active) assert(count != 2'd0 && !fo[rs]);
        if (obs_op_done_q) assert(op_active);
    end
`endif
`endif

`ifdef P_SSOBO
    // SO-6, SO-7, SO-12: the SSOBOs change only by an accounted batch/task, which adds its SBBN
    // (the second request of the accounted entry) when it fits and leaves them otherwise, with
    // `commit_overflow` (lane i fits when SBBN[i] = 0 or SSOBO[i] + SBBN[i] <= size[i], without
    // wrap-around), or by an offset bundle taken from the FIFO head, which replaces them; each
    // step reaches the SSOBOs 4 cycles after its decision (`commit` 3 cycles after), in the
    // order decided. Here the buffer sizes are steady (API state set before streaming) and the
    // SO units keep the protocol (SO-7: a unit's second request follows its first, one each).
    always @(posedge clock) if (past_valid) assume(buffer_size == $past(buffer_size));
    reg open0 = 1'b0, open1 = 1'b0;
    reg [127:0] sb0, sb1;
    wire acc_second = past_valid && !reset && second_valid && second_ready;
    always @(posedge clock)
        if (reset) begin
            open0 <= 1'b0;
            open1 <= 1'b0;
        end else begin
            if (acc_first && !first_source) open0 <= 1'b1;
            if (acc_first && first_source) open1 <= 1'b1;
            if (acc_second && !second_source) begin open0 <= 1'b0; sb0 <= second_data; end
            if (acc_second && second_source) begin open1 <= 1'b0; sb1 <= second_data; end
        end
    always @(*) if (past_valid && !reset && second_valid)
        assume(second_source ? (open1 || (acc_first && first_source))
            : (open0 || (acc_first && !first_source)));
    // The step decided now and its value (the accounted unit's SBBN, arriving now or earlier;
    // the bundle at the head), delayed to stage S.
    wire [127:0] sb_sel = (acc_second && second_source == sel_unit) ? second_data
        : sel_unit ? sb1 : sb0;
    reg [2:0] st_commit = 3'd0, st_offset = 3'd0;
    reg [127:0] st_word0, st_word1, st_word2;
    always @(posedge clock) begin
        st_commit <= reset ? 3'd0 : {st_commit[1:0], decide_commit};
        st_offset <= reset ? 3'd0 : {st_offset[1:0], past_valid && !reset && obs_offset_now};
        st_word0 <= decide_commit ? sb_sel : obs_op_fifo_head_word;
        st_word1 <= st_word0;
        st_word2 <= st_word1;
    end
    function fits_lane(input [31:0] o, input [31:0] n, input [31:0] s);
        fits_lane = n == 32'd0 || {1'b0, o} + {1'b0, n} <= {1'b0, s};
    endfunction
    wire fits = fits_lane(ssobo[31:0], st_word2[31:0], buffer_size[31:0])
        && fits_lane(ssobo[63:32], st_word2[63:32], buffer_size[63:32])
        && fits_lane(ssobo[95:64], st_word2[95:64], buffer_size[95:64])
        && fits_lane(ssobo[127:96], st_word2[127:96], buffer_size[127:96]);
    wire [127:0] sum = {ssobo[127:96] + st_word2[127:96], ssobo[95:64] + st_word2[95:64],
        ssobo[63:32] + st_word2[63:32], ssobo[31:0] + st_word2[31:0]};
    reg [127:0] expect = 128'd0;
    always @(posedge clock)
        if (reset) expect <= 128'd0;
        else if (st_commit[2] && fits) expect <= sum;
        else if (st_offset[2]) expect <= st_word2;
        else expect <= ssobo;
    reg checking = 1'b0;
    always @(posedge clock) checking <= past_valid && !reset;
    always @(*) if (past_valid && !reset) begin
        assert(commit == st_commit[2]);
        assert(commit_overflow == (st_commit[2] && !fits));
        if (checking) assert(ssobo == expect);
    end

`ifndef MUTANT
    // Helper invariants: the accounting stages (R, F, S) hold the steps the props decided, with
    // their values and non-zero lanes; the headroom register that S's decision picks
    // (`took_now`) is the buffer sizes less the SSOBOs after the step in S (`ssobo_next`), lane
    // by lane, with the past-the-end bits, so the lane results F registers and S picks are
    // SO-12 on the SSOBOs S applies to; a stored SBBN (RAM word, pending write) is
    // its unit's last second request, with its non-zero lanes; the size registers follow the
    // steady size (after the first cycle: `size_in` has no reset).
    function [3:0] nz(input [127:0] w);
        nz = {w[127:96] != 32'd0, w[95:64] != 32'd0, w[63:32] != 32'd0, w[31:0] != 32'd0};
    endfunction
    wire [127:0] nx = obs_account_ssobo_next;
    wire [127:0] room = obs_account_took_now ? obs_account_room_take_q : obs_account_room_keep_q;
    wire [3:0] past = {nx[127:96] > buffer_size[127:96], nx[95:64] > buffer_size[95:64],
        nx[63:32] > buffer_size[63:32], nx[31:0] > buffer_size[31:0]};
    wire [127:0] head = {buffer_size[127:96] - nx[127:96], buffer_size[95:64] - nx[95:64],
        buffer_size[63:32] - nx[63:32], buffer_size[31:0] - nx[31:0]};
    // Stage S's lane results, picked by the decision of the step before (`took`), against
    // SO-12 per lane on the SSOBOs.
    wire [3:0] lanes_s = obs_account_took_q ? obs_account_apply_fit_take_q
        : obs_account_apply_fit_keep_q;
    wire [3:0] fit_s = {fits_lane(ssobo[127:96], st_word2[127:96], buffer_size[127:96]),
        fits_lane(ssobo[95:64], st_word2[95:64], buffer_size[95:64]),
        fits_lane(ssobo[63:32], st_word2[63:32], buffer_size[63:32]),
        fits_lane(ssobo[31:0], st_word2[31:0], buffer_size[31:0])};
    wire [1:0] es = obs_msg_table_entry_second_q_all;
    wire [7:0] enz = obs_msg_table_entry_nonzero_q_all;
    wire rw = obs_msg_table_ram_write_q, rwu = obs_msg_table_ram_write_unit_q;
    wire stages = obs_account_read_commit_q || obs_account_read_offset_q
        || obs_account_test_commit_q || obs_account_test_offset_q
        || obs_account_apply_commit_q || obs_account_apply_offset_q;
    // Cycles since the last reset (0 in the cycle after it), saturating.
    reg [1:0] age = 2'd0;
    always @(posedge clock) age <= reset ? 2'd0 : (age == 2'd3 ? 2'd3 : age + 2'd1);
    always @(*) if (past_valid && !reset) begin
        assert(obs_account_read_commit_q == st_commit[0] && obs_account_test_commit_q == st_commit[1]
            && obs_account_apply_commit_q == st_commit[2]);
        assert(obs_account_read_offset_q == st_offset[0] && obs_account_test_offset_q == st_offset[1]
            && obs_account_apply_offset_q == st_offset[2]);
        assert((st_commit & st_offset) == 3'd0);
        if (obs_account_read_offset_q) assert(obs_account_read_word_q == st_word0);
        if (obs_account_read_commit_q) assert(obs_msg_table_selected_sbbn == st_word0
            && obs_msg_table_selected_nonzero == nz(st_word0));
        if (st_commit[1] || st_offset[1]) assert(obs_account_test_value_q == st_word1);
        if (st_commit[1]) assert(obs_account_test_nonzero_q == nz(st_word1));
        if (st_commit[2]) assert(lanes_s == fit_s && obs_account_fits == fits);
        if (st_commit[2] || st_offset[2]) assert(obs_account_apply_value_q == st_word2);
        assert(obs_account_size_in_q == buffer_size);
        if (obs_account_size_moving_q || obs_account_size_reg_q != buffer_size)
            assert(age == 2'd0);
        if (age == 2'd0) assert(!stages && !ss && !st && !sbt && !op_active && op_fill == 2'd0);
        if (age == 2'd1) assert(!stages && !ss && !st && !sbt);
        if (age != 2'd1) assert(room == head && obs_account_past_end_q == past);
        if (rw) assert(obs_msg_table_ram_write_word_q == (rwu ? sb1 : sb0));
        if (es[0] && !(rw && !rwu)) assert(sbw0 == sb0);
        if (es[1] && !(rw && rwu)) assert(sbw1 == sb1);
        if (es[0]) assert(!open0);
        if (es[1]) assert(!open1);
        if (es[0]) assert(enz[3:0] == nz(sb0));
        if (es[1]) assert(enz[7:4] == nz(sb1));
    end
`endif
`endif
endmodule

// A two-word block RAM modelled from its write port: the words written (`w0`, `w1`, free at
// step 0 like the RAM's X), the word read at the edge (`rd_word`) and whether the read is
// defined (`rd_ok`: not the address written at the same edge); the RAM's read data is
// constrained to it when defined.
module ram2_model(
    input wire clock,
    input wire we,
    input wire wa,
    input wire [127:0] wd,
    input wire ra,
    input wire [127:0] rd,
    output reg [127:0] w0,
    output reg [127:0] w1,
    output reg [127:0] rd_word,
    output reg rd_ok
);
    initial rd_ok = 1'b0;
    always @(posedge clock) begin
        if (we && !wa) w0 <= wd;
        if (we && wa) w1 <= wd;
        rd_word <= ra ? w1 : w0;
        rd_ok <= !(we && wa == ra);
    end
    always @(*) if (rd_ok) assume(rd == rd_word);
endmodule
`default_nettype wire
