//! Golden model of primitive-specific attributes (PA-2..PA-7) on hand-worked examples: the
//! swizzle of every code on special IEEE-754 values (signed zeros, infinities, NaN payloads) and
//! its register adapter, strip and list triangles with their provoking vertex, the multicast
//! output sequence in strict and viewport order, and the trace checker on a hand-written valid
//! trace (the section 6 example shape) and mutations of it that must each be rejected with the
//! rule named, and a list in viewport order with register-layout swizzles and the last provoking
//! vertex.
use ppu_sim::primitive_attributes::golden::{
    check_trace, expected_outputs, swizzle, swizzle_from_register, triangles, TraceFacts,
};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// PA-5 swizzle

const P0: u32 = 0x0000_0000; // +0.0
const N0: u32 = 0x8000_0000; // -0.0
const P15: u32 = 0x3fc0_0000; // 1.5
const M2: u32 = 0xc000_0000; // -2.0
const PINF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const QNAN: u32 = 0x7fc0_0001; // quiet NaN, payload 1
const SNAN: u32 = 0x7f80_0001; // signalling NaN, payload 1

/// Each special value and its negation, worked by hand (only bit 31 differs).
const NEGATED: [(u32, u32); 8] = [
    (P0, 0x8000_0000),
    (N0, 0x0000_0000),
    (P15, 0xbfc0_0000),
    (M2, 0x4000_0000),
    (PINF, 0xff80_0000),
    (NINF, 0x7f80_0000),
    (QNAN, 0xffc0_0001),
    (SNAN, 0xff80_0001),
];

/// Field value -> (source component, negated), from the PA-5 table +x=0, -x=1, ... -w=7.
const FIELD: [(usize, bool); 8] = [
    (0, false),
    (0, true),
    (1, false),
    (1, true),
    (2, false),
    (2, true),
    (3, false),
    (3, true),
];

fn neg(bits: u32) -> u32 {
    NEGATED
        .iter()
        .find(|(a, _)| *a == bits)
        .map(|(_, b)| *b)
        .expect("a special value")
}

#[test]
fn pa5_every_code_on_every_component_with_special_values() {
    let vertices = [
        [P0, N0, P15, M2],
        [PINF, NINF, QNAN, SNAN],
        [SNAN, M2, N0, PINF],
    ];
    for v in vertices {
        for code in 0u16..4096 {
            let got = swizzle(code, v);
            for c in 0..4 {
                let (src, negated) = FIELD[((code >> (3 * c)) & 7) as usize];
                let want = if negated { neg(v[src]) } else { v[src] };
                assert_eq!(
                    got[c], want,
                    "code {:#05x} component {} of {:08x?}",
                    code, c, v
                );
            }
        }
    }
}

#[test]
fn pa5_hand_worked_codes() {
    // Identity 3344 = 0xD10 = 0 | 2<<3 | 4<<6 | 6<<9.
    assert_eq!(3344, 0xD10);
    for v in [[P0, N0, P15, M2], [PINF, NINF, QNAN, SNAN]] {
        assert_eq!(swizzle(3344, v), v);
    }
    // (-w, +z, -y, +x): fields 7, 4, 3, 0 = 7 | 4<<3 | 3<<6 = 231.
    assert_eq!(
        swizzle(231, [P15, M2, PINF, QNAN]),
        [0xffc0_0001, 0x7f80_0000, 0x4000_0000, 0x3fc0_0000]
    );
    // All -x (0x249 = 1 | 1<<3 | 1<<6 | 1<<9) on a signalling NaN keeps its payload.
    assert_eq!(swizzle(0x249, [SNAN, P0, P0, P0]), [0xff80_0001; 4]);
    // -0.0 through +y and -y.
    assert_eq!(
        swizzle(2 | 3 << 3 | 2 << 6 | 3 << 9, [P0, N0, P0, P0]),
        [N0, P0, N0, P0]
    );
}

