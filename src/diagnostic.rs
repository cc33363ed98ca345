//! Diagnostics: every problem the loader finds, with a stable code, the place
//! it happened, related places, and a note on how to fix it.

use crate::source::{Sources, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;

macro_rules! codes {
    ($($variant:ident = $num:literal, $title:literal, $explain:literal;)*) => {
        /// A stable diagnostic code. Numbers are never reused.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $(#[doc = concat!("*", $title, "* (number ", $num, "). ", $explain)] $variant,)* }

        impl Code {
            /// Every code, in number order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The number behind `E`.
            pub fn number(self) -> u16 {
                match self { $(Code::$variant => $num,)* }
            }

            /// A one-line summary.
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title,)* }
            }

            /// What the error means and how to fix it (shown by `meeple explain`).
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$variant => $explain,)* }
            }
        }
    };
}

codes! {
    Syntax = 1, "syntax error",
        "The file does not follow the grammar of the .rules language. The label shows where the parser stopped and what it expected there; see docs/language.md for the shape of each declaration.";
    TooDeep = 2, "nested too deeply or too long",
        "Parentheses and braces may be nested at most 64 deep, `if ... then ... else` expressions at most 64 deep, and `if` statements at most 256 deep (each `else if` of a chain nests inside the one before it); one expression may hold at most 256 operators. Split the expression with `let` or a function, write a long chain of cases as `if` statements, split a long `else if` chain into functions, or remove stray brackets.";
    UnknownName = 3, "unknown name",
        "A name does not refer to anything visible from this file: a feature kind, figure, marker, icon, tile or pack. Check the spelling (a suggestion is given when one is close) or declare it. A name that a pack this file does not require declares is E0005 instead.";
    Duplicate = 4, "defined twice",
        "Two declarations use the same name. Names are shared by all packs loaded together; rename one, or use `extend tile` / `replace tile` to change a tile of another pack.";
    NotRequired = 5, "name from a pack that is not required",
        "The name is declared in a pack this file does not require: another pack loaded with it, or a pack bundled with meeple (a pack that forgets `requires base` meets this for every base name). Add that pack to the file's `requires` line so the dependency is explicit. The uses that one missing requirement explains are reported together, in one error.";
    LanguageVersion = 6, "unsupported language version",
        "The `language` line names a version of the .rules language this meeple does not understand. This version understands `language 1`.";
    MissingPack = 7, "required pack not found",
        "A pack named in `requires` (or on the command line) is neither a file NAME.rules beside the requiring file nor a pack bundled with meeple. Check the name, or pass the file's path.";
    RequiresCycle = 8, "packs require each other in a cycle",
        "Pack requirements must form a tree: a pack cannot (directly or through others) require itself. Remove one of the `requires` entries named in the note.";
    NoStartTile = 9, "no start tile",
        "Every game needs exactly one start tile. Declare one with `start TILE` (or `replace start TILE` in an expansion).";
    StartConflict = 10, "start tile declared more than once",
        "Exactly one start tile may be in force. An expansion that brings its own start tile says `replace start TILE`; two packs both replacing the start tile cannot be loaded together.";
    EdgeCoveredTwice = 11, "edge or half-edge used twice",
        "Each edge of a tile belongs to exactly one segment (a city, a road, or the fields on its two halves), and each half-edge to at most one field. Remove the location from one of the segments.";
    EdgeUncovered = 12, "edge or half-edge not covered",
        "Every edge of a tile must belong to a segment, and both halves of an edge without a city or road must belong to fields. Add the missing location to a segment.";
    HalfEdgeOnWideEdge = 13, "field half-edge on an edge filled by another feature",
        "Field half-edges may lie only on field edges and on edges crossed by a narrow feature (a road). An edge filled by a wide feature such as a city has no field halves.";
    WrongLocation = 14, "location of the wrong kind",
        "Features that connect through edges take edge names (N E S W); features that connect through half-edges take half-edges (NL NR EL ER SL SR WL WR) or edges meaning both halves; area features take no location.";
    BadTouches = 15, "`touches` does not name a feature on this tile",
        "A field's `touches` list names features of the same tile by one of their edges (for example `touches N` for the city on the north edge). The named edge must belong to an edge-connected feature of this tile.";
    TypeMismatch = 16, "type mismatch",
        "An expression has a different type than its place needs: scores are numbers, conditions are true/false, and operators need operands of matching types.";
    UnknownProperty = 17, "unknown property or function",
        "The expression uses a property or function that does not exist, or that is not available for this kind of feature. docs/language.md lists every built-in.";
    Arity = 18, "wrong number of arguments",
        "A built-in function was called with more or fewer arguments than it takes.";
    RepeatedClause = 19, "clause given twice",
        "A feature kind has at most one `complete when`, one `score completed` and one `score final` clause, and a figure names each feature kind once.";
    MarkerNotAllowed = 20, "marker not allowed on this feature kind",
        "A marker may only appear on segments of the feature kinds its declaration lists (`marker pennant on city`). Add the kind to the declaration or move the marker.";
    StartWithoutCopies = 21, "start tile has no copies",
        "The start tile is one copy of its tile type, so that type needs a count of at least 1.";
    PackLoadedTwice = 22, "pack loaded twice",
        "Two different files declare the same pack name. Load only one of them.";
    EmptySegment = 23, "segment without a location",
        "A road or city segment must name at least one edge it reaches; a field must name a half-edge or at least touch a feature.";
    NumberOutOfRange = 24, "number out of range",
        "Counts are limited to 1000 and numbers in expressions to one million, so that no rules file can make the engine run out of memory or overflow.";
    MisplacedFrom = 25, "`from` used outside a new tile",
        "`tile NAME from OTHER` creates a new tile type starting from OTHER's layout. `extend tile` and `replace tile` change an existing tile and take no `from`.";
    IconValue = 26, "icon value does not match its declaration",
        "An icon declared with a type (`icon arrow: compass`) needs a value on each tile (`icon arrow NE`); an icon declared without one takes no value. Compass values are N NE E SE S SW W NW.";
    ExclusiveClaim = 27, "two packs replace the same thing",
        "Two packs loaded together both replace the same tile or the start tile. They cannot be combined; load one of them.";
    Unreadable = 28, "file cannot be read",
        "The file could not be read, or is not UTF-8 text. The message gives the operating system's reason or the first bad byte.";
    NarrowOnArea = 29, "`narrow` only applies to edge-connected features",
        "`narrow` marks an edge-connected feature (a road) that runs through the middle of an edge, leaving the edge's two halves to fields. Other topologies take no `narrow`.";
    FigureNowhere = 30, "figure has nowhere to stand",
        "A figure must list at least one feature kind it `stands on` or `lies on`.";
    UnknownEvent = 31, "unknown event",
        "`on NAME` must name an event of the language: setup, turn_start, tile_drawn, tile_placed, deploy_phase, figure_deployed, feature_completed, feature_scored, feature_done, figure_returned, turn_end, game_end, game_over (docs/language.md lists their parameters).";
    NoDomain = 32, "nothing to range over",
        "`for`, `choose`, `count` and an action's `for` need what they range over: a domain before the variable (`choose city c where ...`, `for player p`) or a list after it (`for p in opponents`, `count(c in touching)`). The domain is `player`, `figure`, `feature`, `tile`, `square`, `card`, a feature kind or a figure type.";
    WrongKind = 33, "figure cannot go on this kind of feature",
        "An effect places or moves a figure onto a feature whose kind the figure may not stand on (see the figure's `stands on` / `lies on`). Choose a feature of another kind, or let the figure go there in its declaration.";
    FnOrder = 34, "function used before its declaration",
        "A function may only call functions declared before it (in its file, or in a pack it requires). This keeps rules from recursing, so every rule finishes.";
    UnknownWindow = 35, "unknown action window",
        "`action NAME in WINDOW` offers the action with a decision: `before_place` (after drawing, before placing) or `deploy` (instead of deploying a figure).";
    BadVar = 36, "bad variable declaration",
        "`var SCOPE NAME: TYPE [= VALUE] [merge POLICY]`: the scope is `game`, `player` or `feature`; game variables may be of any type (int, bool, feature, player, figure, tile, direction, kind, figure_type, card, square, reason); player and feature variables are int or bool; feature variables merge with `any`, `all`, `sum`, `max` or `min` when features join.";
    NotAssignable = 37, "cannot set this",
        "`set` changes a variable: a game variable by name (`set moved = true`), or a player's or feature's variable through it (`set c.locked = true`). Locals (`let`, parameters) cannot be changed.";
    CardDoesNothing = 38, "card does nothing",
        "A card must say when it acts: `on draw { ... }` resolves it as soon as it is drawn, `play in WINDOW { ... }` keeps it in the hand to be played, `on game_end { ... }` resolves it at the end while still in the hand, and `kept` holds it in the hand until a rule of the pack uses it (`holds`, `discard`).";
    IfExpression = 39, "`if` used as a value without `else`",
        "`if CONDITION then A else B` is a value: A when the condition holds, B otherwise. Written as a value, `if` needs both: add `else B`. To run statements only when a condition holds, write the statement `if CONDITION { ... }` instead.";
    NameTooLong = 40, "name too long",
        "A name (of a pack, tile, feature kind, figure, variable, function or anything else) may be at most 256 characters long, so that comparing names and suggesting corrections stays fast on any file. Use a shorter name.";
    TooManyCalls = 41, "function makes too many calls",
        "Counting every call written in a function's body, and in the bodies of the functions it calls, one run of it would make more than 1 000 000 calls: typically functions that each call the one before twice, doubling at every step. Such a function could never finish within a game's evaluation budget. Call a function once and keep its value with `let` (in a block function), or compute the value another way.";
    ValueFunction = 42, "bad function with a result",
        "A function declared with a result type (`fn NAME(params): TYPE { ... }`) computes a value: its block may only use `let`, `if` / `else` and `return VALUE`, every way through it must end in `return`, and nothing may follow a `return`. To change the game, drop the result type and call the function as a statement.";
    ExtendOwnKind = 43, "`extend` of a kind or figure declared in the same pack",
        "`extend feature NAME { ... }` changes the clauses (`complete when`, `score completed`, `score final`) of a feature kind that a required pack declares, and `extend figure NAME { stands on KIND }` lets a required pack's figure go on more kinds (a new kind of yours, or one it did not go on), for an expansion or a variant. In the pack that declares the kind or figure, write it in its declaration instead.";
    UnknownStack = 50, "unknown tile stack",
        "A name after `in` (a tile's stack), after `before`/`after` (a stack's place in the draw order) or after `draw tile from` must name a tile stack: `main`, the stack of every tile declared without `in`, or one declared with `stack NAME before|after OTHER` in this pack or a pack it requires.";
    StackCycle = 51, "tile stacks ordered in a circle",
        "Each `stack NAME before|after OTHER` puts one stack before or after another; the draw takes from the first non-empty stack in that order. The declarations named here ask for a circle (a stack before itself, or `a before b` with `b before a`), so no order satisfies them. Drop or turn round one of them.";
    TwoLastTiles = 52, "two tile types pinned last in one stack",
        "`tile NAME in STACK last` pins a tile type to the end of its stack: its copies are drawn only once no other tile is left in that stack. Only one tile type per stack may be pinned, or the end of the stack would be ambiguous; pin one of them, or put the other in a stack of its own ordered after this one.";
    ImplicitStack = 53, "`main` cannot be declared",
        "`main` is the implicit stack of every tile declared without `in`; it cannot be declared or ordered against another stack. To draw a stack before or after the main stack, order that stack: `stack early before main`, `stack late after main`.";
    CandidateFeatures = 54, "a placement candidate has no features",
        "In `forbid placement of t when ...`, `t` is the candidate: a tile not yet on the board, so it belongs to no feature and `t.feature(KIND)` would always be `none` and `t.features` always empty. Ask what the candidate shows instead: `t.side(d)` (the feature kind on side d, as turned), `t.has_icon(i)`, and its neighbours' features through `t.neighbour(d)`.";
    DuplicateOption = 55, "option named twice",
        "The options of one `choose { NAME { ... } NAME { ... } }` are told apart by their names, which game records write: each name may be used once in a choice. Rename one of the options.";
    TooFewOptions = 56, "a choice among fewer than two options",
        "`choose { NAME [when COND] { ... } ... }` asks a player to pick one of its named options, so it needs at least two. For a yes/no question about one block use `may { ... }`; to run a block always, write its statements without `choose`.";
    SpotAsFeature = 57, "a spot where a feature is expected",
        "A spot (`spot NAME`) is a place off the board, not a feature: `place FIGURE on FEATURE` and `move FIGURE to FEATURE` put a figure on the board. To put a figure at a spot, say so: `place FIGURE [of PLAYER] on spot NAME`, `move FIGURE to spot NAME`.";
    OldSpelling = 58, "old spelling",
        "The language was made regular, and this is the spelling it had before; the message gives today's. Counts are `xN` after the name everywhere (`tile D x4`, `card storm x2 in tricks`, `figure follower x7 per_player`); one binder, `DOMAIN x [in LIST] [where COND]` or `x in LIST`, serves `for`, `count`, `choose` and actions (`for player p`, not `for each player p`); cards act `on game_end` as handlers do (not `at game_end`); a figure goes back to its supply with `take back x` (`return` gives a function's value).";
    BadColour = 59, "not a colour",
        "A `style` declaration's colour is written `\"#rrggbb\"` (six hexadecimal digits: red, green, blue) or `\"#rgb\"`, e.g. `style city colour \"#c8a165\"`. Names such as `red` are not read.";
    UnknownShape = 60, "unknown shape",
        "A `style` declaration's shape is one of `building`, `circle`, `square`, `diamond`, `shield`, `star`, `triangle` or `meeple`, e.g. `style monastery shape building`.";
    WhenReadsTarget = 61, "an action's `when` reads its target",
        "An action's (or a card's `play`) `when` is judged once each time its targets are looked for, not for each target, so it cannot read the target the `for` clause binds. A test on the target goes in `where`, which is judged for each one; `when` keeps what does not depend on it, e.g. `action retreat in before_place for follower x where x.owner == current_player and x.feature.kind == road when opponent_on(road) { take back x }`.";
    SegmentsCross = 62, "a field crosses another segment",
        "A tile is flat: a field is a stretch of land between its roads and cities, so it cannot reach both sides of a road or city that runs between them. Going round the tile's border clockwise (NL N NR EL E ER SL S SR WL W WR), a field and another segment may not alternate: `road W E` with `field N S` puts N and S on two sides of the road. Split the field in two, one on each side (`field N WR EL` north of the road and `field S WL ER` south of it), or move the road. Roads may cross each other (a bridge); fields never cross anything.";
    NeverCompletes = 63, "`score completed` of a kind that never completes",
        "A feature kind completes only by its `complete when`; a kind without one never completes, so its `score completed` would never pay. Add the condition (`complete when open_edges == 0` for a kind that closes like a city or road, `complete when neighbours == 8` for one surrounded like a monastery), or leave out `score completed` and score the kind with `score final` or a rule.";
    NameTaken = 64, "a name a rule cannot reach",
        "A rule reads a name by looking it up in a fixed order: its own locals, `none` and the built-ins (`tiles_left`, `current_player`; inside a kind's clauses, the feature's own `tiles`, `completed`, …), then feature kinds, markers, icons, figures, cards, decks, spots and game variables, and last the compass points `N` … `NW`. A declaration found after another of its name could never be read by it (`var game tiles_left: int` would be silently ignored for the built-in), and one named like a compass point would hide the direction in every rule. Likewise `p.NAME` and `c.NAME` read a player's or feature's variable before the built-in of that name (`var player score: int` would hide the player's real score behind a variable no one sees), and `NAME(...)` reaches a built-in, `count` or `if` before a function that gives a value. Rename the declaration (`var game bonus_tiles: int`, `var player extra_score: int`).";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "E{:04}", self.number())
    }
}

