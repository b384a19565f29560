//! VCD recording through the `vcd` crate (SPEC X-3): real signal names and widths, one scope per
//! sub-block (rust-hdl's block tree), timescale 1 ns, strictly increasing timestamps, a value
//! written only when it changes. The file is written as `<name>.part` beside its path and
//! renamed into place when the recording ends, so a VCD on disk is always whole (a GTKWave
//! reload, or a checker reading the folder while another simulation writes, never sees half of
//! one); a recording cut short (dropped without [`VcdRecorder::finish`], e.g. by a panic) is
//! still moved into place with what it has.
use rust_hdl::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The VCD file, shared so that it can be flushed (`vcd::Writer` does not give it back).
#[derive(Clone)]
struct SharedFile(Rc<RefCell<BufWriter<File>>>);

impl Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

enum Slot {
    Bits(vcd::IdCode, u32),
    Text(vcd::IdCode),
    Fields(Vec<Slot>),
}

/// Writes one VCD file while a [`crate::harness::Harness`] runs.
pub struct VcdRecorder {
    writer: vcd::Writer<SharedFile>,
    file: SharedFile,
    /// One slot per atom, in the order `Block::accept` visits them (stable for a block).
    slots: Vec<Slot>,
    last: Vec<Option<VCDValue>>,
    last_time: Option<u64>,
    error: Option<io::Error>,
    /// The file being written (`path` with `.part` added) and where it goes when done.
    part: PathBuf,
    path: PathBuf,
    /// Moved into place already.
    landed: bool,
}

struct Header<'a> {
    writer: &'a mut vcd::Writer<SharedFile>,
    slots: Vec<Slot>,
    top: &'a str,
    error: Option<io::Error>,
}

fn register(writer: &mut vcd::Writer<SharedFile>, name: &str, kind: &TypeKind) -> io::Result<Slot> {
    Ok(match kind {
        TypeKind::Bits(w) | TypeKind::Signed(w) => {
            Slot::Bits(writer.add_wire(*w as u32, name)?, *w as u32)
        }
        TypeKind::Enum(_) => Slot::Text(writer.add_var(vcd::VarType::String, 1, name, None)?),
        TypeKind::Composite(fields) => {
            let mut slots = vec![];
            for f in fields {
                slots.push(register(
                    writer,
                    &format!("{}${}", name, f.fieldname),
                    &f.kind.kind,
                )?);
            }
            Slot::Fields(slots)
        }
    })
}

impl Header<'_> {
    fn run(&mut self, f: impl FnOnce(&mut vcd::Writer<SharedFile>) -> io::Result<()>) {
        if self.error.is_none() {
            if let Err(e) = f(self.writer) {
                self.error = Some(e);
            }
        }
    }
}

impl Probe for Header<'_> {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        let name = if name == "uut" {
            self.top.to_string()
        } else {
            name.to_string()
        };
        self.run(|w| w.add_module(&name));
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        let name = name.to_string();
        self.run(|w| w.add_module(&name));
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.error.is_some() {
            return;
        }
        match register(self.writer, name, &signal.descriptor().kind) {
            Ok(slot) => self.slots.push(slot),
            Err(e) => self.error = Some(e),
        }
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.run(|w| w.upscope());
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.run(|w| w.upscope());
    }
}

struct Sampler<'a> {
    rec: &'a mut VcdRecorder,
    index: usize,
    changes: Vec<(usize, VCDValue)>,
}

impl Probe for Sampler<'_> {
    fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
        let v = signal.vcd();
        let i = self.index;
        self.index += 1;
        if self
            .rec
            .last
            .get(i)
            .map(|l| l.as_ref() != Some(&v))
            .unwrap_or(false)
        {
            self.changes.push((i, v));
        }
    }
}

fn write_value(w: &mut vcd::Writer<SharedFile>, slot: &Slot, v: &VCDValue) -> io::Result<()> {
    match (slot, v) {
        (Slot::Bits(id, 1), VCDValue::Single(s)) => w.change_scalar(*id, *s),
        (Slot::Bits(id, 1), VCDValue::Vector(b)) if b.len() == 1 => w.change_scalar(*id, b[0]),
        (Slot::Bits(id, _), VCDValue::Vector(b)) => w.change_vector(*id, b),
        (Slot::Bits(id, _), VCDValue::Single(s)) => w.change_vector(*id, &[*s]),
        (Slot::Text(id), VCDValue::String(s)) => w.change_string(*id, s),
        (Slot::Fields(slots), VCDValue::Composite(vals)) => {
            for (s, v) in slots.iter().zip(vals.iter()) {
                write_value(w, s, v)?;
            }
            Ok(())
        }
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "VCD value does not match its type",
        )),
    }
}

