//! Crossbar testbench (SPEC SO-8, SO-9): random requests from 4 SO units towards SSYNC and
//! random responses back, against a model of the routing and its fairness.
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use ppu_hdl::stream_out::so_crossbar::SoCrossbar;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::path::Path;

/// Reference crossbar of the export: 4 SO units.
pub type RefCrossbar = SoCrossbar<4, 2>;

const N: usize = 4;

/// What a crossbar run saw.
#[derive(Debug, Clone, Default)]
pub struct XbarTbResult {
    pub firsts: u64,
    pub seconds: u64,
    pub responses: u64,
    pub ports: Option<PortTrace>,
}

/// The SO units and SSYNC around the crossbar: the message each unit offers, the messages
/// handed over to the crossbar and not yet passed to SSYNC (per unit, in order), sequence
/// numbers of first requests (sent and received), and how often a waiting unit was passed over.
#[derive(Debug)]
struct Traffic {
    firsts: [Option<FirstRequestFields>; N],
    seconds: [Option<[u32; 4]>; N],
    first_flight: [VecDeque<FirstRequestFields>; N],
    second_flight: [VecDeque<[u32; 4]>; N],
    seq: [u16; N],
    got_seq: [u16; N],
    /// Hand-overs to other units that each waiting unit has seen, per channel (first, second).
    wait: [[u32; N]; 2],
    first_out: ChannelMonitor<(usize, FirstRequest)>,
    second_out: ChannelMonitor<(usize, Msg128)>,
}

impl Default for Traffic {
    fn default() -> Self {
        Traffic {
            firsts: [None; N],
            seconds: [None; N],
            first_flight: std::array::from_fn(|_| VecDeque::new()),
            second_flight: std::array::from_fn(|_| VecDeque::new()),
            seq: [0; N],
            got_seq: [0; N],
            wait: [[0; N]; 2],
            first_out: ChannelMonitor::new("first"),
            second_out: ChannelMonitor::new("second"),
        }
    }
}

/// What SSYNC and the SO units do in one cycle.
struct Cycle {
    reset: bool,
    first_ready: bool,
    second_ready: bool,
    /// A response to this SO unit.
    resp: Option<usize>,
    so_ready: [bool; N],
    word: [u32; 4],
}

impl Traffic {
    /// New messages from idle units, then this cycle's readies and response.
    fn generate(&mut self, rng: &mut ChaCha8Rng, cycle: u64) -> Cycle {
        let reset = cycle == 0;
        for i in 0..N {
            if !reset && self.firsts[i].is_none() && rng.gen_bool(0.4) {
                self.firsts[i] = Some(FirstRequestFields {
                    batch_id: (self.seq[i] * 4 + i as u16) & 0x3fff,
                    task: rng.gen_range(0..1024),
                    last: rng.gen_bool(0.5),
                });
                self.seq[i] += 1;
            }
            if !reset && self.seconds[i].is_none() && rng.gen_bool(0.4) {
                self.seconds[i] = Some([i as u32, rng.gen(), rng.gen(), cycle as u32]);
            }
        }
        Cycle {
            reset,
            first_ready: !reset && rng.gen_bool(0.7),
            second_ready: !reset && rng.gen_bool(0.7),
            resp: (!reset && rng.gen_bool(0.5)).then(|| rng.gen_range(0..N)),
            so_ready: std::array::from_fn(|_| rng.gen_bool(0.6)),
            word: [rng.gen(), rng.gen(), rng.gen(), rng.gen()],
        }
    }

    fn drive(&self, u: &mut RefCrossbar, c: &Cycle) {
        u.reset.next = c.reset;
        for i in 0..N {
            u.so_first_valid[i].next = self.firsts[i].is_some();
            u.so_first_data[i].next = self.firsts[i].map(|f| f.to_hw()).unwrap_or_default();
            u.so_second_valid[i].next = self.seconds[i].is_some();
            u.so_second_data[i].next = self.seconds[i]
                .map(|s| Msg128Fields(s).to_hw())
                .unwrap_or_default();
            u.so_resp_ready[i].next = c.so_ready[i];
        }
        u.first_ready.next = c.first_ready;
        u.second_ready.next = c.second_ready;
        u.resp_valid.next = c.resp.is_some();
        u.resp_dest.next = bits::<2>(c.resp.unwrap_or(0) as u64);
        u.resp_data.next = Msg128Fields(c.word).to_hw();
    }

