//! Passes the target triple to the crate, for the `cc` crate that compiles the Verilator
//! engine's C ABI shim at run time (`verilator/build.rs` module).
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=PPU_BUILD_TARGET={}", target);
    println!("cargo:rerun-if-changed=build.rs");
}
