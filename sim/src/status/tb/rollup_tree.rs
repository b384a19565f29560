//! Testbench driver of [`RollupTree`] (SPEC ST-4): random unit states, every connection and the
//! front-end ANDs checked every cycle against [`RollupModel`].
use crate::harness::PortTrace;
use crate::status::golden::{Flags, RollupModel, State};
use crate::tb::{finish_waves, harness, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::status::rollup_tree::RollupTree;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// What [`run_rollup_tree`] saw.
#[derive(Debug, Clone, Default)]
pub struct RollupRun {
    /// Cycles in which every unit was HALTED.
    pub all_halted_true: Vec<u64>,
    /// Cycles in which the tree's `all_halted` output was high (after the reset snapshot).
    pub all_halted_seen: Vec<u64>,
    /// Cycles with `reset` raised.
    pub resets: Vec<u64>,
    pub ports: Option<PortTrace>,
}

fn flag_vectors(states: &[State]) -> [u64; 4] {
    let mut v = [0u64; 4];
    for (i, s) in states.iter().enumerate() {
        let f = s.flags();
        for (k, b) in [f.halted, f.empty, f.not_stalled, f.not_quiescent]
            .into_iter()
            .enumerate()
        {
            if b {
                v[k] |= 1 << i;
            }
        }
    }
    v
}

/// Drive a [`RollupTree`] with random unit states (in phases where most units go HALTED, as in
/// a halt, so that "all halted" actually happens) and check every connection and the front-end
/// ANDs every cycle against [`RollupModel`].
pub fn run_rollup_tree<const N: usize, const G: usize, const S: usize>(
    chains: &[u64],
    cycles: u64,
    seed: u64,
    out: &TbOutput,
) -> Result<RollupRun, String> {
    let mut h = harness(
        RollupTree::<N, G, S>::new(chains),
        |u, c| u.clock.next = c.into(),
        out,
        "rollup_tree",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut model = RollupModel::new(chains, S);
    let mut states = vec![State::Empty; N];
    let mut halting = false;
    let mut run = RollupRun::default();
    for cycle in 0..cycles {
        let reset = cycle == 0 || rng.gen_bool(0.005);
        if rng.gen_bool(0.05) {
            halting = !halting;
        }
        for s in states.iter_mut() {
            if halting {
                if rng.gen_bool(0.3) {
                    *s = State::Halted;
                }
            } else if rng.gen_bool(0.2) {
                *s = State::ALL[rng.gen_range(0..5)];
            }
        }
        let v = flag_vectors(&states);
        h.uut.reset.next = reset;
        h.uut.halted_in.next = bits::<N>(v[0]);
        h.uut.empty_in.next = bits::<N>(v[1]);
        h.uut.not_stalled_in.next = bits::<N>(v[2]);
        h.uut.not_quiescent_in.next = bits::<N>(v[3]);
        h.settle().map_err(|e| e.to_string())?;
        let want = model.output().to_vec();
        let u = &h.uut;
        for (g, w) in want.iter().enumerate() {
            let got = Flags {
                halted: u.conn_halted[g].val(),
                empty: u.conn_empty[g].val(),
                not_stalled: u.conn_not_stalled[g].val(),
                not_quiescent: u.conn_not_quiescent[g].val(),
            };
            if got != *w {
                return Err(format!(
                    "cycle {}: connection {} shows {:?}, the model {:?}",
                    cycle, g, got, w
                ));
            }
        }
        let all = want.iter().fold(Flags::ONES, |a, f| a.and(*f));
        let got_all = Flags {
            halted: u.all_halted.val(),
            empty: u.all_empty.val(),
            not_stalled: u.none_stalled.val(),
            not_quiescent: u.none_quiescent.val(),
        };
        if got_all != all {
            return Err(format!(
                "cycle {}: front-end AND {:?}, the model {:?}",
                cycle, got_all, all
            ));
        }
        if states.iter().all(|s| *s == State::Halted) {
            run.all_halted_true.push(cycle);
        }
        if got_all.halted {
            run.all_halted_seen.push(cycle);
        }
        model.clock(&states.iter().map(|s| s.flags()).collect::<Vec<_>>(), reset);
        h.step().map_err(|e| e.to_string())?;
        if reset {
            run.resets.push(cycle);
            // The units are in reset too: the next cycle starts from EMPTY.
            states.iter_mut().for_each(|s| *s = State::Empty);
            run.all_halted_true.retain(|&c| c != cycle);
        }
    }
    run.ports = finish_waves(h, out, |vars| rollup_groups(vars, G))?;
    Ok(run)
}

/// The GTKWave groups of a roll-up tree VCD with `connections` connections (`vars` from the VCD).
fn rollup_groups(vars: &[(String, u32)], connections: usize) -> Vec<Group> {
    let t = "rollup_tree";
    let conns: Vec<String> = (0..connections.min(4))
        .map(|g| format!("conn_halted${}", g))
        .collect();
    let conns: Vec<&str> = conns.iter().map(String::as_str).collect();
    vec![
        Group::new("control").sigs(t, &["clock", "reset"], vars),
        Group::new("unit flags").sigs(
            t,
            &[
                "halted_in",
                "empty_in",
                "not_stalled_in",
                "not_quiescent_in",
            ],
            vars,
        ),
        Group::new("connections").sigs(t, &conns, vars),
        Group::new("front end").sigs(
            t,
            &["all_halted", "all_empty", "none_stalled", "none_quiescent"],
            vars,
        ),
    ]
}
