//! Statistics that say how sure they are. Every figure a simulation reports
//! comes with its 95% confidence interval, accumulated one game at a time
//! (nothing keeps a list of every game):
//!
//! - [`Summary`]: count, mean, standard deviation, standard error, extremes,
//!   and a Student-t interval for the mean (Welford's running update).
//! - [`Proportion`]: a rate (win rate; a shared victory counts as a fraction)
//!   with its Wilson score interval, which stays inside 0..1 and is honest
//!   for rates near 0 or 1.
//! - [`Histogram`]: exact quantiles of whole-number values (scores, game
//!   lengths), kept as counts per value.
//! - [`Paired`]: differences measured on the same games (two variants played
//!   from the same seeds), with an interval and a two-sided paired t-test.
//!
//! ```
//! use meeple::stats::{Paired, Summary};
//!
//! let mut scores = Summary::new();
//! for x in [70.0, 82.0, 75.0, 91.0, 66.0] {
//!     scores.add(x);
//! }
//! let ci = scores.interval();
//! assert!(ci.low < scores.mean() && scores.mean() < ci.high);
//!
//! // The same five games under a variant that pays 3 more each time.
//! let mut diff = Paired::new();
//! for (a, b) in [(70.0, 73.0), (82.0, 86.0), (75.0, 77.0), (91.0, 94.0), (66.0, 69.0)] {
//!     diff.add(a, b);
//! }
//! assert!(diff.significant());
//! assert!((diff.mean() - 3.0).abs() < 1e-9);
//! ```

use statrs::distribution::{Binomial, ContinuousCDF, Discrete, Normal, StudentsT};
use std::collections::BTreeMap;

/// The confidence level of every interval: 95%.
pub const CONFIDENCE: f64 = 0.95;

/// The significance level of [`Paired::significant`]: a difference is
/// significant when its two-sided p-value is below 5%.
pub const SIGNIFICANCE: f64 = 0.05;

/// A confidence interval `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// Half the interval's width (the "± x" of a symmetric interval).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether `x` lies inside (ends included).
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// The two-sided critical value of Student's t with `df` degrees of freedom
/// at [`CONFIDENCE`] (1.96 for many; infinite for none).
pub fn t_critical(df: u64) -> f64 {
    let q = 1.0 - (1.0 - CONFIDENCE) / 2.0;
    if df == 0 {
        return f64::INFINITY;
    }
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(t) => t.inverse_cdf(q),
        Err(_) => z_critical(),
    }
}

/// The two-sided critical value of the normal distribution at [`CONFIDENCE`] (1.96).
pub fn z_critical() -> f64 {
    let q = 1.0 - (1.0 - CONFIDENCE) / 2.0;
    Normal::standard().inverse_cdf(q)
}

/// Count, mean, spread and extremes of a stream of numbers, in constant
/// memory (Welford's update, stable for long runs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    n: u64,
    mean: f64,
    m2: f64,
    min: f64,
    max: f64,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    /// Adds one value.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        if self.n == 1 {
            (self.min, self.max) = (x, x);
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// How many values were added.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Their mean (0 when there are none).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Their sample variance (divided by n − 1; 0 for fewer than two values).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// Their sample standard deviation.
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }

    /// The standard error of the mean (sd / √n; 0 with no values).
    pub fn se(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sd() / (self.n as f64).sqrt()
        }
    }

    /// The smallest value (0 with none).
    pub fn min(&self) -> f64 {
        self.min
    }

    /// The largest value (0 with none).
    pub fn max(&self) -> f64 {
        self.max
    }

    /// The [`CONFIDENCE`] interval of the mean (Student's t with n − 1
    /// degrees of freedom); unbounded with fewer than two values.
    pub fn interval(&self) -> Interval {
        let h = t_critical(self.n.saturating_sub(1)) * self.se();
        if h.is_finite() {
            Interval {
                low: self.mean - h,
                high: self.mean + h,
            }
        } else {
            Interval {
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            }
        }
    }
}

/// A rate: successes (possibly fractional: a victory shared by two counts
/// one half) out of trials.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proportion {
    successes: f64,
    n: u64,
}

impl Proportion {
    /// No trials yet.
    pub fn new() -> Proportion {
        Proportion::default()
    }

