//! Prints the waits of a few retry policies, one policy per line:
//! `<name> <wait 1> <wait 2> …` in ms, each number as Rust's shortest round-trip
//! decimal, so reading it back gives the same `f64`.
use backoff_wasm::{Backoff, Error, Jitter, Random, parse_duration};

fn line(name: &str, waits: impl Iterator<Item = f64>) {
    let waits: Vec<String> = waits.map(|w| format!("{w:?}")).collect();
    println!("{name} {}", waits.join(" "));
}

fn main() -> Result<(), Error> {
    let second = parse_duration("1 second").expect("a duration");

    // createBackoff({ base: "1 second", max: "1 minute" })
    let plain = Backoff::exponential(second).max(60_000.0).build()?;
    line("plain", (1..=10).map(|n| plain.delay(n)));

    // createBackoff({ base: 100, factor: 1.5, cap: 5000, jitter: 0.25, seed: "job-7" })
    let keyed = Backoff::exponential(100.0).factor(1.5).cap(5000.0).jitter(Jitter::Spread(0.25)).seed("job-7").build()?;
    line("keyed", (1..=12).map(|n| keyed.delay(n)));

    // createBackoff({ base: 250, growth: "linear", jitter: "full", random: createRandom("42"), maxAttempts: 8 })
    let streamed =
        Backoff::linear(250.0).jitter(Jitter::Full).random(Random::new("42")).max_attempts(8).build()?;
    line("streamed", streamed.waits());

    // createBackoff({ steps: [100, 500, 2000], free: 1, jitter: "equal", seed: "steps" })
    let stepped = Backoff::steps(&[100.0, 500.0, 2000.0]).free(1).jitter(Jitter::Equal).seed("steps").build()?;
    line("stepped", (1..=6).map(|n| stepped.delay(n)));

    // createBackoff({ base: 100, max: 10000, jitter: "decorrelated", seed: "d" })
    let decorrelated = Backoff::exponential(100.0).max(10_000.0).jitter(Jitter::Decorrelated).seed("d").build()?;
    line("decorrelated", (1..=10).map(|n| decorrelated.delay(n)));
    Ok(())
}
