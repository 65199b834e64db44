use clap::Parser;
use jforge::cli::{Cli, Command};

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen(args) => jforge::gen_cmd::run(args),
        Command::Exhaustive(args) => jforge::exhaustive::run(args),
        Command::Coverage(args) => jforge::coverage_cmd::run(args),
        Command::Builders(args) => jforge::builders_cmd::run(args),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}

/// mimalloc: the generator allocates and frees many small statement vectors; glibc's malloc
/// spent a quarter of the generator's time in consolidation (measured with perf).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
