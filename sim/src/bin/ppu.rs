//! `ppu` — the ppu-rtl command line (SPEC ).
//!
//! With no subcommand: run every mechanism's built-in scenario, write `waves/`, export the
//! Verilog to `synth/verilog/` and print a summary table.
use clap::{Args, Parser, Subcommand};
use ppu_sim::bench::{self, BenchOptions};
use ppu_sim::eda::{export, synth};
use ppu_sim::registry;
use ppu_sim::scenario::{self, RunError, RunOptions};
use ppu_sim::vcd::svg as wave_svg;
use ppu_sim::verilator::Engine;
use ppu_sim::work_root;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ppu",
    version,
    about = "ppu-rtl: GPU pipeline-control mechanisms as rust-hdl RTL — simulate, trace, export, synthesize"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run a mechanism's system simulation: a built-in scenario (`ppu run stream-out`) or a
    /// JSON scenario file (`ppu run --scenario FILE.json`).
    Run(RunArgs),
    /// Run a benchmark or experiment and write docs/results/<name>.md (`ppu bench --list`).
    Bench(BenchArgs),
    /// Export every unit (or the named ones) to synth/verilog/<unit>.v.
    Export(ExportArgs),
    /// Synthesize every exported unit (or the named ones) for iCE40 HX8K and ECP5-85F; write
    /// (or update the rows of) synth/REPORT.md.
    Synth(SynthArgs),
    /// Prove every unit's formal properties (or the named units'), each against its mutant;
    /// write (or update the rows of) synth/FORMAL.md.
    Formal(FormalArgs),
    /// Write every testbench's canonical waves/<name>.vcd and .gtkw, or render a VCD to SVG.
    Waves(WavesArgs),
}

#[derive(Args)]
struct RunArgs {
    /// Built-in scenario of this unit (stream-out, status-fsm, status-system, work-queue,
    /// barrier, primitive-attributes).
    unit: Option<String>,
    /// Scenario file (JSON, SPEC X-5).
    #[arg(long, conflicts_with = "unit")]
    scenario: Option<PathBuf>,
    /// Write the JSON Lines trace here.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Write a VCD of the RTL here, and its GTKWave save file beside it (the same name with
    /// .gtkw).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// Random seed (latencies drawn from ranges, distributions).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the built-in scenario's JSON instead of running it.
    #[arg(long, conflicts_with_all = ["scenario", "trace", "vcd"])]
    print: bool,
    /// The engine that runs the RTL: `harness` (rust-hdl, the default, writes waves) or
    /// `verilator` (the exported Verilog under Verilator, built once and cached under target/).
    #[arg(long, default_value = "harness", value_parser = parse_engine)]
    engine: Engine,
}

#[derive(Args)]
struct BenchArgs {
    /// Benchmark name (see --list).
    name: Option<String>,
    /// List the benchmarks.
    #[arg(long)]
    list: bool,
    /// Shorter runs (results are printed, not written to docs/results).
    #[arg(long)]
    quick: bool,
    /// Folder for results (default docs/results).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The engine that runs the RTL of the system simulations (`harness` or `verilator`).
    #[arg(long, default_value = "harness", value_parser = parse_engine)]
    engine: Engine,
}

#[derive(Args)]
struct ExportArgs {
    /// Units to export (default: all).
    units: Vec<String>,
    /// Output folder (default synth/verilog).
    #[arg(long)]
    out: Option<PathBuf>,
    /// List the units.
    #[arg(long)]
    list: bool,
}

#[derive(Args)]
struct FormalArgs {
    /// Units to prove (default: all with properties).
    units: Vec<String>,
    /// Report file (default synth/FORMAL.md).
    #[arg(long)]
    report: Option<PathBuf>,
}

#[derive(Args)]
struct SynthArgs {
    /// Units to synthesize (default: all).
    units: Vec<String>,
    /// Report file (default synth/REPORT.md).
    #[arg(long)]
    report: Option<PathBuf>,
    /// Also place and route each unit with these seeds (comma-separated, e.g. 1,2,3) and print
    /// the Fmax spread; the report's rows stay at seed 1.
    #[arg(long, value_delimiter = ',')]
    seeds: Vec<u64>,
}