    /// Adds one trial whose share of success is `share` (0 to 1).
    pub fn add(&mut self, share: f64) {
        self.n += 1;
        self.successes += share.clamp(0.0, 1.0);
    }

    /// How many trials were added.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The rate (0 with no trials).
    pub fn rate(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.successes / self.n as f64
        }
    }

    /// The Wilson score interval at [`CONFIDENCE`] (0..1 with no trials).
    pub fn interval(&self) -> Interval {
        if self.n == 0 {
            return Interval { low: 0.0, high: 1.0 };
        }
        let n = self.n as f64;
        let p = self.rate();
        let z = z_critical();
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        Interval {
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// The two-sided p-value of "the true rate is `expected`" (1 with no
    /// trials). Up to [`EXACT_TRIALS`] trials it is the exact binomial
    /// test's (the outcomes no likelier than the one seen, summed), so a
    /// handful of games gets an honest figure; a fractional count of
    /// successes (shared victories) is placed between the p-values of the
    /// whole counts around it. Above, the normal approximation is exact
    /// enough and costs no loop over the trials.
    pub fn p_value_against(&self, expected: f64) -> f64 {
        if self.n == 0 || !(0.0..=1.0).contains(&expected) {
            return 1.0;
        }
        if self.n <= EXACT_TRIALS {
            let k = self.successes.clamp(0.0, self.n as f64);
            let (low, high) = (k.floor(), k.ceil());
            let at_low = exact_binomial(self.n, low as u64, expected);
            if high == low {
                return at_low;
            }
            let at_high = exact_binomial(self.n, high as u64, expected);
            return at_low + (k - low) * (at_high - at_low);
        }
        let se = (expected * (1.0 - expected) / self.n as f64).sqrt();
        if se == 0.0 {
            return if (self.rate() - expected).abs() < 1e-12 {
                1.0
            } else {
                0.0
            };
        }
        two_sided_normal((self.rate() - expected) / se)
    }
}

/// The most trials [`Proportion::p_value_against`] tests exactly.
pub const EXACT_TRIALS: u64 = 100_000;

/// The two-sided exact binomial test of `k` successes in `n` trials of
/// rate `p`: the probability of every count no likelier than `k` (with a
/// relative tolerance, as R's `binom.test` has, so counts as likely as
/// `k` are not lost to rounding).
fn exact_binomial(n: u64, k: u64, p: f64) -> f64 {
    if p == 0.0 || p == 1.0 {
        let certain = if p == 0.0 { 0 } else { n };
        return if k == certain { 1.0 } else { 0.0 };
    }
    let Ok(law) = Binomial::new(p, n) else {
        return 1.0;
    };
    let seen = law.ln_pmf(k) + 1e-7;
    let sum: f64 = (0..=n)
        .map(|i| law.ln_pmf(i))
        .filter(|&l| l <= seen)
        .map(f64::exp)
        .sum();
    sum.clamp(0.0, 1.0)
}

/// The two-sided p-value of a standard normal statistic `z`.
fn two_sided_normal(z: f64) -> f64 {
    // The upper tail itself (`sf`), not 1 − cdf: a p-value far below
    // 1e-16 is kept, not rounded to 0.
    (2.0 * Normal::standard().sf(z.abs())).clamp(0.0, 1.0)
}

/// Whole-number values counted by value, for exact quantiles and plots.
/// Memory grows with the number of distinct values (scores span a few
/// hundred), never with the number of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    counts: BTreeMap<i64, u64>,
    n: u64,
}

impl Histogram {
    /// No values yet.
    pub fn new() -> Histogram {
        Histogram::default()
    }

    /// Adds one value.
    pub fn add(&mut self, x: i64) {
        *self.counts.entry(x).or_insert(0) += 1;
        self.n += 1;
    }

    /// How many values were added.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The `q`-quantile (0 ≤ q ≤ 1) by the nearest-rank rule: the smallest
    /// value with at least `q` of all values at or below it (`None` with no
    /// values).
    pub fn quantile(&self, q: f64) -> Option<i64> {
        if self.n == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (&x, &c) in &self.counts {
            seen += c;
            if seen >= rank {
                return Some(x);
            }
        }
        self.counts.keys().next_back().copied()
    }

    /// Each distinct value with its count, in increasing order.
    pub fn counts(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts.iter().map(|(&x, &c)| (x, c))
    }
}

