//! Formal properties of the work-queue ring (`synth/formal/gp_fifo_props.sv`, run by
//! `ppu formal`): `gp_fifo` (AND-form wrap) and `gp_fifo_compare` (compare-form wrap), each at
//! the exported `IDX_BITS` = 8 and every legal ring size (`ring_entries` is a free constant).
//! Both forms use the one props file: `COMPARE_FORM` defined selects `gp_fifo_compare` as the
//! module under test and the compare form's wrap.
use super::tb::RefGpFifo;
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::work_queue::ring_wrap::WrapForm;

/// The ring's properties, the same for both forms (the props file defines the form's wrap).
/// k = 6: the helper invariants make every property inductive in one step (the `$past`
/// checks need two); the mutants' BMC reaches a wrapped GP_GET by step 4 (a ring of 2: reset,
/// write GP_PUT, advance twice).
fn ring_properties() -> Vec<Property> {
    let prove = Mode::Prove { k: 6 };
    vec![
        Property {
            name: "EMPTY_FULL",
            claim: "empty exactly when GP_GET == GP_PUT, full exactly when GP_GET == (GP_PUT + 1) mod ENTRIES (WQ-1), every size",
            mode: prove,
            why: "inductive with the helper invariants (pointers below ENTRIES, the kept successor/predecessor registers)",
            mutant: Mutant {
                what: "a written GP_PUT's successor is GP_PUT + 2 (full one entry late)",
                find: r"put_value_next = put_value \+ 8'h1;",
                replace: "put_value_next = put_value + 8'h2;",
            },
        },
        Property {
            name: "WRAP",
            claim: "GP_GET advances to wrap(GP_GET + 1) (refused when empty), a following GP_PUT is wrap(GP_GET - 1), fill is wrap(GP_PUT - GP_GET), wrap as WQ-2 defines the form",
            mode: prove,
            why: "inductive with the helper invariants; the step checks compare with the previous cycle only",
            mutant: Mutant {
                what: "the successor of the last index is 1, not 0",
                find: r"get_next_next = 8'h0;",
                replace: "get_next_next = 8'h1;",
            },
        },
    ]
}

fn ring(unit: &'static str, form: WrapForm) -> FormalCheck {
    let mut defines = vec![];
    if form == WrapForm::Compare {
        defines.push(("COMPARE_FORM".to_string(), "1".to_string()));
    }
    FormalCheck {
        unit,
        props: "gp_fifo",
        variant: String::new(),
        verilog: Box::new(move || verilog_of(RefGpFifo::with_form(form), unit)),
        defines,
        flatten: false,
        solver: Solver::Z3,
        properties: ring_properties(),
    }
}

/// The work queue's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![
        ring("gp_fifo", WrapForm::Pow2),
        ring("gp_fifo_compare", WrapForm::Compare),
    ]
}
