//! Render a VCD waveform to SVG (`ppu waves --render IN.vcd --svg OUT.svg`): one row per
//! signal, one-bit signals as logic levels, buses as value segments labelled in hex. Used for
//! the README's picture; the VCD is parsed with the `vcd` crate, drawn with `plotters`.
use crate::vcd::checker::collect;
use plotters::prelude::*;
use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

struct Trace {
    name: String,
    width: u32,
    /// (time, value as bits MSB first)
    changes: Vec<(u64, String)>,
}

fn bits_to_hex(bits: &str) -> String {
    if bits.chars().any(|c| c != '0' && c != '1') {
        return "x".into();
    }
    let v = u128::from_str_radix(bits, 2).unwrap_or(0);
    format!("{:x}", v)
}

/// The signals to draw: `signals` by full path, or the top scope's first 20.
fn choose_signals(
    vars: &[(String, u32, vcd::IdCode)],
    signals: &[String],
    vcd_path: &Path,
) -> Result<Vec<(String, u32, vcd::IdCode)>, String> {
    let chosen: Vec<(String, u32, vcd::IdCode)> = if signals.is_empty() {
        vars.iter()
            .filter(|(n, _, _)| n.matches('.').count() == 1)
            .take(20)
            .cloned()
            .collect()
    } else {
        let mut v = vec![];
        for s in signals {
            let found = vars.iter().find(|(n, _, _)| n == s).ok_or_else(|| {
                format!(
                    "{}: no signal `{}` in {}",
                    "--signals",
                    s,
                    vcd_path.display()
                )
            })?;
            v.push(found.clone());
        }
        v
    };
    if chosen.is_empty() {
        return Err(format!("{}: no signals to draw", vcd_path.display()));
    }
    Ok(chosen)
}

/// The value changes of `chosen` up to `limit`; returns them with the last time read.
fn read_changes<R: std::io::BufRead>(
    parser: vcd::Parser<R>,
    chosen: &[(String, u32, vcd::IdCode)],
    limit: u64,
    vcd_path: &Path,
) -> Result<(Vec<Trace>, u64), String> {
    let mut traces: Vec<Trace> = chosen
        .iter()
        .map(|(n, w, _)| Trace {
            name: n.clone(),
            width: *w,
            changes: vec![],
        })
        .collect();
    let index: HashMap<vcd::IdCode, usize> = chosen
        .iter()
        .enumerate()
        .map(|(i, (_, _, c))| (*c, i))
        .collect();
    let mut now = 0u64;
    for cmd in parser {
        let cmd =
            cmd.map_err(|e| format!("{}: not a valid VCD file: {}", vcd_path.display(), e))?;
        let (id, val) = match cmd {
            vcd::Command::Timestamp(t) => {
                now = t;
                if now > limit {
                    break;
                }
                continue;
            }
            vcd::Command::ChangeScalar(id, v) => (id, v.to_string()),
            vcd::Command::ChangeVector(id, v) => (id, v.iter().map(|b| b.to_string()).collect()),
            _ => continue,
        };
        if let Some(&i) = index.get(&id) {
            traces[i].changes.push((now, val));
        }
    }
    Ok((traces, now))
}

/// Render `signals` (full paths; empty: the top scope's signals, at most 20) of `vcd_path`
/// from time `from` (ns, default 0) up to time `until` into `svg_path`.
pub fn render_file(
    vcd_path: &Path,
    svg_path: &Path,
    signals: &[String],
    from: Option<u64>,
    until: Option<u64>,
) -> Result<(), String> {
    if let (Some(f), Some(u)) = (from, until) {
        if f >= u {
            return Err(format!(
                "--from {} is not before --until {}: nothing to draw",
                f, u
            ));
        }
    }
    let f = File::open(vcd_path).map_err(|e| format!("{}: {}", vcd_path.display(), e))?;
    let mut parser = vcd::Parser::new(BufReader::new(f));
    let header = parser
        .parse_header()
        .map_err(|e| format!("{}: not a valid VCD file: {}", vcd_path.display(), e))?;
    let mut vars = vec![];
    collect(&header.items, "", &mut vars);
    let chosen = choose_signals(&vars, signals, vcd_path)?;
    let limit = until.unwrap_or(u64::MAX);
    let (traces, now) = read_changes(parser, &chosen, limit, vcd_path)?;
    if let Some(f) = from.filter(|&f| f >= now.max(1)) {
        return Err(format!(
            "--from {} is not before the last time in {} ({} ns): nothing to draw",
            f,
            vcd_path.display(),
            now
        ));
    }
    let end = if until.is_some() { limit.min(now) } else { now }.max(1);
    let start = from.unwrap_or(0).min(end - 1);
    draw(svg_path, &traces, start, end)
}

/// Draw `traces` between `start` and `end` into `svg_path`.
fn draw(svg_path: &Path, traces: &[Trace], start: u64, end: u64) -> Result<(), String> {
    let (name_w, plot_w, row_h) = (220i32, 1000i32, 28i32);
    let height = row_h * traces.len() as i32 + 40;
    let root = SVGBackend::new(svg_path, ((name_w + plot_w + 20) as u32, height as u32))
        .into_drawing_area();
    let e = |x: &dyn std::fmt::Display| format!("{}: {}", svg_path.display(), x);
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let span = (end - start) as f64;
    let xs =
        |t: u64| name_w + (((t.clamp(start, end) - start) as f64 / span) * plot_w as f64) as i32;
    let font = ("monospace", 13).into_font();
    let green = RGBColor(0, 120, 0);
    for (r, tr) in traces.iter().enumerate() {
        let y0 = 20 + r as i32 * row_h;
        let (hi, lo) = (y0 + 4, y0 + row_h - 6);
        let label = tr.name.split('.').skip(1).collect::<Vec<_>>().join(".");
        root.draw(&Text::new(
            if label.is_empty() {
                tr.name.clone()
            } else {
                label
            },
            (6, y0 + 8),
            font.clone(),
        ))
        .map_err(|x| e(&x))?;
        let mut segs: Vec<(u64, u64, String)> = vec![];
        for (i, (t, v)) in tr.changes.iter().enumerate() {
            let t_next = tr.changes.get(i + 1).map(|c| c.0).unwrap_or(end);
            if *t < end && t_next > start {
                segs.push(((*t).max(start), t_next, v.clone()));
            }
        }
        if tr.width == 1 {
            let mut pts = vec![];
            for (t0, t1, v) in &segs {
                let y = if v == "1" { hi } else { lo };
                pts.push((xs(*t0), y));
                pts.push((xs(*t1), y));
            }
            root.draw(&PathElement::new(pts, green.stroke_width(2)))
                .map_err(|x| e(&x))?;
        } else {
            for (t0, t1, v) in &segs {
                let (a, b) = (xs(*t0), xs(*t1));
                let m = (hi + lo) / 2;
                let d = 3.min((b - a) / 2);
                let shape = vec![
                    (a, m),
                    (a + d, hi),
                    (b - d, hi),
                    (b, m),
                    (b - d, lo),
                    (a + d, lo),
                    (a, m),
                ];
                root.draw(&PathElement::new(shape, green.stroke_width(1)))
                    .map_err(|x| e(&x))?;
                let text = bits_to_hex(v);
                if (b - a) as usize > 8 * text.len() + 6 {
                    root.draw(&Text::new(text, (a + 5, m - 6), font.clone()))
                        .map_err(|x| e(&x))?;
                }
            }
        }
    }
    root.draw(&Text::new(
        format!("{} .. {} ns", start, end),
        (name_w, height - 16),
        font,
    ))
    .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}
