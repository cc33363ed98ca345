//! Writing pictures: `meeple tiles --svg DIR / --html FILE [--only]` and
//! `meeple replay --html FILE / --svg FILE`. The drawing is the library's
//! (`crate::picture`); this module picks the tiles, writes the files and
//! says what it wrote.

use super::{emit, pack_refs};
use crate::check::load;
use crate::engine::Game;
use crate::ir::RulePack;
use crate::picture;
use crate::record::Record;
use std::path::Path;
use std::process::ExitCode;

/// Where `meeple tiles` writes pictures, and which tiles.
pub(super) struct TilesOutput<'a> {
    pub(super) svg: Option<&'a Path>,
    pub(super) html: Option<&'a Path>,
    pub(super) only: bool,
}

/// The name in the header of the pack an argument names: loaded on its own,
/// it is the one no other pack of its load requires.
fn root_pack(arg: &str) -> Option<String> {
    let pack = load(&pack_refs(&[arg.to_string()])).ok()?;
    let packs = pack.packs();
    (0..packs.len())
        .rev()
        .find(|&i| !packs.iter().any(|p| p.requires.iter().any(|r| *r as usize == i)))
        .map(|i| packs[i].name.clone())
}

/// The tiles to draw: all of them, or with `only` those defined in the packs
/// the arguments name (not in the packs they require).
pub(super) fn chosen_tiles(args: &[String], pack: &RulePack, only: bool) -> Result<Vec<usize>, String> {
    if !only {
        return Ok((0..pack.tiles().len()).collect());
    }
    let mut tiles = Vec::new();
    for arg in args {
        let name = root_pack(arg).ok_or_else(|| format!("error: cannot tell which pack `{arg}` is"))?;
        let Some(file) = pack.packs().iter().find(|p| p.name == name).map(|p| p.file) else {
            return Err(format!("error: pack `{name}` is not among the packs loaded"));
        };
        let adds: Vec<usize> = (0..pack.tiles().len())
            .filter(|t| pack.tiles()[*t].span.file == file)
            .collect();
        if adds.is_empty() {
            return Err(format!(
                "error: --only: pack `{name}` adds no tiles of its own (it changes rules or tiles of the packs it requires); leave out --only to see every tile of the load"
            ));
        }
        tiles.extend(adds);
    }
    tiles.sort_unstable();
    tiles.dedup();
    Ok(tiles)
}

fn write(path: &Path, text: &str, flag: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| {
        format!(
            "error: {flag} {}: cannot write the file: {e}; name a file in a folder that exists and can be written",
            path.display()
        )
    })
}

/// Writes `meeple tiles`' pictures of the loaded `pack`.
pub(super) fn tiles(args: &[String], pack: &RulePack, out: &TilesOutput) -> ExitCode {
    let result = chosen_tiles(args, pack, out.only).and_then(|tiles| {
        let mut said = String::new();
        if let Some(dir) = out.svg {
            if dir.exists() && !dir.is_dir() {
                return Err(format!(
                    "error: --svg {}: it is a file, not a folder; name a folder (it is made if missing)",
                    dir.display()
                ));
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("error: --svg {}: cannot make the folder: {e}", dir.display()))?;
            let palette = picture::Palette::new(pack);
            for &t in &tiles {
                let svg = picture::tile_svg(pack, &palette, t, 0).unwrap_or_default();
                write(&dir.join(format!("{}.svg", pack.tiles()[t].name)), &svg, "--svg")?;
            }
            said += &format!("wrote {} tile pictures to {}\n", tiles.len(), dir.display());
        }
        if let Some(file) = out.html {
            let names: Vec<&str> = pack.packs().iter().map(|p| p.name.as_str()).collect();
            let title = format!("Tiles of {}", args.join(", "));
            let title = if out.only {
                title
            } else {
                format!("{title} (packs loaded: {})", names.join(", "))
            };
            write(file, &picture::gallery_html(pack, &tiles, &title), "--html")?;
            said += &format!(
                "wrote the gallery of {} tile types to {}\n",
                tiles.len(),
                file.display()
            );
        }
        Ok(said)
    });
    match result {
        Ok(said) => {
            emit(&said);
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `meeple replay`'s viewer (`html`) and final board (`svg`) of a
/// record that replayed to `game`.
pub(super) fn replay(
    record: &Record,
    path: &Path,
    game: &Game,
    html: Option<&Path>,
    svg: Option<&Path>,
) -> Result<String, String> {
    let mut said = String::new();
    if let Some(file) = html {
        let title = format!(
            "{} — {}",
            path.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
            record.rules.join(", ")
        );
        let page = picture::replay_html(record, game.rules().clone(), &title)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        write(file, &page, "--html")?;
        said += &format!("wrote the replay viewer to {}\n", file.display());
    }
    if let Some(file) = svg {
        write(file, &picture::board_svg(game, &record.players), "--svg")?;
        said += &format!("wrote the final board to {}\n", file.display());
    }
    Ok(said)
}
