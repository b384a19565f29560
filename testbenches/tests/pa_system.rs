//! Primitive-attribute system testbench (PA-1..PA-9, section 6 scenario and trace): the
//! built-in scenario and the applications of PA-8 (cube map, voxelization, cascaded shadow
//! maps) in both GS modes and both orders, swizzles with NaN payloads, -0.0 and infinities
//! through the register layout, the vertex-cache figures of PA-9 (one new vertex per strip
//! triangle with the last vertex provoking, two with the first, three for a traditional GS),
//! bad scenarios (exit 2 naming the field) and random scenarios. Every trace is checked by the
//! golden checker, written from the requirements independently of the RTL. Lint and
//! co-simulation of `pa_cluster`: tests/verilog.rs.
use ppu_sim::primitive_attributes::apps::{
    cascaded_shadow_maps, cube_face, cube_map, voxelization, Knobs,
};
use ppu_sim::primitive_attributes::bench::{
    cache_scenario, cube_passes, hit_rate, plain_draw, CacheSetup,
};
use ppu_sim::primitive_attributes::golden::check_trace;
use ppu_sim::primitive_attributes::scenario::{builtin, run_checked, system_config};
use ppu_sim::primitive_attributes::system::SystemResult;
use ppu_sim::registry::run_value;
use ppu_sim::repo_root;
use ppu_sim::scenario::{RunError, RunOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Run a scenario through the system with the golden check; return the figures and events.
fn run(v: &Value) -> (SystemResult, Vec<Value>) {
    let cfg = system_config(v).unwrap_or_else(|e| panic!("{}", e));
    run_checked(v, &cfg, None).unwrap_or_else(|e| panic!("{}", e))
}

fn events<'a>(ev: &'a [Value], name: &str) -> Vec<&'a Value> {
    ev.iter().filter(|e| e["event"] == name).collect()
}

/// `v` with the value at `path` (object keys, or array indices as numbers) replaced by `x`.
fn with(mut v: Value, path: &[&str], x: Value) -> Value {
    let mut p = &mut v;
    for k in path {
        p = match k.parse::<usize>() {
            Ok(i) if p.is_array() => &mut p[i],
            _ => &mut p[*k],
        };
    }
    *p = x;
    v
}

#[test]
fn pa2_pa3_builtin_multicasts_to_two_viewports_and_kills_mask_zero() {
    let (r, ev) = run(&builtin());
    assert_eq!((r.outs, r.kills, r.vs, r.gs), (2, 1, 4, 2));
    let outs = events(&ev, "out");
    assert_eq!(outs[0]["viewport"], 0);
    assert_eq!(outs[1]["viewport"], 1);
    // layer_offset: layer 0 + viewport.
    assert_eq!(outs[1]["layer"], 1);
    // Viewport 1 swaps x and y and negates z: vertex 1 (1, 0, 0.5, 1) -> (0, 1, -0.5, 1).
    let v1 = &outs[1]["vertices"][1];
    assert_eq!(v1[0], 0f32.to_bits());
    assert_eq!(v1[1], 1f32.to_bits());
    assert_eq!(v1[2], (-0.5f32).to_bits());
    assert_eq!(events(&ev, "kill")[0]["prim"], 1);
    // PA-6: both outputs of primitive 0 carry one instance.
    assert_eq!(outs[0]["provoking_instance"], outs[1]["provoking_instance"]);
}

