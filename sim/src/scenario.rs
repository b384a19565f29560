//! Scenario files and run results (SPEC X-5).
//!
//! A scenario is one JSON object `{"unit": "...", "config": {...}, ...}`; the remaining fields
//! belong to the unit (SPEC sections 2..6). Parsing is strict: unknown fields, wrong types and
//! out-of-range values are [`RunError::Invalid`] naming the field (`config.so_units`), which the
//! command line turns into exit status 2. A protocol violation or failed invariant found while
//! running is [`RunError::Violation`], exit status 1. Nothing here panics on any input.
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// Every `unit` the SPEC defines, in SPEC order.
pub const SPEC_UNITS: [&str; 6] = [
    "stream-out",
    "status-fsm",
    "status-system",
    "work-queue",
    "barrier",
    "primitive-attributes",
];

/// Why a run did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The scenario is invalid (exit 2): the message names the field and the reason.
    Invalid(String),
    /// A protocol violation or failed invariant during the run (exit 1).
    Violation(String),
    /// An output (trace, VCD) could not be written (exit 1).
    Output(String),
}

impl RunError {
    /// The process exit status of SPEC X-5.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Invalid(_) => 2,
            RunError::Violation(_) | RunError::Output(_) => 1,
        }
    }
    pub fn invalid(field: &str, reason: impl fmt::Display) -> Self {
        RunError::Invalid(format!("{}: {}", field, reason))
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Invalid(m) => write!(f, "invalid scenario: {}", m),
            RunError::Violation(m) => write!(f, "violation: {}", m),
            RunError::Output(m) => write!(f, "cannot write output: {}", m),
        }
    }
}

impl std::error::Error for RunError {}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> Self {
        RunError::Output(e.to_string())
    }
}

/// Options of one run (`ppu run`).
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub trace: Option<PathBuf>,
    pub vcd: Option<PathBuf>,
    pub seed: u64,
    /// Show progress bars (the command line sets it when stderr is a terminal).
    pub progress: bool,
    /// The engine that runs the RTL of a system simulation.
    pub engine: crate::verilator::Engine,
}

impl RunOptions {
    /// An output path that is a folder is an output error (exit 1, "cannot write output"), and
    /// so is one whose folder does not exist (the trace and the VCD alike: neither creates it).
    /// Each runner asks after validating its scenario (an invalid scenario is the error to
    /// report, exit 2) and before it opens an output (the testbenches would report a VCD they
    /// cannot open as a failed run).
    pub fn check_outputs(&self) -> Result<(), RunError> {
        for path in [&self.trace, &self.vcd].into_iter().flatten() {
            if path.is_dir() {
                return Err(RunError::Output(format!(
                    "{}: is a directory, not a file",
                    path.display()
                )));
            }
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                if !dir.is_dir() {
                    return Err(RunError::Output(format!(
                        "{}: the folder {} does not exist",
                        path.display(),
                        dir.display()
                    )));
                }
            }
        }
        Ok(())
    }
}

/// The summary of a finished run, printed as a table by the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunSummary {
    pub unit: String,
    pub cycles: u64,
    /// Named figures in display order, e.g. `("bytes/cycle", "12.5")`.
    pub figures: Vec<(String, String)>,
}

/// A scenario runner: the system simulation of one SPEC X-5 `unit`.
pub struct ScenarioRunner {
    /// The scenario `unit` it runs.
    pub unit: &'static str,
    /// The built-in scenario of `ppu run <unit>`.
    pub builtin: fn() -> Value,
    /// Validate and run a scenario (the whole JSON object).
    pub run: fn(&Value, &RunOptions) -> Result<RunSummary, RunError>,
}

/// Deserialize `value` strictly into `T` (use `#[serde(deny_unknown_fields)]` on `T`); errors
/// name the path of the offending field below `prefix`.
pub fn parse_as<T: DeserializeOwned>(value: &Value, prefix: &str) -> Result<T, RunError> {
    let result: Result<T, _> = serde_path_to_error::deserialize(value);
    result.map_err(|e| {
        let path = e.path().to_string();
        let reason = plain_reason(&e.inner().to_string());
        // A field missing from the scenario's top level: its path is `.`, so name the field
        // (below the top level the path names the object that lacks it, as serde does).
        let missing = reason
            .strip_prefix("missing field `")
            .and_then(|r| r.strip_suffix('`'));
        let path = match (path == "." && prefix.is_empty(), missing) {
            (true, Some(name)) => name.to_string(),
            _ => path,
        };
        let field = match (prefix.is_empty(), path == ".") {
            (true, _) => path,
            (false, true) => prefix.to_string(),
            (false, false) => format!("{}.{}", prefix, path),
        };
        RunError::invalid(&field, reason)
    })
}

