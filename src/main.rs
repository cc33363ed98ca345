fn main() -> std::process::ExitCode {
    meeple::cli::main()
}
