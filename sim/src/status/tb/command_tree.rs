//! Testbench driver of [`CommandTree`] (SPEC ST-4, ST-5, ST-7): random broadcast commands and
//! per-unit lines, every unit's command lines checked every cycle against [`CommandModel`].
use crate::harness::PortTrace;
use crate::status::golden::{CommandModel, UnitCommand};
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::status::command_tree::CommandTree;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// What [`run_command_tree`] saw.
#[derive(Debug, Clone, Default)]
pub struct CommandRun {
    /// (cycle issued, cycle first seen by unit 0) of each rising broadcast halt.
    pub halt_latency: Vec<(u64, u64)>,
    pub ports: Option<PortTrace>,
}

/// Drive a [`CommandTree`] with random broadcast commands and per-unit lines and check every
/// unit's command lines every cycle against [`CommandModel`].
pub fn run_command_tree<const N: usize, const S: usize>(
    cycles: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<CommandRun, String> {
    let mut h = harness(
        CommandTree::<N, S>::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "command_tree",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut model = CommandModel::new(N, S);
    let mut halt = false;
    let mut run = CommandRun::default();
    let mut issued: Option<u64> = None;
    // Cycles since halt was last high: a rise counts only after the tree has emptied of halts.
    let mut low_for: u64 = 0;
    let mask = if N >= 64 { u64::MAX } else { (1u64 << N) - 1 };
    for cycle in 0..cycles {
        let reset = cycle == 0 || rng.gen_bool(0.005);
        if rng.gen_bool(0.06) {
            halt = !halt;
            if halt && issued.is_none() && low_for >= S as u64 {
                issued = Some(cycle);
            }
        }
        low_for = if halt { 0 } else { low_for + 1 };
        let cmd = UnitCommand {
            halt,
            reset: rng.gen_bool(0.05),
            resume: rng.gen_bool(0.05),
        };
        let lr = if rng.gen_bool(0.1) {
            rng.gen::<u64>() & mask
        } else {
            0
        };
        let lm = if rng.gen_bool(0.1) {
            rng.gen::<u64>() & mask
        } else {
            0
        };
        h.uut.reset.next = reset;
        h.uut.cmd_halt.next = cmd.halt;
        h.uut.cmd_reset.next = cmd.reset;
        h.uut.cmd_resume.next = cmd.resume;
        h.uut.line_reset.next = bits::<N>(lr);
        h.uut.line_resume.next = bits::<N>(lm);
        h.settle().map_err(|e| e.to_string())?;
        let want = model.output().to_vec();
        let u = &h.uut;
        let (gh, gr, gm) = (
            u.unit_halt.val().to_u64(),
            u.unit_reset.val().to_u64(),
            u.unit_resume.val().to_u64(),
        );
        for (i, w) in want.iter().enumerate() {
            let got = UnitCommand {
                halt: gh & (1 << i) != 0,
                reset: gr & (1 << i) != 0,
                resume: gm & (1 << i) != 0,
            };
            if got != *w {
                return Err(format!(
                    "cycle {}: unit {} receives {:?}, the model {:?}",
                    cycle, i, got, w
                ));
            }
        }
        if u.unit_reset_broadcast.val() != model.broadcast_reset() {
            return Err(format!(
                "cycle {}: unit_reset_broadcast {}, the model {}",
                cycle,
                u.unit_reset_broadcast.val(),
                model.broadcast_reset()
            ));
        }
        if let Some(c) = issued {
            if gh & 1 != 0 {
                run.halt_latency.push((c, cycle));
                issued = None;
            }
        }
        model.clock(cmd, lr, lm, reset);
        h.step().map_err(|e| e.to_string())?;
        if reset {
            issued = None;
            low_for = 0;
        }
    }
    run.ports = finish_waves(h, out, command_groups)?;
    Ok(run)
}

/// The GTKWave groups of a command tree VCD (`vars` from the VCD).
fn command_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let t = "command_tree";
    vec![
        Group::new("control").sigs(t, &["clock", "reset"], vars),
        Group::new("front end").sigs(
            t,
            &[
                "cmd_halt",
                "cmd_reset",
                "cmd_resume",
                "line_reset",
                "line_resume",
            ],
            vars,
        ),
        Group::new("units").sigs(
            t,
            &[
                "unit_halt",
                "unit_reset",
                "unit_resume",
                "unit_reset_broadcast",
            ],
            vars,
        ),
    ]
}