#[derive(Args)]
struct WavesArgs {
    /// Output folder (default waves/).
    #[arg(long, conflicts_with = "render")]
    dir: Option<PathBuf>,
    /// Render this VCD to SVG instead (with --svg).
    #[arg(long, requires = "svg")]
    render: Option<PathBuf>,
    /// SVG output of --render.
    #[arg(long, requires = "render")]
    svg: Option<PathBuf>,
    /// Signals to draw with --render (full paths `scope.sub.name`; default: the top scope's).
    #[arg(long, value_delimiter = ',', requires = "render")]
    signals: Vec<String>,
    /// First time (ns) drawn with --render.
    #[arg(long, requires = "render")]
    from: Option<u64>,
    /// Last time (ns) drawn with --render.
    #[arg(long, requires = "render")]
    until: Option<u64>,
}

/// `println!` that returns a [`Failure`] instead of panicking when standard output cannot be
/// written: a full disk is an output error (exit 1, X-5); a reader that went away (`ppu ... |
/// head`) ends the command quietly, as other command-line tools do.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err(stdout_failure)?
    }};
}

fn stdout_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return Failure {
            code: 1,
            message: String::new(),
        };
    }
    fail(1, format!("cannot write output: standard output: {}", e))
}

/// A failure of a subcommand with its exit status.
struct Failure {
    code: u8,
    message: String,
}

impl From<RunError> for Failure {
    fn from(e: RunError) -> Self {
        Failure {
            code: e.exit_code() as u8,
            message: e.to_string(),
        }
    }
}

fn fail(code: u8, message: impl Into<String>) -> Failure {
    Failure {
        code,
        message: message.into(),
    }
}

fn progress_wanted() -> bool {
    std::io::stderr().is_terminal()
}

fn print_summary(rows: &[(String, String, String)]) -> Result<(), Failure> {
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(6).max(6);
    say!(
        "{:<w0$}  {:<w1$}  {}",
        "what",
        "status",
        "figures",
        w0 = w0,
        w1 = w1
    );
    say!("{}  {}  {}", "-".repeat(w0), "-".repeat(w1), "-".repeat(40));
    for (a, b, c) in rows {
        say!("{:<w0$}  {:<w1$}  {}", a, b, c, w0 = w0, w1 = w1);
    }
    Ok(())
}

fn figures(s: &scenario::RunSummary) -> String {
    let mut parts = vec![format!("cycles={}", s.cycles)];
    parts.extend(s.figures.iter().map(|(k, v)| format!("{}={}", k, v)));
    parts.join("  ")
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    Engine::parse(s)
}

/// The engine can run here, and is not asked for waves it cannot write (exit 2 otherwise).
fn check_engine(engine: Engine, vcd: bool) -> Result<(), Failure> {
    engine.available().map_err(|e| fail(2, e))?;
    if engine == Engine::Verilator && vcd {
        return Err(fail(2, ppu_sim::harness::VCD_NEEDS_HARNESS));
    }
    Ok(())
}

/// `path` made absolute and its folder resolved (the file itself need not exist yet), so that
/// two spellings of one file compare equal.
fn resolved(path: &std::path::Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or(abs.clone()),
        _ => abs,
    }
}