impl std::str::FromStr for Code {
    type Err = ();

    fn from_str(s: &str) -> Result<Code, ()> {
        let digits = s.trim_start_matches(['E', 'e']);
        let number: u16 = digits.parse().map_err(|_| ())?;
        Code::ALL.iter().copied().find(|c| c.number() == number).ok_or(())
    }
}

/// One problem found while loading rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Which kind of problem it is; `meeple explain` tells more.
    pub code: Code,
    /// The headline, naming the thing at fault (for example "unknown feature kind `citty`").
    pub message: String,
    /// The fault, with a short label.
    pub primary: Option<(Span, String)>,
    /// Related places ("first defined here").
    pub secondary: Vec<(Span, String)>,
    /// How to fix it.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with a message and nothing else yet.
    pub fn new(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Sets the primary label.
    pub fn at(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.primary = Some((span, label.into()));
        self
    }

    /// Adds a secondary label.
    pub fn also(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    /// Adds a note.
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Adds a note only when there is one.
    pub fn maybe_note(self, note: Option<String>) -> Diagnostic {
        match note {
            Some(n) => self.note(n),
            None => self,
        }
    }

    /// Converts into codespan's form.
    pub fn to_codespan(&self) -> cs::Diagnostic<usize> {
        let mut labels = Vec::new();
        if let Some((span, text)) = &self.primary {
            labels.push(cs::Label::primary(span.file, span.range()).with_message(text));
        }
        for (span, text) in &self.secondary {
            labels.push(cs::Label::secondary(span.file, span.range()).with_message(text));
        }
        cs::Diagnostic::error()
            .with_code(self.code.to_string())
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(self.notes.clone())
    }

    /// Renders the diagnostic as plain text, exactly as golden files hold it.
    pub fn render(&self, sources: &Sources) -> String {
        let config = term::Config::default();
        term::emit_into_string(&config, sources, &self.to_codespan())
            .unwrap_or_else(|_| format!("error[{}]: {}\n", self.code, self.message))
    }
}

/// Renders every diagnostic, one after another, as plain text.
pub fn render_all(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    diagnostics.iter().map(|d| d.render(sources)).collect()
}

/// The longest name a rules file may write, in characters (E0040). The
/// longest name in the bundled packs is under 30 characters; 256 leaves room
/// for any descriptive name while keeping one edit-distance comparison of two
/// names under 65 536 steps.
pub const MAX_NAME_CHARS: usize = 256;

/// Most edit-distance steps (cells of the alignment table) one suggestion may
/// spend: a few milliseconds, however many names are visible.
pub(crate) const SUGGEST_STEPS_PER_CALL: u64 = 1 << 20;

/// Most edit-distance steps all suggestions of one load may spend (see
/// [`with_suggestion_budget`]); after that, errors come without a suggestion.
pub(crate) const SUGGEST_STEPS_PER_LOAD: u64 = 1 << 25;

thread_local! {
    /// Steps left to the suggestions of the load running on this thread, if any.
    static BUDGET: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with at most `steps` edit-distance steps for all the suggestions
/// it makes, so that no input (many unknown names, many visible names) makes
/// "did you mean" quadratic. Restores the enclosing budget afterwards.
pub(crate) fn with_suggestion_budget<T>(steps: u64, f: impl FnOnce() -> T) -> T {
    let outer = BUDGET.with(|b| b.replace(Some(steps)));
    let result = f();
    BUDGET.with(|b| b.set(outer));
    result
}

/// The closest of `candidates` to `name`, if one is close enough to be a
/// likely typo. Distance is optimal string alignment (a transposition of two
/// neighbouring letters, `raod` for `road`, counts as one edit): one edit per
/// three letters, at least one, except that a one-letter name only matches a
/// different case (any one-letter word is one edit from any other).
///
/// The work is bounded: names over [`MAX_NAME_CHARS`] are not compared, nor
/// candidates whose length alone puts them out of reach, and the comparisons
/// stop after [`SUGGEST_STEPS_PER_CALL`] steps (or when the load's budget is
/// spent).
pub(crate) fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    suggest_counted(name, candidates).0
}

/// [`suggest`], and the number of edit-distance steps it spent.
fn suggest_counted<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> (Option<&'a str>, u64) {
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return (None, 0);
    }
    let limit = if length < 2 { 0 } else { (length / 3).max(1) };
    let lower = name.to_lowercase();
    let available = BUDGET
        .with(|b| b.get())
        .map_or(SUGGEST_STEPS_PER_CALL, |left| left.min(SUGGEST_STEPS_PER_CALL));
    let mut spent = 0u64;
    let mut best: Option<(usize, usize, &'a str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        // Each edit changes the length by at most one, and the length of a
        // string is at least its byte length over four: both cheap filters.
        if c.len() > 4 * (length + limit) {
            continue;
        }
        let c_length = c.chars().count();
        if c_length.abs_diff(length) > limit {
            continue;
        }
        let steps = (length.max(1) * c_length.max(1)) as u64;
        if spent + steps > available {
            break;
        }
        spent += steps;
        let d = strsim::osa_distance(&lower, &c.to_lowercase());
        // Between equally close words, one of the same length (a swap or a
        // changed letter, not a lost or extra one) is the likelier typo.
        let key = (d, c_length.abs_diff(length));
        if d <= limit && best.is_none_or(|(bd, bl, _)| key < (bd, bl)) {
            best = Some((key.0, key.1, c));
        }
    }
    BUDGET.with(|b| {
        if let Some(left) = b.get() {
            b.set(Some(left.saturating_sub(spent)));
        }
    });
    (best.map(|(_, _, c)| c), spent)
}

