//! Exhaustive check of [`RingWrap`] (SPEC WQ-2): every x in [-n, 2n) for a ring of n entries,
//! against the golden definition of the form it builds.
use super::super::golden::{wrap_compare, wrap_pow2};
use crate::harness::Harness;
use ppu_hdl::work_queue::ring_wrap::{RingWrap, WrapForm};
use rust_hdl::prelude::*;

use super::gp_fifo::RING_IDX;

/// Check every x in [-n, 2n); returns the number of values checked.
pub fn check_ring_wrap(form: WrapForm, entries: u64) -> Result<u64, String> {
    let mut h = Harness::new(RingWrap::<RING_IDX, { RING_IDX + 2 }>::new(form), |_, _| {});
    let n = entries as i64;
    let modulus = 1i64 << (RING_IDX + 2);
    let mut checked = 0;
    for x in -n..2 * n {
        h.uut.x.next = bits::<{ RING_IDX + 2 }>(x.rem_euclid(modulus) as u64);
        h.uut.entries.next = bits::<{ RING_IDX + 2 }>(entries);
        h.settle().map_err(|e| e.to_string())?;
        let want = match form {
            WrapForm::Pow2 => wrap_pow2(x, entries),
            WrapForm::Compare => wrap_compare(x, entries),
        };
        let got = h.uut.wrapped.val().to_u64();
        if got != want || h.uut.out_of_range.val() {
            return Err(format!(
                "wrap({}, {}) {:?}: {} (out_of_range {}), definition {}",
                x,
                entries,
                form,
                got,
                h.uut.out_of_range.val(),
                want
            ));
        }
        checked += 1;
    }
    Ok(checked)
}
