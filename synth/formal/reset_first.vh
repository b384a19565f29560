// The environment every `<unit>_props.sv` shares, included in its module body (`clock` and
// `reset` are the props module's inputs; `ppu formal` writes this file beside `props.sv`):
// `past_valid` is low in the first cycle only, and `reset` is assumed high then, so every
// check starts from the unit's reset state. `$past` is meaningful while `past_valid` is high.
reg past_valid = 1'b0;
always @(posedge clock) past_valid <= 1'b1;
always @(*) if (!past_valid) assume(reset);