#[test]
fn pa2_pa3_builtin_writes_waves_for_gtkwave() {
    let dir = std::env::temp_dir().join(format!("ppu-pa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = repo_root().join("waves").join("pa_system.vcd");
    let opts = RunOptions {
        trace: Some(dir.join("t.jsonl")),
        vcd: Some(vcd.clone()),
        ..RunOptions::default()
    };
    run_value(&builtin(), &opts).unwrap();
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("beat_viewport") && text.contains("result_hit"));
    assert!(vcd.with_extension("gtkw").exists());
}

#[test]
fn pa5_swizzle_passes_nan_payloads_negative_zero_and_infinities_bit_exactly() {
    // Register layout: viewport 0 = (-w, -z, -y, -x), viewport 1 = identity, others identity.
    let reg = |c: [u32; 4]| c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12;
    let mut swizzle = vec![json!(0x6420); 16];
    swizzle[0] = json!(reg([7, 5, 3, 1]));
    let v = json!({"unit":"primitive-attributes",
        "config":{"gs_mode":"fast","order":"viewport","batch":2,"provoking":"last",
                  "layer_offset":false,"vertex_cache":8,"swizzle":swizzle,
                  "swizzle_format":"register"},
        "topology":"triangle_list",
        "vertices":[["0x7fc00001","0x80000000","0x7f800000","0xff800000"],
                    ["0x7f800001",-0.0,1.5,"0xffc00000"],
                    [0.0,"0x00000001",-2.0,1.0]],
        "prims":[{"mask":3,"layer":7}]});
    let (r, ev) = run(&v);
    assert_eq!(r.outs, 2);
    let outs = events(&ev, "out");
    let v0 = &outs[0]["vertices"][0];
    // -w, -z, -y, -x of (0x7fc00001, 0x80000000, 0x7f800000, 0xff800000).
    assert_eq!(v0[0], 0x7f80_0000u32);
    assert_eq!(v0[1], 0xff80_0000u32);
    assert_eq!(v0[2], 0x0000_0000u32);
    assert_eq!(v0[3], 0xffc0_0001u32);
    assert_eq!(outs[1]["vertices"][1][0], 0x7f80_0001u32);
    assert_eq!(outs[1]["vertices"][1][1], (-0.0f32).to_bits());
}

#[test]
fn pa7_pa8_applications_run_world_space_work_once_in_both_modes_and_orders() {
    for gs_mode in ["fast", "traditional"] {
        for order in ["strict", "viewport"] {
            let k = Knobs {
                gs_mode,
                order,
                batch: 5,
                vertex_cache: 16,
                ..Knobs::default()
            };
            for v in [
                cube_map(&k, 12),
                voxelization(&k, 30),
                cascaded_shadow_maps(&k, 12),
            ] {
                let (r, _) = run(&v);
                let verts = v["vertices"].as_array().unwrap().len() as u64;
                let prims = v["prims"].as_array().unwrap();
                let want: u64 = prims
                    .iter()
                    .map(|p| (p["mask"].as_u64().unwrap() as u16).count_ones() as u64)
                    .sum();
                assert_eq!((r.vs, r.gs), (verts, prims.len() as u64), "PA-7");
                assert_eq!(r.outs, want, "PA-2: one output per set bit");
            }
        }
    }
}

#[test]
fn pa8_cube_map_masks_are_the_faces_of_the_vertices() {
    let v = cube_map(&Knobs::default(), 8);
    let verts = v["vertices"].as_array().unwrap();
    let p0 = v["prims"][0]["mask"].as_u64().unwrap();
    let faces: u64 = (0..3)
        .map(|i| {
            let c: Vec<f64> = (0..3).map(|k| verts[i][k].as_f64().unwrap()).collect();
            1u64 << cube_face([c[0], c[1], c[2]])
        })
        .fold(0, |a, b| a | b);
    assert_eq!(p0, faces);
    assert_eq!(cube_face([-0.2, 0.9, 0.1]), 2);
    assert_eq!(cube_face([0.1, 0.2, -0.9]), 5);
}

#[test]
fn pa9_vpc_vertices_per_strip_triangle_fast_last_1_first_2_traditional_3() {
    let n = 30u64;
    let fig = |gs: &str, prov: &str| run(&plain_draw("triangle_strip", n as usize, gs, prov)).0;
    let last = fig("fast", "last");
    // The first triangle fetches its three vertices, every later one only its newest.
    assert_eq!(last.cache_misses, n + 2);
    let first = fig("fast", "first");
    // The first vertex (provoking) was used by the triangle before: a new instance each time.
    assert_eq!(first.cache_misses, 2 * n + 1);
    assert_eq!(first.invalidations, n - 1);
    let trad = fig("traditional", "last");
    assert_eq!((trad.cache_misses, trad.gs_vertices), (3 * n, 3 * n));
    let list = run(&plain_draw("triangle_list", n as usize, "fast", "first")).0;
    assert_eq!(list.cache_misses, 3 * n);
}

#[test]
fn pa9_cube_map_multicast_runs_world_space_once_instead_of_six_times() {
    let (m, faces) = cube_passes(12).unwrap();
    let vs: u64 = faces.iter().map(|r| r.vs).sum();
    let gs: u64 = faces.iter().map(|r| r.gs).sum();
    let outs: u64 = faces.iter().map(|r| r.outs).sum();
    assert_eq!((vs, gs), (6 * m.vs, 6 * m.gs));
    assert_eq!(outs, m.outs, "the same output triangles either way");
}

#[test]
fn pa4_viewport_order_with_batch_1_is_strict_order_and_any_batch_the_same_outputs() {
    let k = Knobs {
        vertex_cache: 64,
        ..Knobs::default()
    };
    let strict = cube_map(&k, 10);
    let key = |ev: &[Value]| -> Vec<String> {
        events(ev, "out")
            .iter()
            .map(|e| {
                format!(
                    "{} {} {} {}",
                    e["prim"], e["viewport"], e["layer"], e["vertices"]
                )
            })
            .collect()
    };
    let (_, s) = run(&strict);
    let one = with(
        with(strict.clone(), &["config", "order"], json!("viewport")),
        &["config", "batch"],
        json!(1),
    );
    let (_, b1) = run(&one);
    assert_eq!(key(&s), key(&b1));
    let seven = with(one, &["config", "batch"], json!(7));
    let (_, b7) = run(&seven);
    let (mut x, mut y) = (key(&s), key(&b7));
    assert_ne!(x, y, "viewport order changes the sequence");
    x.sort();
    y.sort();
    assert_eq!(x, y);
}

#[test]
fn x5_bad_scenarios_exit_2_naming_the_field() {
    let cases: Vec<(Value, &str)> = vec![
        (
            with(builtin(), &["prims"], json!([{"mask":1,"layer":0}])),
            "prims",
        ),
        (
            with(builtin(), &["config", "batch"], json!(0)),
            "config.batch",
        ),
        (
            with(builtin(), &["config", "batch"], json!(257)),
            "config.batch",
        ),
        (
            with(builtin(), &["config", "vertex_cache"], json!(65)),
            "config.vertex_cache",
        ),
        (
            with(builtin(), &["config", "gs_mode"], json!("slow")),
            "config.gs_mode",
        ),
        (
            with(builtin(), &["config", "order"], json!("random")),
            "config.order",
        ),
        (
            with(builtin(), &["config", "swizzle"], json!([3344, 3344])),
            "config.swizzle",
        ),
        (
            with(builtin(), &["config", "swizzle", "3"], json!(4096)),
            "config.swizzle[3]",
        ),
        (
            with(
                with(builtin(), &["config", "swizzle_format"], json!("register")),
                &["config", "swizzle"],
                json!(vec![0x6428; 16]),
            ),
            "config.swizzle[0]",
        ),
        (
            with(builtin(), &["prims", "0", "mask"], json!(65536)),
            "prims[0].mask",
        ),
        (
            with(builtin(), &["prims", "0", "layer"], json!(4294967295u64)),
            "prims[0].layer",
        ),
        (
            with(builtin(), &["vertices", "0", "1"], json!("0xZZ")),
            "vertices[0][1]",
        ),
        (
            with(builtin(), &["vertices", "0", "1"], json!(1e39)),
            "vertices[0][1]",
        ),
        (
            with(builtin(), &["topology"], json!("triangle_fan")),
            "topology",
        ),
        (with(builtin(), &["config", "colour"], json!(1)), "colour"),
    ];
    for (v, field) in cases {
        let e = system_config(&v).expect_err(field);
        assert!(matches!(e, RunError::Invalid(_)), "{}: {}", field, e);
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string().contains(field),
            "{} not named in: {}",
            field,
            e
        );
    }
}

