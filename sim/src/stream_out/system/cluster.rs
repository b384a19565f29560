//! The RTL of the system simulation: the [`Cluster`] instance, its violation outputs, its
//! GTKWave groups and the error of a failed check.
use crate::harness::NoConvergence;
use crate::scenario::RunError;
use crate::vcd::gtkw::Group;
use crate::verilator::{PortMap, VerilatorTop};
use ppu_hdl::stream_out::so_cluster::SoCluster;

/// The simulated cluster: `N` SO units, operation FIFO of 8, 64 batch IDs in flight.
pub type Cluster<const N: usize, const S: usize> = SoCluster<N, S, 8, 3, 4, 64, 6>;

/// A failed check in `cycle`.
pub fn viol(cycle: u64, what: String) -> RunError {
    RunError::Violation(format!("cycle {}: {}", cycle, what))
}

/// A harness that did not settle.
pub fn to_err(e: NoConvergence) -> RunError {
    RunError::Violation(e.to_string())
}

/// The cluster's own bad-input detection (SO-13) must stay quiet.
pub fn check_violation<const N: usize, const S: usize>(
    u: &Cluster<N, S>,
    cycle: u64,
) -> Result<(), RunError> {
    if u.violation.val() {
        return Err(viol(
            cycle,
            format!(
                "RTL violation output (SSYNC code {}, batch-ID generator {}, crossbar {})",
                u.ssync.violation_code.val().index(),
                u.ids.violation.val(),
                u.xbar.violation.val()
            ),
        ));
    }
    Ok(())
}