impl VcdRecorder {
    /// Create `path` (and its folder) and write the header for `uut`; `top` names the top scope.
    pub fn create(path: &Path, top: &str, uut: &dyn Block) -> io::Result<Self> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)?;
            }
        }
        let mut part = path.as_os_str().to_owned();
        part.push(".part");
        let part = PathBuf::from(part);
        let file = SharedFile(Rc::new(RefCell::new(BufWriter::new(File::create(&part)?))));
        let mut writer = vcd::Writer::new(file.clone());
        writer.version(concat!("ppu-rtl ", env!("CARGO_PKG_VERSION")))?;
        writer.timescale(1, vcd::TimescaleUnit::NS)?;
        let mut header = Header {
            writer: &mut writer,
            slots: vec![],
            top,
            error: None,
        };
        uut.accept("uut", &mut header);
        if let Some(e) = header.error {
            return Err(e);
        }
        let slots = header.slots;
        writer.enddefinitions()?;
        let n = slots.len();
        Ok(VcdRecorder {
            writer,
            file,
            slots,
            last: vec![None; n],
            last_time: None,
            error: None,
            part,
            path: path.to_path_buf(),
            landed: false,
        })
    }

    /// Record every changed value at time `t` (ns). Times must increase; a repeated time is
    /// ignored.
    pub fn sample(&mut self, t: u64, uut: &dyn Block) {
        if self.error.is_some() || self.last_time.map(|l| t <= l).unwrap_or(false) {
            return;
        }
        let first = self.last_time.is_none();
        let mut sampler = Sampler {
            rec: self,
            index: 0,
            changes: vec![],
        };
        uut.accept("uut", &mut sampler);
        let changes = sampler.changes;
        if changes.is_empty() && !first {
            return;
        }
        let res = (|| -> io::Result<()> {
            self.writer.timestamp(t)?;
            for (i, v) in changes {
                write_value(&mut self.writer, &self.slots[i], &v)?;
                self.last[i] = Some(v);
            }
            Ok(())
        })();
        self.last_time = Some(t);
        if let Err(e) = res {
            self.error = Some(e);
        }
    }

    /// Write the final timestamp and flush.
    pub fn finish(mut self, t_end: u64) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.last_time.map(|l| t_end > l).unwrap_or(true) {
            self.writer.timestamp(t_end)?;
        }
        self.land()
    }

    /// Flush and move the `.part` file into place (once).
    fn land(&mut self) -> io::Result<()> {
        if self.landed {
            return Ok(());
        }
        self.landed = true;
        self.file.flush()?;
        std::fs::rename(&self.part, &self.path)
    }
}

impl Drop for VcdRecorder {
    fn drop(&mut self) {
        let _ = self.land();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording(dir: &Path) -> (PathBuf, PathBuf, DFF<Bits<4>>) {
        let _ = std::fs::remove_dir_all(dir);
        let path = dir.join("dff.vcd");
        let part = dir.join("dff.vcd.part");
        let mut dff = DFF::<Bits<4>>::default();
        dff.connect_all();
        (path, part, dff)
    }

    /// a VCD appears whole or not at all: `.part` while recording, renamed by `finish`.
    #[test]
    fn x3_a_vcd_is_written_beside_its_path_and_moved_into_place_when_finished() {
        let dir = crate::work_root().join("target").join("vcd-writer-finish");
        let (path, part, mut dff) = recording(&dir);
        let mut rec = VcdRecorder::create(&path, "dff", &dff).unwrap();
        for t in 0..4u64 {
            dff.d.next = bits::<4>(t);
            rec.sample(t * 10, &dff);
        }
        assert!(
            part.is_file() && !path.exists(),
            "the path exists while recording"
        );
        rec.finish(40).unwrap();
        assert!(path.is_file() && !part.exists());
        let s = crate::vcd::checker::check_vcd(&path).unwrap();
        assert!(s.vars.iter().any(|(p, w)| p == "dff.d" && *w == 4));
    }

    /// A recording dropped without `finish` (a panic, an error) still lands what it has.
    #[test]
    fn x3_a_recording_cut_short_is_moved_into_place_with_what_it_has() {
        let dir = crate::work_root().join("target").join("vcd-writer-drop");
        let (path, part, dff) = recording(&dir);
        let mut rec = VcdRecorder::create(&path, "dff", &dff).unwrap();
        rec.sample(0, &dff);
        drop(rec);
        assert!(path.is_file() && !part.exists());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("$enddefinitions"), "{}", text);
    }
}
