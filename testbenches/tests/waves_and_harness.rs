//! Waves: every VCD in waves/ parses back with the independent `vcd` parser (header,
//! declared widths, increasing timestamps) and every committed .gtkw names only signals its
//! VCD declares. Harness: same results as rust-hdl's own Simulation; VCD details.
use ppu_sim::repo_root;
use ppu_sim::vcd::checker::check_vcd;
use ppu_sim::vcd::gtkw;
use ppu_sim::widgets::bench::{harness_run, simulation_run};

#[test]
fn x3_canonical_waves_are_well_formed_and_match_their_save_files() {
    let dir = repo_root().join("target").join("waves-check");
    let names = ppu_sim::registry::write_waves(&dir).unwrap();
    assert!(!names.is_empty());
    for n in &names {
        let vcd = dir.join(format!("{}.vcd", n));
        let s = check_vcd(&vcd).unwrap();
        assert!(s.timestamps > 10 && s.changes > 10, "{}: nearly empty", n);
        let text = std::fs::read_to_string(dir.join(format!("{}.gtkw", n))).unwrap();
        let committed =
            std::fs::read_to_string(repo_root().join("waves").join(format!("{}.gtkw", n)))
                .unwrap_or_else(|_| panic!("waves/{}.gtkw is not committed", n));
        assert_eq!(
            text, committed,
            "waves/{}.gtkw is stale: run `cargo run -- waves`",
            n
        );
        for sig in gtkw::signals_of(&text) {
            let path = gtkw::vcd_path_of(&sig);
            assert!(
                s.has_var(path),
                "{}.gtkw names {} which the VCD lacks",
                n,
                sig
            );
            let width = s
                .vars
                .iter()
                .find(|(p, _)| p == path)
                .map(|(_, w)| *w)
                .unwrap_or(0);
            assert_eq!(
                sig,
                gtkw::gtkwave_name(path, width),
                "{}.gtkw: GTKWave would not find {}",
                n,
                sig
            );
        }
    }
}

#[test]
fn x3_every_vcd_in_waves_parses_back() {
    let dir = repo_root().join("waves");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().and_then(|e| e.to_str()) == Some("vcd") {
            check_vcd(&p).unwrap_or_else(|e| panic!("{}", e));
            seen += 1;
        }
    }
    eprintln!("{} VCD files checked in waves/", seen);
}

#[test]
fn x3_vcd_declares_real_widths_and_one_scope_per_sub_block() {
    let dir = repo_root().join("target").join("waves-check-widths");
    ppu_sim::registry::write_waves(&dir).unwrap();
    let s = check_vcd(&dir.join("stream_fifo.vcd")).unwrap();
    let width = |n: &str| s.vars.iter().find(|(p, _)| p == n).map(|(_, w)| *w);
    assert_eq!(width("stream_fifo.wr_data"), Some(16));
    assert_eq!(width("stream_fifo.fill"), Some(3));
    assert_eq!(width("stream_fifo.clock"), Some(1));
    assert_eq!(
        width("stream_fifo.wr_ptr.q"),
        Some(3),
        "sub-block scope missing"
    );
    assert_eq!(width("stream_fifo.slots$5.q"), Some(16));
    // Composite ports are split into their fields.
    let a = check_vcd(&dir.join("rr_arbiter.vcd")).unwrap();
    assert!(a
        .vars
        .iter()
        .any(|(p, w)| p == "rr_arbiter.grant_data$batch_id" && *w == 14));
}

#[test]
fn x3_harness_and_rust_hdl_simulation_agree_on_the_same_stimulus() {
    let (h, _) = harness_run(3000).unwrap();
    let (s, _) = simulation_run(3000).unwrap();
    assert_eq!(h, s);
    assert!(h > 500);
}

#[test]
fn x3_vcd_check_rejects_malformed_files() {
    let dir = repo_root().join("target").join("waves-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let header = "$timescale 1ns $end\n$scope module m $end\n$var wire 4 ! v $end\n$upscope $end\n$enddefinitions $end\n";
    let cases = [
        (
            "backwards.vcd",
            format!("{}#10\nb0001 !\n#5\nb0010 !\n", header),
        ),
        ("width.vcd", format!("{}#0\nb101 !\n", header)),
        ("notime.vcd", format!("{}b0001 !\n", header)),
    ];
    for (name, text) in cases {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        assert!(check_vcd(&p).is_err(), "{} accepted", name);
    }
}

/// The harness benchmark's Verilator row: the exported FIFO verilated with -O3 and a generated
/// C++ driver moves exactly the words the harness moves over the same stimulus.
#[test]
fn x3_harness_and_verilator_agree_on_the_same_stimulus() {
    let Some(verilator) = ppu_sim::eda::tool_for_test("verilator", "the Verilator benchmark row")
    else {
        return;
    };
    let program = ppu_sim::widgets::verilator_bench::build(&verilator).unwrap();
    for cycles in [1, 2, 1000, 25_000] {
        let (h, _) = harness_run(cycles).unwrap();
        let (v, _) = ppu_sim::widgets::verilator_bench::run(&program, cycles).unwrap();
        assert_eq!(h, v, "{} cycles", cycles);
    }
}
