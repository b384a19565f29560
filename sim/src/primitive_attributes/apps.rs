//! The applications of PA-8 as scenario generators: cube-map rendering (the mask of the faces
//! a triangle touches, one swizzled viewport per face, layer = face), voxelization (the
//! dominant axis of a triangle's normal choosing one of three swizzled viewports) and
//! cascaded shadow maps (the cascades a triangle's depth range overlaps, layer = cascade).
//! Each returns a complete `primitive-attributes` scenario; [`Knobs`] set what the experiment
//! sweeps.
use serde_json::{json, Value};

/// The configuration an application scenario is generated with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knobs {
    pub gs_mode: &'static str,
    pub order: &'static str,
    pub batch: usize,
    pub provoking: &'static str,
    pub vertex_cache: usize,
}

impl Default for Knobs {
    fn default() -> Self {
        Self {
            gs_mode: "fast",
            order: "strict",
            batch: 32,
            provoking: "last",
            vertex_cache: 32,
        }
    }
}

/// A packed swizzle from the four component choices (+x=0, -x=1, +y=2, -y=3, +z=4, -z=5,
/// +w=6, -w=7) of output x, y, z, w (PA-5).
pub fn swizzle_code(c: [u32; 4]) -> u32 {
    c[0] | c[1] << 3 | c[2] << 6 | c[3] << 9
}

/// Identity swizzle (+x +y +z +w).
pub const IDENTITY: u32 = 0xD10;

/// A position as the scenario carries it (each component rounded to a 32-bit float), so that
/// masks computed from it agree with what a reader of the scenario computes.
fn rounded(p: [f64; 3]) -> [f64; 3] {
    p.map(|c| c as f32 as f64)
}

fn scenario(
    k: &Knobs,
    layer_offset: bool,
    swizzle: [u32; 16],
    topology: &str,
    vertices: &[[f64; 3]],
    prims: Vec<(u16, u32)>,
) -> Value {
    let verts: Vec<Value> = vertices
        .iter()
        .map(|p| json!([p[0] as f32, p[1] as f32, p[2] as f32, 1.0f32]))
        .collect();
    let prims: Vec<Value> = prims
        .iter()
        .map(|(m, l)| json!({"mask": m, "layer": l}))
        .collect();
    json!({"unit":"primitive-attributes",
        "config":{"gs_mode":k.gs_mode,"order":k.order,"batch":k.batch,"provoking":k.provoking,
                  "layer_offset":layer_offset,"vertex_cache":k.vertex_cache,"swizzle":swizzle.to_vec()},
        "topology":topology,"vertices":verts,"prims":prims})
}

/// Strip triangles' vertex indices (the specification's order).
fn strip_tris(n: usize) -> Vec<[usize; 3]> {
    (0..n.saturating_sub(2))
        .map(|i| {
            if i % 2 == 0 {
                [i, i + 1, i + 2]
            } else {
                [i + 1, i, i + 2]
            }
        })
        .collect()
}

/// The cube face of a direction: 2 x axis + 1 if negative (+X=0, -X=1, +Y=2, -Y=3, +Z=4,
/// -Z=5).
pub fn cube_face(d: [f64; 3]) -> usize {
    let a = (0..3)
        .max_by(|&i, &j| d[i].abs().total_cmp(&d[j].abs()))
        .unwrap_or(0);
    2 * a + usize::from(d[a] < 0.0)
}

/// Cube-map rendering: a triangle strip of `segments` x 2 triangles winding around a unit
/// sphere three times from 60 degrees south to 60 degrees north; each triangle's mask is the
/// faces its vertices project to; viewport f projects onto face f (the cube-map face's s, t
/// and major axis through the swizzle, w <- major axis); layer offset on, layer 0, so the
/// output layer is the face.
pub fn cube_map(k: &Knobs, segments: usize) -> Value {
    let mut vertices = vec![];
    for i in 0..=segments {
        let t = i as f64 / segments as f64;
        let lon = t * 3.0 * std::f64::consts::TAU;
        for lat_deg in [-60.0 + 105.0 * t, -45.0 + 105.0 * t] {
            let lat = f64::to_radians(lat_deg);
            vertices.push(rounded([
                lat.cos() * lon.cos(),
                lat.sin(),
                lat.cos() * lon.sin(),
            ]));
        }
    }
    let prims = strip_tris(vertices.len())
        .iter()
        .map(|t| {
            let mask = t.iter().fold(0u16, |m, &v| m | 1 << cube_face(vertices[v]));
            (mask, 0)
        })
        .collect();
    let mut swizzle = [IDENTITY; 16];
    let faces = [
        [5, 3, 6, 0],
        [4, 3, 6, 1],
        [0, 4, 6, 2],
        [0, 5, 6, 3],
        [0, 3, 6, 4],
        [1, 3, 6, 5],
    ];
    for (f, c) in faces.iter().enumerate() {
        swizzle[f] = swizzle_code(*c);
    }
    scenario(k, true, swizzle, "triangle_strip", &vertices, prims)
}