/// The files a run reads and writes are different files (exit 2 otherwise, before anything is
/// written): the trace, the VCD and the GTKWave save file written beside the VCD (its name with
/// `.gtkw`), and none of them the scenario.
fn check_run_paths(a: &RunArgs) -> Result<(), Failure> {
    // (what, the path as given, the path resolved)
    let mut outputs: Vec<(&str, PathBuf, PathBuf)> = vec![];
    let mut add = |what, path: PathBuf| {
        let r = resolved(&path);
        outputs.push((what, path, r));
    };
    if let Some(t) = &a.trace {
        add("--trace", t.clone());
    }
    if let Some(v) = &a.vcd {
        add("--vcd", v.clone());
        add("the save file of --vcd", v.with_extension("gtkw"));
    }
    let scenario = a.scenario.as_ref().map(|s| (s, resolved(s)));
    for (i, (what, path, path_r)) in outputs.iter().enumerate() {
        if let Some((scenario, _)) = scenario.as_ref().filter(|(_, s)| s == path_r) {
            return Err(fail(
                2,
                format!(
                    "{} {} would overwrite the scenario {}",
                    what,
                    path.display(),
                    scenario.display()
                ),
            ));
        }
        for (other, _, other_r) in &outputs[..i] {
            if other_r == path_r {
                return Err(fail(
                    2,
                    format!(
                        "{} and {} are the same file {} (the VCD's save file is its name with \
                         .gtkw)",
                        other,
                        what,
                        path.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn cmd_run(a: RunArgs) -> Result<(), Failure> {
    if !a.print {
        check_engine(a.engine, a.vcd.is_some())?;
        check_run_paths(&a)?;
    }
    let opts = RunOptions {
        trace: a.trace,
        vcd: a.vcd,
        seed: a.seed,
        progress: progress_wanted(),
        engine: a.engine,
    };
    let summary = if let Some(path) = a.scenario {
        registry::run_file(&path, &opts)?
    } else {
        let Some(unit) = a.unit else {
            return Err(fail(
                2,
                "name a unit (`ppu run stream-out`) or give --scenario FILE",
            ));
        };
        let mech = registry::scenario_runners()
            .into_iter()
            .find(|m| m.unit == unit)
            .ok_or_else(|| {
                let known: Vec<&str> = registry::scenario_runners()
                    .iter()
                    .map(|m| m.unit)
                    .collect();
                fail(
                    2,
                    format!(
                        "no built-in scenario for `{}` (available: {})",
                        unit,
                        known.join(", ")
                    ),
                )
            })?;
        let value = (mech.builtin)();
        if a.print {
            say!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
            return Ok(());
        }
        registry::run_value(&value, &opts)?
    };
    print_summary(&[(summary.unit.clone(), "ok".into(), figures(&summary))])?;
    Ok(())
}

fn cmd_bench(a: BenchArgs) -> Result<(), Failure> {
    let all = registry::benches();
    if a.list || a.name.is_none() {
        for b in &all {
            say!("{:<14} {}", b.name, b.about);
        }
        return Ok(());
    }
    let name = a.name.unwrap_or_default();
    let b = all.iter().find(|b| b.name == name).ok_or_else(|| {
        let known: Vec<&str> = all.iter().map(|b| b.name).collect();
        fail(
            2,
            format!("no benchmark `{}` (available: {})", name, known.join(", ")),
        )
    })?;
    check_engine(a.engine, false)?;
    let mut opts = BenchOptions {
        quick: a.quick,
        progress: progress_wanted(),
        engine: a.engine,
        ..Default::default()
    };
    if let Some(o) = a.out {
        opts.out_dir = o;
    }
    check_out_dir(&opts.out_dir)?;
    // The README quotes the result pages in docs/results: a run writing elsewhere (`--out`)
    // leaves it alone.
    let default_out = opts.out_dir == BenchOptions::default().out_dir;
    let report = ppu_sim::verilator::with_engine(opts.engine, || (b.run)(&opts))?;
    say!("{}", report.markdown);
    if !opts.quick && default_out {
        let key = format!("results/{}", b.name);
        if bench::update_readme(&key, &bench::quotable(&report.markdown))
            .map_err(|e| fail(1, format!("README.md: {}", e)))?
        {
            say!("updated the README's {} table", key);
        }
    }
    for f in report.files {
        say!("wrote {}", f.display());
    }
    Ok(())
}

fn check_units(names: &[String]) -> Result<(), Failure> {
    for n in names {
        if registry::unit(n).is_none() {
            let known: Vec<&str> = registry::units().iter().map(|u| u.name).collect();
            return Err(fail(
                2,
                format!("no unit `{}` (available: {})", n, known.join(", ")),
            ));
        }
    }
    Ok(())
}

/// An output folder that exists as something else than a folder (exit 1, before any work).
fn check_out_dir(dir: &std::path::Path) -> Result<(), Failure> {
    if dir.exists() && !dir.is_dir() {
        return Err(fail(
            1,
            format!("{}: is a file, not a folder", dir.display()),
        ));
    }
    Ok(())
}

fn cmd_export(a: ExportArgs) -> Result<(), Failure> {
    if a.list {
        for u in registry::units() {
            say!("{:<20} {:<12} {}", u.name, u.mechanism, u.summary);
        }
        return Ok(());
    }
    check_units(&a.units)?;
    let dir = a
        .out
        .unwrap_or_else(|| work_root().join("synth").join("verilog"));
    check_out_dir(&dir)?;
    let files = export::write_all(&dir, &registry::units(), &a.units)
        .map_err(|e| fail(1, format!("{}: {}", dir.display(), e)))?;
    for f in files {
        say!("wrote {}", f.display());
    }
    Ok(())
}

fn cmd_synth(a: SynthArgs) -> Result<(), Failure> {
    check_units(&a.units)?;
    let default_report = a.report.is_none();
    let report = a
        .report
        .unwrap_or_else(|| work_root().join("synth").join("REPORT.md"));
    let run = synth::synthesize_all(registry::units(), &a.units, progress_wanted(), &a.seeds)
        .map_err(|e| fail(1, e))?;
    let rows = run.rows;
    if let Some(dir) = report.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| fail(1, format!("{}: {}", dir.display(), e)))?;
    }
    let old = std::fs::read_to_string(&report).unwrap_or_default();
    let units = registry::units();
    let order: Vec<&str> = units.iter().map(|u| u.name).collect();
    // Rows kept from a report written with other tools keep that run's figures: say so.
    if let Some(before) = synth::tools_in_report(&old) {
        let kept = synth::units_in_report(&old)
            .into_iter()
            .filter(|u| !rows.iter().any(|r| &r.unit == u))
            .count();
        if before != run.tools && kept > 0 {
            eprintln!(
                "note: {} rows kept from {} were measured with other tools ({}); this run used {}",
                kept,
                report.display(),
                before,
                run.tools
            );
        }
    }
    let text = synth::merge_report(&old, &rows, &order, &run.tools);
    std::fs::write(&report, &text).map_err(|e| fail(1, format!("{}: {}", report.display(), e)))?;
    if default_report {
        // The README quotes the per-unit table; the timing notes' tables stay in the report.
        let unit_table = bench::tables(&text).into_iter().next().unwrap_or_default();
        bench::update_readme("synth", &unit_table)
            .map_err(|e| fail(1, format!("README.md: {}", e)))?;
    }
    say!("{}", text);
    say!("wrote {}", report.display());
    let sweep = synth::sweep_markdown(&rows);
    if !sweep.is_empty() {
        say!(
            "\nPlacement seeds (Fmax in MHz; the report keeps seed 1):\n\n{}",
            sweep
        );
    }
    Ok(())
}

fn cmd_formal(a: FormalArgs) -> Result<(), Failure> {
    use ppu_sim::eda::formal;
    formal::tools_available().map_err(|e| fail(2, e))?;
    let checks = registry::formal_checks();
    for u in &a.units {
        if !checks.iter().any(|c| c.unit == u) {
            let mut known: Vec<&str> = checks.iter().map(|c| c.unit).collect();
            known.dedup();
            return Err(fail(
                2,
                format!(
                    "no formal properties for `{}` (units with properties: {})",
                    u,
                    known.join(", ")
                ),
            ));
        }
    }
    let chosen: Vec<_> = checks
        .iter()
        .filter(|c| a.units.is_empty() || a.units.iter().any(|u| u == c.unit))
        .collect();
    let n: usize = chosen.iter().map(|c| c.properties.len()).sum();
    let pb = ppu_sim::progress::bar(chosen.len() as u64, "formal", progress_wanted());
    // Checks and their properties are independent runs: one per core (rayon), the results in
    // the registry's order.
    use rayon::prelude::*;
    pb.set_message(format!("{} properties, one per core", n));
    let per_check: Vec<Result<Vec<formal::FormalResult>, String>> = chosen
        .par_iter()
        .map(|c| {
            let r = formal::run_check(c);
            pb.inc(1);
            r
        })
        .collect();
    pb.finish_and_clear();
    let mut results = vec![];
    for r in per_check {
        results.extend(r.map_err(|e| fail(1, e))?);
    }
    let report = a
        .report
        .unwrap_or_else(|| work_root().join("synth").join("FORMAL.md"));
    if let Some(dir) = report.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| fail(1, format!("{}: {}", dir.display(), e)))?;
    }
    let old = std::fs::read_to_string(&report).unwrap_or_default();
    let units = registry::units();
    let order: Vec<&str> = units.iter().map(|u| u.name).collect();
    let text = formal::merge_report(&old, &results, &order);
    std::fs::write(&report, &text).map_err(|e| fail(1, format!("{}: {}", report.display(), e)))?;
    say!("{}", formal::report_rows(&results).join("\n"));
    say!("wrote {} ({} properties)", report.display(), n);
    let bad: Vec<String> = results
        .iter()
        .filter(|r| !r.passed || r.mutant_caught.is_none())
        .map(|r| format!("{} {} {}", r.unit, r.variant, r.property))
        .collect();
    if !bad.is_empty() {
        return Err(fail(
            1,
            format!("not proved, or mutant not caught: {}", bad.join(", ")),
        ));
    }
    Ok(())
}

fn cmd_waves(a: WavesArgs) -> Result<(), Failure> {
    if let (Some(vcd), Some(svg)) = (a.render, a.svg) {
        wave_svg::render_file(&vcd, &svg, &a.signals, a.from, a.until).map_err(|e| fail(2, e))?;
        say!("wrote {}", svg.display());
        return Ok(());
    }
    let dir = a.dir.unwrap_or_else(|| work_root().join("waves"));
    check_out_dir(&dir)?;
    let names = registry::write_waves(&dir).map_err(|e| fail(1, e))?;
    for n in names {
        say!("wrote {}/{}.vcd (+ .gtkw)", dir.display(), n);
    }
    Ok(())
}

/// No subcommand: every built-in scenario, waves, export; a summary table.
fn cmd_all() -> Result<(), Failure> {
    let mut rows = vec![];
    let mut worst = 0u8;
    let mechs = registry::scenario_runners();
    let pb = ppu_sim::progress::bar(mechs.len() as u64 + 2, "ppu", progress_wanted());
    for m in &mechs {
        pb.set_message(m.unit);
        let opts = RunOptions {
            seed: 1,
            ..Default::default()
        };
        match registry::run_value(&(m.builtin)(), &opts) {
            Ok(s) => rows.push((format!("run {}", m.unit), "ok".into(), figures(&s))),
            Err(e) => {
                worst = worst.max(e.exit_code() as u8);
                rows.push((format!("run {}", m.unit), "FAILED".into(), e.to_string()));
            }
        }
        pb.inc(1);
    }
    for u in scenario::SPEC_UNITS {
        if !mechs.iter().any(|m| m.unit == u) {
            rows.push((
                format!("run {}", u),
                "not built".into(),
                "not implemented yet".into(),
            ));
        }
    }
    pb.set_message("waves");
    let dir = work_root().join("waves");
    match registry::write_waves(&dir) {
        Ok(names) => rows.push((
            "waves".into(),
            "ok".into(),
            format!("{} VCD + .gtkw in {}", names.len(), dir.display()),
        )),
        Err(e) => {
            worst = worst.max(1);
            rows.push(("waves".into(), "FAILED".into(), e));
        }
    }
    pb.inc(1);
    pb.set_message("export");
    let vdir = work_root().join("synth").join("verilog");
    match export::write_all(&vdir, &registry::units(), &[]) {
        Ok(files) => rows.push((
            "export".into(),
            "ok".into(),
            format!("{} Verilog units in {}", files.len(), vdir.display()),
        )),
        Err(e) => {
            worst = worst.max(1);
            rows.push(("export".into(), "FAILED".into(), e.to_string()));
        }
    }
    pb.finish_and_clear();
    print_summary(&rows)?;
    say!(
        "\nOpen a waveform: gtkwave waves/stream_fifo.vcd waves/stream_fifo.gtkw\n\
         Synthesize: ppu synth   Experiments: ppu bench --list"
    );
    if worst > 0 {
        return Err(fail(worst, "some runs failed (see the table)"));
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => cmd_all(),
        Some(Command::Run(a)) => cmd_run(a),
        Some(Command::Bench(a)) => cmd_bench(a),
        Some(Command::Export(a)) => cmd_export(a),
        Some(Command::Synth(a)) => cmd_synth(a),
        Some(Command::Formal(a)) => cmd_formal(a),
        Some(Command::Waves(a)) => cmd_waves(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("ppu: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