/// Serde's reason in a user's words where it names a type the user did not write: an integer
/// too large for 64 bits reaches the deserializer as a float (`invalid type: floating point
/// `1e+23`, expected u8`), as does a number with a fraction.
fn plain_reason(reason: &str) -> String {
    let float = reason
        .strip_prefix("invalid type: floating point `")
        .and_then(|r| r.split_once("`, expected "));
    match float {
        Some((number, ty)) if ["u8", "u16", "u32", "u64", "usize"].contains(&ty) => format!(
            "{} is not a whole number from 0 to {} (too large, or with a fraction)",
            number,
            match ty {
                "u8" => u8::MAX as u64,
                "u16" => u16::MAX as u64,
                "u32" => u32::MAX as u64,
                _ => u64::MAX,
            }
        ),
        Some((number, ty)) if ["i8", "i16", "i32", "i64", "isize"].contains(&ty) => format!(
            "{} is not a whole number in the range of a signed {}-bit integer (too large, or \
             with a fraction)",
            number,
            ty.trim_start_matches('i').replace("size", "64")
        ),
        _ => reason.to_string(),
    }
}

/// No value of a scenario is `null` (SPEC X-5: a field is given with a value of its type, or
/// left out to take its default). Serde reads `null` as an absent optional field while the
/// golden checkers, written from the SPEC, refuse it: without this check a `null` ran and then
/// failed the trace check with exit 1 instead of exit 2. `path` is the value's own field path.
pub fn reject_nulls(value: &Value, path: &str) -> Result<(), RunError> {
    match value {
        Value::Null => Err(RunError::invalid(
            if path.is_empty() { "scenario" } else { path },
            "null is not a value here (leave an optional field out to take its default)",
        )),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| reject_nulls(v, &format!("{}[{}]", path, i))),
        Value::Object(fields) => fields
            .iter()
            .try_for_each(|(k, v)| reject_nulls(v, &member_path(path, k))),
        _ => Ok(()),
    }
}

/// The field path of member `name` of the object at `path` (`name` itself at the top).
fn member_path(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{}.{}", path, name)
    }
}

/// The `kind` of an internally tagged scenario object (a stream-out packet, a barrier command),
/// one of `kinds`. Such objects are parsed by their kind's own struct, strictly, so that an
/// error names its field below `field` (`packets[2].vertices`): serde's tagged enums buffer
/// their content and lose that path.
pub fn kind_of<'a>(value: &'a Value, field: &str, kinds: &[&str]) -> Result<&'a str, RunError> {
    let expected = || {
        kinds
            .iter()
            .map(|k| format!("\"{}\"", k))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let obj = value
        .as_object()
        .ok_or_else(|| RunError::invalid(field, "must be a JSON object"))?;
    let kind = obj.get("kind").ok_or_else(|| {
        RunError::invalid(
            field,
            format!("missing field `kind` (one of {})", expected()),
        )
    })?;
    match kind.as_str() {
        Some(k) if kinds.contains(&k) => Ok(k),
        _ => Err(RunError::invalid(
            &format!("{}.kind", field),
            format!("{} is not one of {}", kind, expected()),
        )),
    }
}

/// Every node that one of `patterns` reaches in `value` is a JSON object, else exit 2 naming it
/// below `prefix` (as [`parse_as`]): serde reads a JSON array positionally into a struct, so
/// `"config":[4,16,64,...]` ran as if it were the object. A pattern is field names and `[]`
/// (every element of an array), separated by dots: `"batches[].tasks[]"`. A missing node, or a
/// `[]` over a value that is not an array, is left to the strict parse, which names it.
pub fn require_objects(value: &Value, prefix: &str, patterns: &[&str]) -> Result<(), RunError> {
    patterns
        .iter()
        .try_for_each(|pattern| require_objects_at(value, prefix, pattern))
}

fn require_objects_at(value: &Value, prefix: &str, pattern: &str) -> Result<(), RunError> {
    let mut steps: Vec<Option<&str>> = vec![];
    for part in pattern.split('.') {
        match part.strip_suffix("[]") {
            Some(name) => {
                steps.push(Some(name));
                steps.push(None);
            }
            None => steps.push(Some(part)),
        }
    }
    fn walk(v: &Value, steps: &[Option<&str>], path: &str) -> Result<(), RunError> {
        match steps.split_first() {
            None if v.is_object() => Ok(()),
            None => Err(RunError::invalid(path, "must be a JSON object")),
            Some((Some(name), rest)) => match v.get(name) {
                Some(child) => walk(child, rest, &member_path(path, name)),
                None => Ok(()),
            },
            Some((None, rest)) => match v.as_array() {
                Some(items) => items
                    .iter()
                    .enumerate()
                    .try_for_each(|(i, item)| walk(item, rest, &format!("{}[{}]", path, i))),
                None => Ok(()),
            },
        }
    }
    walk(value, &steps, prefix)
}