#[test]
fn pa5_register_adapter() {
    assert_eq!(swizzle_from_register(0x6420), Ok(3344));
    // (-w, +z, -y, +x) in the register layout: 7 | 4<<4 | 3<<8 | 0<<12.
    assert_eq!(swizzle_from_register(0x0347), Ok(231));
    assert_eq!(swizzle_from_register(0x7777), Ok(0xFFF));
    assert_eq!(swizzle_from_register(0), Ok(0));
    for bad in [0x6428u32, 0x64a0, 0x6c20, 0xe420, 0x8888, 0x1_6420] {
        let e = swizzle_from_register(bad).expect_err("a reserved or out-of-range bit");
        assert!(e.contains("PA-5"), "{}", e);
    }
    // Every packed code through its register form.
    for code in 0u32..4096 {
        let reg = (code & 7)
            + ((code >> 3) & 7) * 16
            + ((code >> 6) & 7) * 256
            + ((code >> 9) & 7) * 4096;
        assert_eq!(swizzle_from_register(reg), Ok(code as u16));
    }
}

// ---------------------------------------------------------------------------------------------
// Topology

#[test]
fn pa6_strip_and_list_triangles_and_provoking_vertices() {
    assert_eq!(
        triangles("triangle_strip", 6).unwrap(),
        vec![[0, 1, 2], [2, 1, 3], [2, 3, 4], [4, 3, 5]]
    );
    assert_eq!(
        triangles("triangle_list", 6).unwrap(),
        vec![[0, 1, 2], [3, 4, 5]]
    );
    assert_eq!(triangles("triangle_strip", 3).unwrap(), vec![[0, 1, 2]]);
    // Provoking vertices of the strip of 6: output vertex 0 (first) and 2 (last).
    let strip = triangles("triangle_strip", 6).unwrap();
    let first: Vec<usize> = strip.iter().map(|t| t[0]).collect();
    let last: Vec<usize> = strip.iter().map(|t| t[2]).collect();
    assert_eq!(first, vec![0, 2, 2, 4]);
    assert_eq!(last, vec![2, 3, 4, 5]);
    assert!(triangles("triangle_list", 7).is_err());
    assert!(triangles("triangle_list", 0).is_err());
    assert!(triangles("triangle_strip", 2).is_err());
    assert!(triangles("triangle_fan", 6).is_err());
}

// ---------------------------------------------------------------------------------------------
// PA-2, PA-3, PA-4 outputs

#[test]
fn pa2_masks_zero_single_bits_and_all() {
    assert_eq!(expected_outputs(&[(0, 7)], "strict", 1, true), vec![]);
    assert_eq!(
        expected_outputs(&[(1 << 15, 5)], "strict", 1, true),
        vec![(0, 15, 20)]
    );
    assert_eq!(
        expected_outputs(&[(1 << 15, 5)], "viewport", 4, false),
        vec![(0, 15, 5)]
    );
    assert_eq!(
        expected_outputs(&[(1 << 3, 0)], "viewport", 1, true),
        vec![(0, 3, 3)]
    );
    let all = expected_outputs(&[(0xFFFF, 100)], "strict", 1, true);
    assert_eq!(all.len(), 16);
    for (vp, o) in all.iter().enumerate() {
        assert_eq!(*o, (0, vp, 100 + vp as u32));
    }
    let off = expected_outputs(&[(0xFFFF, 100)], "viewport", 2, false);
    assert_eq!(off, (0..16).map(|vp| (0, vp, 100)).collect::<Vec<_>>());
}

/// Masks: p0 {0,2}, p1 {0,1}, p2 none, p3 {1,2}, p4 {0,15}; layers 0, 10, 20, 30, 40.
const PRIMS: [(u16, u32); 5] = [(0b101, 0), (0b011, 10), (0, 20), (0b110, 30), (0x8001, 40)];

#[test]
fn pa4_strict_and_viewport_order_with_batches() {
    let strict = vec![
        (0, 0, 0),
        (0, 2, 2),
        (1, 0, 10),
        (1, 1, 11),
        (3, 1, 31),
        (3, 2, 32),
        (4, 0, 40),
        (4, 15, 55),
    ];
    assert_eq!(expected_outputs(&PRIMS, "strict", 2, true), strict);
    // Batches {0,1}, {2,3}, {4}.
    let batch2 = vec![
        (0, 0, 0),
        (1, 0, 10),
        (1, 1, 11),
        (0, 2, 2),
        (3, 1, 31),
        (3, 2, 32),
        (4, 0, 40),
        (4, 15, 55),
    ];
    assert_eq!(expected_outputs(&PRIMS, "viewport", 2, true), batch2);
    // Batches {0,1,2}, {3,4}.
    let batch3 = vec![
        (0, 0, 0),
        (1, 0, 10),
        (1, 1, 11),
        (0, 2, 2),
        (4, 0, 40),
        (3, 1, 31),
        (3, 2, 32),
        (4, 15, 55),
    ];
    assert_eq!(expected_outputs(&PRIMS, "viewport", 3, true), batch3);
    // Batch 1 is strict order.
    assert_eq!(expected_outputs(&PRIMS, "viewport", 1, true), strict);
    // Same multiset whatever the order and batch.
    let sorted = |mut v: Vec<(usize, usize, u32)>| {
        v.sort();
        v
    };
    for b in 1..7 {
        assert_eq!(
            sorted(expected_outputs(&PRIMS, "viewport", b, true)),
            sorted(strict.clone())
        );
    }
}

