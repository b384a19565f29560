//! `BlockRam` — simple dual-port SRAM with one clock: 2^`N` words of `D`, synchronous read
//! (`read_data <= mem[read_address]` at the clock edge), write when `write_enable` is high. No
//! reset, no initial contents: the Verilog memory starts as X (the Rust simulation reads 0), so
//! a user must only use words it has written.
//!
//! Same behaviour as rust-hdl's `RAM` (one clock instead of two), but the Verilog memory carries
//! `(* ram_style = "block", no_rw_check *)`: Yosys maps it to block RAM (iCE40 `SB_RAM40_4K`)
//! even when it is small, and without logic that emulates read-old-data on a collision. A read
//! of the address written in the same cycle returns the old word in simulation (Rust, Icarus,
//! Verilator) but is undefined in the block RAM: a user must not use the read data of such a
//! cycle (read the address again one cycle later, or bypass).
//!
//! SPEC: storage of SSYNC's operation FIFO words (SO-3, "SRAM-style"). X-2 exception: a memory
//! array has no `reset`; its users reset their pointers and valid bits instead (as SSYNC's
//! `OpFifo` does).
//!
//! Ports: `clock`; `read_address` → `read_data` (registered); `write_address`, `write_data`,
//! `write_enable`.
//!
//! Timing: read latency 1 cycle (address in cycle t, data in cycle t+1); one read and one
//! write per cycle. Exported and co-simulated as part of `ssync` (not a top unit of its own).
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

#[derive(LogicBlock, Default)]
pub struct BlockRam<D: Synth, const N: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<N>>,
    pub read_data: Signal<Out, D>,
    pub write_address: Signal<In, Bits<N>>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, Bit>,
    _sim: Box<BTreeMap<Bits<N>, D>>,
}

impl<D: Synth, const N: usize> Logic for BlockRam<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.read_data.next = *self
                ._sim
                .get(&self.read_address.val())
                .unwrap_or(&D::default());
            if self.write_enable.val() {
                self._sim
                    .insert(self.write_address.val(), self.write_data.val());
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
(* ram_style = \"block\", no_rw_check *)
reg [{msb}:0] mem [0:{last}];

always @(posedge clock) begin
   read_data <= mem[read_address];
   if (write_enable) begin
      mem[write_address] <= write_data;
   end
end
",
            msb = D::BITS - 1,
            last = (1usize << N) - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ram_verilog_carries_the_block_ram_attributes() {
        let mut uut: BlockRam<Bits<32>, 2> = Default::default();
        uut.connect_all();
        let v = generate_verilog(&uut);
        assert!(v.contains("(* ram_style = \"block\", no_rw_check *)"));
        assert!(v.contains("reg [31:0] mem [0:3];"));
    }
}
