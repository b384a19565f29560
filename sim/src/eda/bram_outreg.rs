//! Block-RAM output registers for the ECP5 flow (SPEC X-4): a netlist pass between Yosys and
//! nextpnr-ecp5.
//!
//! An ECP5 `DP16KD` has an optional output register on each read port (`REGMODE_x = "OUTREG"`).
//! Without it the read data leaves the block 5.8 ns after the clock (speed 6, nextpnr's timing
//! model), which alone is most of a 150 MHz cycle; with it, 0.96 ns. Lattice Diamond moves a
//! flip-flop that directly follows a block RAM's read data into that register; Yosys 0.70's
//! `synth_ecp5` does not (its `DP16KD` map always writes `NOREG`). This pass does the same move
//! on Yosys's JSON netlist, so a unit that registers its RAM read data with no logic in between
//! (the RTL pattern `docs/DEVELOPING.md` asks for) is timed as it would be on the vendor flow.
//!
//! A read port's flip-flops are absorbed only when every used data bit of the port drives
//! exactly one sink, the `DI` of a `TRELLIS_FF` clocked by the port's clock (not inverted), with
//! no set/reset (`LSR` absent or constant 0), not set to 1 at power-up, and one clock enable
//! shared by all of them (or none), and the port's own reset (`RSTx`) is constant 0. The register's enable `OCEx` takes the
//! flip-flops' enable; the read data net becomes the flip-flops' `Q` net; the flip-flops go. A
//! 36-bit (pseudo dual-port) block delivers its read data on both `DOA` and `DOB`: both ports are
//! then treated as one. Anything else is left as Yosys wrote it. The function is cycle-exact
//! (the output register is clocked and enabled as the flip-flop was, and neither has a reset);
//! the flip-flop count of a row stays Yosys's count on the bare unit.
use serde_json::Value;
use std::collections::HashMap;

/// A net bit of Yosys's JSON netlist: a number, or a constant `"0"`, `"1"`, `"x"`.
fn bit_id(v: &Value) -> Option<u64> {
    v.as_u64()
}

/// The top module (attribute `top`), else the last module.
fn top_module(netlist: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let modules = netlist.get_mut("modules")?.as_object_mut()?;
    let name = modules
        .iter()
        .find(|(_, m)| m.pointer("/attributes/top").is_some())
        .or_else(|| modules.iter().last())
        .map(|(n, _)| n.clone())?;
    modules.get_mut(&name)?.as_object_mut()
}

/// Where a net bit goes: (cell, port) of every input it drives; module outputs count as sinks.
fn sinks_of(module: &serde_json::Map<String, Value>) -> HashMap<u64, Vec<(String, String)>> {
    let mut sinks: HashMap<u64, Vec<(String, String)>> = HashMap::new();
    if let Some(cells) = module.get("cells").and_then(Value::as_object) {
        for (name, cell) in cells {
            let dirs = cell.get("port_directions");
            let Some(conns) = cell.get("connections").and_then(Value::as_object) else {
                continue;
            };
            for (port, bits) in conns {
                let dir = dirs.and_then(|d| d.get(port)).and_then(Value::as_str);
                if dir != Some("input") {
                    continue;
                }
                for b in bits.as_array().into_iter().flatten().filter_map(bit_id) {
                    sinks
                        .entry(b)
                        .or_default()
                        .push((name.clone(), port.clone()));
                }
            }
        }
    }
    if let Some(ports) = module.get("ports").and_then(Value::as_object) {
        for (name, port) in ports {
            if port.get("direction").and_then(Value::as_str) == Some("input") {
                continue;
            }
            let bits = port.get("bits").and_then(Value::as_array);
            for b in bits.into_iter().flatten().filter_map(bit_id) {
                sinks
                    .entry(b)
                    .or_default()
                    .push(("<port>".into(), name.clone()));
            }
        }
    }
    sinks
}

fn param<'a>(cell: &'a Value, name: &str) -> &'a str {
    cell.pointer(&format!("/parameters/{}", name))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn conn(cell: &Value, port: &str) -> Option<Vec<Value>> {
    cell.pointer(&format!("/connections/{}", port))
        .and_then(Value::as_array)
        .cloned()
}

/// A Yosys binary parameter string ("00...100100") as a number.
fn param_number(cell: &Value, name: &str) -> u64 {
    u64::from_str_radix(param(cell, name), 2).unwrap_or(0)
}

