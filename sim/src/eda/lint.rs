//! Verilator lint of exported Verilog (SPEC X-4): `verilator --lint-only -Wall`, with only the
//! waivers of the committed file `synth/verilator_waivers.vlt` (each with a one-line reason;
//! no width waivers).
use crate::eda;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The committed waiver file.
pub fn waiver_file() -> PathBuf {
    crate::repo_root()
        .join("synth")
        .join("verilator_waivers.vlt")
}

/// One Verilator warning: rule and the message line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintWarning {
    pub rule: String,
    pub line: String,
}

/// Rules waived in the waiver file; errors if a waiver has no reason comment above it or waives
/// a width rule.
pub fn waived_rules() -> Result<Vec<String>, String> {
    let path = waiver_file();
    let text = eda::read_text(&path)?;
    let mut rules = vec![];
    let mut reason = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("//") && line.len() > 3 {
            reason = true;
        } else if let Some(rest) = line.strip_prefix("lint_off") {
            let rule = rest
                .split_whitespace()
                .skip_while(|w| *w != "-rule")
                .nth(1)
                .ok_or_else(|| format!("{}: waiver without -rule: {}", path.display(), line))?
                .to_string();
            if !reason {
                return Err(format!(
                    "{}: waiver {} has no reason line",
                    path.display(),
                    rule
                ));
            }
            if rule.starts_with("WIDTH") {
                return Err(format!(
                    "{}: width warnings must not be waived",
                    path.display()
                ));
            }
            rules.push(rule);
            reason = false;
        }
    }
    Ok(rules)
}

/// Lint `file` (top module `top`) with the waiver file; returns the remaining warnings.
pub fn lint(verilator: &Path, file: &Path, top: &str) -> Result<Vec<LintWarning>, String> {
    let out = eda::run(
        Command::new(verilator)
            .arg("--lint-only")
            .arg("-Wall")
            .arg("-Wno-fatal")
            .arg("--top-module")
            .arg(top)
            .arg(waiver_file())
            .arg(file),
    )?;
    let text = String::from_utf8_lossy(&out.stderr);
    let mut warnings = vec![];
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("%Warning-") {
            let rule = rest.split(':').next().unwrap_or("").to_string();
            warnings.push(LintWarning {
                rule,
                line: line.to_string(),
            });
        } else if line.starts_with("%Error") {
            warnings.push(LintWarning {
                rule: "ERROR".into(),
                line: line.to_string(),
            });
        }
    }
    if !out.status.success() && warnings.is_empty() {
        return Err(format!("verilator failed on {}:\n{}", file.display(), text));
    }
    Ok(warnings)
}