/// The `unit` of a scenario object, checked against the SPEC's list.
pub fn unit_of(value: &Value) -> Result<&str, RunError> {
    let obj = value
        .as_object()
        .ok_or_else(|| RunError::invalid("scenario", "must be a JSON object"))?;
    let unit = obj
        .get("unit")
        .ok_or_else(|| RunError::invalid("unit", "missing (one of the SPEC X-5 units)"))?
        .as_str()
        .ok_or_else(|| RunError::invalid("unit", "must be a string"))?;
    if !SPEC_UNITS.contains(&unit) {
        return Err(RunError::invalid(
            "unit",
            format!(
                "unknown unit `{}` (expected one of {})",
                unit,
                SPEC_UNITS.join(", ")
            ),
        ));
    }
    Ok(unit)
}

/// Levels of `children` a work-queue scenario can nest within the JSON parser's depth limit
/// of 128 arrays and objects: the scenario object, `threads` and a top-level thread take three,
/// each level of `children` two more (3 + 2 x 62 = 127).
pub const MAX_CHILDREN_NESTING: usize = 62;

/// Read and parse a scenario file (without running it).
/// A file saved as UTF-8 with a byte-order mark (as some Windows editors do) is read as UTF-8;
/// one saved as UTF-16 (Windows PowerShell's `>`) is refused with a message that says so.
pub fn read(path: &Path) -> Result<Value, RunError> {
    let bytes =
        std::fs::read(path).map_err(|e| RunError::invalid(&path.display().to_string(), e))?;
    // A byte-order mark, or text whose every other byte is NUL (ASCII in UTF-16).
    let utf16 = bytes.starts_with(&[0xFF, 0xFE])
        || bytes.starts_with(&[0xFE, 0xFF])
        || (bytes.len() >= 4
            && ((bytes[1] == 0 && bytes[3] == 0 && bytes[0] != 0 && bytes[2] != 0)
                || (bytes[0] == 0 && bytes[2] == 0 && bytes[1] != 0 && bytes[3] != 0)));
    if utf16 {
        return Err(RunError::invalid(
            &path.display().to_string(),
            "the file is UTF-16; a scenario is UTF-8 JSON: save it as UTF-8 \
             (in PowerShell, `ppu ... | Out-File -Encoding utf8 FILE`)",
        ));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
    let text = String::from_utf8(bytes.to_vec()).map_err(|e| {
        RunError::invalid(
            &path.display().to_string(),
            format!("not UTF-8 text: {}", e.utf8_error()),
        )
    })?;
    let value = serde_json::from_str(&text).map_err(|e| {
        if e.to_string().starts_with("recursion limit exceeded") {
            // Valid JSON nested deeper than serde_json's 128 levels (it keeps the parser's
            // stack bounded): of the scenario formats only a work-queue thread tree gets
            // there, two levels per `children`.
            let wq = text.contains("\"work-queue\"");
            return RunError::invalid(
                &path.display().to_string(),
                format!(
                    "nested deeper than 128 arrays and objects at line {}, column {} (the \
                     parser's limit{})",
                    e.line(),
                    e.column(),
                    if wq {
                        format!(
                            "; a work-queue scenario's threads nest at most {} levels of \
                             `children`",
                            MAX_CHILDREN_NESTING
                        )
                    } else {
                        String::new()
                    }
                ),
            );
        }
        RunError::invalid(
            &path.display().to_string(),
            format!(
                "not valid JSON at line {}, column {}: {}",
                e.line(),
                e.column(),
                e
            ),
        )
    })?;
    if let Some(field) = first_duplicate_name(&text) {
        return Err(RunError::invalid(
            &field,
            "given twice (a JSON object's names must be unique; which one counts is undefined)",
        ));
    }
    Ok(value)
}

/// The path of the first object member whose name its object already has, in valid JSON
/// `text` (serde_json keeps the last one silently: `{"unit":"status-fsm",...,"unit":"x"}` ran
/// as unit `x`).
fn first_duplicate_name(text: &str) -> Option<String> {
    use serde::de::{DeserializeSeed, Error, MapAccess, SeqAccess, Visitor};
    use std::cell::RefCell;
    /// Visits a value at `path`; the first duplicate's path goes into `found`.
    struct Names<'a> {
        path: String,
        found: &'a RefCell<Option<String>>,
    }
    impl<'a> Names<'a> {
        fn at(&self, path: String) -> Names<'a> {
            Names {
                path,
                found: self.found,
            }
        }
    }
    impl<'de> DeserializeSeed<'de> for Names<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Names<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut i = 0;
            while seq
                .next_element_seed(self.at(format!("{}[{}]", self.path, i)))?
                .is_some()
            {
                i += 1;
            }
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(name) = map.next_key::<String>()? {
                let path = member_path(&self.path, &name);
                if !seen.insert(name) {
                    *self.found.borrow_mut() = Some(path);
                    return Err(A::Error::custom("duplicate name"));
                }
                map.next_value_seed(self.at(path))?;
            }
            Ok(())
        }
    }
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let _ = Names {
        path: String::new(),
        found: &found,
    }
    .deserialize(&mut de);
    found.into_inner()
}
