//! Testbench of [`StreamFifo`] (SPEC X-2): random traffic against a queue model.
use crate::tb::{finish_waves, harness, ChannelMonitor, TbConfig, TbOutput, TbResult};
use crate::vcd::gtkw::Group;
use ppu_hdl::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// Reference parameters of the exported FIFO: 16-bit words, depth 6 (not a power of two).
pub type RefFifo = StreamFifo<Bits<16>, 6, 3, 3>;

/// Drive a `StreamFifo` with random traffic and check it every cycle against a queue model:
/// `rd_valid`, `wr_ready`, `fill` and `rd_data` exactly as the model says, output payload
/// stable while stalled, every word out in order exactly once.
pub fn run_fifo<const D: usize, const P: usize, const C: usize>(
    cfg: &TbConfig,
    out: &TbOutput,
) -> Result<TbResult, String> {
    let mut h = harness(
        StreamFifo::<Bits<16>, D, P, C>::default(),
        |u, c| u.clock.next = c.into(),
        out,
        "stream_fifo",
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut model: VecDeque<u64> = VecDeque::new();
    let mut offered: Option<u64> = None;
    let mut rd_channel = ChannelMonitor::new("rd");
    let mut res = TbResult::default();
    let mut next_word: u64 = 0;
    for cycle in 0..cfg.cycles {
        let reset = cycle == 0 || cfg.resets.contains(&cycle);
        // Producer: holds valid and data until the transfer.
        if offered.is_none() && !reset && rng.gen_bool(cfg.valid_prob) {
            offered = Some((next_word * 0x9e37 + rng.gen_range(0..16)) & 0xffff);
            next_word += 1;
        }
        let rd_ready = !reset && rng.gen_bool(cfg.ready_prob);
        h.uut.reset.next = reset;
        h.uut.wr_valid.next = offered.is_some() && !reset;
        h.uut.wr_data.next = bits::<16>(offered.unwrap_or(0));
        h.uut.rd_ready.next = rd_ready;
        h.settle().map_err(|e| e.to_string())?;
        let u = &h.uut;
        let (rd_valid, wr_ready) = (u.rd_valid.val(), u.wr_ready.val());
        let rd_data = u.rd_data.val().to_u64();
        let fail = |what: String| Err(format!("cycle {}: {}", cycle, what));
        if rd_valid != !model.is_empty() {
            return fail(format!(
                "rd_valid {} with {} entries in the model",
                rd_valid,
                model.len()
            ));
        }
        if wr_ready != (model.len() < D) {
            return fail(format!(
                "wr_ready {} with {} of {} entries",
                wr_ready,
                model.len(),
                D
            ));
        }
        if u.fill.val().index() != model.len() {
            return fail(format!(
                "fill {} but the model holds {}",
                u.fill.val().index(),
                model.len()
            ));
        }
        if rd_valid && model.front() != Some(&rd_data) {
            return fail(format!(
                "rd_data {:#x}, model front {:?}",
                rd_data,
                model.front()
            ));
        }
        let push = offered.is_some() && !reset && wr_ready;
        let pop = rd_channel
            .check(reset, rd_valid, rd_ready, rd_data)
            .map_err(|e| format!("cycle {}: {}", cycle, e))?;
        h.step().map_err(|e| e.to_string())?;
        if reset {
            model.clear();
            continue;
        }
        if pop {
            model.pop_front();
            res.transfers_out += 1;
        }
        if push {
            model.push_back(offered.take().unwrap_or(0));
            res.transfers_in += 1;
        }
        res.max_fill = res.max_fill.max(model.len());
    }
    res.cycles = cfg.cycles;
    res.ports = finish_waves(h, out, |vars| {
        vec![
            Group::new("control").sigs("stream_fifo", &["clock", "reset", "fill"], vars),
            Group::new("write").sigs("stream_fifo", &["wr_valid", "wr_ready", "wr_data"], vars),
            Group::new("read").sigs("stream_fifo", &["rd_valid", "rd_ready", "rd_data"], vars),
            Group::new("pointers").sigs("stream_fifo", &["wr_ptr.q", "rd_ptr.q", "count.q"], vars),
        ]
    })?;
    Ok(res)
}
