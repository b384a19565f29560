//! placeholder until the golden model lands
pub fn check_trace(_s: &serde_json::Value, _e: &[serde_json::Value]) -> Result<(), String> { Ok(()) }
