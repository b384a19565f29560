//! PA-9 experiment (`ppu bench primitive-attributes`), quick form: the figures the claim is
//! about, from runs whose traces the golden model checked. Fast GS with the last vertex
//! provoking fetches about one vertex per strip triangle, a traditional GS three; a list three
//! in both modes; one pass per cube face runs the vertex shader and GS six times as often as
//! multicast, for the same output triangles.
use ppu_sim::bench::BenchOptions;
use ppu_sim::primitive_attributes::bench::{markdown, measure_all, run};

#[test]
fn pa9_quick_bench_reproduces_the_claim() {
    let r = measure_all(true, false).unwrap();
    for (s, res) in &r.gs {
        let per_tri = res.cache_misses as f64 / res.outs as f64;
        let want = match (s.topology, s.gs_mode, s.provoking) {
            ("triangle_strip", "fast", "last") => 1.0,
            ("triangle_strip", "fast", "first") => 2.0,
            _ => 3.0,
        };
        assert!(
            (per_tri - want).abs() < 0.1,
            "{:?}: {} per triangle",
            s,
            per_tri
        );
        assert_eq!(
            res.gs_vertices,
            if s.gs_mode == "traditional" {
                3 * res.gs
            } else {
                0
            }
        );
    }
    let faces_vs: u64 = r.per_face.iter().map(|x| x.vs).sum();
    let faces_outs: u64 = r.per_face.iter().map(|x| x.outs).sum();
    assert_eq!(faces_vs, 6 * r.multicast.vs);
    assert_eq!(faces_outs, r.multicast.outs);
    // What the README quotes of the page (`ppu bench` updates it).
    let tables = ppu_sim::bench::quotable(&markdown(&r));
    assert!(tables.contains("| triangle_strip | fast | last |"));
}

#[test]
fn pa9_bench_writes_its_page_and_plot_where_asked() {
    let dir = std::env::temp_dir().join(format!("ppu-pa-bench-{}", std::process::id()));
    let opts = BenchOptions {
        quick: true,
        progress: false,
        out_dir: dir.clone(),
        engine: Default::default(),
    };
    let report = run(&opts).unwrap();
    assert!(report.markdown.contains("# PA-9"));
    let svg = std::fs::read_to_string(dir.join("primitive-attributes.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("viewport order"));
}