    /// The first request passed on to SSYNC: the oldest one its unit handed over, in per-unit
    /// order, held stable until SSYNC takes it.
    fn first(&mut self, u: &RefCrossbar, c: &Cycle, res: &mut XbarTbResult) -> Result<(), String> {
        let s = u.first_source.val().index();
        let fired = self.first_out.check(
            c.reset,
            u.first_valid.val(),
            c.first_ready,
            (s, u.first_data.val()),
        )?;
        if !u.first_valid.val() {
            return Ok(());
        }
        if self.first_flight[s].front().map(|f| f.to_hw()) != Some(u.first_data.val()) {
            return Err(format!(
                "first request from source {} that unit {} did not hand over (or out of order)",
                s, s
            ));
        }
        if fired {
            let f = FirstRequestFields::from_hw(u.first_data.val());
            if f.batch_id != (self.got_seq[s] * 4 + s as u16) & 0x3fff {
                return Err(format!("unit {}'s first requests out of order", s));
            }
            self.got_seq[s] += 1;
            self.first_flight[s].pop_front();
            res.firsts += 1;
        }
        Ok(())
    }

    /// The second request passed on to SSYNC: the oldest one its unit handed over.
    fn second(&mut self, u: &RefCrossbar, c: &Cycle, res: &mut XbarTbResult) -> Result<(), String> {
        let s = u.second_source.val().index();
        let fired = self.second_out.check(
            c.reset,
            u.second_valid.val(),
            c.second_ready,
            (s, u.second_data.val()),
        )?;
        if !u.second_valid.val() {
            return Ok(());
        }
        if self.second_flight[s]
            .front()
            .map(|x| Msg128Fields(*x).to_hw())
            != Some(u.second_data.val())
        {
            return Err(format!(
                "second request from source {} that unit {} did not hand over",
                s, s
            ));
        }
        if fired {
            self.second_flight[s].pop_front();
            res.seconds += 1;
        }
        Ok(())
    }

    /// Hand-overs (`so_*_ready[i]`): only to a unit that offers a message, which then leaves
    /// the unit; every other waiting unit was passed over once more; the crossbar holds at most
    /// one message per channel (its output register).
    fn handovers(&mut self, u: &RefCrossbar) -> Result<(), String> {
        for i in 0..N {
            if u.so_first_ready[i].val() {
                let f = self.firsts[i]
                    .take()
                    .ok_or(format!("so_first_ready[{}] without a request", i))?;
                self.first_flight[i].push_back(f);
                let pending = self.firsts.map(|f| f.is_some());
                passed_over(&mut self.wait[0], i, pending);
            }
            if u.so_second_ready[i].val() {
                let x = self.seconds[i]
                    .take()
                    .ok_or(format!("so_second_ready[{}] without a request", i))?;
                self.second_flight[i].push_back(x);
                let pending = self.seconds.map(|x| x.is_some());
                passed_over(&mut self.wait[1], i, pending);
            }
        }
        let firsts_held: usize = self.first_flight.iter().map(VecDeque::len).sum();
        let seconds_held: usize = self.second_flight.iter().map(VecDeque::len).sum();
        if firsts_held > 1 || seconds_held > 1 {
            return Err("the crossbar holds more than one message on a channel".into());
        }
        Ok(())
    }

    /// A reset empties the crossbar: the messages it held are gone.
    fn reset(&mut self) {
        for q in self.first_flight.iter_mut() {
            q.clear();
        }
        for q in self.second_flight.iter_mut() {
            q.clear();
        }
    }
}