/// `names(i)` for the first 4 SO units, as signal names.
fn per_unit(n: usize, names: impl Fn(usize) -> Vec<String>) -> Vec<String> {
    (0..n.min(4)).flat_map(names).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The GTKWave groups of the system waves (`waves/stream_out_system.vcd`).
pub fn waves_groups(n: usize, vars: &[(String, u32)]) -> Vec<Group> {
    let t = "stream_out";
    let so = per_unit(n, |i| {
        vec![format!("so${}.busy", i), format!("so${}.writing", i)]
    });
    let mem = per_unit(n, |i| {
        vec![
            format!("wr_valid${}", i),
            format!("wr_ready${}", i),
            format!("wr_offset${}", i),
        ]
    });
    vec![
        Group::new("WDU").sigs(
            t,
            &[
                "reset",
                "id_valid",
                "id_ready",
                "id_batch_id",
                "cmd_valid",
                "cmd_ready",
                "cmd_kind",
                "cmd_batch_id",
            ],
            vars,
        ),
        Group::new("SSYNC").sigs(
            t,
            &[
                "ssync.op_active",
                "ssync.current_batch_id",
                "ssync.current_task",
                "ssync.outstanding",
                "ssync.first_valid",
                "ssync.first_source",
                "ssync.second_valid",
                "ssync.second_source",
                "ssync.resp_valid",
                "ssync.resp_dest",
                "ssync.commit",
                "ssync.retire_valid",
                "ssync.retire_batch_id",
                "ssync.ssobo$lane0",
            ],
            vars,
        ),
        Group::new("SO units").sigs(t, &strs(&so), vars),
        Group::new("memory").sigs(t, &strs(&mem), vars),
    ]
}

/// Under the Verilator engine: every port of the cluster, SSYNC's ports (the scoreboard
/// watches them), the SO units' `busy` (the driver waits for idle) and the sub-blocks'
/// violation outputs (named in the error of a failed run).
impl<const N: usize, const S: usize> VerilatorTop for Cluster<N, S> {
    const TOP: &'static str = "so_cluster";
    /// Built from its type alone: every instance exports the same Verilog.
    fn same_verilog_key(&self) -> Option<String> {
        Some(String::new())
    }
    fn port_map() -> PortMap<Self> {
        let mut m = PortMap::<Self>::default();
        m.input("reset", |u| &mut u.reset)
            .input("bytes_per_cycle", |u| &mut u.bytes_per_cycle)
            .input("buffer_size", |u| &mut u.buffer_size)
            .input("id_ready", |u| &mut u.id_ready)
            .input("cmd_valid", |u| &mut u.cmd_valid)
            .input("cmd_kind", |u| &mut u.cmd_kind)
            .input("cmd_batch_id", |u| &mut u.cmd_batch_id)
            .input("cmd_offsets", |u| &mut u.cmd_offsets)
            .input("done_valid", |u| &mut u.done_valid)
            .input("done_batch_id", |u| &mut u.done_batch_id)
            .inputs("batch_valid", N, |u, i| &mut u.batch_valid[i])
            .inputs("batch_data", N, |u, i| &mut u.batch_data[i])
            .inputs("attr_valid", N, |u, i| &mut u.attr_valid[i])
            .inputs("attr_buffer", N, |u, i| &mut u.attr_buffer[i])
            .inputs("attr_bytes", N, |u, i| &mut u.attr_bytes[i])
            .inputs("end_valid", N, |u, i| &mut u.end_valid[i])
            .inputs("wr_ready", N, |u, i| &mut u.wr_ready[i]);
        m.output("id_valid", |u| &mut u.id_valid)
            .output("id_batch_id", |u| &mut u.id_batch_id)
            .output("cmd_ready", |u| &mut u.cmd_ready)
            .output("done_ready", |u| &mut u.done_ready)
            .outputs("batch_ready${}", N, |u, i| &mut u.batch_ready[i])
            .outputs("attr_ready${}", N, |u, i| &mut u.attr_ready[i])
            .outputs("end_ready${}", N, |u, i| &mut u.end_ready[i])
            .outputs("wr_valid${}", N, |u, i| &mut u.wr_valid[i])
            .outputs("wr_buffer${}", N, |u, i| &mut u.wr_buffer[i])
            .outputs("wr_offset${}", N, |u, i| &mut u.wr_offset[i])
            .outputs("wr_bytes${}", N, |u, i| &mut u.wr_bytes[i])
            .outputs("wr_index${}", N, |u, i| &mut u.wr_index[i])
            .outputs("wr_batch_id${}", N, |u, i| &mut u.wr_batch_id[i])
            .outputs("wr_task_number${}", N, |u, i| &mut u.wr_task_number[i])
            .output("violation", |u| &mut u.violation);
        m.output("ssync$first_valid", |u| &mut u.ssync.first_valid)
            .output("ssync$first_ready", |u| &mut u.ssync.first_ready)
            .output("ssync$first_data", |u| &mut u.ssync.first_data)
            .output("ssync$first_source", |u| &mut u.ssync.first_source)
            .output("ssync$second_valid", |u| &mut u.ssync.second_valid)
            .output("ssync$second_ready", |u| &mut u.ssync.second_ready)
            .output("ssync$second_data", |u| &mut u.ssync.second_data)
            .output("ssync$second_source", |u| &mut u.ssync.second_source)
            .output("ssync$resp_valid", |u| &mut u.ssync.resp_valid)
            .output("ssync$resp_ready", |u| &mut u.ssync.resp_ready)
            .output("ssync$resp_data", |u| &mut u.ssync.resp_data)
            .output("ssync$resp_dest", |u| &mut u.ssync.resp_dest)
            .output("ssync$retire_valid", |u| &mut u.ssync.retire_valid)
            .output("ssync$retire_ready", |u| &mut u.ssync.retire_ready)
            .output("ssync$retire_batch_id", |u| &mut u.ssync.retire_batch_id)
            .output("ssync$ssobo", |u| &mut u.ssync.ssobo)
            .output("ssync$current_batch_id", |u| &mut u.ssync.current_batch_id)
            .output("ssync$current_task", |u| &mut u.ssync.current_task)
            .output("ssync$op_active", |u| &mut u.ssync.op_active)
            .output("ssync$commit", |u| &mut u.ssync.commit)
            .output("ssync$commit_overflow", |u| &mut u.ssync.commit_overflow)
            .output("ssync$violation_code", |u| &mut u.ssync.violation_code)
            .output("ids$violation", |u| &mut u.ids.violation)
            .output("xbar$violation", |u| &mut u.xbar.violation)
            .outputs("so${}$busy", N, |u, i| &mut u.so[i].busy);
        m
    }
}
