//! Golden model of the barrier mechanism (BR-2, BR-3, BR-4, BR-5, BR-6, BR-8) on hand-worked
//! examples: routing of the section 5 example scenario and of off-screen and negative bboxes,
//! flush sequences for small bin capacities (a primitive split across flushes, a non-tiled
//! barrier with empty bins, back-to-back barriers), and the trace checker on a hand-written
//! valid trace and mutations of it that must each be rejected with the rule named.
use ppu_sim::barrier::golden::{check_trace, expected_flushes, FlushReason, Geometry, TraceFacts};
use serde_json::{json, Value};

use FlushReason::{Barrier as B, End as E, Threshold as T};

/// The section 5 example: 4 pipes, 256x128 screen, 16-pixel raster tiles: 16x8 raster tiles,
/// 4x2 cache tiles of 64x64 pixels.
fn example(bin_capacity: u64, tiled: bool) -> Value {
    json!({"unit":"barrier",
     "config":{"pipes":4,"screen":[256,128],"raster_tile":16,"bin_capacity":bin_capacity,
               "latency":{"world":10,"setup":4,"raster":6,"pixel_shader":20,"prop":2,"rop":8}},
     "commands":[{"kind":"draw","prims":[{"id":0,"bbox":[0,0,40,30]},{"id":1,"bbox":[100,20,130,60]}]},
                 {"kind":"barrier","tiled":tiled},
                 {"kind":"draw","prims":[{"id":2,"bbox":[10,10,200,100]}]}]})
}

fn example_geometry() -> Geometry {
    Geometry {
        pipes: 4,
        screen_w: 256,
        screen_h: 128,
        raster_tile: 16,
    }
}

#[test]
fn br2_geometry_of_the_example() {
    let g = example_geometry();
    assert_eq!(
        (g.cache_tiles_x(), g.cache_tiles_y(), g.cache_tiles()),
        (4, 2, 8)
    );
    assert_eq!(Geometry::from_scenario(&example(64, true)).unwrap(), g);
}

