//! JSON Lines trace writer (SPEC X-5): one object per line with `cycle` and `event` first, in
//! the order events happen (cycles non-decreasing, checked), ending with
//! `{"event":"done","cycle":N,...}` carrying the summary figures.
use crate::scenario::{RunError, RunOptions};
use indicatif::ProgressBar;
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes trace events to a file and/or keeps them in memory (for tests and summaries).
pub struct TraceWriter {
    file: Option<BufWriter<File>>,
    keep: bool,
    events: Vec<Value>,
    last_cycle: u64,
    count: u64,
    /// A spinner showing the cycle the events have reached ([`TraceWriter::with_progress`]),
    /// and the events seen (it is moved every 256).
    progress: Option<ProgressBar>,
    seen: u64,
}

impl TraceWriter {
    /// A writer to `path` (none: events are only counted).
    pub fn create(path: Option<&Path>) -> Result<Self, RunError> {
        let file = match path {
            Some(p) => {
                Some(BufWriter::new(File::create(p).map_err(|e| {
                    RunError::Output(format!("{}: {}", p.display(), e))
                })?))
            }
            None => None,
        };
        Ok(TraceWriter {
            file,
            keep: false,
            events: vec![],
            last_cycle: 0,
            count: 0,
            progress: None,
            seen: 0,
        })
    }

    /// A `ppu run`'s writer: to `opts.trace` if given; with a spinner on stderr showing the
    /// simulated cycle when `opts.progress` (X-6: long runs show progress).
    pub fn for_run(opts: &RunOptions, unit: &str) -> Result<Self, RunError> {
        let w = TraceWriter::create(opts.trace.as_deref())?;
        Ok(if opts.progress {
            w.with_progress(crate::progress::spinner(unit))
        } else {
            w
        })
    }

    /// A writer that keeps every event in memory.
    pub fn memory() -> Self {
        TraceWriter {
            file: None,
            keep: true,
            events: vec![],
            last_cycle: 0,
            count: 0,
            progress: None,
            seen: 0,
        }
    }

    /// Show the cycle the run's events reach on `spinner` (cleared when the writer goes).
    pub fn with_progress(mut self, spinner: ProgressBar) -> Self {
        self.progress = Some(spinner);
        self
    }

    /// Also keep events in memory.
    pub fn keep_events(mut self) -> Self {
        self.keep = true;
        self
    }

    /// Record `event` at `cycle` with the fields of `fields` (a JSON object; other values are
    /// stored under `"value"`). A cycle lower than the previous event's is a violation.
    pub fn event(&mut self, cycle: u64, event: &str, fields: Value) -> Result<(), RunError> {
        if cycle < self.last_cycle {
            return Err(RunError::Violation(format!(
                "trace event `{}` at cycle {} after cycle {}",
                event, cycle, self.last_cycle
            )));
        }
        self.last_cycle = cycle;
        if let Some(pb) = self.progress.as_ref().filter(|_| self.seen % 256 == 0) {
            pb.set_position(cycle);
        }
        self.seen += 1;
        if self.file.is_none() && !self.keep {
            return Ok(());
        }
        let mut obj = Map::new();
        obj.insert("cycle".into(), cycle.into());
        obj.insert("event".into(), event.into());
        match fields {
            Value::Object(m) => {
                for (k, v) in m {
                    if k != "cycle" && k != "event" {
                        obj.insert(k, v);
                    }
                }
            }
            Value::Null => {}
            other => {
                obj.insert("value".into(), other);
            }
        }
        let v = Value::Object(obj);
        if let Some(f) = &mut self.file {
            serde_json::to_writer(&mut *f, &v).map_err(|e| RunError::Output(e.to_string()))?;
            f.write_all(b"\n")?;
        }
        if self.keep {
            self.events.push(v);
        }
        self.count += 1;
        Ok(())
    }

    /// Events written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Events kept in memory.
    pub fn events(&self) -> &[Value] {
        &self.events
    }

    /// Write the final `done` event and flush; returns the kept events.
    pub fn done(mut self, cycle: u64, summary: Value) -> Result<Vec<Value>, RunError> {
        self.event(cycle, "done", summary)?;
        if let Some(f) = &mut self.file {
            f.flush()?;
        }
        Ok(std::mem::take(&mut self.events))
    }
}

impl Drop for TraceWriter {
    fn drop(&mut self) {
        if let Some(pb) = &self.progress {
            pb.finish_and_clear();
        }
    }
}

/// Check a trace's ordering rules: every line an object with integer `cycle` and string
/// `event`, cycles non-decreasing, the last event `done`.
pub fn check_trace(events: &[Value]) -> Result<(), String> {
    let mut last = 0u64;
    for (i, e) in events.iter().enumerate() {
        let cycle = e
            .get("cycle")
            .and_then(Value::as_u64)
            .ok_or(format!("line {}: no cycle", i + 1))?;
        e.get("event")
            .and_then(Value::as_str)
            .ok_or(format!("line {}: no event", i + 1))?;
        if cycle < last {
            return Err(format!("line {}: cycle {} after {}", i + 1, cycle, last));
        }
        last = cycle;
    }
    match events
        .last()
        .and_then(|e| e.get("event"))
        .and_then(Value::as_str)
    {
        Some("done") => Ok(()),
        _ => Err("the trace does not end with a done event".into()),
    }
}

/// Read a JSON Lines trace file.
pub fn read_trace(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    text.lines()
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {}", i + 1, e)))
        .collect()
}

/// The names of a trace format's events, each with its exact set of fields (besides `cycle`
/// and `event`).
pub type EventFields = [(&'static str, &'static [&'static str])];

/// Read one trace line against a trace format: an object with a non-negative integer
/// `cycle`, a string `event` named in `format`, and exactly that event's fields. Returns the
/// cycle, the event name and the object. `section` names the format in messages.
pub fn event_fields<'a>(
    v: &'a Value,
    format: &EventFields,
    section: &str,
) -> Result<(u64, &'a str, &'a Map<String, Value>), String> {
    let o = v
        .as_object()
        .ok_or("an event must be a JSON object (X-5)")?;
    let cycle = o
        .get("cycle")
        .and_then(Value::as_u64)
        .ok_or("every event has a non-negative integer cycle (X-5)")?;
    let name = o
        .get("event")
        .and_then(Value::as_str)
        .ok_or("every event has a string event (X-5)")?;
    let fields = format
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("unknown event {:?} ({}, trace events)", name, section))?
        .1;
    if let Some(k) = o
        .keys()
        .find(|k| *k != "cycle" && *k != "event" && !fields.contains(&k.as_str()))
    {
        return Err(format!("event {} has an unknown field {:?}", name, k));
    }
    if let Some(k) = fields.iter().find(|k| !o.contains_key(**k)) {
        return Err(format!("event {} lacks the field {:?}", name, k));
    }
    Ok((cycle, name, o))
}

/// A field that must be a non-negative integer.
pub fn field_uint(o: &Map<String, Value>, k: &str) -> Result<u64, String> {
    o[k].as_u64()
        .ok_or_else(|| format!("field {} = {} is not a non-negative integer", k, o[k]))
}

/// A field holding an index below `limit` (X-5: indices are 0-based positions).
pub fn field_index(o: &Map<String, Value>, k: &str, limit: usize) -> Result<usize, String> {
    let v = field_uint(o, k)?;
    if v >= limit as u64 {
        return Err(format!("field {} = {} is out of range 0..{}", k, v, limit));
    }
    Ok(v as usize)
}
