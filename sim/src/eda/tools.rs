//! External EDA tools (SPEC X-4): Icarus Verilog, Verilator, Yosys, nextpnr-ice40.
//!
//! A check that needs a missing tool is skipped with a printed reason, unless
//! `PPU_REQUIRE_EDA=1` is set (CI sets it), in which case the missing tool is an error.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `PPU_REQUIRE_EDA=1`: missing tools fail instead of skipping.
pub fn require_eda() -> bool {
    std::env::var("PPU_REQUIRE_EDA")
        .map(|v| v == "1")
        .unwrap_or(false)
}

/// The path of `tool` on `PATH`, if any.
pub fn find(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// What to do about a tool: use it, or skip (with the reason), or fail under PPU_REQUIRE_EDA=1.
#[derive(Debug)]
pub enum ToolCheck {
    Use(PathBuf),
    Skip(String),
}

/// Look `tool` up for `purpose`. Errors when missing under `PPU_REQUIRE_EDA=1`.
pub fn tool(tool: &str, purpose: &str) -> Result<ToolCheck, String> {
    match find(tool) {
        Some(p) => Ok(ToolCheck::Use(p)),
        None if require_eda() => Err(format!(
            "{} is required for {} (PPU_REQUIRE_EDA=1) but is not on PATH; install it with \
             `apt-get install {}`",
            tool,
            purpose,
            package_of(tool)
        )),
        None => Ok(ToolCheck::Skip(format!(
            "SKIP {}: {} not found on PATH (apt-get install {})",
            purpose,
            tool,
            package_of(tool)
        ))),
    }
}

/// For tests: the tool's path, or `None` after printing why the check is skipped; panics (the
/// test fails) when the tool is missing under `PPU_REQUIRE_EDA=1`.
pub fn tool_for_test(name: &str, purpose: &str) -> Option<PathBuf> {
    match tool(name, purpose) {
        Ok(ToolCheck::Use(p)) => Some(p),
        Ok(ToolCheck::Skip(why)) => {
            eprintln!("{}", why);
            None
        }
        Err(e) => panic!("{}", e),
    }
}

fn package_of(tool: &str) -> &'static str {
    match tool {
        "iverilog" | "vvp" => "iverilog",
        "verilator" => "verilator",
        "yosys" => "yosys",
        "nextpnr-ice40" => "nextpnr-ice40",
        _ => "the tool",
    }
}

/// A file's text, or a message naming the file.
pub fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), e))
}

/// Run a command, returning its output or a message naming the command.
pub fn run(cmd: &mut Command) -> Result<Output, String> {
    cmd.output()
        .map_err(|e| format!("could not run {:?}: {}", cmd.get_program(), e))
}

/// Run a command that must succeed; the error carries its stderr.
pub fn run_ok(cmd: &mut Command) -> Result<Output, String> {
    let out = run(cmd)?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!(
            "{:?} failed ({}):\n{}{}",
            cmd.get_program(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A fresh scratch folder under the target directory for one tool run (unique per call, also
/// across the threads of one test binary).
pub fn scratch_dir(label: &str) -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = crate::work_root().join("target").join("eda");
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = base.join(format!("{}-{}-{}", label, std::process::id(), n));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