/// The flip-flops one read-port group of a RAM cell can give to its output register: their
/// names per data bit, and the shared clock enable. `None` when the group does not qualify.
fn absorbable(
    cells: &serde_json::Map<String, Value>,
    sinks: &HashMap<u64, Vec<(String, String)>>,
    ram: &Value,
    ports: &[&str],
) -> Option<(Vec<(String, String)>, Vec<Value>)> {
    let clk = conn(ram, &format!("CLK{}", ports[0]))?;
    for p in ports {
        let own_clock = conn(ram, &format!("CLK{}", p))?;
        if own_clock != clk || param(ram, &format!("CLK{}MUX", p)) != format!("CLK{}", p) {
            return None;
        }
        if conn(ram, &format!("RST{}", p))? != vec![Value::from("0")] {
            return None;
        }
    }
    let mut moves = Vec::new();
    let mut enable: Option<Vec<Value>> = None;
    for p in ports {
        for i in 0..18 {
            let data_port = format!("DO{}{}", p, i);
            let Some(bit) = conn(ram, &data_port).and_then(|b| b.first().and_then(bit_id)) else {
                continue;
            };
            let Some(targets) = sinks.get(&bit) else {
                continue;
            };
            let [(ff_name, ff_port)] = targets.as_slice() else {
                return None;
            };
            let ff = cells.get(ff_name)?;
            let plain_clock = param(ff, "CLKMUX") == "CLK" && conn(ff, "CLK")? == clk;
            let no_reset = conn(ff, "LSR").is_none_or(|l| l == vec![Value::from("0")]);
            // The output register powers up at 0: a flip-flop set to 1 by the global
            // set/reset would start differently.
            let starts_at_zero = param(ff, "GSR") == "DISABLED" || param(ff, "REGSET") != "SET";
            if ff.get("type")?.as_str()? != "TRELLIS_FF"
                || ff_port != "DI"
                || !plain_clock
                || !no_reset
                || !starts_at_zero
            {
                return None;
            }
            let this_enable = match param(ff, "CEMUX").trim() {
                "1" => vec![Value::from("1")],
                "CE" => conn(ff, "CE")?,
                _ => return None,
            };
            if enable.as_ref().is_some_and(|e| *e != this_enable) {
                return None;
            }
            enable = Some(this_enable);
            moves.push((data_port, ff_name.clone()));
        }
    }
    Some((moves, enable?))
}

