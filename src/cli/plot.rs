//! `--plot DIR`: SVG charts of a simulation (score distributions, points by
//! reason with their intervals) and of a comparison (the two variants'
//! score distributions overlaid), drawn with plotters.

use crate::ir::RulePack;
use crate::sim::{Tally, Totals};
use crate::stats::{Histogram, Summary};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Series colours, in order (colour-blind friendly, after Okabe and Ito).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Makes the folder and names a file in it.
pub(super) fn file_in(dir: &Path, name: &str) -> Result<PathBuf, String> {
    make_folder(dir)?;
    Ok(dir.join(name))
}

/// Makes the `--plot` folder (and those above it), as a run does before its
/// first game, so that a folder that cannot be made costs no games.
pub(super) fn make_folder(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "--plot {} is a file, not a folder; name a folder (it is made if missing)",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("--plot: cannot make the folder {}: {e}", dir.display()))
}

fn drawing_error(path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot draw {}: {e}", path.display())
}

/// A chart's axes over `x` and `y`.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A white chart with `title` over `x` and `y` on `root`, `x_labels`
/// pixels kept below it for the x axis's labels.
fn axes<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    path: &Path,
    title: &str,
    x_labels: u32,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Result<Chart<'a, 'b>, String> {
    root.fill(&WHITE).map_err(|e| drawing_error(path, e))?;
    ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(x_labels)
        .y_label_area_size(60)
        .build_cartesian_2d(x, y)
        .map_err(|e| drawing_error(path, e))
}

/// Draws the legend and writes the file.
fn finish<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>, path: &Path) -> Result<(), String> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    chart.plotting_area().present().map_err(|e| drawing_error(path, e))
}

/// Share of games per bin of `width` points, from `low`.
fn binned(h: &Histogram, low: i64, width: i64, bins: usize) -> Vec<f64> {
    let mut shares = vec![0.0; bins];
    let n = h.count().max(1) as f64;
    for (x, c) in h.counts() {
        let b = ((x - low) / width).clamp(0, bins as i64 - 1) as usize;
        shares[b] += c as f64 / n;
    }
    shares
}

/// Score distributions overlaid as step lines, one per labelled histogram.
pub(super) fn distributions(path: &Path, title: &str, series: &[(String, &Histogram)]) -> Result<(), String> {
    let low = series.iter().filter_map(|(_, h)| h.quantile(0.0)).min().unwrap_or(0);
    let high = series
        .iter()
        .filter_map(|(_, h)| h.quantile(1.0))
        .max()
        .unwrap_or(1)
        .max(low + 1);
    let width = ((high - low + 1) as f64 / 30.0).ceil().max(1.0) as i64;
    let bins = ((high - low) / width + 1) as usize;
    let lines: Vec<Vec<f64>> = series.iter().map(|(_, h)| binned(h, low, width, bins)).collect();
    let top = lines.iter().flatten().copied().fold(0.0, f64::max).max(0.01) * 1.1;
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    let mut chart = axes(&root, path, title, 40, low as f64..(high + width) as f64, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("final score")
        .y_desc(format!("share of games (bins of {width} points)"))
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    for (i, ((label, _), shares)) in series.iter().zip(&lines).enumerate() {
        let c = colour(i);
        let mut steps = Vec::with_capacity(2 * bins + 2);
        for (b, share) in shares.iter().enumerate() {
            let x = (low + b as i64 * width) as f64;
            steps.push((x, *share));
            steps.push((x + width as f64, *share));
        }
        chart
            .draw_series(LineSeries::new(steps, c.stroke_width(2)))
            .map_err(|e| drawing_error(path, e))?
            .label(label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    finish(&mut chart, path)
}

/// Mean points by reason as grouped bars with 95% interval whiskers.
pub(super) fn reason_bars(
    path: &Path,
    title: &str,
    reasons: &[String],
    groups: &[(String, &[Summary])],
) -> Result<(), String> {
    let top = groups
        .iter()
        .flat_map(|(_, s)| s.iter().map(|s| s.interval().high))
        .filter(|x| x.is_finite())
        .fold(1.0, f64::max)
        * 1.1;
    let k = groups.len().max(1) as f64;
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    let mut chart = axes(&root, path, title, 60, 0.0..reasons.len().max(1) as f64, 0.0..top)?;
    let names = reasons.to_vec();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(reasons.len().max(1) * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - x.floor() - 0.5).abs() < 1e-6 && i < names.len() {
                names[i].clone()
            } else {
                String::new()
            }
        })
        .y_desc("mean points per game (95% interval)")
        .draw()
        .map_err(|e| drawing_error(path, e))?;
    for (g, (label, summaries)) in groups.iter().enumerate() {
        let c = colour(g);
        let left = |r: usize| r as f64 + 0.1 + 0.8 * g as f64 / k;
        let right = |r: usize| r as f64 + 0.1 + 0.8 * (g as f64 + 1.0) / k;
        chart
            .draw_series(
                summaries
                    .iter()
                    .enumerate()
                    .map(|(r, s)| Rectangle::new([(left(r), 0.0), (right(r), s.mean().max(0.0))], c.filled())),
            )
            .map_err(|e| drawing_error(path, e))?
            .label(label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], c.filled()));
        chart
            .draw_series(summaries.iter().enumerate().filter_map(|(r, s)| {
                let i = s.interval();
                let mid = (left(r) + right(r)) / 2.0;
                (i.low.is_finite() && i.high.is_finite())
                    .then(|| PathElement::new(vec![(mid, i.low.max(0.0)), (mid, i.high)], BLACK.stroke_width(1)))
            }))
            .map_err(|e| drawing_error(path, e))?;
    }
    finish(&mut chart, path)
}

/// `meeple sim --plot DIR`: `scores.svg` (score distribution per agent, or
/// per seat when agents keep their seats) and `points-by-reason.svg`;
/// with rotating seats also `scores-by-seat.svg`. Returns the files written.
pub(super) fn sim_plots(
    dir: &Path,
    pack: &RulePack,
    totals: &Totals,
    agent: &dyn Fn(usize) -> String,
    rotate: bool,
) -> Result<Vec<PathBuf>, String> {
    let groups: Vec<(String, &Tally)> = if rotate {
        // Numbered, as the table's slots are: one agent may hold several.
        totals
            .slots
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("slot {i} ({})", agent(i)), t))
            .collect()
    } else {
        totals
            .seats
            .iter()
            .enumerate()
            .map(|(p, t)| (format!("seat {p} ({})", agent(p)), t))
            .collect()
    };
    let mut written = Vec::new();
    let scores = file_in(dir, "scores.svg")?;
    let series: Vec<(String, &Histogram)> = groups.iter().map(|(l, t)| (l.clone(), &t.scores)).collect();
    distributions(&scores, &format!("Final scores, {} games", totals.games), &series)?;
    written.push(scores);
    let bars = file_in(dir, "points-by-reason.svg")?;
    let by_reason: Vec<(String, &[Summary])> = groups.iter().map(|(l, t)| (l.clone(), &t.reasons[..])).collect();
    reason_bars(&bars, "Points by reason", &pack.reasons, &by_reason)?;
    written.push(bars);
    if rotate {
        let seats = file_in(dir, "scores-by-seat.svg")?;
        let series: Vec<(String, &Histogram)> = totals
            .seats
            .iter()
            .enumerate()
            .map(|(p, t)| (format!("seat {p}"), &t.scores))
            .collect();
        distributions(&seats, "Final scores by seat (agents rotate)", &series)?;
        written.push(seats);
    }
    Ok(written)
}
