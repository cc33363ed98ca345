//! Finding, reading and parsing the files of a load, and ordering them by
//! their `requires` lines.

use crate::bundled::{bundled, bundled_names};
use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::source::{FileId, Sources};
use crate::syntax::{ast, parse_file};
use std::path::{Path, PathBuf};

/// Files larger than this are refused rather than read.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// Reads at most `cap` bytes of a regular file. Anything else (a folder, a
/// FIFO, a device, a socket) is refused from its metadata before it is
/// opened, so nothing can block the read or make it endless; `what` names
/// the kind of file expected ("rules files", "records").
pub(crate) fn read_capped(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!(
            "it is {}, not a file; {what} are read only from regular files",
            file_kind(&meta)
        ));
    }
    if meta.len() > cap {
        return Err(format!("it is {} bytes; {what} are limited to {cap}", meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // The path may have changed between the two looks: ask the open file.
    let opened = file.metadata().map_err(|e| e.to_string())?;
    if !opened.is_file() {
        return Err(format!(
            "it is {}, not a file; {what} are read only from regular files",
            file_kind(&opened)
        ));
    }
    // At most one byte past the limit, so a file that grows cannot make the read unbounded.
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(format!("it is larger than {cap} bytes, the limit for {what}"));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, in words.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Whether `text` begins, after white space and comments, with `pack`: a
/// file reached through a record that does not is refused before it is
/// parsed, so no diagnostic shows what it holds.
fn starts_like_a_pack(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        match rest.strip_prefix('#') {
            Some(comment) => rest = comment.split_once('\n').map_or("", |(_, after)| after),
            None => break,
        }
    }
    rest.strip_prefix("pack").is_some_and(|after| {
        after
            .chars()
            .next()
            .is_some_and(|c| matches!(c, ' ' | '\t' | '\r' | '\n' | '#'))
    })
}

/// Names a pack to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackRef {
    /// A `.rules` file on disk, read at run time.
    Path(PathBuf),
    /// A pack bundled with meeple, by name (`base`).
    Bundled(String),
    /// Text in memory, with the name to show in diagnostics.
    Text {
        /// The file name diagnostics show (it is never opened).
        name: String,
        /// The pack's `.rules` text.
        text: String,
    },
}

impl PackRef {
    /// Reads a command-line argument: a path if it looks like one (contains a
    /// slash or ends in `.rules`), a bundled pack name otherwise.
    pub fn from_arg(arg: &str) -> PackRef {
        if arg.ends_with(".rules") || arg.contains('/') || arg.contains('\\') {
            PackRef::Path(PathBuf::from(arg))
        } else {
            PackRef::Bundled(arg.to_string())
        }
    }
}

/// One file of the load.
pub(crate) struct Unit {
    pub(crate) file: FileId,
    pub(crate) ast: Option<ast::File>,
    /// Folder of a file read from disk, where its requirements are looked for first.
    pub(crate) dir: Option<PathBuf>,
    /// Identity to avoid reading the same file twice.
    key: String,
}

impl Unit {
    /// The pack name the file declares, if it parsed.
    pub(crate) fn pack_name(&self) -> Option<&str> {
        self.ast.as_ref().map(|a| a.header.name.name.as_str())
    }
}

/// Reads every requested file and, transitively, every pack they require.
/// With `roots` (a record's packs), every file read from disk must lie in
/// one of those folders and begin like a pack.
pub(crate) fn read_all(
    refs: &[PackRef],
    roots: Option<&[PathBuf]>,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    for r in refs {
        if let Some(unit) = read_ref(r, None, roots, &units, sources, diags) {
            units.push(unit);
        }
    }
    let mut next = 0;
    while next < units.len() {
        let requires: Vec<ast::Ident> = units[next]
            .ast
            .as_ref()
            .map(|a| a.header.requires.clone())
            .unwrap_or_default();
        for req in requires {
            if units.iter().any(|u| u.pack_name() == Some(req.name.as_str())) {
                continue;
            }
            let dir = units[next].dir.clone();
            let local = dir
                .as_ref()
                .map(|d| d.join(format!("{}.rules", req.name)))
                .filter(|p| p.is_file());
            // The bundled pack of the name, if there is one.
            let bundled_one = |units: &[Unit], sources: &mut Sources, diags: &mut Vec<Diagnostic>| {
                bundled(&req.name)
                    .is_some()
                    .then(|| {
                        read_ref(
                            &PackRef::Bundled(req.name.clone()),
                            Some(&req),
                            roots,
                            units,
                            sources,
                            diags,
                        )
                    })
                    .flatten()
            };
            let found = match local {
                Some(path) => match read_ref(&PackRef::Path(path.clone()), Some(&req), roots, &units, sources, diags) {
                    // A required pack is found by its name: a file of that
                    // name declaring another pack is not it (the bundled
                    // pack of the name is, if there is one).
                    Some(unit) => match unit.pack_name() {
                        Some(declared) if declared != req.name => {
                            let declared = declared.to_string();
                            let found = bundled_one(&units, sources, diags);
                            if found.is_none() {
                                diags.push(
                                    Diagnostic::new(Code::MissingPack, format!("no pack named `{}`", req.name))
                                        .at(req.span, "required here")
                                        .note(format!(
                                            "`{}` declares `pack {declared}`: a required pack is found by its name, so name the file after its pack (`{declared}.rules`), or require `{declared}`",
                                            path.display()
                                        )),
                                );
                            }
                            found
                        }
                        _ => Some(unit),
                    },
                    None => None,
                },
                None if bundled(&req.name).is_some() => bundled_one(&units, sources, diags),
                None => {
                    diags.push(missing_pack(&req.name, Some(&req), dir.as_deref(), false));
                    None
                }
            };
            if let Some(unit) = found {
                units.push(unit);
            }
        }
        next += 1;
    }
    units
}

fn read_ref(
    r: &PackRef,
    required_by: Option<&ast::Ident>,
    roots: Option<&[PathBuf]>,
    units: &[Unit],
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
) -> Option<Unit> {
    let (key, name, text, dir) = match r {
        PackRef::Path(path) => {
            let key = path
                .canonicalize()
                .unwrap_or_else(|_| path.clone())
                .display()
                .to_string();
            if units.iter().any(|u| u.key == key) {
                return None;
            }
            let name = path.display().to_string();
            let text = match confined(path, roots).and_then(|()| read_text(path, roots.is_some())) {
                Ok(text) => text,
                Err(why) => {
                    let mut d = Diagnostic::new(Code::Unreadable, format!("cannot read `{name}`: {why}"));
                    if let Some(req) = required_by {
                        d = d.at(req.span, "required here");
                    }
                    diags.push(d);
                    return None;
                }
            };
            (key, name, text, path.parent().map(Path::to_path_buf))
        }
        PackRef::Bundled(pack) => {
            let key = format!("<bundled>/{pack}");
            if units.iter().any(|u| u.key == key) {
                return None;
            }
            let Some(text) = bundled(pack) else {
                // (A record's packs are looked for in its folders only: no
                // hint at a file where the command runs.)
                diags.push(missing_pack(pack, required_by, None, roots.is_none()));
                return None;
            };
            (key, format!("rules/{pack}.rules"), text.to_string(), None)
        }
        PackRef::Text { name, text } => {
            // Text in memory is held to the same cap as a file.
            if text.len() as u64 > MAX_FILE_BYTES {
                diags.push(Diagnostic::new(
                    Code::Unreadable,
                    format!(
                        "cannot read `{name}`: it is {} bytes; rules files are limited to {MAX_FILE_BYTES}",
                        text.len()
                    ),
                ));
                return None;
            }
            (format!("<text>/{name}"), name.clone(), text.clone(), None)
        }
    };
    let file = sources.add(name, text);
    let ast = match parse_file(file, sources.text(file)) {
        Ok(ast) => Some(ast),
        Err(d) => {
            diags.push(d);
            None
        }
    };
    Some(Unit { file, ast, dir, key })
}

/// With `roots`, that `path` lies (symbolic links followed) in one of them.
fn confined(path: &Path, roots: Option<&[PathBuf]>) -> Result<(), String> {
    let Some(roots) = roots else { return Ok(()) };
    let real = path.canonicalize().map_err(|e| e.to_string())?;
    if roots
        .iter()
        .any(|root| root.canonicalize().is_ok_and(|root| real.starts_with(root)))
    {
        return Ok(());
    }
    let folders: Vec<String> = roots.iter().map(|r| format!("`{}`", r.display())).collect();
    Err(format!(
        "it lies outside the folders a record may read packs from ({}); a record names bundled packs, or packs in those folders",
        folders.join(", ")
    ))
}

/// A rules file's text. A `strict` read (a file reached through a record)
/// shows nothing of a file that is not a pack: not a bad byte, not a line.
fn read_text(path: &Path, strict: bool) -> Result<String, String> {
    if path.is_dir() {
        return Err(format!("it is a folder, not a .rules file; {}", name_a_file_in(path)));
    }
    let bytes = read_capped(path, MAX_FILE_BYTES, "rules files")?;
    if strict {
        let text =
            String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text, so it is not a rules pack".to_string())?;
        if !starts_like_a_pack(&text) {
            return Err(
                "it does not begin with `pack`, so it is not a rules pack (its contents are not shown)".to_string(),
            );
        }
        return Ok(text);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
        let column = at - bytes[..at].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1) + 1;
        format!(
            "it is not UTF-8 text: byte 0x{:02X} at line {line}, column {column}; save the file as UTF-8",
            bytes[at]
        )
    })
}

