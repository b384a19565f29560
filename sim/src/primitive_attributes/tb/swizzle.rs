//! Testbenches of the swizzle path (SPEC PA-5): [`SwizzleAdapter`] over register values, and
//! [`ViewportSwizzle`] with random table writes (packed and register layout, refused ones
//! included), random vertices (NaN payloads, -0.0, infinities among them), random gaps and
//! back-pressure; every output compared with the golden model's swizzle
//! ([`crate::primitive_attributes::golden::swizzle`], written from the requirements).
use super::super::golden::{swizzle, swizzle_from_register};
use crate::harness::PortTrace;
use crate::tb::{finish_waves, harness, ChannelMonitor, TbOutput};
use crate::vcd::gtkw::Group;
use ppu_hdl::primitive_attributes::item::{VertexPos, SWIZZLE_IDENTITY};
use ppu_hdl::primitive_attributes::swizzle_adapter::SwizzleAdapter;
use ppu_hdl::primitive_attributes::viewport_swizzle::ViewportSwizzle;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// Bit patterns a float datapath would get wrong: NaN payloads, -0.0, infinities, denormals.
pub const SPECIAL: [u32; 8] = [
    0x7fc0_0001,
    0x7f80_0001,
    0xffc0_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0001,
    0x3f80_0000,
];

/// Drive `registers` through the adapter (combinational), one per cycle, checking each
/// against the golden adapter. Returns how many had a reserved bit set.
pub fn run_adapter(
    registers: &[u16],
    out: &TbOutput,
) -> Result<(usize, Option<PortTrace>), String> {
    let mut h = harness(SwizzleAdapter::default(), |_, _| {}, out, "swizzle_adapter")?;
    let mut refused = 0;
    for &r in registers {
        h.uut.register_value.next = bits::<16>(r as u64);
        h.settle().map_err(|e| e.to_string())?;
        let (code, reserved) = (h.uut.code.val().index() as u16, h.uut.reserved_set.val());
        match swizzle_from_register(r as u32) {
            Ok(want) if !reserved && code == want => {}
            Err(_) if reserved => refused += 1,
            want => {
                return Err(format!(
                    "register 0x{:04x}: code 0x{:03x} reserved {}, the model says {:?}",
                    r, code, reserved, want
                ))
            }
        }
        h.step().map_err(|e| e.to_string())?;
    }
    let ports = finish_waves(h, out, |vars| {
        vec![Group::new("adapter").sigs(
            "swizzle_adapter",
            &["register_value", "code", "reserved_set"],
            vars,
        )]
    })?;
    Ok((refused, ports))
}

/// One item of the swizzle stimulus: a table write or a vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwizzleItem {
    /// (viewport, value, register format)
    Write(u8, u16, bool),
    /// (viewport, position bits, slot)
    Vertex(u8, [u32; 4], u8),
}

/// Random stimulus: about one write in eight (one in four of them in register format, some
/// with reserved bits), vertices with special bit patterns.
pub fn random_swizzle_items(rng: &mut ChaCha8Rng, n: usize) -> Vec<SwizzleItem> {
    (0..n)
        .map(|i| {
            if rng.gen_range(0..8) == 0 {
                let register = rng.gen_bool(0.25);
                let value = if register {
                    rng.gen::<u16>() & if rng.gen_bool(0.8) { 0x7777 } else { 0xFFFF }
                } else {
                    rng.gen_range(0..4096)
                };
                SwizzleItem::Write(rng.gen_range(0..16), value, register)
            } else {
                let mut v = [0u32; 4];
                for c in v.iter_mut() {
                    *c = if rng.gen_bool(0.3) {
                        SPECIAL[rng.gen_range(0..SPECIAL.len())]
                    } else {
                        rng.gen()
                    };
                }
                SwizzleItem::Vertex(rng.gen_range(0..16), v, i as u8)
            }
        })
        .collect()
}

/// What a run saw.
#[derive(Debug, Clone, Default)]
pub struct SwizzleRun {
    pub vertices: usize,
    pub refused_writes: usize,
    pub cycles: u64,
    pub ports: Option<PortTrace>,
}

