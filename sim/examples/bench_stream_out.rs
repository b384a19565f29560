//! Run the SO-14 experiment (`ppu bench stream-out`) without the command line.
fn main() {
    let opts = ppu_sim::bench::BenchOptions {
        quick: std::env::args().any(|a| a == "--quick"),
        progress: true,
        ..Default::default()
    };
    match ppu_sim::stream_out::bench::run(&opts) {
        Ok(r) => println!("{}", r.markdown),
        Err(e) => {
            eprintln!("{}", e);
            std::process::exit(e.exit_code());
        }
    }
}