/// "no pack named `NAME`", where it was required (or named, `here` telling
/// whether a file in the working folder could be meant: a name given on
/// the command line or by a program, not by a record).
fn missing_pack(name: &str, required_by: Option<&ast::Ident>, dir: Option<&Path>, here: bool) -> Diagnostic {
    let mut d = Diagnostic::new(Code::MissingPack, format!("no pack named `{name}`"));
    if let Some(req) = required_by {
        d = d.at(req.span, "required here");
    }
    let looked = match dir {
        Some(dir) => format!(
            "looked for `{}` and among the bundled packs",
            dir.join(format!("{name}.rules")).display()
        ),
        None => "looked among the bundled packs".to_string(),
    };
    let bundled: Vec<&str> = bundled_names().collect();
    // A pack named on the command line that is a folder here.
    let folder = required_by
        .is_none()
        .then(|| Path::new(name))
        .filter(|p| p.is_dir())
        .map(|p| format!("`{name}` is a folder here, not a pack: {}", name_a_file_in(p)));
    // A pack named on the command line without its `.rules`, whose file is here.
    let file = format!("{name}.rules");
    let here = (here && required_by.is_none() && Path::new(&file).is_file())
        .then(|| format!("did you mean the file `{file}`? a file is named with its `.rules`"));
    let near = here
        .is_none()
        .then(|| did_you_mean(name, bundled.iter().copied()))
        .flatten();
    d.note(format!("{looked}: {}", bundled.join(", ")))
        .maybe_note(folder)
        .maybe_note(here)
        .maybe_note(near)
}