/// A random scenario: topology, vertex bit patterns (NaNs and zeros included), masks (0,
/// single bits, all), layers, orders, batches, cache sizes, both GS modes and provoking
/// conventions, random swizzles.
fn random_scenario(rng: &mut ChaCha8Rng) -> Value {
    let strip = rng.gen_bool(0.5);
    let tris = rng.gen_range(1..40usize);
    let n = if strip { tris + 2 } else { 3 * tris };
    let comp = |rng: &mut ChaCha8Rng| -> Value {
        match rng.gen_range(0..4) {
            0 => json!(format!("0x{:08x}", rng.gen::<u32>())),
            1 => json!(["0x7fc00001", "0x80000000", "0x7f800000"][rng.gen_range(0..3)]),
            _ => json!(rng.gen_range(-8i32..8) as f64 * 0.25),
        }
    };
    let vertices: Vec<Value> = (0..n)
        .map(|_| json!([comp(rng), comp(rng), comp(rng), comp(rng)]))
        .collect();
    let prims: Vec<Value> = (0..tris)
        .map(|_| {
            let mask = match rng.gen_range(0..5) {
                0 => 0,
                1 => 1u32 << rng.gen_range(0..16),
                2 => 0xFFFF,
                _ => rng.gen_range(0..0x10000u32),
            };
            json!({"mask": mask, "layer": rng.gen_range(0..1000u32)})
        })
        .collect();
    let swizzle: Vec<u32> = (0..16).map(|_| rng.gen_range(0..4096)).collect();
    let gs_mode = ["fast", "traditional"][rng.gen_range(0..2)];
    let order = ["strict", "viewport"][rng.gen_range(0..2)];
    let batch = [1, 2, 3, 16, 256][rng.gen_range(0..5)];
    let provoking = ["first", "last"][rng.gen_range(0..2)];
    let layer_offset = rng.gen_bool(0.5);
    let cache = [1, 2, 3, 7, 8, 32, 64][rng.gen_range(0..7)];
    let topology = if strip {
        "triangle_strip"
    } else {
        "triangle_list"
    };
    json!({"unit":"primitive-attributes",
        "config":{"gs_mode":gs_mode,"order":order,"batch":batch,"provoking":provoking,
                  "layer_offset":layer_offset,"vertex_cache":cache,"swizzle":swizzle},
        "topology":topology,
        "vertices":vertices,"prims":prims})
}

