//! Testbench driver of [`StatusFsm`] (SPEC ST-1..ST-3): per-cycle input vectors, every output
//! checked every cycle against the ST-3 golden model of [`crate::status::golden`].
use crate::harness::PortTrace;
use crate::status::golden::{next_state, Flags, Inputs, State};
use crate::tb::{finish_waves, TbOutput};
use crate::vcd::gtkw::Group;
use crate::verilator::{PortMap, VerilatorTop};
use ppu_hdl::status::status_fsm::StatusFsm;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random input vectors for the FSM, biased so that every row of ST-3 is reached often:
/// rare resets, halt held in bursts, can_halt mostly high.
pub fn random_vectors(n: usize, seed: u64) -> Vec<Inputs> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut halt = false;
    (0..n)
        .map(|c| {
            if rng.gen_bool(0.08) {
                halt = !halt;
            }
            let mut p = |x: f64| rng.gen_bool(x);
            Inputs {
                reset: c == 0 || p(0.02),
                halt,
                resume: p(0.15),
                in_active: p(0.3),
                busy: p(0.25),
                out_valid: p(0.25),
                out_blocked: p(0.25),
                mem_pending: p(0.25),
                pending: p(0.25),
                nack: p(0.15),
                can_halt: p(0.7),
            }
        })
        .collect()
}

/// What [`run_status_fsm`] saw.
#[derive(Debug, Clone, Default)]
pub struct FsmRun {
    /// The state the RTL reports after each cycle's edge (read from its `status` output, not
    /// from the model).
    pub states: Vec<State>,
    /// The ST-3 row the golden model takes in each cycle.
    pub rows: Vec<usize>,
    pub ports: Option<PortTrace>,
}

fn set_fsm_inputs(u: &mut StatusFsm, i: &Inputs) {
    u.reset.next = i.reset;
    u.halt.next = i.halt;
    u.resume.next = i.resume;
    u.in_active.next = i.in_active;
    u.busy.next = i.busy;
    u.out_valid.next = i.out_valid;
    u.out_blocked.next = i.out_blocked;
    u.mem_pending.next = i.mem_pending;
    u.pending.next = i.pending;
    u.nack.next = i.nack;
    u.can_halt.next = i.can_halt;
}

/// Drive [`StatusFsm`] with `vectors` (one per cycle) and check, every cycle, its `status`
/// code and flags against the ST-3 golden model and its `violation` against its definition.
/// The model starts in EMPTY (the register's power-on value).
pub fn run_status_fsm(vectors: &[Inputs], out: &TbOutput) -> Result<FsmRun, String> {
    let mut h = crate::tb::system_harness(
        StatusFsm::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "status_fsm",
    )?;
    let mut state = State::Empty;
    let mut run = FsmRun::default();
    for (cycle, i) in vectors.iter().enumerate() {
        set_fsm_inputs(&mut h.uut, i);
        h.settle().map_err(|e| e.to_string())?;
        check_fsm_outputs(&h.uut, state, i).map_err(|e| format!("cycle {}: {}", cycle, e))?;
        let (row, next) = next_state(state, i);
        h.step().map_err(|e| e.to_string())?;
        state = next;
        let code = h.uut.status.val().to_u64();
        let rtl = State::from_code(code)
            .ok_or_else(|| format!("cycle {}: illegal status code {}", cycle, code))?;
        run.states.push(rtl);
        run.rows.push(row);
    }
    run.ports = finish_waves(h, out, fsm_groups)?;
    Ok(run)
}

/// Check one settled [`StatusFsm`] against the state the model says it is in.
pub fn check_fsm_outputs(u: &StatusFsm, state: State, i: &Inputs) -> Result<(), String> {
    let code = u.status.val().to_u64();
    if code != state.code() {
        return Err(format!(
            "status {} but the ST-3 model is in {} ({})",
            code,
            state,
            state.code()
        ));
    }
    let f = state.flags();
    let got = Flags {
        halted: u.halted.val(),
        empty: u.empty.val(),
        not_stalled: u.not_stalled.val(),
        not_quiescent: u.not_quiescent.val(),
    };
    if got != f {
        return Err(format!(
            "flags {:?} in state {}, expected {:?}",
            got, state, f
        ));
    }
    if u.violation.val() != (i.out_blocked && !i.out_valid) {
        return Err(format!("violation {} for {:?}", u.violation.val(), i));
    }
    Ok(())
}

/// The GTKWave groups of a status FSM VCD (`vars` from the VCD).
fn fsm_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let t = "status_fsm";
    vec![
        Group::new("control").sigs(t, &["clock", "reset", "halt", "resume", "can_halt"], vars),
        Group::new("unit activity").sigs(
            t,
            &[
                "in_active",
                "busy",
                "out_valid",
                "out_blocked",
                "mem_pending",
                "pending",
                "nack",
            ],
            vars,
        ),
        Group::new("status").sigs(
            t,
            &[
                "status",
                "halted",
                "empty",
                "not_stalled",
                "not_quiescent",
                "violation",
            ],
            vars,
        ),
    ]
}

/// Under the Verilator engine (`ppu run status-fsm --engine verilator`): every port.
impl VerilatorTop for StatusFsm {
    const TOP: &'static str = "status_fsm";
    /// Built from its type alone: every instance exports the same Verilog.
    fn same_verilog_key(&self) -> Option<String> {
        Some(String::new())
    }
    fn port_map() -> PortMap<Self> {
        let mut m = PortMap::<Self>::default();
        m.input("reset", |u| &mut u.reset)
            .input("halt", |u| &mut u.halt)
            .input("resume", |u| &mut u.resume)
            .input("in_active", |u| &mut u.in_active)
            .input("busy", |u| &mut u.busy)
            .input("out_valid", |u| &mut u.out_valid)
            .input("out_blocked", |u| &mut u.out_blocked)
            .input("mem_pending", |u| &mut u.mem_pending)
            .input("pending", |u| &mut u.pending)
            .input("nack", |u| &mut u.nack)
            .input("can_halt", |u| &mut u.can_halt);
        m.output("status", |u| &mut u.status)
            .output("halted", |u| &mut u.halted)
            .output("empty", |u| &mut u.empty)
            .output("not_stalled", |u| &mut u.not_stalled)
            .output("not_quiescent", |u| &mut u.not_quiescent)
            .output("violation", |u| &mut u.violation);
        m
    }
}