/// Differences `b − a` of one statistic measured on the same games under
/// two variants: the mean difference, its interval and a paired t-test.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paired {
    diff: Summary,
    a: Summary,
    b: Summary,
}

impl Paired {
    /// No pairs yet.
    pub fn new() -> Paired {
        Paired::default()
    }

    /// Adds the values of one game: `a` under the first variant, `b` under the second.
    pub fn add(&mut self, a: f64, b: f64) {
        self.diff.add(b - a);
        self.a.add(a);
        self.b.add(b);
    }

    /// How many pairs were added.
    pub fn count(&self) -> u64 {
        self.diff.count()
    }

    /// The first variant's values.
    pub fn first(&self) -> &Summary {
        &self.a
    }

    /// The second variant's values.
    pub fn second(&self) -> &Summary {
        &self.b
    }

    /// The mean difference (second − first).
    pub fn mean(&self) -> f64 {
        self.diff.mean()
    }

    /// The [`CONFIDENCE`] interval of the mean difference.
    pub fn interval(&self) -> Interval {
        self.diff.interval()
    }

    /// The two-sided p-value of the paired t-test of "no difference". With
    /// every difference equal (no spread), 1 when they are all 0 and 0
    /// otherwise; 1 with fewer than two pairs.
    pub fn p_value(&self) -> f64 {
        let n = self.diff.count();
        if n < 2 {
            return 1.0;
        }
        let se = self.diff.se();
        if se == 0.0 {
            return if self.diff.mean() == 0.0 { 1.0 } else { 0.0 };
        }
        let t = self.diff.mean() / se;
        match StudentsT::new(0.0, 1.0, (n - 1) as f64) {
            Ok(dist) => (2.0 * dist.sf(t.abs())).clamp(0.0, 1.0),
            Err(_) => two_sided_normal(t),
        }
    }

