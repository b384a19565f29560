//! The run's trace events, written only when the run was given a trace.
use crate::scenario::RunError;
use crate::trace::TraceWriter;

/// Where a run's events go, if anywhere.
pub struct Tracer<'t>(pub Option<&'t mut TraceWriter>);

impl Tracer<'_> {
    /// Write `event` of `cycle`; `fields` is built only when there is a trace.
    pub fn ev(
        &mut self,
        cycle: u64,
        event: &str,
        fields: impl FnOnce() -> serde_json::Value,
    ) -> Result<(), RunError> {
        if let Some(t) = self.0.as_deref_mut() {
            t.event(cycle, event, fields())?;
        }
        Ok(())
    }
}
