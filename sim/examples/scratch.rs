use ppu_hdl::prelude::*;
use rust_hdl::prelude::*;
fn main() {
    let mut f: StreamFifo<Bits<8>, 3, 2, 2> = Default::default();
    f.connect_all();
    std::fs::write("/tmp/scratch/fifo.v", generate_verilog(&f)).unwrap();
    let mut a: RrArbiter<FirstRequest, 3, 2> = Default::default();
    a.connect_all();
    std::fs::write("/tmp/scratch/arb.v", generate_verilog(&a)).unwrap();
}
