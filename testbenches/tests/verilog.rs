//! Every exported unit: Verilator lint with only the committed waivers, and
//! co-simulation of the unit's reference testbench against the exported Verilog under Icarus
//! Verilog and Verilator, outputs equal on every cycle. A mutated netlist must be caught.
use ppu_sim::eda;
use ppu_sim::eda::cosim::{self, Simulator};
use ppu_sim::eda::export;
use ppu_sim::eda::lint;
use ppu_sim::registry;

#[test]
fn x4_waiver_file_has_reasons_and_no_width_waivers() {
    let rules = lint::waived_rules().unwrap();
    assert!(rules.iter().all(|r| !r.starts_with("WIDTH")));
}

#[test]
fn x4_exported_module_names_are_the_units() {
    for u in registry::units() {
        let v = (u.verilog)();
        assert!(
            v.contains(&format!("module {}(", u.name)),
            "{} is not the top module",
            u.name
        );
        assert!(
            !v.contains("module top"),
            "{} still has a module named top",
            u.name
        );
        assert!(
            !v.contains("((32'h"),
            "{} has an untyped 32-bit literal",
            u.name
        );
    }
}

#[test]
fn x4_every_unit_lints_clean() {
    let Some(verilator) = eda::tool_for_test("verilator", "Verilog lint") else {
        return;
    };
    let dir = eda::scratch_dir("lint").unwrap();
    let files = export::write_all(&dir, &registry::units(), &[]).unwrap();
    assert_eq!(files.len(), registry::units().len());
    for (u, f) in registry::units().iter().zip(files.iter()) {
        let warnings = lint::lint(&verilator, f, u.name).unwrap();
        assert!(warnings.is_empty(), "{}: {:#?}", u.name, warnings);
    }
}

#[test]
fn x4_every_unit_cosimulates_under_icarus_and_verilator() {
    use rayon::prelude::*;
    let iverilog = eda::tool_for_test("iverilog", "co-simulation under Icarus Verilog");
    let verilator = eda::tool_for_test("verilator", "co-simulation under Verilator");
    // The units are independent runs (testbench, then each simulator in its own folder): one
    // per core; every failure is reported, not only the first.
    let cosim_unit = |u: &export::Unit| -> Result<(), String> {
        let trace =
            (u.cosim_trace)().map_err(|e| format!("{}: testbench failed: {}", u.name, e))?;
        if trace.cycles.len() < 100 {
            return Err(format!("{}: too short a trace", u.name));
        }
        let verilog = (u.verilog)();
        for (sim, tool) in [
            (Simulator::Icarus, &iverilog),
            (Simulator::Verilator, &verilator),
        ] {
            if let Some(tool) = tool {
                let r = cosim::run(sim, tool, &verilog, u.name, &trace, u.name)
                    .map_err(|e| format!("{} under {:?}: {}", u.name, sim, e))?;
                if r.cycles != trace.cycles.len() {
                    return Err(format!(
                        "{} under {:?}: {} of {} cycles",
                        u.name,
                        sim,
                        r.cycles,
                        trace.cycles.len()
                    ));
                }
            }
        }
        Ok(())
    };
    let failures: Vec<String> = registry::units()
        .par_iter()
        .filter_map(|u| cosim_unit(u).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn x4_cosim_catches_a_mutated_netlist() {
    let Some(iv) = eda::tool_for_test("iverilog", "co-simulation mutation check") else {
        return;
    };
    let u = registry::unit("stream_fifo").unwrap();
    let trace = (u.cosim_trace)().unwrap();
    let good = (u.verilog)();
    // Break the full flag: the FIFO then claims to accept a word when full.
    let bad = good.replacen("wr_ready = count$q != depth;", "wr_ready = 1'b1;", 1);
    assert_ne!(good, bad, "mutation did not apply");
    let err = cosim::run(Simulator::Icarus, &iv, &bad, u.name, &trace, "mutant").unwrap_err();
    assert!(err.contains("wr_ready"), "{}", err);
}
