//! The top of jforge: the command line names the commands, and each runs from its own folder
//! (`src/<command>/cmd.rs`), which reads its flags once into plain settings. Nothing below
//! names this file.

use clap::{Parser, Subcommand};
use jforge::exit::{self, ExitStatus};

#[derive(Parser, Debug)]
#[command(
    name = "jforge",
    version,
    about = "Automatic unit-test generation for Java",
    after_help = jforge::exit::HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each command's flags live in its folder's `cmd.rs`.
#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once
enum Command {
    /// Feedback-directed random generation of regression and error-revealing JUnit tests.
    #[command(after_help = jforge::exit::HELP)]
    Gen(jforge::r#gen::cmd::GenArgs),
    /// Bounded-exhaustive generation from the API (BEAPI): every distinct structure within a
    /// scope, each with the shortest call sequence that builds it.
    #[command(after_help = jforge::exit::HELP)]
    Exhaustive(jforge::exhaustive::cmd::ExhaustiveArgs),
    /// Run a JUnit 4/5 suite against instrumented classes; report line and branch coverage.
    #[command(after_help = jforge::exit::HELP)]
    Coverage(jforge::coverage::cmd::CoverageArgs),
    /// Identify a sufficient and minimal set of builder methods (hill climbing or a genetic
    /// algorithm), checked against the whole API at a small scope.
    Builders(jforge::builders::cmd::BuildersArgs),
    /// Find, for every public method, a receiver and arguments for which the call completes
    /// (HeuriGenJ): the working call, or why none was found.
    #[command(after_help = jforge::exit::HELP)]
    Params(jforge::params::cmd::ParamsArgs),
    /// Concolic generation with an SMT solver (z3 or cvc5): each method's paths explored by
    /// solving for inputs that take the branches not yet taken.
    #[command(after_help = jforge::exit::HELP)]
    Concolic(jforge::concolic::cmd::ConcolicArgs),
    /// Combine the reports of the shards of a run (`--shard I/N`): the `--stats-json`
    /// reports and the coverage (JSON, JaCoCo XML, HTML) as one run would have written them.
    Merge(jforge::merge::MergeArgs),
}

fn main() {
    let cli = Cli::parse();
    // A panic is a bug in jforge: one short line (with the backtrace only when RUST_BACKTRACE
    // asks for it), then exit 1 (docs/reports.md, "Exit status").
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        eprintln!("error: {}", exit::panic_line(info));
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            default_hook(info);
        }
    }));
    let run = std::panic::AssertUnwindSafe(|| match cli.command {
        Command::Gen(args) => jforge::r#gen::cmd::run(args),
        Command::Exhaustive(args) => jforge::exhaustive::cmd::run(args),
        Command::Coverage(args) => jforge::coverage::cmd::run(args),
        Command::Builders(args) => jforge::builders::cmd::run(args),
        Command::Params(args) => jforge::params::cmd::run(args),
        Command::Concolic(args) => jforge::concolic::cmd::run(args),
        Command::Merge(args) => jforge::merge::run(args),
    });
    let status = match std::panic::catch_unwind(run) {
        Ok(Ok(outcome)) => outcome.status(),
        Ok(Err(e)) => {
            eprintln!("error: {e:#}");
            exit::status_of(&e)
        }
        Err(_) => ExitStatus::Internal,
    };
    std::process::exit(status.code());
}

/// mimalloc: the generator allocates and frees many small statement vectors; glibc's malloc
/// spent a quarter of the generator's time in consolidation (measured with perf).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