    /// Whether the difference is significant at [`SIGNIFICANCE`].
    pub fn significant(&self) -> bool {
        self.p_value() < SIGNIFICANCE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// An exponential draw with mean `mean` (a skewed distribution, harder
    /// for a t-interval than a normal one).
    fn exponential(rng: &mut Rng, mean: f64) -> f64 {
        let u = (rng.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
        -mean * u.ln()
    }

    #[test]
    fn mean_intervals_cover_the_true_mean_at_about_the_stated_rate() {
        // 2 000 samples of 200 draws each from an exponential with mean 10:
        // a 95% interval should miss the true mean about 100 times. A binomial
        // with p = 0.05 and n = 2 000 has sd ≈ 9.7, so 60..140 is ±4 sd.
        let mut rng = Rng::new(7);
        let mut covered = 0;
        for _ in 0..2000 {
            let mut s = Summary::new();
            for _ in 0..200 {
                s.add(exponential(&mut rng, 10.0));
            }
            covered += usize::from(s.interval().contains(10.0));
        }
        let missed = 2000 - covered;
        assert!(
            (60..=140).contains(&missed),
            "missed the true mean {missed} times in 2000"
        );
    }

    #[test]
    fn win_rate_intervals_cover_the_true_rate_at_about_the_stated_rate() {
        let mut rng = Rng::new(11);
        let mut covered = 0;
        for _ in 0..2000 {
            let mut p = Proportion::new();
            for _ in 0..400 {
                p.add(if rng.below(10) < 3 { 1.0 } else { 0.0 });
            }
            covered += usize::from(p.interval().contains(0.3));
        }
        let missed = 2000 - covered;
        assert!(
            (60..=140).contains(&missed),
            "missed the true rate {missed} times in 2000"
        );
    }

    #[test]
    fn summary_matches_the_textbook_formulas() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let mut s = Summary::new();
        xs.iter().for_each(|x| s.add(*x));
        assert_eq!(s.count(), 8);
        assert!((s.mean() - 5.0).abs() < 1e-12);
        // Sum of squared deviations 32, over n − 1 = 7.
        assert!((s.variance() - 32.0 / 7.0).abs() < 1e-12);
        assert_eq!((s.min(), s.max()), (2.0, 9.0));
        // t(7) at 97.5% is 2.3646.
        assert!((t_critical(7) - 2.3646).abs() < 1e-3);
        assert!((s.interval().half_width() - 2.3646 * (32.0f64 / 7.0 / 8.0).sqrt()).abs() < 1e-3);
        assert!(Summary::new().interval().low.is_infinite());
    }

    #[test]
    fn quantiles_are_exact_by_nearest_rank() {
        let mut h = Histogram::new();
        for x in [5, 1, 3, 3, 9, 7, 3, 1, 8, 10] {
            h.add(x);
        }
        // Sorted: 1 1 3 3 3 5 7 8 9 10.
        assert_eq!(h.quantile(0.0), Some(1));
        assert_eq!(h.quantile(0.25), Some(3));
        assert_eq!(h.quantile(0.5), Some(3));
        assert_eq!(h.quantile(0.75), Some(8));
        assert_eq!(h.quantile(1.0), Some(10));
        assert_eq!(Histogram::new().quantile(0.5), None);
    }

    #[test]
    fn paired_differences_find_a_shift_and_no_shift() {
        let mut rng = Rng::new(3);
        let (mut same, mut shifted) = (Paired::new(), Paired::new());
        for _ in 0..500 {
            let base = exponential(&mut rng, 50.0);
            let noise = exponential(&mut rng, 2.0) - 2.0;
            same.add(base, base + noise);
            shifted.add(base, base + noise + 1.0);
        }
        assert!(!same.significant(), "p = {}", same.p_value());
        assert!(shifted.significant(), "p = {}", shifted.p_value());
        assert!(shifted.interval().contains(1.0));
        let mut identical = Paired::new();
        (0..10).for_each(|i| identical.add(f64::from(i), f64::from(i)));
        assert_eq!(identical.p_value(), 1.0);
    }

    #[test]
    fn wilson_intervals_stay_inside_zero_and_one() {
        let mut none = Proportion::new();
        (0..20).for_each(|_| none.add(0.0));
        let ci = none.interval();
        assert!(ci.low.abs() < 1e-12);
        assert!(ci.high > 0.0 && ci.high < 0.2);
        let mut half = Proportion::new();
        (0..1000).for_each(|i| half.add(if i % 2 == 0 { 1.0 } else { 0.5 - 0.5 }));
        assert!(half.p_value_against(0.5) > 0.5);
        assert!(half.p_value_against(0.25) < 1e-6);
    }

    /// Few games get the exact binomial test's p-value: one game won by
    /// the first of two players is no evidence at all (the normal
    /// approximation said p = 0.32). Figures summed by hand from the
    /// binomial probabilities, as R's `binom.test` sums them.
    #[test]
    fn few_trials_get_the_exact_binomial_p_value() {
        let rate = |wins: &[f64]| {
            let mut r = Proportion::new();
            wins.iter().for_each(|&w| r.add(w));
            r
        };
        assert_eq!(rate(&[1.0]).p_value_against(0.5), 1.0);
        let all_ten = rate(&[1.0; 10]).p_value_against(0.5);
        assert!((all_ten - 0.001_953_125).abs() < 1e-12, "{all_ten}");
        let mut seven = vec![1.0; 7];
        seven.resize(20, 0.0);
        let p = rate(&seven).p_value_against(0.25);
        assert!((p - 0.305_478_484_863_67).abs() < 1e-9, "{p}");
        // A shared victory: between the whole counts around it.
        seven[7] = 0.5;
        let p = rate(&seven).p_value_against(0.25);
        assert!(
            (p - (0.305_478_484_863_67 + 0.126_124_481_787_88) / 2.0).abs() < 1e-9,
            "{p}"
        );
        // Certain rates: only the certain outcome is likely.
        assert_eq!(rate(&[0.0, 0.0]).p_value_against(0.0), 1.0);
        assert_eq!(rate(&[0.0, 1.0]).p_value_against(0.0), 0.0);
    }

    /// A p-value far below 1e-16 is kept as the tail itself, not rounded
    /// to 0 by 1 − cdf (a JSON reader comparing p-values sees them apart).
    #[test]
    fn tiny_p_values_are_not_rounded_to_zero() {
        let mut paired = Paired::new();
        for i in 0..200 {
            paired.add(0.0, 5.0 + f64::from(i % 3));
        }
        let p = paired.p_value();
        assert!(p > 0.0 && p < 1e-30, "{p}");
        let mut rate = Proportion::default();
        for _ in 0..400 {
            rate.add(1.0);
        }
        let p = rate.p_value_against(0.5);
        assert!(p > 0.0 && p < 1e-30, "{p}");
    }
}
