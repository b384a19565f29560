//! Formal proofs (`ppu formal`): every property of every unit with properties is proved (or
//! bounded-checked to its stated depth), every property's mutant is caught with a
//! counterexample VCD that parses, and `synth/FORMAL.md` has a passing row for each. Skipped
//! without Yosys/yosys-smtbmc/Z3/cvc5 unless `PPU_REQUIRE_EDA=1`.
use ppu_sim::eda::formal::{self, FormalCheck, Mutant};
use ppu_sim::eda::tools;
use ppu_sim::registry;
use ppu_sim::vcd::checker::check_vcd;

fn tools_here() -> bool {
    match formal::tools_available() {
        Ok(()) => true,
        Err(e) if tools::require_eda() => panic!("{}", e),
        Err(e) => {
            eprintln!("skipped: {}", e);
            false
        }
    }
}

fn prove(filter: impl Fn(&FormalCheck) -> bool) {
    if !tools_here() {
        return;
    }
    let report = std::fs::read_to_string(formal::props_dir().join("..").join("FORMAL.md"))
        .expect("synth/FORMAL.md (write it with `ppu formal`)");
    let checks: Vec<FormalCheck> = registry::formal_checks()
        .into_iter()
        .filter(filter)
        .collect();
    assert!(!checks.is_empty());
    for c in &checks {
        for r in formal::run_check(c).unwrap() {
            let name = format!("{} {} {}", r.unit, r.variant, r.property);
            assert!(r.passed, "{}: {}", name, r.detail);
            let (_, vcd) = r
                .mutant_caught
                .unwrap_or_else(|| panic!("{}: mutant `{}` not caught", name, r.mutant));
            check_vcd(&vcd).unwrap_or_else(|e| panic!("{}: counterexample VCD: {}", name, e));
            let variant = if r.variant.is_empty() {
                "-"
            } else {
                &r.variant
            };
            let row = format!("| {} | {} | {} |", r.unit, variant, r.property);
            let line = report
                .lines()
                .find(|l| l.starts_with(&row))
                .unwrap_or_else(|| panic!("synth/FORMAL.md has no row for {}", name));
            assert!(
                line.contains("| PASS |") && line.contains("| caught"),
                "{}",
                line
            );
        }
    }
}

#[test]
fn x1_stream_fifo_and_arbiter_properties_hold_and_their_mutants_fail() {
    prove(|c| c.unit == "stream_fifo" || c.unit == "rr_arbiter");
}

#[test]
fn st1_st4_status_unit_properties_hold_and_their_mutants_fail() {
    prove(|c| ["status_fsm", "rollup_tree", "command_tree"].contains(&c.unit));
}

#[test]
fn st5_st7_monitor_stores_only_after_a_round_trip_of_all_halted_releases_halt_only_after_restore_and_its_watchdog_fires_exactly_beyond_the_threshold(
) {
    prove(|c| c.unit == "front_end_monitor");
}

#[test]
fn wq1_wq2_ring_pointer_properties_hold_in_both_wrap_forms_and_their_mutants_fail() {
    prove(|c| ["gp_fifo", "gp_fifo_compare"].contains(&c.unit));
}

#[test]
fn wq5_wq6_semaphore_read_answers_the_value_after_the_next_cycles_writes_and_the_sweep_clears_first(
) {
    prove(|c| c.unit == "semaphore_memory");
}

#[test]
fn wq5_wq6_wq10_allocator_grants_exactly_what_fits_before_shadow_answers_two_cycles_later_and_flags_a_passing_shadow(
) {
    prove(|c| c.unit == "soft_put_allocator");
}

#[test]
fn wq3_wq9_wq10_host_stops_a_channel_only_with_an_error_advances_only_executed_entries_and_holds_a_launch_until_taken(
) {
    prove(|c| c.unit == "host_interface");
}

#[test]
fn wq4_acquire_check_answers_each_of_the_five_conditions_two_cycles_later() {
    prove(|c| c.unit == "acquire_check");
}

#[test]
fn so1_batch_ids_consecutive_and_in_flight_window_hold_and_their_mutants_fail() {
    prove(|c| c.unit == "batch_id_gen");
}

