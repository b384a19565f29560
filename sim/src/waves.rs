//! `ppu waves`: every unit's canonical testbench run, writing `waves/<name>.vcd` and its
//! `waves/<name>.gtkw` save file.
use std::path::Path;

/// A producer of canonical waves: writes into the folder, returns the names written.
pub type WaveWriter = fn(&Path) -> Result<Vec<String>, String>;

/// Every wave producer of this build.
pub fn writers() -> Vec<(&'static str, WaveWriter)> {
    vec![
        (
            "foundation",
            crate::units::foundation::write_waves as WaveWriter,
        ),
        (
            "stream-out",
            crate::units::stream_out::write_waves as WaveWriter,
        ),
        ("status", crate::units::status::write_waves as WaveWriter),
    ]
}

/// Write all canonical waves into `dir`.
pub fn write_all(dir: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
    let mut names = vec![];
    for (_, w) in writers() {
        names.extend(w(dir)?);
    }
    Ok(names)
}
