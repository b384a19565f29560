//! The RTL of the system simulation: the [`Cluster`] instance, its violation outputs, its
//! GTKWave groups and the error of a failed check.
use crate::harness::NoConvergence;
use crate::scenario::RunError;
use crate::vcd::gtkw::Group;
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