/// After a transfer from `s`: every other unit still waiting was passed over once more.
fn passed_over(wait: &mut [u32; N], s: usize, pending: [bool; N]) {
    for (i, w) in wait.iter_mut().enumerate() {
        *w = if i == s || !pending[i] { 0 } else { *w + 1 };
    }
}

/// Responses reach exactly the addressed unit, intact, and take its ready.
fn responses(u: &RefCrossbar, c: &Cycle, res: &mut XbarTbResult) -> Result<(), String> {
    for i in 0..N {
        let want = c.resp == Some(i);
        if u.so_resp_valid[i].val() != want {
            return Err(format!(
                "so_resp_valid[{}] is {}",
                i,
                u.so_resp_valid[i].val()
            ));
        }
        if want && Msg128Fields::from_hw(u.so_resp_data[i].val()).0 != c.word {
            return Err(format!("response data to unit {} corrupted", i));
        }
    }
    if let Some(d) = c.resp {
        if u.resp_ready.val() != c.so_ready[d] {
            return Err("resp_ready is not the addressed unit's ready".into());
        }
        res.responses += c.so_ready[d] as u64;
    }
    Ok(())
}

/// Check one settled cycle (after reset).
fn check(
    u: &RefCrossbar,
    t: &mut Traffic,
    c: &Cycle,
    res: &mut XbarTbResult,
) -> Result<(), String> {
    if u.violation.val() {
        return Err("violation on good traffic".into());
    }
    t.first(u, c, res)?;
    t.second(u, c, res)?;
    t.handovers(u)?;
    if t.wait.iter().flatten().any(|&w| w > N as u32) {
        return Err("a waiting SO unit was passed over more than N times".into());
    }
    responses(u, c, res)
}

/// Drive [`RefCrossbar`] with random traffic from 4 SO units: every message handed over arrives
/// at SSYNC once, in per-unit order, with the right source index, from a channel that holds it
/// stable until taken; a waiting unit is taken within 4 hand-overs to others; responses
/// reach exactly the addressed unit and take its ready.
pub fn run_crossbar(seed: u64, cycles: u64, out: &TbOutput) -> Result<XbarTbResult, String> {
    let mut h = harness(
        RefCrossbar::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "so_crossbar",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut traffic = Traffic::default();
    let mut res = XbarTbResult::default();
    for cycle in 0..cycles {
        let c = traffic.generate(&mut rng, cycle);
        traffic.drive(&mut h.uut, &c);
        h.settle().map_err(|e| e.to_string())?;
        if c.reset {
            traffic.reset();
        } else {
            check(&h.uut, &mut traffic, &c, &mut res)
                .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        }
        h.step().map_err(|e| e.to_string())?;
    }
    res.ports = finish_waves(h, out, waves_groups)?;
    Ok(res)
}

/// The canonical waves `waves/so_crossbar.vcd` (+ `.gtkw`), the same whoever writes them (the
/// SO-9 test and `ppu waves`): 300 cycles of random traffic.
pub fn canonical_waves(vcd: &Path) -> Result<XbarTbResult, String> {
    let out = TbOutput {
        vcd: Some(vcd),
        record_ports: false,
        engine: crate::verilator::Engine::Harness,
    };
    run_crossbar(1, 300, &out)
}

/// The port-trace run of the co-simulation of [`RefCrossbar`].
pub fn cosim_run(out: &TbOutput) -> Result<XbarTbResult, String> {
    run_crossbar(7, 500, out)
}

/// The GTKWave groups of the crossbar waves.
fn waves_groups(vars: &[(String, u32)]) -> Vec<Group> {
    let t = "so_crossbar";
    vec![
        Group::new("control").sigs(t, &["clock", "reset", "violation"], vars),
        Group::new("first").sigs(
            t,
            &[
                "first_valid",
                "first_ready",
                "first_source",
                "first_data$batch_id",
            ],
            vars,
        ),
        Group::new("second").sigs(t, &["second_valid", "second_ready", "second_source"], vars),
        Group::new("response").sigs(t, &["resp_valid", "resp_ready", "resp_dest"], vars),
    ]
}