#[test]
fn pa3_layer_offset_off_keeps_the_primitive_layer() {
    assert_eq!(
        expected_outputs(&PRIMS, "strict", 2, false),
        vec![
            (0, 0, 0),
            (0, 2, 0),
            (1, 0, 10),
            (1, 1, 10),
            (3, 1, 30),
            (3, 2, 30),
            (4, 0, 40),
            (4, 15, 40),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Trace checker

/// The section 6 example: a strip of 4 vertices, triangles (0,1,2) and (2,1,3), masks [3, 0],
/// layers [0, 2], first provoking vertex, layer offset on, identity swizzles.
fn scenario() -> Value {
    json!({"unit":"primitive-attributes",
     "config":{"gs_mode":"fast","order":"strict","batch":16,"provoking":"first",
               "layer_offset":true,"vertex_cache":32,"swizzle":[3344,3344,3344,3344,3344,3344,3344,3344,3344,3344,3344,3344,3344,3344,3344,3344]},
     "topology":"triangle_strip",
     "vertices":[[0.0,0.0,0.5,1.0],[1.0,0.0,0.5,1.0],[0.0,1.0,0.5,1.0],[1.0,1.0,0.5,1.0]],
     "prims":[{"mask":3,"layer":0},{"mask":0,"layer":2}]})
}

/// `s` with the value at `path` (object keys, or array indices as numbers) set to `v`.
fn with(mut s: Value, path: &[&str], v: Value) -> Value {
    let mut at = &mut s;
    for k in path {
        at = match k.parse::<usize>() {
            Ok(i) if at.is_array() => &mut at[i],
            _ => &mut at[*k],
        };
    }
    *at = v;
    s
}

// Bit patterns: 0.5 = 0x3f000000 = 1056964608, 1.0 = 0x3f800000 = 1065353216.
const V0: [u32; 4] = [0, 0, 1056964608, 1065353216];
const V1: [u32; 4] = [1065353216, 0, 1056964608, 1065353216];
const V2: [u32; 4] = [0, 1065353216, 1056964608, 1065353216];
const V3: [u32; 4] = [1065353216, 1065353216, 1056964608, 1065353216];

const TRACE: &str = r#"
{"cycle":1,"event":"vs","vertex":0}
{"cycle":1,"event":"vs","vertex":1}
{"cycle":2,"event":"vs","vertex":2}
{"cycle":2,"event":"vs","vertex":3}
{"cycle":3,"event":"gs","prim":0}
{"cycle":4,"event":"gs","prim":1}
{"cycle":5,"event":"cache","vertex":0,"hit":false}
{"cycle":5,"event":"cache","vertex":1,"hit":false}
{"cycle":5,"event":"cache","vertex":2,"hit":false}
{"cycle":6,"event":"cache","vertex":2,"hit":true}
{"cycle":7,"event":"out","prim":0,"viewport":0,"layer":0,"vertices":[[0,0,1056964608,1065353216],[1065353216,0,1056964608,1065353216],[0,1065353216,1056964608,1065353216]],"provoking_vertex":0,"provoking_instance":0}
{"cycle":7,"event":"out","prim":0,"viewport":1,"layer":1,"vertices":[[0,0,1056964608,1065353216],[1065353216,0,1056964608,1065353216],[0,1065353216,1056964608,1065353216]],"provoking_vertex":0,"provoking_instance":0}
{"cycle":8,"event":"kill","prim":1}
{"cycle":9,"event":"done","cycles":9,"vs":4,"gs":2,"outs":2,"cache_hits":1,"cache_misses":3}
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

/// An `out` line.
fn out_line(
    cycle: u64,
    prim: u64,
    vp: u64,
    layer: u64,
    v: [[u32; 4]; 3],
    pv: u64,
    inst: u64,
) -> String {
    json!({"cycle":cycle,"event":"out","prim":prim,"viewport":vp,"layer":layer,"vertices":v,
           "provoking_vertex":pv,"provoking_instance":inst})
    .to_string()
}

fn accepted(scenario: &Value, l: &[String]) -> TraceFacts {
    check_trace(scenario, &parse(l)).unwrap_or_else(|e| panic!("the trace is valid: {}", e))
}

/// Check `l` against `scenario`: the error, which must exist and contain every `words`.
fn rejected_lines(scenario: &Value, l: &[String], words: &[&str]) -> String {
    let e = check_trace(scenario, &parse(l)).expect_err("the trace is rejected");
    for w in words {
        assert!(e.contains(w), "expected {:?} in: {}", w, e);
    }
    eprintln!("rejected: {}", e);
    e
}

/// The base trace after `edit`, against the base scenario.
fn rejected(edit: impl Fn(&mut Vec<String>), words: &[&str]) -> String {
    let mut l = lines();
    edit(&mut l);
    rejected_lines(&scenario(), &l, words)
}

#[test]
fn pa7_hand_written_example_trace_is_accepted() {
    assert_eq!(
        accepted(&scenario(), &lines()),
        TraceFacts {
            cycles: 9,
            vs: 4,
            gs: 2,
            outs: 2,
            kills: 1,
            cache_hits: 1,
            cache_misses: 3,
        }
    );
    // The same through the register layout (identity 0x6420).
    let reg = with(scenario(), &["config", "swizzle_format"], json!("register"));
    let reg = with(reg, &["config", "swizzle"], json!([0x6420u32; 16].to_vec()));
    accepted(&reg, &lines());
    // The traditional GS mode changes no checked rule.
    accepted(
        &with(scenario(), &["config", "gs_mode"], json!("traditional")),
        &lines(),
    );
}

#[test]
fn pa7_rejects_a_missing_vs() {
    rejected(
        |l| {
            l.remove(find(l, r#""vs","vertex":1"#));
        },
        &["gs of prim 0", "vs of its vertex 1", "PA-7"],
    );
    // Vertex 3 is used only by the killed prim 1: still shaded.
    rejected(
        |l| {
            l.remove(find(l, r#""vs","vertex":3"#));
        },
        &["vertex 3", "PA-7"],
    );
}

#[test]
fn pa7_rejects_a_second_gs_for_one_prim() {
    rejected(
        |l| {
            let i = find(l, r#""gs","prim":0"#);
            l.insert(i + 1, l[i].clone());
        },
        &["line 6", "duplicated gs", "prim 0", "PA-7"],
    );
}

#[test]
fn pa2_rejects_an_out_for_a_masked_off_viewport() {
    rejected(
        |l| {
            let i = find(l, r#""viewport":1"#);
            l[i] = l[i].replace(r#""viewport":1,"layer":1"#, r#""viewport":2,"layer":2"#);
        },
        &["line 12", "viewport 2", "mask 0x0003", "PA-2"],
    );
}

#[test]
fn pa3_rejects_a_wrong_layer() {
    rejected(
        |l| {
            let i = find(l, r#""viewport":1"#);
            l[i] = l[i].replace(r#""layer":1"#, r#""layer":3"#);
        },
        &["line 12", "layer 3", "expected 1", "PA-3"],
    );
    // Layer offset off: viewport 1 keeps layer 0.
    let off = with(scenario(), &["config", "layer_offset"], json!(false));
    rejected_lines(&off, &lines(), &["layer 1", "expected 0", "PA-3"]);
}

#[test]
fn pa5_rejects_a_sign_not_flipped_for_a_minus_x_swizzle() {
    // Viewport 1 swizzle (-x, +y, +z, +w) = 3344 | 1 = 3345.
    let mut sw = vec![json!(3344); 16];
    sw[1] = json!(3345);
    let neg_x = with(scenario(), &["config", "swizzle"], json!(sw));
    // The base trace: +0.0 where -0.0 (0x80000000) is expected.
    rejected_lines(
        &neg_x,
        &lines(),
        &["vertices[0][0] = 0x00000000", "expected 0x80000000", "PA-5"],
    );
    let flip = |v: [u32; 4]| [v[0] ^ 0x8000_0000, v[1], v[2], v[3]];
    let mut l = lines();
    let i = find(&l, r#""viewport":1"#);
    l[i] = out_line(7, 0, 1, 1, [flip(V0), flip(V1), flip(V2)], 0, 0);
    accepted(&neg_x, &l);
    // Vertex 1 (x = 1.0) not flipped: 0x3f800000 where 0xbf800000 is expected.
    l[i] = out_line(7, 0, 1, 1, [flip(V0), V1, flip(V2)], 0, 0);
    rejected_lines(
        &neg_x,
        &l,
        &["vertices[1][0] = 0x3f800000", "expected 0xbf800000", "PA-5"],
    );
}

#[test]
fn pa5_nan_payload_given_as_a_bit_pattern_string() {
    let mut sw = vec![json!(3344); 16];
    sw[1] = json!(3345);
    let s = with(scenario(), &["config", "swizzle"], json!(sw));
    let s = with(s, &["vertices", "0"], json!(["0x7fc00001", -0.0, 0.5, 1.0]));
    let v0 = [0x7fc0_0001, 0x8000_0000, V0[2], V0[3]];
    let flip = |v: [u32; 4]| [v[0] ^ 0x8000_0000, v[1], v[2], v[3]];
    let mut l = lines();
    let i = find(&l, r#""viewport":0"#);
    l[i] = out_line(7, 0, 0, 0, [v0, V1, V2], 0, 0);
    l[i + 1] = out_line(7, 0, 1, 1, [flip(v0), flip(V1), flip(V2)], 0, 0);
    accepted(&s, &l);
    assert_eq!(flip(v0)[0], 0xffc0_0001);
    // The payload must be kept exactly.
    l[i + 1] = out_line(
        7,
        0,
        1,
        1,
        [[0xffc0_0000, 0x8000_0000, V0[2], V0[3]], flip(V1), flip(V2)],
        0,
        0,
    );
    rejected_lines(
        &s,
        &l,
        &["vertices[0][0] = 0xffc00000", "expected 0xffc00001"],
    );
}

#[test]
fn pa6_provoking_vertex_first_and_last() {
    let last = with(scenario(), &["config", "provoking"], json!("last"));
    rejected_lines(
        &last,
        &lines(),
        &["provoking_vertex 0", "expected input vertex 2", "PA-6"],
    );
    let l: Vec<String> = lines()
        .iter()
        .map(|s| s.replace(r#""provoking_vertex":0"#, r#""provoking_vertex":2"#))
        .collect();
    accepted(&last, &l);
}

/// Masks [3, 1]: prim 1 (triangle (2,1,3), layer 2) goes to viewport 0 with layer 2; `order`
/// strict gives p0v0, p0v1, p1v0; viewport order (batch 2) p0v0, p1v0, p0v1.
fn two_prims(order: &str) -> Value {
    let s = with(scenario(), &["prims", "1", "mask"], json!(1));
    let s = with(s, &["config", "order"], json!(order));
    with(s, &["config", "batch"], json!(2))
}

/// The base trace with prim 1's kill replaced by its output (instance `inst`), placed after
/// the out at `after` (0 or 1), and done.outs 3.
fn two_prims_trace(inst: u64, after: usize) -> Vec<String> {
    let mut l = lines();
    l.remove(find(&l, r#""kill""#));
    let i = find(&l, r#""viewport":0"#);
    l.insert(i + 1 + after, out_line(7, 1, 0, 2, [V2, V1, V3], 2, inst));
    let d = find(&l, r#""done""#);
    l[d] = l[d].replace(r#""outs":2"#, r#""outs":3"#);
    l
}

#[test]
fn pa6_rejects_two_prims_sharing_a_provoking_instance() {
    let f = accepted(&two_prims("strict"), &two_prims_trace(1, 1));
    assert_eq!((f.outs, f.kills), (3, 0));
    rejected_lines(
        &two_prims("strict"),
        &two_prims_trace(0, 1),
        &[
            "line 13",
            "provoking_instance 0",
            "prim 1",
            "prim 0",
            "PA-6",
        ],
    );
    // One primitive's outputs share one instance.
    let mut l = lines();
    let i = find(&l, r#""viewport":1"#);
    l[i] = l[i].replace(r#""provoking_instance":0"#, r#""provoking_instance":5"#);
    rejected_lines(&scenario(), &l, &["provoking_instance 5", "PA-6"]);
}

#[test]
fn pa4_rejects_out_of_order_in_strict_mode() {
    // Viewport order is accepted in viewport mode and rejected in strict mode, and back.
    accepted(&two_prims("viewport"), &two_prims_trace(1, 0));
    rejected_lines(
        &two_prims("strict"),
        &two_prims_trace(1, 0),
        &[
            "line 12",
            "out of order",
            "prim 1 viewport 0",
            "strict order",
            "prim 0 viewport 1",
            "PA-4",
        ],
    );
    rejected_lines(
        &two_prims("viewport"),
        &two_prims_trace(1, 1),
        &["out of order", "viewport order", "PA-4"],
    );
    // Within one primitive, ascending viewports.
    rejected(
        |l| {
            let i = find(l, r#""viewport":0"#);
            l.swap(i, i + 1);
        },
        &["line 11", "out of order", "prim 0 viewport 1", "PA-4"],
    );
}

#[test]
fn pa2_rejects_a_missing_kill_and_a_wrong_one() {
    rejected(
        |l| {
            l.remove(find(l, r#""kill""#));
        },
        &["end of the trace", "missing kill", "prim 1", "PA-2"],
    );
    rejected(
        |l| {
            let i = find(l, r#""kill""#);
            l.insert(i, l[i].clone());
        },
        &["duplicated kill", "prim 1", "PA-2"],
    );
    rejected(
        |l| {
            let i = find(l, r#""kill""#);
            l[i] = l[i].replace(r#""prim":1"#, r#""prim":0"#);
        },
        &["kill of prim 0", "mask is 0x0003", "PA-2"],
    );
    // A missing out.
    rejected(
        |l| {
            l.remove(find(l, r#""viewport":1"#));
            let d = find(l, r#""done""#);
            l[d] = l[d].replace(r#""outs":2"#, r#""outs":1"#);
        },
        &["missing out of prim 0 to viewport 1", "PA-2"],
    );
}

#[test]
fn x5_rejects_done_figures_and_cycles() {
    rejected(
        |l| {
            let d = find(l, r#""done""#);
            l[d] = l[d].replace(r#""outs":2"#, r#""outs":3"#);
        },
        &["line 14", "done.outs = 3", "2 such events"],
    );
    rejected(
        |l| {
            let d = find(l, r#""done""#);
            l[d] = l[d].replace(r#""cache_hits":1"#, r#""cache_hits":0"#);
        },
        &["done.cache_hits = 0"],
    );
    rejected(
        |l| {
            let d = find(l, r#""done""#);
            l[d] = l[d].replace(r#""cycles":9"#, r#""cycles":8"#);
        },
        &["done.cycles = 8", "X-5"],
    );
    rejected(
        |l| {
            let i = find(l, r#""kill""#);
            l[i] = l[i].replace(r#""cycle":8"#, r#""cycle":6"#);
        },
        &["line 13", "cycle goes back", "X-5"],
    );
    rejected(
        |l| {
            l.pop();
        },
        &["the last event is not done", "X-5"],
    );
    rejected(
        |l| {
            let d = l.last().unwrap().clone();
            l.push(d);
        },
        &["an event after done", "X-5"],
    );
}

#[test]
fn x5_rejects_an_unknown_field_a_missing_field_and_an_unknown_event() {
    rejected(
        |l| {
            l[0] = l[0].replace(r#""vertex":0"#, r#""vertex":0,"extra":1"#);
        },
        &["line 1", "unknown field", "extra"],
    );
    rejected(
        |l| {
            let i = find(l, r#""cache""#);
            l[i] = l[i].replace(r#","hit":false"#, "");
        },
        &["line 7", "lacks the field", "hit"],
    );
    rejected(
        |l| {
            l.insert(0, r#"{"cycle":0,"event":"clip","prim":0}"#.to_string());
        },
        &["line 1", "unknown event"],
    );
    rejected(
        |l| {
            l[0] = l[0].replace(r#""vertex":0"#, r#""vertex":4"#);
        },
        &["line 1", "vertex = 4", "out of range"],
    );
    rejected(
        |l| {
            let i = find(l, r#""viewport":0"#);
            l[i] = l[i].replace("[0,0,1056964608,1065353216],", "[0,0,1056964608],");
        },
        &["line 11", "field vertices"],
    );
}

#[test]
fn x5_bad_scenarios_are_refused_with_the_field_named() {
    let bad = |s: Value, words: &[&str]| {
        let e = check_trace(&s, &parse(&lines())).expect_err("a bad scenario");
        for w in words {
            assert!(e.contains(w), "expected {:?} in: {}", w, e);
        }
    };
    // The document's elided list is not input.
    bad(
        with(
            scenario(),
            &["config", "swizzle"],
            json!([3344, 3344, "... 16 values of 12 bits"]),
        ),
        &["config.swizzle", "16"],
    );
    bad(
        with(
            scenario(),
            &["config", "swizzle"],
            json!([3344u32; 15].to_vec()),
        ),
        &["config.swizzle"],
    );
    let mut sw = vec![json!(3344); 16];
    sw[3] = json!(4096);
    bad(
        with(scenario(), &["config", "swizzle"], json!(sw)),
        &["config.swizzle[3]", "PA-5"],
    );
    // 3344 = 0xD10 sets reserved bit 11 of the register layout.
    bad(
        with(scenario(), &["config", "swizzle_format"], json!("register")),
        &["config.swizzle[0]", "reserved", "PA-5"],
    );
    bad(
        with(scenario(), &["config", "colour"], json!(1)),
        &["config", "unknown field", "colour"],
    );
    bad(
        with(scenario(), &["config", "order"], json!("random")),
        &["config.order"],
    );
    bad(
        with(scenario(), &["config", "batch"], json!(0)),
        &["config.batch"],
    );
    bad(
        with(scenario(), &["config", "vertex_cache"], json!(0)),
        &["config.vertex_cache"],
    );
    let mut no_gs = scenario();
    no_gs["config"].as_object_mut().unwrap().remove("gs_mode");
    bad(no_gs, &["config.gs_mode is missing"]);
    bad(
        with(scenario(), &["topology"], json!("triangle_list")),
        &["triangle_list"],
    );
    bad(
        with(scenario(), &["prims"], json!([{"mask":3,"layer":0}])),
        &["prims has 1 entries", "2 triangles"],
    );
    bad(
        with(scenario(), &["prims", "0", "mask"], json!(65536)),
        &["prims[0].mask"],
    );
    bad(
        with(scenario(), &["vertices", "1", "2"], json!("0xnope")),
        &["vertices[1][2]"],
    );
    bad(
        with(scenario(), &["vertices", "1", "2"], json!(1e300)),
        &["vertices[1][2]", "overflows"],
    );
    bad(with(scenario(), &["unit"], json!("barrier")), &["unit"]);
    bad(
        with(scenario(), &["index_buffer"], json!([])),
        &["index_buffer"],
    );
}

#[test]
fn pa5_negative_zero_read_from_scenario_text() {
    // Vertex 0 x written as -0.0 in the scenario's text: bit pattern 0x80000000 on viewport 0.
    let text = scenario()
        .to_string()
        .replacen("[0.0,0.0,0.5,1.0]", "[-0.0,0.0,0.5,1.0]", 1);
    assert!(text.contains("-0.0"), "{}", text);
    let s: Value = serde_json::from_str(&text).unwrap();
    let mut l = lines();
    let i = find(&l, r#""viewport":0"#);
    let v0 = [0x8000_0000, 0, V0[2], V0[3]];
    l[i] = out_line(7, 0, 0, 0, [v0, V1, V2], 0, 0);
    l[i + 1] = out_line(7, 0, 1, 1, [v0, V1, V2], 0, 0);
    accepted(&s, &l);
    rejected_lines(
        &s,
        &lines(),
        &["vertices[0][0] = 0x00000000", "expected 0x80000000"],
    );
}

/// A list of 6 vertices (triangles (0,1,2) and (3,4,5)), viewport order with batch 2, last
/// provoking vertex, register-layout swizzles: viewport 2 swaps x and y (0x6402), viewport 3 is
/// (-w, -z, -y, -x) (fields 7, 5, 3, 1: 0x1357), the others identity (0x6420). Vertex i is the
/// bit patterns [16i+1, 16i+2, 16i+3, 16i+4], given as "0x" strings. Masks {1,3} and {1,2},
/// layers 4 and 8, layer offset on.
fn list_scenario() -> Value {
    let mut sw = vec![json!(0x6420); 16];
    sw[2] = json!(0x6402);
    sw[3] = json!(0x1357);
    let vertices: Vec<Value> = (0..6u32)
        .map(|i| {
            json!((1..=4)
                .map(|c| format!("0x{:x}", 16 * i + c))
                .collect::<Vec<_>>())
        })
        .collect();
    json!({"unit":"primitive-attributes",
     "config":{"gs_mode":"traditional","order":"viewport","batch":2,"provoking":"last",
               "layer_offset":true,"vertex_cache":8,"swizzle":sw,"swizzle_format":"register"},
     "topology":"triangle_list",
     "vertices":vertices,
     "prims":[{"mask":0b1010,"layer":4},{"mask":0b0110,"layer":8}]})
}

fn vtx(i: u32) -> [u32; 4] {
    [16 * i + 1, 16 * i + 2, 16 * i + 3, 16 * i + 4]
}

/// The list scenario's trace with its outputs in `order` (prim, viewport, layer).
fn list_trace(order: &[(u64, u64, u64)]) -> Vec<String> {
    let id = |v: [u32; 4]| v;
    let swap_xy = |v: [u32; 4]| [v[1], v[0], v[2], v[3]];
    let neg_rev = |v: [u32; 4]| {
        let s = 0x8000_0000u32;
        [v[3] | s, v[2] | s, v[1] | s, v[0] | s]
    };
    let mut l: Vec<String> = (0..6)
        .map(|v| json!({"cycle":v,"event":"vs","vertex":v}).to_string())
        .collect();
    l.push(r#"{"cycle":6,"event":"gs","prim":0}"#.to_string());
    l.push(r#"{"cycle":6,"event":"gs","prim":1}"#.to_string());
    for (k, &(p, vp, layer)) in order.iter().enumerate() {
        let f: fn([u32; 4]) -> [u32; 4] = match vp {
            2 => swap_xy,
            3 => neg_rev,
            _ => id,
        };
        let b = 3 * p as u32;
        let verts = [f(vtx(b)), f(vtx(b + 1)), f(vtx(b + 2))];
        l.push(out_line(
            10 + k as u64,
            p,
            vp,
            layer,
            verts,
            3 * p + 2,
            100 + p,
        ));
    }
    l.push(format!(
        r#"{{"cycle":20,"event":"done","cycles":21,"vs":6,"gs":2,"outs":{},"cache_hits":0,"cache_misses":0}}"#,
        order.len()
    ));
    l
}

#[test]
fn pa4_list_in_viewport_order_with_register_swizzles() {
    // Batch {0,1}: viewport 1: p0 (layer 5), p1 (layer 9); viewport 2: p1 (10); viewport 3: p0 (7).
    let viewport_order = [(0, 1, 5), (1, 1, 9), (1, 2, 10), (0, 3, 7)];
    let f = accepted(&list_scenario(), &list_trace(&viewport_order));
    assert_eq!((f.cycles, f.vs, f.gs, f.outs, f.kills), (21, 6, 2, 4, 0));
    let strict_order = [(0, 1, 5), (0, 3, 7), (1, 1, 9), (1, 2, 10)];
    rejected_lines(
        &list_scenario(),
        &list_trace(&strict_order),
        &[
            "line 10",
            "out of order",
            "viewport order (batch 2)",
            "PA-4",
        ],
    );
    let strict = with(list_scenario(), &["config", "order"], json!("strict"));
    accepted(&strict, &list_trace(&strict_order));
    // Batch 1 is strict order too.
    let batch1 = with(list_scenario(), &["config", "batch"], json!(1));
    accepted(&batch1, &list_trace(&strict_order));
    // Viewport 3 in the packed layout would be 7 | 5<<3 | 3<<6 | 1<<9 = 751.
    let mut sw = vec![json!(3344); 16];
    sw[2] = json!(2 | 4 << 6 | 6 << 9);
    sw[3] = json!(751);
    let packed = with(
        list_scenario(),
        &["config", "swizzle_format"],
        json!("packed"),
    );
    let packed = with(packed, &["config", "swizzle"], json!(sw));
    accepted(&packed, &list_trace(&viewport_order));
    // The first provoking vertex instead: 3p, not 3p+2.
    let first = with(list_scenario(), &["config", "provoking"], json!("first"));
    rejected_lines(
        &first,
        &list_trace(&viewport_order),
        &["provoking_vertex 2", "expected input vertex 0", "PA-6"],
    );
}
