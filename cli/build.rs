//! Links the `gisel` binary as a position-dependent executable on Linux:
//! the loader then has no relative relocations to apply at start-up, which
//! wrote (and so copied) pages of the binary on every run.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
