//! The options and the delay they give: exponential growth from `base` by `factor`
//! up to `max`, then jitter from a draw keyed by `seed` and the attempt.

/// The jitter applied to the capped exponential delay.
#[derive(Clone, Copy)]
pub enum Jitter {
    /// ± that fraction of the delay (0: none).
    Fraction(f64),
    /// A draw in `[0, delay)`.
    Full,
    /// Half the delay plus a draw in `[0, delay / 2)`.
    Equal,
    /// `base` plus a draw up to three times the previous delay, capped at `max`.
    Decorrelated,
}

/// Validated options (ms for `base` and `max`).
pub struct Options {
    pub base: f64,
    pub max: f64,
    pub factor: f64,
    pub jitter: Jitter,
    pub seed: u32,
    pub max_attempts: u32,
}

/// The option a bad value was given for (its index in `MESSAGES` of `plain.js`).
#[derive(Clone, Copy)]
pub enum Bad {
    Base,
    Max,
    Factor,
    Jitter,
    Seed,
    MaxAttempts,
    Attempt,
}

impl Bad {
    /// The error's text.
    pub fn message(self) -> &'static str {
        match self {
            Bad::Base => "base must be a finite number >= 0",
            Bad::Max => "max must be a number >= base",
            Bad::Factor => "factor must be a finite number >= 1",
            Bad::Jitter => "jitter must be a number in [0, 1] or \"full\", \"equal\", \"decorrelated\"",
            Bad::Seed => "seed must be an integer in [0, 2^32)",
            Bad::MaxAttempts => "maxAttempts must be an integer >= 1",
            Bad::Attempt => "attempt must be an integer >= 1",
        }
    }
}

/// A uniform draw in `[0, 1)` for `attempt` under `seed` (a 32-bit mix).
fn draw(seed: u32, attempt: u32) -> f64 {
    let mut x = seed ^ attempt.wrapping_mul(0x9E37_79B9);
    x = (x ^ (x >> 16)).wrapping_mul(0x21F0_AAAD);
    x = (x ^ (x >> 15)).wrapping_mul(0x735A_2D97);
    x ^= x >> 15;
    f64::from(x) / 4_294_967_296.0
}

/// The delay before retry `attempt` (1-based), or -1 once `max_attempts` are used.
pub fn delay(o: &Options, attempt: u32) -> Result<f64, Bad> {
    if !(o.base.is_finite() && o.base >= 0.0) {
        return Err(Bad::Base);
    }
    if o.max.is_nan() || o.max < o.base {
        return Err(Bad::Max);
    }
    if !(o.factor.is_finite() && o.factor >= 1.0) {
        return Err(Bad::Factor);
    }
    if let Jitter::Fraction(f) = o.jitter
        && !(0.0..=1.0).contains(&f)
    {
        return Err(Bad::Jitter);
    }
    if o.max_attempts == 0 {
        return Err(Bad::MaxAttempts);
    }
    if attempt == 0 {
        return Err(Bad::Attempt);
    }
    if attempt > o.max_attempts {
        return Ok(-1.0);
    }
    let nominal = (o.base * o.factor.powi(attempt as i32 - 1)).min(o.max);
    let u = draw(o.seed, attempt);
    Ok(match o.jitter {
        Jitter::Fraction(f) => (nominal * (1.0 + f * (2.0 * u - 1.0))).min(o.max),
        Jitter::Full => nominal * u,
        Jitter::Equal => nominal / 2.0 + nominal / 2.0 * u,
        Jitter::Decorrelated => {
            let mut sleep = o.base;
            for i in 1..=attempt {
                sleep = (o.base + draw(o.seed, i) * (sleep * 3.0 - o.base)).min(o.max);
            }
            sleep
        }
    })
}
