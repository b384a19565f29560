//! SSYNC inside the cluster, watched: its request, second-request, response, commit and retire
//! traffic becomes trace events and feeds the [`SsyncScoreboard`], in dependency order
//! (request, second, response, overflow, retire).
use super::cluster::{viol, Cluster};
use super::plan::SysResult;
use crate::scenario::RunError;
use crate::stream_out::golden::SsyncScoreboard;
use crate::trace::TraceWriter;
use ppu_hdl::prelude::*;
use serde_json::json;

/// Cycle a request was current on arrival; `NOT_CURRENT` otherwise.
const NOT_CURRENT: u64 = u64::MAX;

/// The scoreboard and what each SO unit last asked for.
#[derive(Debug, Clone)]
pub struct SsyncWatch {
    pub sb: SsyncScoreboard,
    /// Per SO unit: (batch ID, task, arrival cycle if current on arrival) of its first request.
    asked: Vec<Option<(u16, u16, u64)>>,
}

impl SsyncWatch {
    pub fn new(sb: SsyncScoreboard, so_units: usize) -> SsyncWatch {
        SsyncWatch {
            sb,
            asked: vec![None; so_units],
        }
    }

    /// This cycle's SSYNC traffic; returns whether a request or response went.
    pub fn observe<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        cycle: u64,
        trace: &mut TraceWriter,
        res: &mut SysResult,
    ) -> Result<bool, RunError> {
        let mut progress = self.first(u, cycle, trace)?;
        progress |= self.second(u, cycle, trace)?;
        progress |= self.response(u, cycle, trace, res)?;
        self.commit(u, cycle, trace, res)?;
        self.retire(u, cycle, trace, res)?;
        Ok(progress)
    }

    fn first<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        cycle: u64,
        trace: &mut TraceWriter,
    ) -> Result<bool, RunError> {
        let s = &u.ssync;
        if !(s.first_valid.val() && s.first_ready.val()) {
            return Ok(false);
        }
        let f = FirstRequestFields::from_hw(s.first_data.val());
        let src = s.first_source.val().index();
        trace.event(
            cycle,
            "request",
            json!({"so_unit": src, "batch": f.batch_id, "task": f.task, "last": f.last}),
        )?;
        let current = s.op_active.val()
            && s.current_batch_id.val().index() as u16 == f.batch_id
            && s.current_task.val().index() as u16 == f.task;
        if let Some(a) = self.asked.get_mut(src) {
            let at = if current { cycle } else { NOT_CURRENT };
            *a = Some((f.batch_id, f.task, at));
        }
        Ok(true)
    }

    fn second<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        cycle: u64,
        trace: &mut TraceWriter,
    ) -> Result<bool, RunError> {
        let s = &u.ssync;
        if !(s.second_valid.val() && s.second_ready.val()) {
            return Ok(false);
        }
        let src = s.second_source.val().index();
        let sbbn = Msg128Fields::from_hw(s.second_data.val()).0;
        let Some((b, t, _)) = self.asked.get(src).copied().flatten() else {
            return Err(viol(
                cycle,
                format!("second request from SO unit {} without a first", src),
            ));
        };
        trace.event(
            cycle,
            "second",
            json!({"so_unit": src, "batch": b, "task": t, "sbbn": sbbn}),
        )?;
        self.sb.second(b, t, sbbn).map_err(|e| viol(cycle, e))?;
        Ok(true)
    }

    fn response<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        cycle: u64,
        trace: &mut TraceWriter,
        res: &mut SysResult,
    ) -> Result<bool, RunError> {
        let s = &u.ssync;
        if !(s.resp_valid.val() && s.resp_ready.val()) {
            return Ok(false);
        }
        let dest = s.resp_dest.val().index();
        let offsets = Msg128Fields::from_hw(s.resp_data.val()).0;
        let Some((b, t, c0)) = self.asked.get(dest).copied().flatten() else {
            return Err(viol(
                cycle,
                format!("response to SO unit {} which asked nothing", dest),
            ));
        };
        trace.event(
            cycle,
            "response",
            json!({"so_unit": dest, "batch": b, "task": t, "ssobo": offsets}),
        )?;
        self.sb
            .response(b, t, offsets)
            .map_err(|e| viol(cycle, e))?;
        if c0 != NOT_CURRENT {
            res.in_order_latency.push(cycle - c0);
        }
        res.responses += 1;
        res.first_response_cycle.get_or_insert(cycle);
        res.last_response_cycle = cycle;
        Ok(true)
    }

    fn commit<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        cycle: u64,
        trace: &mut TraceWriter,
        res: &mut SysResult,
    ) -> Result<(), RunError> {
        let s = &u.ssync;
        if !s.commit.val() {
            return Ok(());
        }
        let exp = self
            .sb
            .commit(s.commit_overflow.val())
            .map_err(|e| viol(cycle, e))?;
        if exp.overflow {
            trace.event(
                cycle,
                "overflow",
                json!({"batch": exp.batch_id, "task": exp.task}),
            )?;
            res.overflows += 1;
        }
        Ok(())
    }

    fn retire<const N: usize, const S: usize>(
        &mut self,
        u: &Cluster<N, S>,
        cycle: u64,
        trace: &mut TraceWriter,
        res: &mut SysResult,
    ) -> Result<(), RunError> {
        let s = &u.ssync;
        if !(s.retire_valid.val() && s.retire_ready.val()) {
            return Ok(());
        }
        let id = s.retire_batch_id.val().index() as u16;
        self.sb.retire(id).map_err(|e| viol(cycle, e))?;
        trace.event(cycle, "retire", json!({"batch": id}))?;
        res.retired += 1;
        Ok(())
    }
}