/// Voxelization: a triangle list of `count` small triangles on a unit sphere (a golden-angle
/// spiral of centres); each triangle goes to the viewport of its normal's dominant axis
/// (0: x, 1: y, 2: z), whose swizzle looks down that axis.
pub fn voxelization(k: &Knobs, count: usize) -> Value {
    let mut vertices = vec![];
    let mut prims = vec![];
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    for i in 0..count {
        let y = 1.0 - 2.0 * (i as f64 + 0.5) / count as f64;
        let r = (1.0 - y * y).sqrt();
        let c = [
            r * (golden * i as f64).cos(),
            y,
            r * (golden * i as f64).sin(),
        ];
        // Two tangent directions around the centre.
        let up = if c[1].abs() < 0.9 {
            [0.0, 1.0, 0.0]
        } else {
            [1.0, 0.0, 0.0]
        };
        let t1 = normalize(cross(c, up));
        let t2 = cross(c, t1);
        let s = 0.08;
        let tri = [
            rounded(add(c, scale(t1, s))),
            rounded(add(c, add(scale(t1, -0.5 * s), scale(t2, 0.87 * s)))),
            rounded(add(c, add(scale(t1, -0.5 * s), scale(t2, -0.87 * s)))),
        ];
        let n = cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]));
        let axis = cube_face(n) / 2;
        vertices.extend_from_slice(&tri);
        prims.push((1u16 << axis, 0));
    }
    let mut swizzle = [IDENTITY; 16];
    swizzle[0] = swizzle_code([2, 4, 0, 6]);
    swizzle[1] = swizzle_code([4, 0, 2, 6]);
    swizzle[2] = IDENTITY;
    scenario(k, false, swizzle, "triangle_list", &vertices, prims)
}

/// Cascaded shadow maps: a terrain as one triangle strip of `columns`
/// columns zig-zagging away from the camera (depth 1 to 100); each triangle goes to the
/// cascades (viewports 0..3, split at depths 6, 16 and 40) its depth range overlaps; layer
/// offset on, layer 0, so the layer is the cascade; every cascade looks down from the light
/// (y and z exchanged by the swizzle).
pub fn cascaded_shadow_maps(k: &Knobs, columns: usize) -> Value {
    let mut vertices = vec![];
    for i in 0..=columns {
        let z = 1.0 + 99.0 * (i as f64 / columns as f64).powf(1.5);
        for x in [-1.0, 1.0] {
            vertices.push(rounded([x * z * 0.5, 0.0, z]));
        }
    }
    let splits = [0.0, 6.0, 16.0, 40.0, f64::INFINITY];
    let prims = strip_tris(vertices.len())
        .iter()
        .map(|t| {
            let zs: Vec<f64> = t.iter().map(|&v| vertices[v][2]).collect();
            let (lo, hi) = (
                zs.iter().cloned().fold(f64::MAX, f64::min),
                zs.iter().cloned().fold(f64::MIN, f64::max),
            );
            let mask = (0..4).fold(0u16, |m, c| {
                if hi >= splits[c] && lo < splits[c + 1] {
                    m | 1 << c
                } else {
                    m
                }
            });
            (mask, 0)
        })
        .collect();
    let mut swizzle = [IDENTITY; 16];
    for s in swizzle.iter_mut().take(4) {
        *s = swizzle_code([0, 4, 2, 6]);
    }
    scenario(k, true, swizzle, "triangle_strip", &vertices, prims)
}

/// Multi-view rendering: the cube-map band's strip sent to each of the first `views` viewports
/// (every triangle in every view, as for stereo or light-field rendering), identity swizzles,
/// layer offset on (layer = view). The case the viewport order is for: in strict order the
/// views of one triangle come between two triangles that share vertices.
pub fn multi_view(k: &Knobs, segments: usize, views: usize) -> Value {
    let mut v = cube_map(k, segments);
    let mask = ((1u32 << views.min(16)) - 1) as u16;
    if let Some(prims) = v["prims"].as_array_mut() {
        for p in prims {
            p["mask"] = json!(mask);
        }
    }
    v["config"]["swizzle"] = json!([IDENTITY; 16].to_vec());
    v
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn normalize(a: [f64; 3]) -> [f64; 3] {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt().max(1e-12);
    scale(a, 1.0 / l)
}
