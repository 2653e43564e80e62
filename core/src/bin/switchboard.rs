//! The `switchboard` command-line tool.

fn main() -> std::process::ExitCode {
    switchboard_core::cli::main()
}
