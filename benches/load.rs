//! Loading and checking every bundled pack: `cargo bench --bench load`.
//! Prints the median and the 10th/90th percentiles over many runs.

use meeple::bundled::bundled_names;
use meeple::{load, PackRef};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn measure(label: &str, runs: usize, mut f: impl FnMut()) {
    for _ in 0..runs / 10 {
        f();
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    let pct = |p: usize| times[(times.len() - 1) * p / 100];
    println!(
        "{label:<32} median {:>9.3?}   p10 {:>9.3?}   p90 {:>9.3?}   ({runs} runs)",
        pct(50),
        pct(10),
        pct(90)
    );
}

fn main() {
    let names: Vec<&str> = bundled_names().collect();
    for name in &names {
        measure(&format!("load {name}"), 300, || {
            black_box(load(&[PackRef::Bundled(name.to_string())]).expect("bundled packs load"));
        });
    }
    let all: Vec<PackRef> = names.iter().map(|n| PackRef::Bundled(n.to_string())).collect();
    measure("load every bundled pack", 300, || {
        black_box(load(&all).expect("bundled packs load together"));
    });
}
