// Formal properties of `so_crossbar` (SoCrossbar, 4 SO units as exported; requirements SO-5,
// SO-7, SO-9: the SO units' first and second requests reach SSYNC with the index of the SO unit
// that sent them, and SSYNC's responses reach the SO unit they name), run by
// `ppu formal so_crossbar`.
// observe: first_arb.sel_valid$q first_arb.sel_onehot$q first_arb.sel_source$q second_arb.sel_valid$q second_arb.sel_onehot$q second_arb.sel_source$q
`default_nettype none
module so_crossbar_props(
    input wire clock,
    input wire reset,
    input wire [3:0] so_first_valid,
    input wire [24:0] so_first_data0, so_first_data1, so_first_data2, so_first_data3,
    input wire [3:0] so_second_valid,
    input wire [127:0] so_second_data0, so_second_data1, so_second_data2, so_second_data3,
    input wire first_ready,
    input wire second_ready,
    input wire resp_valid,
    input wire [127:0] resp_data,
    input wire [1:0] resp_dest,
    input wire [3:0] so_resp_ready,
    input wire pick_first,
    input wire pick_second
);
`include "observe.vh"
    wire [3:0] so_first_ready, so_second_ready, so_resp_valid;
    wire first_valid, second_valid, resp_ready, violation;
    wire [24:0] first_data;
    wire [127:0] second_data, so_resp_data0, so_resp_data1, so_resp_data2, so_resp_data3;
    wire [1:0] first_source, second_source;
    so_crossbar dut(
        .clock(clock), .reset(reset),
        .so_first_valid$0(so_first_valid[0]), .so_first_valid$1(so_first_valid[1]),
        .so_first_valid$2(so_first_valid[2]), .so_first_valid$3(so_first_valid[3]),
        .so_first_ready$0(so_first_ready[0]), .so_first_ready$1(so_first_ready[1]),
        .so_first_ready$2(so_first_ready[2]), .so_first_ready$3(so_first_ready[3]),
        .so_first_data$0(so_first_data0), .so_first_data$1(so_first_data1),
        .so_first_data$2(so_first_data2), .so_first_data$3(so_first_data3),
        .so_second_valid$0(so_second_valid[0]), .so_second_valid$1(so_second_valid[1]),
        .so_second_valid$2(so_second_valid[2]), .so_second_valid$3(so_second_valid[3]),
        .so_second_ready$0(so_second_ready[0]), .so_second_ready$1(so_second_ready[1]),
        .so_second_ready$2(so_second_ready[2]), .so_second_ready$3(so_second_ready[3]),
        .so_second_data$0(so_second_data0), .so_second_data$1(so_second_data1),
        .so_second_data$2(so_second_data2), .so_second_data$3(so_second_data3),
        .first_valid(first_valid), .first_ready(first_ready), .first_data(first_data),
        .first_source(first_source),
        .second_valid(second_valid), .second_ready(second_ready), .second_data(second_data),
        .second_source(second_source),
        .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_data(resp_data),
        .resp_dest(resp_dest),
        .so_resp_valid$0(so_resp_valid[0]), .so_resp_valid$1(so_resp_valid[1]),
        .so_resp_valid$2(so_resp_valid[2]), .so_resp_valid$3(so_resp_valid[3]),
        .so_resp_ready$0(so_resp_ready[0]), .so_resp_ready$1(so_resp_ready[1]),
        .so_resp_ready$2(so_resp_ready[2]), .so_resp_ready$3(so_resp_ready[3]),
        .so_resp_data$0(so_resp_data0), .so_resp_data$1(so_resp_data1),
        .so_resp_data$2(so_resp_data2), .so_resp_data$3(so_resp_data3),
        .violation(violation) `OBSERVE
    );

    // Environment (SPEC X-2): reset first; each SO unit holds valid and its payload until its
    // ready; SSYNC's ready and the response channel are free.
    `include "reset_first.vh"
    wire [24:0] fd [0:3];
    assign fd[0] = so_first_data0; assign fd[1] = so_first_data1;
    assign fd[2] = so_first_data2; assign fd[3] = so_first_data3;
    wire [127:0] sd [0:3];
    assign sd[0] = so_second_data0; assign sd[1] = so_second_data1;
    assign sd[2] = so_second_data2; assign sd[3] = so_second_data3;
    integer i;
    always @(posedge clock)
        if (past_valid && !$past(reset) && !reset)
            for (i = 0; i < 4; i = i + 1) begin
                if ($past(so_first_valid[i] && !so_first_ready[i]))
                    assume(so_first_valid[i] && fd[i] == $past(fd[i]));
                if ($past(so_second_valid[i] && !so_second_ready[i]))
                    assume(so_second_valid[i] && sd[i] == $past(sd[i]));
            end

`ifdef P_DELIVER
    // SO-5, SO-7: every request an SO unit hands over (valid and ready) leaves on SSYNC's
    // channel once, unchanged, with that unit's index as its source, in the order handed over;
    // nothing leaves that was not handed over. Checked per channel on a tracked request (any).
    wire [3:0] f_take = so_first_valid & so_first_ready;
    wire [3:0] s_take = so_second_valid & so_second_ready;
    reg [24:0] f_take_data;
    reg [127:0] s_take_data;
    reg [1:0] f_take_unit, s_take_unit;
    always @(*) begin
        f_take_unit = 2'd0; s_take_unit = 2'd0; f_take_data = 25'd0; s_take_data = 128'd0;
        for (i = 0; i < 4; i = i + 1) begin
            if (f_take[i]) begin f_take_unit = i; f_take_data = fd[i]; end
            if (s_take[i]) begin s_take_unit = i; s_take_data = sd[i]; end
        end
    end
    chan_track #(.W(25)) first_track(
        .clock(clock), .live(past_valid && !reset), .reset(reset), .pick(pick_first),
        .take(f_take), .take_unit(f_take_unit), .take_data(f_take_data),
        .out_valid(first_valid), .out_ready(first_ready), .out_data(first_data),
        .out_source(first_source));
    chan_track #(.W(128)) second_track(
        .clock(clock), .live(past_valid && !reset), .reset(reset), .pick(pick_second),
        .take(s_take), .take_unit(s_take_unit), .take_data(s_take_data),
        .out_valid(second_valid), .out_ready(second_ready), .out_data(second_data),
        .out_source(second_source));
`ifndef MUTANT
    // Helper invariants: each arbiter's choice is one requester, named alike by its one-hot
    // vector and its index (the payload is taken by the one and labelled by the other).
    always @(*) if (past_valid && !reset) begin
        assert(obs_first_arb_sel_onehot_q == (obs_first_arb_sel_valid_q ? 4'd1 << obs_first_arb_sel_source_q : 4'd0));
        assert(obs_second_arb_sel_onehot_q == (obs_second_arb_sel_valid_q ? 4'd1 << obs_second_arb_sel_source_q : 4'd0));
    end
`endif
`endif

`ifdef P_ROUTE
    // SO-9: SSYNC's response reaches exactly the SO unit it names, with its payload, and SSYNC
    // sees that unit's ready.
    wire [127:0] rd [0:3];
    assign rd[0] = so_resp_data0; assign rd[1] = so_resp_data1;
    assign rd[2] = so_resp_data2; assign rd[3] = so_resp_data3;
    always @(*) if (past_valid) begin
        for (i = 0; i < 4; i = i + 1) begin
            assert(so_resp_valid[i] == (resp_valid && resp_dest == i));
            if (so_resp_valid[i]) assert(rd[i] == resp_data);
        end
        assert(resp_ready == so_resp_ready[resp_dest]);
    end
`endif
endmodule

// One request channel: `take` (one-hot or zero: the SO units' handed-over requests of the
// cycle), the unit and payload taken, and the channel towards SSYNC. A tracked request (the
// first taken with `pick` high) must leave as the next one after the requests inside when it
// was taken; the occupancy (taken - left) never goes below 0 (nothing leaves that was not
// taken) nor above 1 (the output register).
module chan_track #(parameter W = 25) (
    input wire clock,
    input wire live,
    input wire reset,
    input wire pick,
    input wire [3:0] take,
    input wire [1:0] take_unit,
    input wire [W-1:0] take_data,
    input wire out_valid,
    input wire out_ready,
    input wire [W-1:0] out_data,
    input wire [1:0] out_source
);
    wire took = take != 4'd0;
    wire left = out_valid && out_ready;
    reg [1:0] occ = 2'd0;
    reg tracking = 1'b0, tracked_done = 1'b0;
    reg [1:0] ahead = 2'd0;
    reg [1:0] t_unit = 2'd0;
    reg [W-1:0] t_data;
    always @(posedge clock)
        if (reset) begin
            occ <= 2'd0; tracking <= 1'b0; tracked_done <= 1'b0; ahead <= 2'd0;
        end else begin
            occ <= occ + took - left;
            if (tracking && left) begin
                if (ahead == 2'd0) begin tracking <= 1'b0; tracked_done <= 1'b1; end
                else ahead <= ahead - 2'd1;
            end
            if (took && pick && !tracking && !tracked_done) begin
                tracking <= 1'b1; t_unit <= take_unit; t_data <= take_data;
                ahead <= occ - left;
            end
        end
    always @(*) if (live) begin
        assert(take == 4'd0 || (take & (take - 4'd1)) == 4'd0);
        assert(occ <= 2'd1);
        if (left) assert(occ == 2'd1);
        assert(out_valid == (occ == 2'd1));
        if (tracking && left && ahead == 2'd0) begin
            assert(out_source == t_unit);
            assert(out_data == t_data);
        end
        // The tracked request, once taken, is the one in the output register until it leaves.
        if (tracking) assert(ahead == 2'd0 && out_valid && out_source == t_unit && out_data == t_data);
    end
endmodule
`default_nettype wire
