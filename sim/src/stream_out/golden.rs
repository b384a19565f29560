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

/// The SSYNC scoreboard (SPEC SO-2, SO-3, SO-6, SO-7, SO-10..SO-12): what SSYNC does, checked
/// event by event against the golden model. Fed with the events a testbench or the system
/// simulation sees on SSYNC's ports, in the order they happen within a cycle:
/// - [`response`](Self::response): a response for batch/task `(batch_id, task)` (the one its
///   SO unit asked for) with `offsets`: it must be the next streamed batch/task in driver
///   order, with the golden SSOBOs;
/// - [`second`](Self::second): a second request's bytes, equal to the golden SBBNs;
/// - [`commit`](Self::commit): a batch/task accounted (`commit`), with its overflow decision
///   (`commit_overflow`), in golden order;
/// - [`retire`](Self::retire): a batch-ID retire message, in golden retire order;
/// - at the end [`unfinished`](Self::unfinished), [`final_ssobo`](Self::final_ssobo) and
///   (SSYNC's status ports) [`statistics`](Self::statistics).
///
/// Each check returns `Err` with a message (no cycle; the caller adds it).
#[derive(Debug, Clone)]
pub struct SsyncScoreboard {
    golden: Golden,
    /// First golden index of every (batch ID, task).
    index: std::collections::HashMap<(u16, u16), usize>,
    responses: usize,
    commits: usize,
    retires: usize,
}

impl SsyncScoreboard {
    pub fn new(golden: Golden) -> SsyncScoreboard {
        let mut index = std::collections::HashMap::new();
        for (i, t) in golden.tasks.iter().enumerate() {
            index.entry((t.batch_id, t.task)).or_insert(i);
        }
        SsyncScoreboard {
            golden,
            index,
            responses: 0,
            commits: 0,
            retires: 0,
        }
    }

    /// The golden model checked against.
    pub fn golden(&self) -> &Golden {
        &self.golden
    }

    /// The batch/task SSYNC must answer next (`None` once all are answered).
    pub fn next_response(&self) -> Option<&TaskPlacement> {
        self.golden.tasks.get(self.responses)
    }

    /// Responses checked so far.
    pub fn responses(&self) -> usize {
        self.responses
    }

    /// Retire messages checked so far.
    pub fn retires(&self) -> usize {
        self.retires
    }

    /// Every streamed batch/task answered (SO-6).
    pub fn all_answered(&self) -> bool {
        self.responses == self.golden.tasks.len()
    }

    /// Every streamed batch retired (SO-2).
    pub fn all_retired(&self) -> bool {
        self.retires == self.golden.retired.len()
    }

    /// A response for `(batch_id, task)` with `offsets` (SO-6, SO-10, SO-11): the next in
    /// driver order, at the golden SSOBOs.
    pub fn response(
        &mut self,
        batch_id: u16,
        task: u16,
        offsets: [u32; 4],
    ) -> Result<&TaskPlacement, String> {
        let Some(exp) = self.golden.tasks.get(self.responses) else {
            return Err("more responses than streamed batch/tasks".into());
        };
        if (exp.batch_id, exp.task) != (batch_id, task) || exp.offsets != offsets {
            return Err(format!(
                "response batch {} task {} offsets {:?}; in driver order the next is batch {} task {} at {:?} (SO-11)",
                batch_id, task, offsets, exp.batch_id, exp.task, exp.offsets
            ));
        }
        self.responses += 1;
        Ok(exp)
    }

    /// A second request for `(batch_id, task)` carrying `sbbn` (SO-7): the bytes the golden
    /// model has for the first streamed batch/task of that ID (none: not checked).
    pub fn second(&self, batch_id: u16, task: u16, sbbn: [u32; 4]) -> Result<(), String> {
        match self.index.get(&(batch_id, task)) {
            Some(&i) if self.golden.tasks[i].sbbn != sbbn => Err(format!(
                "batch {} task {}: second request {:?}, shader wrote {:?}",
                batch_id, task, sbbn, self.golden.tasks[i].sbbn
            )),
            _ => Ok(()),
        }
    }

    /// A batch/task accounted with overflow decision `overflow` (SO-12), in golden order.
    pub fn commit(&mut self, overflow: bool) -> Result<&TaskPlacement, String> {
        let Some(exp) = self.golden.tasks.get(self.commits) else {
            return Err("SSYNC accounted more batch/tasks than streamed".into());
        };
        if overflow != exp.overflow {
            return Err(format!(
                "batch {} task {}: overflow {} but the golden model says {}",
                exp.batch_id, exp.task, overflow, exp.overflow
            ));
        }
        self.commits += 1;
        Ok(exp)
    }

    /// A retire message for `batch_id` (SO-2), in golden retire order.
    pub fn retire(&mut self, batch_id: u16) -> Result<(), String> {
        let exp = self.golden.retired.get(self.retires);
        if exp != Some(&batch_id) {
            return Err(format!(
                "retire of batch {} out of order (expected {:?})",
                batch_id, exp
            ));
        }
        self.retires += 1;
        Ok(())
    }

    /// At the end: `None` if every batch/task was answered and every batch retired, otherwise
    /// how far SSYNC got.
    pub fn unfinished(&self) -> Option<String> {
        (!self.all_answered() || !self.all_retired()).then(|| {
            format!(
                "{} of {} responses, {} of {} retires",
                self.responses,
                self.golden.tasks.len(),
                self.retires,
                self.golden.retired.len()
            )
        })
    }

    /// At the end: the SSOBOs equal the golden final SSOBOs (SO-11).
    pub fn final_ssobo(&self, ssobo: [u32; 4]) -> Result<(), String> {
        if ssobo != self.golden.final_ssobo {
            return Err(format!(
                "final SSOBOs {:?}, golden {:?}",
                ssobo, self.golden.final_ssobo
            ));
        }
        Ok(())
    }

    /// At the end: SSYNC's statistics (SO-12) — bytes needed and written per buffer (32-bit
    /// counters) and the overflow count — equal the golden model's.
    pub fn statistics(
        &self,
        needed: [u32; 4],
        written: [u32; 4],
        overflow_count: u64,
    ) -> Result<(), String> {
        let g = &self.golden;
        for i in 0..4 {
            if written[i] as u64 != g.written[i] & 0xffff_ffff
                || needed[i] as u64 != g.needed[i] & 0xffff_ffff
            {
                return Err(format!(
                    "statistics: written {:?} needed {:?}, golden {:?} {:?}",
                    written, needed, g.written, g.needed
                ));
            }
        }
        if overflow_count != g.overflows {
            return Err(format!(
                "overflow count {}, golden {}",
                overflow_count, g.overflows
            ));
        }
        Ok(())
    }
}
