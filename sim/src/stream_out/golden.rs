//! Golden model of distributed stream output (SPEC SO-3, SO-4, SO-10, SO-11, SO-12), in plain
//! Rust and independent of the RTL: from the driver's packet order it computes where every
//! streamed batch/task must write (prefix sums of the bytes needed, in driver order, starting
//! at the SSOBOs of the offset bundles), which batch/tasks overflow, the final SSOBOs and the
//! final contents of the four buffers.
//!
//! Offset bundles follow the reading of SO-3 that SSYNC implements: a bundle received while a
//! stream-output operation is open (started and not yet ended by the first work packet after
//! its `D`) takes effect when that operation ends; otherwise at once.

/// A packet of the driver stream, as the golden model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Packet {
    /// One batch (already split): the bytes per buffer of each task, in task order.
    Batch {
        batch_id: u16,
        tasks: Vec<[u32; 4]>,
    },
    Enable,
    Disable,
    Offset([u32; 4]),
}

/// Where one streamed batch/task writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskPlacement {
    pub batch_id: u16,
    pub task: u16,
    pub last: bool,
    pub sbbn: [u32; 4],
    /// The SSOBOs of its response (SO-6).
    pub offsets: [u32; 4],
    /// It did not fit (SO-12): nothing written, SSOBOs unchanged.
    pub overflow: bool,
}

/// What the golden model predicts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Golden {
    /// Streamed batch/tasks in the order SSYNC must answer them.
    pub tasks: Vec<TaskPlacement>,
    /// Streamed batch IDs in retire order.
    pub retired: Vec<u16>,
    pub final_ssobo: [u32; 4],
    pub needed: [u64; 4],
    pub written: [u64; 4],
    pub overflows: u64,
}

/// Does `sbbn` fit at `ssobo` in buffers of `size` (SO-12)?
pub fn fits(ssobo: [u32; 4], sbbn: [u32; 4], size: [u32; 4]) -> bool {
    (0..4).all(|i| ssobo[i] as u64 + sbbn[i] as u64 <= size[i] as u64)
}

/// Run the golden model over a packet stream.
pub fn golden(packets: &[Packet], size: [u32; 4]) -> Golden {
    let mut g = Golden::default();
    let mut ssobo = [0u32; 4];
    let mut enabled = false;
    let mut op_open = false;
    let mut deferred: Vec<[u32; 4]> = vec![];
    for p in packets {
        match p {
            Packet::Enable => enabled = true,
            Packet::Disable => enabled = false,
            Packet::Offset(o) => {
                if op_open {
                    deferred.push(*o);
                } else {
                    ssobo = *o;
                }
            }
            Packet::Batch { batch_id, tasks } => {
                if enabled {
                    op_open = true;
                } else if op_open {
                    op_open = false;
                    for o in deferred.drain(..) {
                        ssobo = o;
                    }
                }
                if !enabled {
                    continue;
                }
                for (t, sbbn) in tasks.iter().enumerate() {
                    let overflow = !fits(ssobo, *sbbn, size);
                    g.tasks.push(TaskPlacement {
                        batch_id: *batch_id,
                        task: t as u16,
                        last: t + 1 == tasks.len(),
                        sbbn: *sbbn,
                        offsets: ssobo,
                        overflow,
                    });
                    for i in 0..4 {
                        g.needed[i] += sbbn[i] as u64;
                    }
                    if overflow {
                        g.overflows += 1;
                    } else {
                        for i in 0..4 {
                            ssobo[i] += sbbn[i];
                            g.written[i] += sbbn[i] as u64;
                        }
                    }
                }
                if !tasks.is_empty() {
                    g.retired.push(*batch_id);
                }
            }
        }
    }
    g.final_ssobo = ssobo;
    g
}

/// The byte a batch/task writes at position `index` of its data for `buffer` (the "vertex
/// attribute data" of the simulation; shared by the memory model and the golden buffers).
pub fn data_byte(batch_id: u16, task: u16, buffer: usize, index: u32) -> u8 {
    let mut x =
        (batch_id as u64) << 40 ^ (task as u64) << 24 ^ (buffer as u64) << 20 ^ index as u64;
    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 29;
    (x >> 7) as u8 | 1
}

/// Final contents of the four buffers (unwritten bytes 0; written bytes are never 0).
pub fn buffers(g: &Golden, size: [u32; 4]) -> [Vec<u8>; 4] {
    let mut b: [Vec<u8>; 4] = std::array::from_fn(|i| vec![0u8; size[i] as usize]);
    for t in g.tasks.iter().filter(|t| !t.overflow) {
        for (i, buf) in b.iter_mut().enumerate() {
            for k in 0..t.sbbn[i] {
                buf[(t.offsets[i] + k) as usize] = data_byte(t.batch_id, t.task, i, k);
            }
        }
    }
    b
}