/// "name a .rules file in it, such as `rules/base.rules`".
fn name_a_file_in(dir: &Path) -> String {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    match files.first() {
        Some(example) => format!("name a .rules file in it, such as `{}`", example.display()),
        None => "name a .rules file".to_string(),
    }
}

/// Orders the parsed units so that each comes after the packs it requires
/// and packs are otherwise in the order of their names (so a game never
/// depends on the order packs were listed in), reports cycles and duplicate pack names, and returns for each unit (by
/// position in `units`) the indices of the units it requires.
pub(crate) fn order(units: &[Unit], sources: &Sources, diags: &mut Vec<Diagnostic>) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut by_name: Vec<(&str, usize)> = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let Some(ast) = &unit.ast else { continue };
        let name = ast.header.name.name.as_str();
        if let Some((_, first)) = by_name.iter().find(|(n, _)| *n == name) {
            let first_ast = units[*first].ast.as_ref().expect("registered units parsed");
            diags.push(
                Diagnostic::new(Code::PackLoadedTwice, format!("pack `{name}` is loaded from two files"))
                    .at(
                        ast.header.name.span,
                        format!("`{name}` declared again in {}", sources.name(unit.file)),
                    )
                    .also(first_ast.header.name.span, "first declared here")
                    .note("load only one of these files"),
            );
        } else {
            by_name.push((name, i));
        }
    }
    let deps: Vec<Vec<usize>> = units
        .iter()
        .map(|u| {
            u.ast
                .as_ref()
                .map(|a| {
                    a.header
                        .requires
                        .iter()
                        .filter_map(|r| by_name.iter().find(|(n, _)| *n == r.name).map(|(_, i)| *i))
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();

    // Depth-first post-order; a grey node met again closes a cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        White,
        Grey,
        Black,
    }
    let mut marks = vec![Mark::White; units.len()];
    let mut order = Vec::new();
    let mut stack_path: Vec<usize> = Vec::new();
    fn visit(
        u: usize,
        units: &[Unit],
        deps: &[Vec<usize>],
        marks: &mut [Mark],
        order: &mut Vec<usize>,
        path: &mut Vec<usize>,
        diags: &mut Vec<Diagnostic>,
    ) {
        marks[u] = Mark::Grey;
        path.push(u);
        // Requirements are visited by pack name, so the order does not
        // depend on how the packs were listed.
        let mut by_pack: Vec<(usize, usize)> = deps[u].iter().copied().enumerate().collect();
        by_pack.sort_by(|a, b| units[a.1].pack_name().cmp(&units[b.1].pack_name()));
        for (k, d) in by_pack {
            match marks[d] {
                Mark::White => visit(d, units, deps, marks, order, path, diags),
                Mark::Grey => {
                    let start = path.iter().position(|p| *p == d).unwrap_or(0);
                    let cycle: Vec<&str> = path[start..]
                        .iter()
                        .chain(std::iter::once(&d))
                        .filter_map(|i| units[*i].pack_name())
                        .collect();
                    let ast = units[u].ast.as_ref().expect("only parsed units have deps");
                    let req = ast
                        .header
                        .requires
                        .iter()
                        .find(|r| units[d].pack_name() == Some(r.name.as_str()))
                        .or_else(|| ast.header.requires.get(k))
                        .expect("a dependency comes from a requires entry");
                    diags.push(
                        Diagnostic::new(Code::RequiresCycle, "packs require each other in a cycle")
                            .at(req.span, "this requirement closes the cycle")
                            .note(format!("the cycle: {}", cycle.join(" requires ")))
                            .note("remove one of these requirements"),
                    );
                }
                Mark::Black => {}
            }
        }
        path.pop();
        marks[u] = Mark::Black;
        order.push(u);
    }
    // The depth-first walk finds cycles; requirements are walked by name.
    let mut roots: Vec<usize> = (0..units.len()).collect();
    roots.sort_by(|a, b| units[*a].pack_name().cmp(&units[*b].pack_name()).then(a.cmp(b)));
    for u in roots {
        if marks[u] == Mark::White && units[u].ast.is_some() {
            visit(u, units, &deps, &mut marks, &mut order, &mut stack_path, diags);
        }
    }
    // Units with a duplicate pack name take no part in the game.
    order.retain(|u| by_name.iter().any(|(_, i)| i == u));
    (canonical(&order, units, &deps), deps)
}

/// The canonical load order of `packs`: each pack after the packs it
/// requires, and among the packs whose requirements are all loaded, the one
/// whose name comes first, so the order never depends on how packs were
/// listed. Packs caught in a cycle (already reported) follow in `packs`' order.
fn canonical(packs: &[usize], units: &[Unit], deps: &[Vec<usize>]) -> Vec<usize> {
    let mut loaded = vec![false; units.len()];
    let mut out = Vec::with_capacity(packs.len());
    loop {
        let ready = packs
            .iter()
            .copied()
            .filter(|u| !loaded[*u])
            .filter(|u| deps[*u].iter().all(|d| loaded[*d] || d == u || !packs.contains(d)))
            .min_by(|a, b| units[*a].pack_name().cmp(&units[*b].pack_name()).then(a.cmp(b)));
        let Some(u) = ready else { break };
        loaded[u] = true;
        out.push(u);
    }
    out.extend(packs.iter().copied().filter(|u| !loaded[*u]));
    out
}
