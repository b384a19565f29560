use ppu_sim::scenario::{run_value, RunOptions};
fn main() {
    let v = ppu_sim::status::scenario::builtin_system();
    let t0 = std::time::Instant::now();
    let r = run_value(&v, &RunOptions { trace: Some("/tmp/stt/sys.jsonl".into()), ..Default::default() });
    println!("{:?} in {:?}", r, t0.elapsed());
    let v = ppu_sim::status::scenario::builtin_fsm();
    let r = run_value(&v, &RunOptions { trace: Some("/tmp/stt/fsm.jsonl".into()), ..Default::default() });
    println!("{:?}", r);
}
