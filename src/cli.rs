//! The `meeple` command line. Everything that prints lives here, outside the core.

mod draw;

use crate::check::{load, LoadError, PackRef};
use crate::diagnostic::Code;
use crate::ir::{IconValue, RulePack};
use clap::{Parser, Subcommand};
use codespan_reporting::term::{self, termcolor};
use std::io::IsTerminal;
use std::process::ExitCode;

/// A rules language and engine for Carcassonne.
#[derive(Parser, Debug)]
#[command(name = "meeple", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rule packs and print every problem found.
    ///
    /// Each PACK is a path to a .rules file or the name of a bundled pack
    /// (base, ...). Each is checked on its own, with the packs it requires,
    /// unless --together is given. Exits 0 when clean, 1 on any error.
    Check {
        #[arg(required = true, value_name = "FILE_OR_PACK")]
        packs: Vec<String>,
        /// Check all the packs loaded together as one game would load them.
        #[arg(long)]
        together: bool,
    },
    /// Draw every tile of a pack (with the packs it requires) and its count.
    Tiles {
        #[arg(value_name = "FILE_OR_PACK", required = true)]
        packs: Vec<String>,
    },
    /// Explain a diagnostic code such as E0011, or list all codes.
    Explain {
        #[arg(value_name = "CODE")]
        code: Option<String>,
    },
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { packs, together } => check(&packs, together),
        Command::Tiles { packs } => tiles(&packs),
        Command::Explain { code } => explain(code.as_deref()),
    }
}

/// Writes to stdout; a closed pipe (`meeple tiles base | head`) is not an error.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn pack_refs(args: &[String]) -> Vec<PackRef> {
    args.iter().map(|a| PackRef::from_arg(a)).collect()
}

/// Prints load errors to stderr, in colour on a terminal.
pub fn report(error: &LoadError) {
    let choice = if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    };
    let mut stderr = termcolor::StandardStream::stderr(choice);
    let config = term::Config::default();
    for d in &error.diagnostics {
        if term::emit_to_write_style(&mut stderr, &config, &error.sources, &d.to_codespan()).is_err() {
            eprint!("{}", d.render(&error.sources));
        }
    }
    let n = error.diagnostics.len();
    eprintln!("{n} error{}", if n == 1 { "" } else { "s" });
}

/// Loads packs, printing diagnostics on failure.
pub fn load_or_report(args: &[String]) -> Option<RulePack> {
    match load(&pack_refs(args)) {
        Ok(pack) => Some(pack),
        Err(e) => {
            report(&e);
            None
        }
    }
}

fn check(args: &[String], together: bool) -> ExitCode {
    let groups: Vec<Vec<String>> = if together {
        vec![args.to_vec()]
    } else {
        args.iter().map(|a| vec![a.clone()]).collect()
    };
    let mut failed = false;
    for group in &groups {
        match load(&pack_refs(group)) {
            Ok(pack) => emit(&format!(
                "{}: ok ({} packs, {} tiles in {} types, {} feature kinds, {} figures)\n",
                group.join(" + "),
                pack.packs.len(),
                pack.tile_count(),
                pack.tiles.len(),
                pack.kinds.len(),
                pack.figures.len()
            )),
            Err(e) => {
                report(&e);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn tiles(args: &[String]) -> ExitCode {
    let Some(pack) = load_or_report(args) else {
        return ExitCode::FAILURE;
    };
    emit(&draw::tile_sheet(&pack));
    let icons: Vec<String> = pack
        .icons
        .iter()
        .map(|i| match i.value {
            IconValue::None => i.name.clone(),
            IconValue::Compass => format!("{} (compass)", i.name),
        })
        .collect();
    emit(&format!(
        "{} tiles in {} types; start tile {}{}\n",
        pack.tile_count(),
        pack.tiles.len(),
        pack.tiles[pack.start as usize].name,
        if icons.is_empty() {
            String::new()
        } else {
            format!("; icons: {}", icons.join(", "))
        }
    ));
    ExitCode::SUCCESS
}

fn explain(code: Option<&str>) -> ExitCode {
    match code {
        None => {
            let list: String = Code::ALL.iter().map(|c| format!("{c}  {}\n", c.title())).collect();
            emit(&list);
            ExitCode::SUCCESS
        }
        Some(text) => match text.parse::<Code>() {
            Ok(c) => {
                emit(&format!("{c}: {}\n\n{}\n", c.title(), c.explanation()));
                ExitCode::SUCCESS
            }
            Err(()) => {
                eprintln!("error: `{text}` is not a diagnostic code; `meeple explain` lists them all");
                ExitCode::FAILURE
            }
        },
    }
}