/// Moves every qualifying flip-flop behind a `DP16KD` read port into the block's output
/// register (see the module comment). Returns the number of flip-flops absorbed.
pub fn absorb_output_registers(netlist: &mut Value) -> usize {
    let Some(module) = top_module(netlist) else {
        return 0;
    };
    let sinks = sinks_of(module);
    let Some(cells) = module.get_mut("cells").and_then(Value::as_object_mut) else {
        return 0;
    };
    let rams: Vec<String> = cells
        .iter()
        .filter(|(_, c)| c.get("type").and_then(Value::as_str) == Some("DP16KD"))
        .map(|(n, _)| n.clone())
        .collect();
    let mut absorbed = 0;
    for ram_name in rams {
        let ram = cells[&ram_name].clone();
        let wide =
            param_number(&ram, "DATA_WIDTH_A") == 36 || param_number(&ram, "DATA_WIDTH_B") == 36;
        let groups: Vec<Vec<&str>> = if wide {
            vec![vec!["A", "B"]]
        } else {
            vec![vec!["A"], vec!["B"]]
        };
        for group in groups {
            let Some((moves, enable)) = absorbable(cells, &sinks, &ram, &group) else {
                continue;
            };
            if moves.is_empty() {
                continue;
            }
            let mut q_of = Vec::new();
            for (data_port, ff_name) in &moves {
                let ff = cells.remove(ff_name).expect("flip-flop listed once");
                q_of.push((data_port.clone(), ff.pointer("/connections/Q").cloned()));
            }
            let cell = cells.get_mut(&ram_name).expect("RAM cell present");
            for p in &group {
                cell["parameters"][format!("REGMODE_{}", p)] = Value::from("OUTREG");
                cell["connections"][format!("OCE{}", p)] = Value::from(enable.clone());
            }
            for (data_port, q) in q_of {
                cell["connections"][data_port] = q.unwrap_or(Value::Null);
            }
            absorbed += moves.len();
        }
    }
    absorbed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ff(d: u64, q: u64, clk: u64, cemux: &str, ce: Option<u64>) -> Value {
        let mut conns = json!({ "CLK": [clk], "DI": [d], "Q": [q] });
        if let Some(ce) = ce {
            conns["CE"] = json!([ce]);
        }
        json!({
            "type": "TRELLIS_FF",
            "parameters": { "CEMUX": cemux, "CLKMUX": "CLK", "GSR": "DISABLED",
                            "LSRMUX": "LSR", "REGSET": "RESET", "SRMODE": "LSR_OVER_CE" },
            "port_directions": { "CLK": "input", "DI": "input", "CE": "input", "Q": "output" },
            "connections": conns
        })
    }

    /// One 18-bit DP16KD (port B reads bits 100, 101 into flip-flops), one LUT reading `extra`.
    fn netlist(second_sink: bool, ff_clock: u64, enables: (Option<u64>, Option<u64>)) -> Value {
        let mut ram = json!({
            "type": "DP16KD",
            "parameters": { "DATA_WIDTH_A": "10010", "DATA_WIDTH_B": "10010",
                            "REGMODE_A": "NOREG", "REGMODE_B": "NOREG",
                            "CLKAMUX": "CLKA", "CLKBMUX": "CLKB" },
            "port_directions": { "CLKA": "input", "CLKB": "input", "RSTA": "input",
                                 "RSTB": "input", "OCEB": "input", "DOB0": "output",
                                 "DOB1": "output" },
            "connections": { "CLKA": [2], "CLKB": [2], "RSTA": ["0"], "RSTB": ["0"],
                             "OCEA": ["0"], "OCEB": ["1"], "DOB0": [100], "DOB1": [101] }
        });
        ram["port_directions"]["DOA0"] = json!("output");
        ram["connections"]["DOA0"] = json!([99]);
        let cemux = |e: Option<u64>| if e.is_some() { "CE" } else { "1 " };
        let mut cells = json!({
            "ram": ram,
            "ff0": ff(100, 200, ff_clock, cemux(enables.0), enables.0),
            "ff1": ff(101, 201, 2, cemux(enables.1), enables.1),
        });
        if second_sink {
            cells["lut"] = json!({ "type": "LUT4", "port_directions": { "A": "input", "Z": "output" },
                                   "connections": { "A": [101], "Z": [300] } });
        }
        json!({ "modules": { "top": { "attributes": { "top": "1" },
            "ports": { "q": { "direction": "output", "bits": [200, 201] } },
            "cells": cells } } })
    }

    fn set_at_power_up(mut n: Value) -> Value {
        let ff = &mut n["modules"]["top"]["cells"]["ff1"]["parameters"];
        ff["GSR"] = json!("ENABLED");
        ff["REGSET"] = json!("SET");
        n
    }

    fn cells(n: &Value) -> &serde_json::Map<String, Value> {
        n.pointer("/modules/top/cells")
            .unwrap()
            .as_object()
            .unwrap()
    }

    #[test]
    fn x4_read_data_flip_flops_move_into_the_output_register() {
        let mut n = netlist(false, 2, (Some(7), Some(7)));
        assert_eq!(absorb_output_registers(&mut n), 2);
        let c = cells(&n);
        assert!(!c.contains_key("ff0") && !c.contains_key("ff1"));
        assert_eq!(c["ram"]["parameters"]["REGMODE_B"], "OUTREG");
        assert_eq!(c["ram"]["parameters"]["REGMODE_A"], "NOREG");
        assert_eq!(c["ram"]["connections"]["OCEB"], json!([7]));
        assert_eq!(c["ram"]["connections"]["DOB0"], json!([200]));
        assert_eq!(c["ram"]["connections"]["DOB1"], json!([201]));
        let mut free_running = netlist(false, 2, (None, None));
        assert_eq!(absorb_output_registers(&mut free_running), 2);
        assert_eq!(
            cells(&free_running)["ram"]["connections"]["OCEB"],
            json!(["1"])
        );
    }

    #[test]
    fn x4_read_data_with_logic_other_clock_or_mixed_enables_stays() {
        for (mut n, why) in [
            (netlist(true, 2, (None, None)), "bit 1 also feeds a LUT"),
            (
                netlist(false, 3, (None, None)),
                "flip-flop 0 on another clock",
            ),
            (
                netlist(false, 2, (Some(7), Some(8))),
                "two different enables",
            ),
            (
                netlist(false, 2, (Some(7), None)),
                "one enabled, one free-running",
            ),
            (
                set_at_power_up(netlist(false, 2, (None, None))),
                "flip-flop 1 powers up at 1 (the output register powers up at 0)",
            ),
        ] {
            let before = n.clone();
            assert_eq!(absorb_output_registers(&mut n), 0, "{}", why);
            assert_eq!(n, before, "{}: netlist changed", why);
        }
    }
}
