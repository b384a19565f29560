//! Placeholder until the golden model lands.
use serde_json::Value;
pub fn check_trace(_s: &Value, _t: &[Value]) -> Result<(), String> {
    Ok(())
}
