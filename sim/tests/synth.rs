//! Synthesis flow: Yosys + nextpnr on a real unit, figures checked against the design's
//! known register count; synth/REPORT.md has a row per exported unit.
use ppu_sim::eda::{self, synth};
use ppu_sim::registry;

#[test]
fn x4_synth_flow_counts_the_fifo_registers_and_reports_fmax() {
    let Some(yosys) = eda::tool_for_test("yosys", "synthesis") else {
        return;
    };
    let nextpnr = eda::tool_for_test("nextpnr-ice40", "place and route");
    let u = registry::unit("stream_fifo").unwrap();
    let dir = eda::scratch_dir("synth-test").unwrap();
    let row = synth::synthesize(
        &yosys,
        nextpnr.as_deref(),
        u.name,
        u.mechanism,
        &(u.verilog)(),
        &dir,
    )
    .unwrap();
    // Depth 6 x 16-bit slots + 3-bit write and read pointers + 3-bit count.
    assert_eq!(row.flip_flops, 6 * 16 + 3 + 3 + 3, "{:?}", row);
    assert!(row.lut4 > 0);
    if nextpnr.is_some() {
        let f = row.fmax_mhz.expect("nextpnr reported no Fmax");
        assert!(f > 1.0 && f < 1000.0, "{}", f);
        // Wrapper: 16+4 input bits (reset, wr_valid, wr_data, rd_ready) and 1+1+16+3 outputs.
        assert_eq!(row.wrapper_ffs, (1 + 1 + 16 + 1) + (1 + 1 + 16 + 3));
    }
}

#[test]
fn x4_io_wrapper_ports_follow_the_exported_module() {
    let v = (registry::unit("rr_arbiter").unwrap().verilog)();
    let ports = synth::ports_of(&v, "rr_arbiter");
    let width = |n: &str| ports.iter().find(|p| p.name == n).map(|p| p.width);
    assert_eq!(width("req_data$3"), Some(25));
    assert_eq!(width("grant_source"), Some(2));
    assert_eq!(width("clock"), Some(1));
    assert_eq!(ports.iter().filter(|p| !p.input).count(), 4 + 4);
}

#[test]
fn x4_report_has_a_row_per_exported_unit() {
    let path = ppu_sim::repo_root().join("synth").join("REPORT.md");
    let text = std::fs::read_to_string(&path).expect("synth/REPORT.md is committed");
    let rows = synth::units_in_report(&text);
    for u in registry::units() {
        assert!(
            rows.iter().any(|r| r == u.name),
            "synth/REPORT.md has no row for {}: run `cargo run --release -- synth`",
            u.name
        );
    }
}
