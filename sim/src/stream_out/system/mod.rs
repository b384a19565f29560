//! Stream-output system simulation (SPEC SO-1..SO-14): the RTL [`SoCluster`] (batch-ID
//! generator, SSYNC, crossbar, `SO_UNITS` SO units) stepped in the cycle harness, surrounded by
//! behavioural models:
//! - driver / WDU: walks the packet stream, takes a batch ID for every batch, sends work
//!   tokens and state bundles to SSYNC, dispatches streamed batch/tasks to their SO unit's MPC
//!   and other batches to the pipeline (which retires them after their latency, SO-2);
//! - MPC per SO unit: batch-ID packet, then once the shader's output is there the attribute
//!   bytes per buffer, then the batch-end packet;
//! - shaders: without a [`ShaderModel`] every batch/task has a shader of its own whose output is
//!   there its latency after dispatch (an ideal machine); with one, a fixed number of shaders,
//!   each computing one batch/task at a time and stalling while its bounded output buffer is
//!   full, the WDU dispatching only to a free shader (`shader.rs`);
//! - memory: the four stream output buffers behind a frame buffer that accepts at most
//!   `fb_bytes_per_cycle` bytes per cycle (SO units served round-robin).
//!
//! Reading (SO-3, SO-11): the driver sends an offset bundle only when every SO unit is idle
//! and no streamed batch/task is queued, as a driver that rebinds stream-output targets first
//! waits for idle. SSYNC applies the bundle between operations in stream order, but SO units
//! write in parallel: if the new offsets point back into bytes an earlier operation is still
//! writing, the two writes would land in no defined order and the buffers could differ from
//! driver order. (Seen with a random scenario, seed 422911, before this wait was added.) A
//! bundle sent inside an open operation takes effect when that operation ends (SO-3), so the
//! disable that ends it waits for idle too: the batches written at the new offsets start only
//! after the operation's own batches are written. (Seen with seed 658382, a frame buffer of 3
//! bytes per cycle, before that second wait.)
//!
//! Every run is checked against the golden model ([`super::golden`]): each response's offsets
//! and order, each second request's bytes, retire order, overflow decisions, the final SSOBOs
//! and the final contents of every buffer (SO-11). A mismatch is a [`RunError::Violation`].
//!
//! | file | what |
//! | --- | --- |
//! | `plan.rs` | [`Plan`] (the WDU's input and configuration), [`SysResult`] |
//! | `cluster.rs` | the RTL instance, its violation outputs, its waves |
//! | `wdu.rs` | driver / WDU |
//! | `mpc.rs` | MPC per SO unit |
//! | `shader.rs` | shaders and their output buffers |
//! | `memory.rs` | frame buffer and the four buffers |
//! | `watch.rs` | SSYNC's traffic: trace events and the [`SsyncScoreboard`] |
//!
//! [`SoCluster`]: ppu_hdl::stream_out::so_cluster::SoCluster
mod cluster;
mod memory;
mod mpc;
mod plan;
mod shader;
mod watch;
mod wdu;

use super::golden::SsyncScoreboard;
use crate::harness::{Harness, PortTrace};
use crate::scenario::RunError;
use crate::tb::{finish_waves, system_harness, TbOutput};
use crate::trace::TraceWriter;
use cluster::{check_violation, to_err, viol, Cluster};
use memory::{FrameBuffer, Part};
use mpc::Mpcs;
use ppu_hdl::prelude::*;
use rust_hdl::prelude::*;
use shader::Shaders;
use std::path::Path;
use watch::SsyncWatch;
use wdu::{Wdu, WduOffer};

pub use plan::{Plan, Step, SysResult, TaskPlan};
pub use shader::ShaderModel;

/// Run a plan, writing trace events to `trace` and (optionally) a VCD.
pub fn run_plan(
    plan: &Plan,
    trace: &mut TraceWriter,
    vcd: Option<&Path>,
) -> Result<SysResult, RunError> {
    let r = match plan.so_units {
        1 => simulate::<1, 1>(plan, trace, vcd, false),
        2 => simulate::<2, 1>(plan, trace, vcd, false),
        3..=4 => simulate::<4, 2>(plan, trace, vcd, false),
        5..=8 => simulate::<8, 3>(plan, trace, vcd, false),
        9..=16 => simulate::<16, 4>(plan, trace, vcd, false),
        n => Err(RunError::invalid(
            "config.so_units",
            format!("{} is not in 1..=16", n),
        )),
    };
    r.map(|(res, _)| res)
}

/// Run a plan on the 4-SO-unit cluster (the exported `so_cluster`) and record its ports every
/// cycle, for co-simulation of the exported Verilog.
pub fn run_plan_recording_ports(
    plan: &Plan,
    trace: &mut TraceWriter,
) -> Result<(SysResult, PortTrace), RunError> {
    if !(3..=4).contains(&plan.so_units) {
        return Err(RunError::invalid(
            "config.so_units",
            format!("{} is not 3 or 4 (the exported cluster)", plan.so_units),
        ));
    }
    let (res, ports) = simulate::<4, 2>(plan, trace, None, true)?;
    let ports = ports.ok_or_else(|| RunError::Output("no port trace".into()))?;
    Ok((res, ports))
}