#[test]
fn br2_routing_of_the_example_bboxes() {
    let g = example_geometry();
    // [0,0,40,30]: rx 0..=2, ry 0..=1, all in cache tile 0; rx+ry = 0,1,2,1,2,3: every pipe.
    assert_eq!(
        g.route([0, 0, 40, 30]),
        vec![(0, 0), (1, 0), (2, 0), (3, 0)]
    );
    // [100,20,130,60]: rx 6..=8, ry 1..=3. Tile 1 (rx 6,7): sums 7..10 -> pipes 3,0,1,2.
    // Tile 2 (rx 8): sums 9,10,11 -> pipes 1,2,3.
    assert_eq!(
        g.route([100, 20, 130, 60]),
        vec![(0, 1), (1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]
    );
    // [10,10,200,100]: rx 0..=12, ry 0..=6: every cache tile. Only tile 7 (rx 12, ry 4..=6,
    // sums 16,17,18) misses a pipe: pipe 3.
    let mut want = vec![];
    for pipe in 0..4 {
        for tile in 0..8 {
            if !(pipe == 3 && tile == 7) {
                want.push((pipe, tile));
            }
        }
    }
    assert_eq!(g.route([10, 10, 200, 100]), want);
    assert_eq!(want.len(), 31);
}

#[test]
fn br2_off_screen_and_negative_bboxes() {
    let g = example_geometry();
    assert_eq!(g.route([-50, -50, -1, -1]), vec![]);
    assert_eq!(g.route([256, 0, 300, 10]), vec![]);
    assert_eq!(g.route([0, 128, 10, 200]), vec![]);
    // Clipped to [0,0,5,5]: raster tile (0,0).
    assert_eq!(g.route([-20, -20, 5, 5]), vec![(0, 0)]);
    // Clipped to [250,120,255,127]: raster tile (15,7), sum 22 -> pipe 2, cache tile 1*4+3.
    assert_eq!(g.route([250, 120, 1000, 1000]), vec![(2, 7)]);
    // A single pixel on a raster-tile corner: [16,16,16,16] is raster tile (1,1) -> pipe 2.
    assert_eq!(g.route([16, 16, 16, 16]), vec![(2, 0)]);
}

#[test]
fn br3_example_flushes_only_at_the_end_with_a_large_bin() {
    // Entries per pipe: pipe 0: 1 + 1 + 8; pipes 1, 2: 1 + 2 + 8; pipe 3: 1 + 2 + 7.
    // The tiled barrier makes no flush (BR-5).
    assert_eq!(
        expected_flushes(&example(64, true)).unwrap(),
        vec![vec![(E, 10)], vec![(E, 11)], vec![(E, 11)], vec![(E, 10)]]
    );
}

#[test]
fn br3_threshold_flushes_split_a_primitive() {
    // Capacity 3: prim 2 (8 entries on pipe 0) is split over three flushes.
    let want = vec![
        vec![(T, 3), (T, 3), (T, 3), (E, 1)],
        vec![(T, 3), (T, 3), (T, 3), (E, 2)],
        vec![(T, 3), (T, 3), (T, 3), (E, 2)],
        vec![(T, 3), (T, 3), (T, 3), (E, 1)],
    ];
    assert_eq!(expected_flushes(&example(3, true)).unwrap(), want);
    // Capacity 1 (BR-8, threshold of one primitive): a flush per entry, then an empty end.
    let f = expected_flushes(&example(1, true)).unwrap();
    let per_pipe = [10, 11, 11, 10];
    for (pipe, n) in per_pipe.iter().enumerate() {
        let mut want = vec![(T, 1); *n];
        want.push((E, 0));
        assert_eq!(f[pipe], want, "pipe {}", pipe);
    }
}

#[test]
fn br4_non_tiled_barrier_flushes_also_an_empty_bin() {
    // Capacity 2. Pipe 0: prims 0, 1 fill the bin (threshold), the barrier flushes it empty;
    // prim 2's 8 entries make four threshold flushes; the end flush is empty.
    // Pipes 1, 2: prim 1's second entry is left for the barrier; pipe 3: prim 2 has 7 entries.
    let want = vec![
        vec![(T, 2), (B, 0), (T, 2), (T, 2), (T, 2), (T, 2), (E, 0)],
        vec![(T, 2), (B, 1), (T, 2), (T, 2), (T, 2), (T, 2), (E, 0)],
        vec![(T, 2), (B, 1), (T, 2), (T, 2), (T, 2), (T, 2), (E, 0)],
        vec![(T, 2), (B, 1), (T, 2), (T, 2), (T, 2), (E, 1)],
    ];
    assert_eq!(expected_flushes(&example(2, false)).unwrap(), want);
}

#[test]
fn br8_back_to_back_barriers_and_an_off_screen_primitive() {
    let s = json!({"unit":"barrier",
     "config":{"pipes":4,"screen":[256,128],"raster_tile":16,"bin_capacity":64},
     "commands":[{"kind":"draw","prims":[{"id":0,"bbox":[0,0,40,30]}]},
                 {"kind":"barrier","tiled":false},
                 {"kind":"barrier","tiled":false},
                 {"kind":"barrier","tiled":true},
                 {"kind":"draw","prims":[{"id":1,"bbox":[100,20,130,60]},
                                         {"id":2,"bbox":[-9,-9,-1,-1]}]}]});
    assert_eq!(
        expected_flushes(&s).unwrap(),
        vec![
            vec![(B, 1), (B, 0), (E, 1)],
            vec![(B, 1), (B, 0), (E, 2)],
            vec![(B, 1), (B, 0), (E, 2)],
            vec![(B, 1), (B, 0), (E, 2)],
        ]
    );
}

#[test]
fn x5_bad_scenarios_are_refused_with_the_field_named() {
    let mut s = example(64, true);
    s["config"]["screen"] = json!([250, 128]);
    assert!(expected_flushes(&s).unwrap_err().contains("screen"));
    let mut s = example(64, true);
    s["commands"][2]["prims"][0]["id"] = json!(1);
    assert!(expected_flushes(&s).unwrap_err().contains("id 1"));
    let mut s = example(64, true);
    s["extra"] = json!(1);
    assert!(expected_flushes(&s).unwrap_err().contains("extra"));
    let mut s = example(64, true);
    s["commands"][0]["prims"][0]["bbox"] = json!([5, 0, 4, 0]);
    assert!(expected_flushes(&s).unwrap_err().contains("bbox"));
}

// ---------------------------------------------------------------------------------------------
// Trace checker

/// 2 pipes, 64x64 screen, 16-pixel raster tiles: one cache tile (0) of 4x4 raster tiles.
/// Prim 10 [0,0,31,15]: raster tiles (0,0), (1,0): pipes 0 and 1. Prim 20 [16,0,20,4]: raster
/// tile (1,0): pipe 1. No threshold: each pipe flushes once at the end, pipe 0 with 1 entry,
/// pipe 1 with 2.
fn small() -> Value {
    json!({"unit":"barrier",
     "config":{"pipes":2,"screen":[64,64],"raster_tile":16,"bin_capacity":64,
               "latency":{"world":1,"setup":1,"raster":1,"pixel_shader":1,"prop":1,"rop":1}},
     "commands":[{"kind":"draw","prims":[{"id":10,"bbox":[0,0,31,15]}]},
                 {"kind":"barrier","tiled":true},
                 {"kind":"draw","prims":[{"id":20,"bbox":[16,0,20,4]}]}]})
}

const TRACE: &str = r#"
{"cycle":0,"event":"flush","pipe":0,"reason":"end","entries":1}
{"cycle":0,"event":"flush","pipe":1,"reason":"end","entries":2}
{"cycle":5,"event":"prop_pass","pipe":0,"prim":10,"tile":0}
{"cycle":5,"event":"prop_pass","pipe":1,"prim":10,"tile":0}
{"cycle":6,"event":"prop_hold","pipe":0,"tile":0}
{"cycle":6,"event":"prop_hold","pipe":1,"tile":0}
{"cycle":9,"event":"rop_done","pipe":0,"prim":10,"tile":0}
{"cycle":9,"event":"rop_done","pipe":1,"prim":10,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":0,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":1,"tile":0}
{"cycle":11,"event":"release","tile":0}
{"cycle":11,"event":"prop_pass","pipe":1,"prim":20,"tile":0}
{"cycle":15,"event":"rop_done","pipe":1,"prim":20,"tile":0}
{"cycle":16,"event":"done","cycles":16,"upstream_stall_cycles":3,"flushes":2}
"#;

fn lines() -> Vec<String> {
    TRACE
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn parse(l: &[String]) -> Vec<Value> {
    l.iter()
        .map(|s| serde_json::from_str(s).expect("test trace line is JSON"))
        .collect()
}

fn find(l: &[String], needle: &str) -> usize {
    l.iter()
        .position(|s| s.contains(needle))
        .unwrap_or_else(|| panic!("no line contains {}", needle))
}

/// Check the small trace after `edit`: the error, which must exist and contain every `words`.
fn rejected(scenario: &Value, edit: impl Fn(&mut Vec<String>), words: &[&str]) -> String {
    let mut l = lines();
    edit(&mut l);
    let e = check_trace(scenario, &parse(&l)).expect_err("the mutated trace is rejected");
    for w in words {
        assert!(e.contains(w), "expected {:?} in: {}", w, e);
    }
    eprintln!("rejected: {}", e);
    e
}

#[test]
fn br6_hand_written_tiled_trace_is_accepted() {
    let f = check_trace(&small(), &parse(&lines())).expect("the trace is valid");
    assert_eq!(
        f,
        TraceFacts {
            cycles: 16,
            upstream_stall_cycles: 3,
            flushes: 2,
            releases: 1,
            rop_done: 3,
        }
    );
}

#[test]
fn br8_rejects_a_missing_rop_done() {
    rejected(
        &small(),
        |l| {
            l.remove(find(l, r#""rop_done","pipe":1,"prim":20"#));
        },
        &["missing rop_done", "prim 20", "BR-8"],
    );
}

#[test]
fn br8_rejects_a_duplicated_prop_pass() {
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""prop_pass","pipe":0,"prim":10"#);
            l.insert(i + 1, l[i].clone());
        },
        &["line 4", "duplicated prop_pass", "prim 10", "BR-8"],
    );
}

#[test]
fn br6_rejects_a_prop_pass_one_cycle_before_the_release() {
    // Prim 20 passes at cycle 10: after every rop_done before the barrier (9), but before the
    // release (11).
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""prop_pass","pipe":1,"prim":20"#);
            l.remove(i);
            let j = find(l, r#""backend_barrier","pipe":1"#);
            l.insert(
                j + 1,
                r#"{"cycle":10,"event":"prop_pass","pipe":1,"prim":20,"tile":0}"#.into(),
            );
        },
        &[
            "line 11",
            "prim 20",
            "before that barrier's release",
            "BR-6",
        ],
    );
}

#[test]
fn br6_rejects_a_prop_pass_in_the_cycle_of_an_earlier_rop_done() {
    // Everything of the barrier happens in cycle 9 together with the rop_done of prim 10 on
    // pipe 1: the release is in order, but prim 20 does not pass strictly after that rop_done.
    rejected(
        &small(),
        |l| {
            for line in l.iter_mut() {
                for c in ["10", "11"] {
                    *line = line.replace(&format!(r#""cycle":{},"#, c), r#""cycle":9,"#);
                }
            }
        },
        &[
            "prim 20",
            "not strictly after the rop_done of prim 10",
            "BR-6",
        ],
    );
}

#[test]
fn br5_rejects_a_missing_release() {
    rejected(
        &small(),
        |l| {
            l.remove(find(l, r#""release""#));
        },
        &["missing release", "tiled barrier #0", "BR-5"],
    );
}

#[test]
fn br5_rejects_a_release_before_every_backend_barrier() {
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""release""#);
            let r = l.remove(i);
            let j = find(l, r#""backend_barrier","pipe":1"#);
            l.insert(j, r.replace("11", "10"));
        },
        &["line 10", "before the backend_barrier of pipe 1", "BR-5"],
    );
}

#[test]
fn br3_rejects_a_wrong_flush_entries_count() {
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""pipe":1,"reason":"end""#);
            l[i] = l[i].replace(r#""entries":2"#, r#""entries":3"#);
        },
        &[
            "line 2",
            "flush #0 of pipe 1",
            "entries 3",
            "expected (end, entries 2)",
        ],
    );
    // A tiled barrier makes no flush (BR-5).
    rejected(
        &small(),
        |l| {
            l.insert(
                2,
                r#"{"cycle":0,"event":"flush","pipe":0,"reason":"barrier","entries":0}"#.into(),
            );
        },
        &["line 3", "flush #1 of pipe 0", "only 1 times"],
    );
}

#[test]
fn x5_rejects_an_unknown_field_a_missing_field_and_an_unknown_event() {
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""prop_pass","pipe":1,"prim":10"#);
            l[i] = l[i].replace(r#""tile":0}"#, r#""tile":0,"extra":1}"#);
        },
        &["line 4", "unknown field \"extra\""],
    );
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""release""#);
            l[i] = r#"{"cycle":11,"event":"release"}"#.into();
        },
        &["line 11", "lacks the field \"tile\""],
    );
    rejected(
        &small(),
        |l| {
            l.insert(2, r#"{"cycle":1,"event":"flash","pipe":0}"#.into());
        },
        &["line 3", "unknown event \"flash\""],
    );
}

#[test]
fn x5_rejects_done_errors_cycles_going_back_and_unrouted_prims() {
    rejected(
        &small(),
        |l| {
            let d = l.pop().unwrap();
            l.push(d.replace(r#""flushes":2"#, r#""flushes":3"#));
        },
        &["done.flushes = 3", "2 flush events"],
    );
    rejected(
        &small(),
        |l| {
            let d = l[l.len() - 1].replace(r#""flushes":2"#, r#""flushes":0"#);
            l.insert(0, d.replace(r#""cycle":16"#, r#""cycle":0"#));
        },
        &["line 2", "after done"],
    );
    rejected(
        &small(),
        |l| {
            l.pop();
        },
        &["last event is not done"],
    );
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""prop_pass","pipe":0,"prim":10"#);
            l[i] = l[i].replace(r#""cycle":5"#, r#""cycle":7"#);
        },
        &["line 4", "cycle goes back from 7 to 5"],
    );
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""rop_done","pipe":1,"prim":20"#);
            l[i] = l[i].replace(r#""pipe":1"#, r#""pipe":0"#);
        },
        &["rop_done of prim 20 on pipe 0", "not routed there", "BR-2"],
    );
    rejected(
        &small(),
        |l| {
            let i = find(l, r#""rop_done","pipe":0,"prim":10"#);
            let r = l.remove(i);
            l.insert(2, r.replace(r#""cycle":9"#, r#""cycle":0"#));
        },
        &["line 3", "before its prop_pass"],
    );
}

#[test]
fn br4_hand_written_non_tiled_trace_and_its_ordering() {
    let mut s = small();
    s["commands"][1]["tiled"] = json!(false);
    // Pipe 0 flushes prim 10 at the barrier, then an empty end; pipe 1 flushes prim 10 at the
    // barrier and prim 20 at the end.
    assert_eq!(
        expected_flushes(&s).unwrap(),
        vec![vec![(B, 1), (E, 0)], vec![(B, 1), (E, 1)]]
    );
    let trace = r#"
{"cycle":0,"event":"flush","pipe":0,"reason":"barrier","entries":1}
{"cycle":0,"event":"flush","pipe":1,"reason":"barrier","entries":1}
{"cycle":2,"event":"flush","pipe":0,"reason":"end","entries":0}
{"cycle":2,"event":"flush","pipe":1,"reason":"end","entries":1}
{"cycle":5,"event":"prop_pass","pipe":0,"prim":10,"tile":0}
{"cycle":5,"event":"prop_pass","pipe":1,"prim":10,"tile":0}
{"cycle":6,"event":"prop_hold","pipe":0,"tile":null}
{"cycle":6,"event":"prop_hold","pipe":1,"tile":null}
{"cycle":9,"event":"rop_done","pipe":0,"prim":10,"tile":0}
{"cycle":9,"event":"rop_done","pipe":1,"prim":10,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":0,"tile":null}
{"cycle":10,"event":"backend_barrier","pipe":1,"tile":null}
{"cycle":11,"event":"release","tile":null}
{"cycle":11,"event":"prop_pass","pipe":1,"prim":20,"tile":0}
{"cycle":15,"event":"rop_done","pipe":1,"prim":20,"tile":0}
{"cycle":16,"event":"done","cycles":16,"upstream_stall_cycles":0,"flushes":4}
"#;
    let l: Vec<String> = trace
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    let f = check_trace(&s, &parse(&l)).expect("the non-tiled trace is valid");
    assert_eq!((f.flushes, f.releases, f.rop_done), (4, 1, 3));
    // The same trace does not satisfy the tiled scenario (its barrier events carry no tile).
    let e = check_trace(&small(), &parse(&l)).unwrap_err();
    assert!(e.contains("flush #0 of pipe 0"), "{}", e);
    // A backend_barrier before its prop_hold.
    let mut m = l.clone();
    let b = m.remove(11);
    m.insert(7, b.replace(r#""cycle":10,"#, r#""cycle":6,"#));
    let e = check_trace(&s, &parse(&m)).unwrap_err();
    assert!(
        e.contains("before its prop_hold") && e.contains("line 8"),
        "{}",
        e
    );
}

fn to_lines(t: &str) -> Vec<String> {
    t.lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// 2 pipes, 128x64 screen, 16-pixel raster tiles: cache tiles 0 and 1 side by side. Prim 1
/// [0,0,0,0]: raster tile (0,0), pipe 0, tile 0. Prim 2 [64,0,64,0]: raster tile (4,0), sum 4,
/// pipe 0, tile 1.
fn two_tiles(tiled: bool) -> Value {
    json!({"unit":"barrier",
     "config":{"pipes":2,"screen":[128,64],"raster_tile":16,"bin_capacity":64},
     "commands":[{"kind":"draw","prims":[{"id":1,"bbox":[0,0,0,0]}]},
                 {"kind":"barrier","tiled":tiled},
                 {"kind":"draw","prims":[{"id":2,"bbox":[64,0,64,0]}]}]})
}

#[test]
fn br6_tiled_barrier_lets_another_tile_pass_a_non_tiled_one_does_not() {
    // Tiled: prim 2 (tile 1) passes PROP once tile 1 is released, while prim 1 (tile 0) is
    // still on its way to ROP.
    let tiled = r#"
{"cycle":0,"event":"flush","pipe":0,"reason":"end","entries":2}
{"cycle":0,"event":"flush","pipe":1,"reason":"end","entries":0}
{"cycle":3,"event":"prop_pass","pipe":0,"prim":1,"tile":0}
{"cycle":4,"event":"prop_hold","pipe":0,"tile":0}
{"cycle":4,"event":"prop_hold","pipe":1,"tile":0}
{"cycle":4,"event":"prop_hold","pipe":0,"tile":1}
{"cycle":4,"event":"prop_hold","pipe":1,"tile":1}
{"cycle":5,"event":"backend_barrier","pipe":0,"tile":1}
{"cycle":5,"event":"backend_barrier","pipe":1,"tile":1}
{"cycle":5,"event":"release","tile":1}
{"cycle":5,"event":"prop_pass","pipe":0,"prim":2,"tile":1}
{"cycle":8,"event":"rop_done","pipe":0,"prim":2,"tile":1}
{"cycle":9,"event":"rop_done","pipe":0,"prim":1,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":0,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":1,"tile":0}
{"cycle":11,"event":"release","tile":0}
{"cycle":12,"event":"done","cycles":12,"upstream_stall_cycles":0,"flushes":2}
"#;
    let f = check_trace(&two_tiles(true), &parse(&to_lines(tiled))).expect("valid");
    assert_eq!((f.releases, f.rop_done, f.flushes), (2, 2, 2));
    // Non-tiled: the same early pass breaks BR-6 (prim 1 has not left ROP anywhere).
    assert_eq!(
        expected_flushes(&two_tiles(false)).unwrap(),
        vec![vec![(B, 1), (E, 1)], vec![(B, 0), (E, 0)]]
    );
    let null = r#"
{"cycle":0,"event":"flush","pipe":0,"reason":"barrier","entries":1}
{"cycle":0,"event":"flush","pipe":1,"reason":"barrier","entries":0}
{"cycle":0,"event":"flush","pipe":0,"reason":"end","entries":1}
{"cycle":0,"event":"flush","pipe":1,"reason":"end","entries":0}
{"cycle":3,"event":"prop_pass","pipe":0,"prim":1,"tile":0}
{"cycle":4,"event":"prop_hold","pipe":0,"tile":null}
{"cycle":4,"event":"prop_hold","pipe":1,"tile":null}
{"cycle":5,"event":"backend_barrier","pipe":0,"tile":null}
{"cycle":5,"event":"backend_barrier","pipe":1,"tile":null}
{"cycle":5,"event":"release","tile":null}
{"cycle":5,"event":"prop_pass","pipe":0,"prim":2,"tile":1}
{"cycle":8,"event":"rop_done","pipe":0,"prim":2,"tile":1}
{"cycle":9,"event":"rop_done","pipe":0,"prim":1,"tile":0}
{"cycle":12,"event":"done","cycles":12,"upstream_stall_cycles":0,"flushes":4}
"#;
    let e = check_trace(&two_tiles(false), &parse(&to_lines(null))).unwrap_err();
    assert!(
        e.starts_with("line 11")
            && e.contains("non-tiled barrier #0")
            && e.contains("rop_done of prim 1 (pipe 0) before it at cycle 9")
            && e.contains("BR-6"),
        "{}",
        e
    );
}

#[test]
fn br8_back_to_back_tiled_barriers_are_counted_and_released_separately() {
    let mut s = small();
    s["commands"] = json!([{"kind":"draw","prims":[{"id":10,"bbox":[0,0,31,15]}]},
                           {"kind":"barrier","tiled":true},
                           {"kind":"barrier","tiled":true},
                           {"kind":"draw","prims":[{"id":20,"bbox":[16,0,20,4]}]}]);
    let trace = r#"
{"cycle":0,"event":"flush","pipe":0,"reason":"end","entries":1}
{"cycle":0,"event":"flush","pipe":1,"reason":"end","entries":2}
{"cycle":5,"event":"prop_pass","pipe":0,"prim":10,"tile":0}
{"cycle":5,"event":"prop_pass","pipe":1,"prim":10,"tile":0}
{"cycle":6,"event":"prop_hold","pipe":0,"tile":0}
{"cycle":6,"event":"prop_hold","pipe":1,"tile":0}
{"cycle":9,"event":"rop_done","pipe":0,"prim":10,"tile":0}
{"cycle":9,"event":"rop_done","pipe":1,"prim":10,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":0,"tile":0}
{"cycle":10,"event":"backend_barrier","pipe":1,"tile":0}
{"cycle":11,"event":"release","tile":0}
{"cycle":11,"event":"prop_hold","pipe":0,"tile":0}
{"cycle":11,"event":"prop_hold","pipe":1,"tile":0}
{"cycle":15,"event":"backend_barrier","pipe":0,"tile":0}
{"cycle":15,"event":"backend_barrier","pipe":1,"tile":0}
{"cycle":16,"event":"release","tile":0}
{"cycle":16,"event":"prop_pass","pipe":1,"prim":20,"tile":0}
{"cycle":20,"event":"rop_done","pipe":1,"prim":20,"tile":0}
{"cycle":21,"event":"done","cycles":21,"upstream_stall_cycles":0,"flushes":2}
"#;
    let l = to_lines(trace);
    let f = check_trace(&s, &parse(&l)).expect("valid");
    assert_eq!(f.releases, 2);
    // The single-barrier trace misses the second barrier's events.
    let e = check_trace(&s, &parse(&lines())).unwrap_err();
    assert!(e.contains("missing prop_hold of tiled barrier #1"), "{}", e);
    // Prim 20 passing after the first release but before the second.
    let mut m = l.clone();
    let p = m.remove(16);
    m.insert(11, p.replace(r#""cycle":16"#, r#""cycle":11"#));
    let e = check_trace(&s, &parse(&m)).unwrap_err();
    assert!(
        e.starts_with("line 12") && e.contains("tiled barrier #1") && e.contains("release"),
        "{}",
        e
    );
    // The second release before the second barrier's backend_barrier events.
    let mut m = l.clone();
    let r = m.remove(15);
    m.insert(13, r.replace(r#""cycle":16"#, r#""cycle":11"#));
    let e = check_trace(&s, &parse(&m)).unwrap_err();
    assert!(
        e.starts_with("line 14") && e.contains("tiled barrier #1 for tile 0 before"),
        "{}",
        e
    );
}

proptest::proptest! {
    /// Any deletion, duplication or cycle change of a line is either accepted or rejected with
    /// a message; the checker never panics.
    #[test]
    fn x5_mutated_traces_never_panic(
        i in 0usize..14, j in 0usize..14, op in 0u8..4, c in 0u64..20, tiled in proptest::bool::ANY,
    ) {
        let mut s = small();
        s["commands"][1]["tiled"] = json!(tiled);
        let mut l = lines();
        match op {
            0 => { l.remove(i); }
            1 => { let d = l[i].clone(); l.insert(j, d); }
            2 => l.swap(i, j),
            _ => {
                let mut v: Value = serde_json::from_str(&l[i]).unwrap();
                v["cycle"] = json!(c);
                l[i] = v.to_string();
            }
        }
        let r = check_trace(&s, &parse(&l));
        if let Err(e) = r {
            proptest::prop_assert!(!e.is_empty());
        }
    }
}