/// A "did you mean" note for [`suggest`].
pub(crate) fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    suggest(name, candidates).map(|s| format!("did you mean `{s}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_listed_in_number_order() {
        assert!(Code::ALL.windows(2).all(|w| w[0].number() < w[1].number()));
    }

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.number()), "{code} reused");
            assert_eq!(code.to_string().parse::<Code>(), Ok(*code));
        }
    }

    #[test]
    fn suggestions_find_typos_only() {
        let kinds = ["city", "road", "monastery", "field"];
        assert_eq!(suggest("monastry", kinds), Some("monastery"));
        assert_eq!(suggest("citty", kinds), Some("city"));
        assert_eq!(suggest("castle", kinds), None);
    }

    #[test]
    fn transposed_letters_are_one_edit() {
        let kinds = ["city", "road", "monastery", "field"];
        assert_eq!(suggest("raod", kinds), Some("road"));
        assert_eq!(suggest("ctiy", kinds), Some("city"));
        assert_eq!(suggest("bsae", ["bass", "base", "bees"]), Some("base"));
        assert_eq!(suggest("RW", ["N", "W", "NL", "WR"]), Some("WR"));
        // One-letter names: only a different case is a likely typo.
        assert_eq!(suggest("X", ["N", "E", "S", "W"]), None);
        assert_eq!(suggest("n", ["N", "E", "S", "W"]), Some("N"));
    }

    #[test]
    fn suggestions_do_bounded_work() {
        // Candidates whose length alone is out of reach are never compared.
        let far: Vec<String> = (0..10_000).map(|i| format!("tile_number_{i}_of_many")).collect();
        let (found, steps) = suggest_counted("Q1", far.iter().map(String::as_str));
        assert_eq!((found, steps), (None, 0));
        // Overlong names are not compared at all.
        let long = "A".repeat(60_000);
        let other = format!("{}B", "A".repeat(59_999));
        assert_eq!(suggest_counted(&long, [other.as_str()]), (None, 0));
        // Many candidates within reach: the work stops at the cap.
        let near: Vec<String> = (0..100_000).map(|i| format!("name{i:06}")).collect();
        let (_, steps) = suggest_counted("name_00000", near.iter().map(String::as_str));
        assert!(steps <= SUGGEST_STEPS_PER_CALL, "{steps} steps");
        // And a load's budget bounds all its suggestions together.
        let total = with_suggestion_budget(1000, || {
            (0..100)
                .map(|_| suggest_counted("name_00000", near.iter().map(String::as_str)).1)
                .sum::<u64>()
        });
        assert!(total <= 1000, "{total} steps");
        // The first matching candidate within the budget is still found.
        assert_eq!(
            suggest("name00000x", near.iter().map(String::as_str)),
            Some("name000000")
        );
    }
}