fn simulate<const N: usize, const S: usize>(
    plan: &Plan,
    trace: &mut TraceWriter,
    vcd: Option<&Path>,
    record_ports: bool,
) -> Result<(SysResult, Option<PortTrace>), RunError> {
    let out = TbOutput {
        vcd,
        record_ports,
        engine: plan.engine,
    };
    let mut h = system_harness(
        Cluster::<N, S>::default(),
        |u, c| u.clock.next = c.into(),
        &out,
        "stream_out",
    )
    .map_err(RunError::Output)?;
    let mut sys = System::new(plan, N);
    for cycle in 0..plan.max_cycles {
        if sys.cycle(&mut h, cycle, trace)? {
            break;
        }
    }
    sys.finish(&h.uut)?;
    sys.res.shader_stall_cycles = sys.mpc.shaders.stall_cycles;
    let ports =
        finish_waves(h, &out, |vars| cluster::waves_groups(N, vars)).map_err(RunError::Output)?;
    Ok((sys.res, ports))
}

/// One system run: the behavioural models around the cluster and what was seen.
struct System<'a> {
    plan: &'a Plan,
    wdu: Wdu,
    mpc: Mpcs,
    fb: FrameBuffer,
    watch: SsyncWatch,
    res: SysResult,
    /// Cycles without progress, and cycles with everything finished.
    idle: u64,
    quiet: u64,
    /// Every SO unit idle and no streamed task queued (sampled at the end of the last cycle).
    so_idle: bool,
}

impl<'a> System<'a> {
    fn new(plan: &'a Plan, n: usize) -> Self {
        System {
            plan,
            wdu: Wdu::default(),
            // The shaders feed the scenario's SO units (`n` is the cluster's, a power of two
            // that can be larger).
            mpc: Mpcs::new(n, Shaders::new(plan.shaders, plan.so_units)),
            fb: FrameBuffer::new(plan, n),
            watch: SsyncWatch::new(SsyncScoreboard::new(plan.golden()), n),
            res: SysResult::default(),
            idle: 0,
            quiet: 0,
            so_idle: true,
        }
    }

    /// One clock cycle: drive, settle, grant memory, check, step. Returns `true` once
    /// everything has finished (and SSYNC had time to drain its operation FIFO).
    fn cycle<const N: usize, const S: usize>(
        &mut self,
        h: &mut Harness<Cluster<N, S>>,
        cycle: u64,
        trace: &mut TraceWriter,
    ) -> Result<bool, RunError> {
        let reset = cycle == 0;
        if !reset {
            self.mpc.shaders.tick(cycle);
        }
        let offer = self.wdu.offer(self.plan, cycle, self.so_idle, &self.mpc);
        self.drive(&mut h.uut, &offer, reset, cycle);
        h.settle().map_err(to_err)?;
        if reset {
            h.step().map_err(to_err)?;
            return Ok(false);
        }
        let parts = self.fb.grant(h)?;
        let progress = self.observe(&h.uut, &offer, &parts, cycle, trace)?;
        let finished = self.finished(&h.uut);
        h.step().map_err(to_err)?;
        self.res.cycles = cycle + 1;
        // Let SSYNC drain its operation FIFO (offset bundles after the last operation).
        self.quiet = if finished { self.quiet + 1 } else { 0 };
        if self.quiet > 24 {
            return Ok(true);
        }
        self.idle = if progress { 0 } else { self.idle + 1 };
        if self.idle > 200_000 {
            return Err(viol(
                cycle,
                "no progress for 200000 cycles (deadlock)".into(),
            ));
        }
        Ok(false)
    }

    fn drive<const N: usize, const S: usize>(
        &self,
        u: &mut Cluster<N, S>,
        offer: &WduOffer,
        reset: bool,
        cycle: u64,
    ) {
        u.reset.next = reset;
        u.bytes_per_cycle.next = bits::<32>(self.plan.so_bytes_per_cycle as u64);
        u.buffer_size.next = Msg128Fields(self.plan.buffer_bytes).to_hw();
        self.wdu.drive(u, offer);
        self.mpc.drive(u, reset, cycle);
        self.fb.drive(u);
    }

    /// Check one settled cycle; returns whether anything moved.
    fn observe<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        offer: &WduOffer,
        parts: &[Option<Part>; N],
        cycle: u64,
        trace: &mut TraceWriter,
    ) -> Result<bool, RunError> {
        check_violation(u, cycle)?;
        let res = &mut self.res;
        let mut progress = self
            .wdu
            .observe(u, offer, cycle, &mut self.mpc, trace, res)?;
        progress |= self.mpc.observe(u);
        progress |= self.watch.observe(u, cycle, trace, res)?;
        progress |= self.fb.write(u, parts, cycle, trace, res)?;
        Ok(progress)
    }

    /// Everything sent, written, answered and retired (and notes whether the SO units idle).
    fn finished<const N: usize, const S: usize>(&mut self, u: &Cluster<N, S>) -> bool {
        let busy = (0..N).any(|i| u.so[i].busy.val());
        self.so_idle = self.mpc.all_empty() && !busy;
        self.wdu.drained(self.plan)
            && self.so_idle
            && self.watch.sb.all_answered()
            && self.watch.sb.all_retired()
    }

    /// The end of the run: everything answered and retired, final SSOBOs and buffers golden.
    fn finish<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
    ) -> Result<(), RunError> {
        self.res.ssobo = Msg128Fields::from_hw(u.ssync.ssobo.val()).0;
        let sb = &self.watch.sb;
        if let Some(progress) = sb.unfinished() {
            return Err(RunError::Violation(format!(
                "not finished after {} cycles (config.max_cycles): {}",
                self.plan.max_cycles, progress
            )));
        }
        sb.final_ssobo(self.res.ssobo)
            .map_err(RunError::Violation)?;
        self.fb.check(sb.golden(), &self.res.bytes_written)
    }
}
