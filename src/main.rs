use clap::Parser;
use jforge::cli::{Cli, Command};
use jforge::exit::{self, ExitStatus};

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
        Command::Gen(args) => jforge::gen_cmd::run(args),
        Command::Exhaustive(args) => jforge::exhaustive_cmd::run(args),
        Command::Coverage(args) => jforge::coverage_cmd::run(args),
        Command::Builders(args) => jforge::builders_cmd::run(args),
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