#[test]
fn pa2_to_pa7_random_scenarios_pass_the_golden_check() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for i in 0..60 {
        let v = random_scenario(&mut rng);
        let cfg = system_config(&v).unwrap_or_else(|e| panic!("scenario {}: {}", i, e));
        let (r, ev) =
            run_checked(&v, &cfg, None).unwrap_or_else(|e| panic!("scenario {}: {}\n{}", i, e, v));
        check_trace(&v, &ev).unwrap();
        assert_eq!(r.cache_hits + r.cache_misses, 3 * r.outs);
    }
}

/// The application scenarios of `docs/scenarios/` (PA-8), as the generators make them.
fn app_files() -> Vec<(&'static str, Value)> {
    let viewport = Knobs {
        order: "viewport",
        batch: 16,
        ..Knobs::default()
    };
    vec![
        ("pa-cube-map.json", cube_map(&Knobs::default(), 24)),
        ("pa-voxelization.json", voxelization(&Knobs::default(), 48)),
        ("pa-shadow-maps.json", cascaded_shadow_maps(&viewport, 24)),
    ]
}

#[test]
fn pa8_application_scenarios_in_docs_are_the_generators_output() {
    let dir = repo_root().join("docs").join("scenarios");
    for (name, v) in app_files() {
        let path = dir.join(name);
        if std::env::var("PPU_WRITE_SCENARIOS").is_ok() {
            std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{} missing", name));
        let file: Value = serde_json::from_str(&text).unwrap();
        // Compared as read back from text: JSON floats are parsed, not carried bit for bit.
        let v: Value = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(
            file, v,
            "{} differs from its generator (PPU_WRITE_SCENARIOS=1 rewrites it)",
            name
        );
        run(&file);
    }
}

#[test]
fn pa9_viewport_order_keeps_hits_with_a_small_cache_when_triangles_go_to_many_viewports() {
    let rate = |order: &'static str, cache: usize| {
        let s = CacheSetup {
            app: "8 views",
            order,
            cache,
        };
        hit_rate(&run(&cache_scenario(&s, 16)).0)
    };
    let (strict8, viewport8, strict64) =
        (rate("strict", 8), rate("viewport", 8), rate("strict", 64));
    assert!(
        viewport8 > strict8 + 0.3,
        "viewport {} strict {}",
        viewport8,
        strict8
    );
    assert!(
        strict64 > 0.5,
        "a large cache hits in strict order too: {}",
        strict64
    );
}
