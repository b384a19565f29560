//! Golden model of distributed stream output (SPEC SO-3, SO-4, SO-10, SO-11, SO-12), in plain
//! Rust and independent of the RTL: from the driver's packet order it computes where every
//! streamed batch/task must write (prefix sums of the bytes needed, in driver order, starting
//! at the SSOBOs of the offset bundles), which batch/tasks overflow, the final SSOBOs and the
//! final contents of the four buffers.
//!
//! Written from the requirements' text, not from the RTL:
//! - SO-3: SSYNC keeps a FIFO of operations in stream order. An operation starts at the first
//!   work packet after `E` and ends (exclusive) at the first work packet after the following
//!   `D`; offset bundles travel in the same FIFO, so each takes effect between the operations
//!   around it, in stream order. [`operation_fifo`] builds that FIFO from the packets literally:
//!   `E` (when disabled) awaits a start; the next work packet pushes an operation; `D` (when
//!   enabled) closes the open operation; `O` pushes a bundle. A bundle received while an
//!   operation is open therefore lands behind it; one between `D` and the next `E` lands
//!   between the two operations. An operation covers the batches from its start up to its
//!   `D` (the first work packet after `D` is the next batch, SO-1), so a bundle after the last
//!   `D` of the stream still takes effect; an operation whose `D` never comes is still served
//!   when the stream ends, and the entries behind it never take effect.
//! - SO-4, SO-10: the FIFO is served in order; a bundle sets the SSOBOs; every batch/task of an
//!   operation, task by task, appends at the current SSOBOs and advances them by its bytes.
//! - SO-12 ([`fits`]): a batch/task that does not fit every buffer it writes (bytes > 0) writes
//!   nothing and leaves the SSOBOs unchanged.

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

/// Does `sbbn` fit at `ssobo` in buffers of `size` (SO-12)? A buffer the batch/task does not
/// write (0 bytes) always fits, wherever its offset stands.
pub fn fits(ssobo: [u32; 4], sbbn: [u32; 4], size: [u32; 4]) -> bool {
    (0..4).all(|i| sbbn[i] == 0 || ssobo[i] as u64 + sbbn[i] as u64 <= size[i] as u64)
}

/// An entry of the operation FIFO of SO-3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FifoEntry {
    /// The batches `batches[first..end]` of the driver stream (indices into the list of batch
    /// packets); `end` is `None` while its `D` has not come.
    Operation {
        first: usize,
        end: Option<usize>,
    },
    Offset([u32; 4]),
}

/// SO-3, literally: the operation FIFO built from the driver stream, and the batch packets in
/// driver order (batch ID, bytes per task).
pub fn operation_fifo(packets: &[Packet]) -> (Vec<FifoEntry>, Vec<(u16, &[[u32; 4]])>) {
    let mut fifo = vec![];
    let mut batches = vec![];
    let mut enabled = false;
    let mut awaiting_start = false;
    let mut open: Option<usize> = None;
    for p in packets {
        match p {
            Packet::Enable if !enabled => {
                enabled = true;
                awaiting_start = true;
            }
            Packet::Disable if enabled => {
                enabled = false;
                awaiting_start = false;
                if let Some(FifoEntry::Operation { end, .. }) = open.take().map(|k| &mut fifo[k]) {
                    *end = Some(batches.len());
                }
            }
            Packet::Enable | Packet::Disable => {} // repeated: ignored
            Packet::Offset(o) => fifo.push(FifoEntry::Offset(*o)),
            Packet::Batch { batch_id, tasks } => {
                if awaiting_start {
                    awaiting_start = false;
                    open = Some(fifo.len());
                    fifo.push(FifoEntry::Operation {
                        first: batches.len(),
                        end: None,
                    });
                }
                batches.push((*batch_id, tasks.as_slice()));
            }
        }
    }
    (fifo, batches)
}

/// Run the golden model over a packet stream: serve the operation FIFO of SO-3 in order.
pub fn golden(packets: &[Packet], size: [u32; 4]) -> Golden {
    let (fifo, batches) = operation_fifo(packets);
    let mut g = Golden::default();
    let mut ssobo = [0u32; 4];
    for entry in &fifo {
        let (first, end) = match *entry {
            FifoEntry::Offset(o) => {
                ssobo = o;
                continue;
            }
            FifoEntry::Operation { first, end } => (first, end),
        };
        // An operation whose `D` never came is still being served at the end of the stream:
        // the entries behind it (bundles received while it was open) never take effect.
        let open = end.is_none();
        let end = end.unwrap_or(batches.len());
        for &(batch_id, tasks) in &batches[first..end] {
            for (t, sbbn) in tasks.iter().enumerate() {
                let overflow = !fits(ssobo, *sbbn, size);
                g.tasks.push(TaskPlacement {
                    batch_id,
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
                g.retired.push(batch_id);
            }
        }
        if open {
            break;
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
    /// The golden indices of every (batch ID, task), in driver order, less those whose second
    /// request has come: batch IDs wrap (SO-1), so one ID names several batches of a long run,
    /// one after another (an ID is given out again only after its batch retired).
    index: std::collections::HashMap<(u16, u16), std::collections::VecDeque<usize>>,
    responses: usize,
    commits: usize,
    retires: usize,
    /// Per retire in golden order: the golden batch/tasks up to its batch's last task, all of
    /// which must be answered and accounted before it (SO-2).
    retire_after: Vec<usize>,
}

impl SsyncScoreboard {
    pub fn new(golden: Golden) -> SsyncScoreboard {
        let mut index = std::collections::HashMap::<_, std::collections::VecDeque<_>>::new();
        for (i, t) in golden.tasks.iter().enumerate() {
            index.entry((t.batch_id, t.task)).or_default().push_back(i);
        }
        let retire_after = (golden.tasks.iter().enumerate())
            .filter(|(_, t)| t.last)
            .map(|(i, _)| i + 1)
            .collect();
        SsyncScoreboard {
            golden,
            index,
            responses: 0,
            commits: 0,
            retires: 0,
            retire_after,
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
    /// model has for the earliest streamed batch/task of that ID whose second request has not
    /// come yet (none: not checked).
    pub fn second(&mut self, batch_id: u16, task: u16, sbbn: [u32; 4]) -> Result<(), String> {
        let next = self
            .index
            .get_mut(&(batch_id, task))
            .and_then(|queue| queue.pop_front());
        match next {
            Some(i) if self.golden.tasks[i].sbbn != sbbn => Err(format!(
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

    /// A retire message for `batch_id` (SO-2), in golden retire order, after every batch/task
    /// up to its batch's last task is answered and accounted.
    pub fn retire(&mut self, batch_id: u16) -> Result<(), String> {
        let exp = self.golden.retired.get(self.retires);
        if exp != Some(&batch_id) {
            return Err(format!(
                "retire of batch {} out of order (expected {:?})",
                batch_id, exp
            ));
        }
        let after = self.retire_after.get(self.retires).copied().unwrap_or(0);
        if self.responses < after || self.commits < after {
            return Err(format!(
                "retire of batch {} before its last task was answered and accounted (SO-2): {} \
                 of the {} batch/tasks up to it answered, {} accounted",
                batch_id, self.responses, after, self.commits
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
