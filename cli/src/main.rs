//! The `meeple` command; everything it does lives in the library's `cli`
//! module (the `cli` feature), so this package only enables it.

fn main() -> std::process::ExitCode {
    meeple::cli::main()
}