/// Drive `items` in order (a write waits until every earlier vertex was taken, so the table a
/// vertex uses is the one of its position in the list); compare every output vertex with the
/// golden swizzle of the model table.
/// Long because it is the cycle loop: drive, settle, check both channels and the write error,
/// compare the vertex.
pub fn run_swizzle(
    items: &[SwizzleItem],
    valid_prob: f64,
    ready_prob: f64,
    seed: u64,
    out: &TbOutput,
) -> Result<SwizzleRun, String> {
    let mut h = harness(
        ViewportSwizzle::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "viewport_swizzle",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut table = [SWIZZLE_IDENTITY as u16; 16];
    let mut want = std::collections::VecDeque::new();
    let mut in_mon = ChannelMonitor::new("in");
    let mut out_mon = ChannelMonitor::new("out");
    let mut run = SwizzleRun::default();
    let total = items
        .iter()
        .filter(|i| matches!(i, SwizzleItem::Vertex(..)))
        .count();
    let mut next = 0;
    let mut offered = false;
    let mut cycle = 0u64;
    while run.vertices < total {
        cycle += 1;
        if cycle > 100 + 40 * items.len() as u64 {
            return Err(format!("{} of {} vertices", run.vertices, total));
        }
        let reset = cycle <= 2;
        let ready = !reset && rng.gen_bool(ready_prob);
        let item = items.get(next).copied();
        let u = &mut h.uut;
        u.reset.next = reset;
        u.cfg_valid.next = false;
        u.in_valid.next = false;
        match item {
            Some(SwizzleItem::Write(vp, value, register)) if !reset => {
                u.cfg_valid.next = true;
                u.cfg_viewport.next = bits::<4>(vp as u64);
                u.cfg_value.next = bits::<16>(value as u64);
                u.cfg_register_format.next = register;
            }
            Some(SwizzleItem::Vertex(vp, v, slot)) => {
                offered = !reset && (offered || rng.gen_bool(valid_prob));
                u.in_valid.next = offered;
                u.in_viewport.next = bits::<4>(vp as u64);
                u.in_vertex.next = VertexPos::from_bits(v);
                u.in_slot.next = bits::<8>(slot as u64);
            }
            _ => {}
        }
        u.out_ready.next = ready;
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        match item {
            Some(SwizzleItem::Write(vp, value, register)) if !reset => {
                let code = if register {
                    swizzle_from_register(value as u32).ok()
                } else {
                    Some(value & 0xFFF)
                };
                if u.cfg_error.val() != code.is_none() {
                    return Err(format!(
                        "cycle {}: write 0x{:04x} (register {}): cfg_error {}",
                        cycle,
                        value,
                        register,
                        u.cfg_error.val()
                    ));
                }
                match code {
                    Some(c) => table[vp as usize] = c,
                    None => run.refused_writes += 1,
                }
                next += 1;
            }
            Some(SwizzleItem::Vertex(vp, v, slot)) => {
                if in_mon.check(reset, offered, u.in_ready.val(), (vp, v, slot))? {
                    want.push_back((vp, swizzle(table[vp as usize], v), slot));
                    next += 1;
                    offered = false;
                }
            }
            _ => {}
        }
        let got = (
            u.out_viewport.val().index() as u8,
            u.out_vertex.val().to_bits(),
            u.out_slot.val().index() as u8,
        );
        if out_mon.check(reset, u.out_valid.val(), ready, got)? {
            let w = want.pop_front().ok_or("an output without an input")?;
            if got != w {
                return Err(format!(
                    "cycle {}: out {:x?}, the model says {:x?}",
                    cycle, got, w
                ));
            }
            run.vertices += 1;
        }
        h.step().map_err(|e| e.to_string())?;
    }
    run.cycles = cycle;
    run.ports = finish_waves(h, out, |vars| {
        let top = "viewport_swizzle";
        vec![
            Group::new("control").sigs(top, &["clock", "reset"], vars),
            Group::new("table write").sigs(
                top,
                &[
                    "cfg_valid",
                    "cfg_viewport",
                    "cfg_value",
                    "cfg_register_format",
                    "cfg_error",
                ],
                vars,
            ),
            Group::new("vertex in").sigs(
                top,
                &[
                    "in_valid",
                    "in_ready",
                    "in_viewport",
                    "in_vertex$x",
                    "in_vertex$y",
                    "in_vertex$z",
                    "in_vertex$w",
                ],
                vars,
            ),
            Group::new("vertex out").sigs(
                top,
                &[
                    "out_valid",
                    "out_ready",
                    "out_viewport",
                    "out_vertex$x",
                    "out_vertex$y",
                    "out_vertex$z",
                    "out_vertex$w",
                    "out_slot",
                ],
                vars,
            ),
        ]
    })?;
    Ok(run)
}

/// The canonical waves: viewport 1 = (-w, +x, -z, +y) packed, viewport 2 through the register
/// layout, a refused register write, vertices with NaN payloads, -0.0 and infinities.
pub fn wave_items() -> Vec<SwizzleItem> {
    let v = [0x7fc0_0001, 0x8000_0000, 0x7f80_0000, 0x3f80_0000];
    vec![
        SwizzleItem::Write(1, (7 | 0 << 3 | 5 << 6 | 2 << 9) as u16, false),
        SwizzleItem::Write(2, 0x1357, true),
        SwizzleItem::Write(3, 0x6428, true),
        SwizzleItem::Vertex(0, v, 0),
        SwizzleItem::Vertex(1, v, 1),
        SwizzleItem::Vertex(2, v, 2),
        SwizzleItem::Vertex(3, v, 3),
        SwizzleItem::Vertex(1, [0xff80_0000, 0x0000_0001, 0xffc0_0000, 0x4000_0000], 4),
    ]
}