#[test]
fn so2_so3_so6_so12_ssync_responds_only_for_the_current_batch_keeps_op_fifo_order_retires_once_and_moves_ssobos_only_by_a_fitting_sbbn_or_a_bundle(
) {
    prove(|c| c.unit == "ssync");
}

#[test]
fn so5_so7_so9_crossbar_delivers_each_request_once_in_order_with_its_source_and_routes_responses() {
    prove(|c| c.unit == "so_crossbar");
}

#[test]
fn pa5_swizzle_selects_and_negates_each_field_and_a_permutation_code_is_one_to_one() {
    prove(|c| c.unit == "viewport_swizzle");
}

#[test]
fn pa2_pa3_pa4_multicast_emits_each_set_bit_once_in_ascending_order_at_its_layer_and_the_mutants_fail(
) {
    prove(|c| c.unit == "viewport_multicast");
}

#[test]
fn pa4_pa2_pa3_order_sequencer_never_overflows_its_beat_fifo_holds_a_beat_on_offer_and_sends_a_batch_in_viewport_order(
) {
    prove(|c| c.unit == "order_sequencer");
}

#[test]
fn pa6_provoking_vertex_cache_answers_as_the_model_never_shares_a_provoking_vertex_and_keeps_tags_unique(
) {
    prove(|c| c.unit == "provoking_vertex_cache");
}

#[test]
fn br4_br5_counter_releases_exactly_at_pipes_arrivals_and_its_mutants_fail() {
    prove(|c| c.unit == "barrier_counter");
}

#[test]
fn br6_prop_gives_no_item_of_a_held_tile_out_before_its_release_and_keeps_tile_order() {
    prove(|c| c.unit == "prop");
}

#[test]
fn so6_so8_so11_so_unit_holds_its_offers_sends_the_second_request_after_the_first_with_the_counted_bytes_and_writes_each_buffer_in_one_gapless_run_inside_its_granted_region(
) {
    prove(|c| c.unit == "so_unit");
}

#[test]
fn br3_br4_tiling_unit_holds_its_output_flushes_within_capacity_sends_each_barrier_after_its_flush_and_keeps_each_tiles_order(
) {
    prove(|c| c.unit == "tiling_unit");
}

#[test]
fn every_unit_with_properties_is_in_a_test_above() {
    let covered = [
        "stream_fifo",
        "rr_arbiter",
        "status_fsm",
        "rollup_tree",
        "command_tree",
        "front_end_monitor",
        "gp_fifo",
        "gp_fifo_compare",
        "semaphore_memory",
        "acquire_check",
        "soft_put_allocator",
        "host_interface",
        "batch_id_gen",
        "ssync",
        "so_crossbar",
        "viewport_swizzle",
        "viewport_multicast",
        "order_sequencer",
        "provoking_vertex_cache",
        "barrier_counter",
        "prop",
        "so_unit",
        "tiling_unit",
    ];
    for c in registry::formal_checks() {
        assert!(
            covered.contains(&c.unit),
            "{} has properties but no test",
            c.unit
        );
        assert!(
            formal::props_dir()
                .join(format!("{}_props.sv", c.props))
                .is_file(),
            "{}: props file missing",
            c.unit
        );
    }
}

/// Every exported unit has properties (#12: "every exported unit"). Reading: the mechanisms' top
/// blocks (`*_cluster`) are compositions of proved units, checked against the golden models by
/// simulation and co-simulation; their own state is the wiring and a few registers.
#[test]
fn every_exported_unit_other_than_a_top_block_has_properties() {
    let checked: Vec<&str> = registry::formal_checks().iter().map(|c| c.unit).collect();
    for u in registry::units() {
        if u.name.ends_with("_cluster") {
            continue;
        }
        assert!(
            checked.contains(&u.name),
            "{} ({}) has no formal properties",
            u.name,
            u.mechanism
        );
    }
}

#[test]
fn a_mutant_must_match_exactly_once() {
    let m = |find: &'static str| Mutant {
        what: "test",
        find,
        replace: "x",
    };
    assert_eq!(formal::mutate("a b c", &m("b")).unwrap(), "a x c");
    let e = formal::mutate("a b b", &m("b")).unwrap_err();
    assert!(e.contains("2 times"), "{}", e);
    let e = formal::mutate("a b c", &m("z")).unwrap_err();
    assert!(e.contains("0 times"), "{}", e);
}
