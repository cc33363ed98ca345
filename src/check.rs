//! The checker: from files to a [`RulePack`]. It reads every pack and what
//! they require, resolves every name, checks types and tile geometry, and
//! keeps going after an error so that one run reports all of them.

mod cost;
mod expr;
mod load;
mod names;
mod program;
mod requires;
mod stacks;
mod style;
mod tiles;
mod value_fn;

pub(crate) use load::read_capped;
pub use load::PackRef;

use crate::diagnostic::{render_all, Code, Diagnostic};
use crate::ir::expr::{Expr, Type};
use crate::ir::program::{Action, FnBody, Forbid, ForbidWhat, Function, Handler, Merge, Program, Var, VarScope};
use crate::ir::{
    FeatureKind, FigureType, Icon, IconValue, Marker, Ownership, Pack, PackId, RulePack, TileType, Topology,
};
use crate::source::{Sources, Span};
use crate::syntax::ast::{self, FeatureClause, Item, ScoreMoment, TileMode};
use expr::{check_expr, infer, ExprScope, FnSig, Locals, Names};
use names::{Namespace, Visibility};
use tiles::{TileBuild, TileCx};

/// The language versions this build understands.
pub(crate) const LANGUAGE_VERSION: u32 = 1;

/// Counts (tiles, figures) are limited to this.
const MAX_COUNT: u32 = 1000;

/// Largest `weight` of a figure.
const MAX_WEIGHT: u32 = 100;
/// The whole tile set is limited to this many tiles.
const MAX_TILES: u32 = 10_000;
/// A tile may have at most this many segments.
const MAX_SEGMENTS: usize = 64;
/// At most this many feature kinds, so edge signatures fit their encoding.
const MAX_KINDS: usize = 100;

/// Loading failed: every diagnostic found, with the sources to render them.
#[derive(Debug)]
pub struct LoadError {
    /// Every file read before loading stopped, so the diagnostics' spans can
    /// be shown with their lines ([`LoadError::render`]).
    pub sources: Sources,
    /// Every problem found, in the order the checker's stages met them (at
    /// most [`MAX_REPEATED_ERRORS`] of one code per file); never empty.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// All diagnostics rendered as plain text.
    pub fn render(&self) -> String {
        render_all(&self.diagnostics, &self.sources)
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.render())?;
        write!(f, "{} error(s)", self.diagnostics.len())
    }
}

impl std::error::Error for LoadError {}

/// Loads and checks packs together, with every pack they require.
pub fn load(refs: &[PackRef]) -> Result<RulePack, LoadError> {
    // However many names are unknown or visible, "did you mean" stays cheap.
    crate::diagnostic::with_suggestion_budget(crate::diagnostic::SUGGEST_STEPS_PER_LOAD, || load_from(refs, None))
}

/// Loads packs as [`load`] does, but with `roots` (a record's packs) every
/// file read from disk, required ones included, must lie in one of those
/// folders and begin like a pack, or it is refused unread or unshown.
pub(crate) fn load_within(refs: &[PackRef], roots: &[std::path::PathBuf]) -> Result<RulePack, LoadError> {
    crate::diagnostic::with_suggestion_budget(crate::diagnostic::SUGGEST_STEPS_PER_LOAD, || {
        load_from(refs, Some(roots))
    })
}

/// Most errors of one code shown for one file; the rest are counted in a note
/// on the last one shown, so that a file repeating one mistake thousands of
/// times gives a readable (and quickly rendered) report.
pub const MAX_REPEATED_ERRORS: usize = 20;

/// Keeps the first [`MAX_REPEATED_ERRORS`] diagnostics of each code and file
/// and notes how many more there were.
fn limit_repeats(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    use std::collections::HashMap;
    let key = |d: &Diagnostic| (d.code, d.primary.as_ref().map(|(span, _)| span.file));
    let mut seen: HashMap<_, usize> = HashMap::new();
    let mut last_shown: HashMap<_, usize> = HashMap::new();
    let mut kept = Vec::new();
    for d in diags {
        let k = key(&d);
        let n = seen.entry(k).or_insert(0);
        *n += 1;
        if *n <= MAX_REPEATED_ERRORS {
            last_shown.insert(k, kept.len());
            kept.push(d);
        }
    }
    for (k, n) in seen {
        if n > MAX_REPEATED_ERRORS {
            let more = n - MAX_REPEATED_ERRORS;
            let errors = if more == 1 { "error" } else { "errors" };
            kept[last_shown[&k]].notes.push(format!(
                "and {more} more {} {errors} in this file, not shown (at most {MAX_REPEATED_ERRORS} of one code per file are)",
                k.0
            ));
        }
    }
    kept
}

fn load_from(refs: &[PackRef], roots: Option<&[std::path::PathBuf]>) -> Result<RulePack, LoadError> {
    if refs.is_empty() {
        return Err(LoadError {
            sources: Sources::new(),
            diagnostics: vec![Diagnostic::new(Code::MissingPack, "no packs to load")
                .note("give at least one pack: a bundled name such as `base`, or a .rules file")],
        });
    }
    let mut sources = Sources::new();
    let mut diags = Vec::new();
    let units = load::read_all(refs, roots, &mut sources, &mut diags);
    let (order, deps) = load::order(&units, &sources, &mut diags);
    let vis = visibility(&units, &deps);
    let asts: Vec<Option<&ast::File>> = units.iter().map(|u| u.ast.as_ref()).collect();
    let stacks = stacks::Stacks::declare(&order, &asts, &vis, &mut diags);
    let mut checker = Checker {
        stacks,
        diags,
        vis,
        kind_names: Namespace::new("feature kind"),
        figure_names: Namespace::new("figure"),
        extended: Vec::new(),
        marker_names: Namespace::new("marker"),
        icon_names: Namespace::new("icon"),
        tile_names: Namespace::new("tile"),
        var_names: Namespace::new("variable"),
        deck_names: Namespace::new("deck"),
        card_names: Namespace::new("card"),
        fn_names: Namespace::new("function"),
        action_names: Namespace::new("action"),
        spot_names: Namespace::new("spot"),
        kinds: Vec::new(),
        figures: Vec::new(),
        markers: Vec::new(),
        icons: Vec::new(),
        vars: Vec::new(),
        fn_sigs: Vec::new(),
        var_shaped: Vec::new(),
        program: Program::default(),
        reasons: std::cell::RefCell::new(Vec::new()),
        kind_claims: Vec::new(),
        scored_on_completion: Vec::new(),
        completion_given: Vec::new(),
    };
    for &u in &order {
        if let Some(file) = asts[u] {
            checker.header(file);
            checker.declare(u, file);
        }
    }
    if let Some(extra) = checker.kinds.get(MAX_KINDS) {
        checker.diags.push(
            Diagnostic::new(Code::NumberOutOfRange, "too many feature kinds")
                .at(extra.span, format!("feature kind number {}", MAX_KINDS + 1))
                .note(format!("a load may declare at most {MAX_KINDS} feature kinds")),
        );
    }
    *checker.reasons.get_mut() = checker.kinds.iter().map(|k| k.name.clone()).collect();
    for &u in &order {
        if let Some(file) = asts[u] {
            checker.resolve_markers(u, file);
            checker.resolve_figures(u, file);
        }
    }
    for &u in &order {
        if let Some(file) = asts[u] {
            checker.resolve_vars(u, file);
        }
    }
    for &u in &order {
        if let Some(file) = asts[u] {
            checker.resolve_fns(u, file);
        }
    }
    names::taken(
        &[
            &checker.kind_names,
            &checker.marker_names,
            &checker.icon_names,
            &checker.figure_names,
            &checker.card_names,
            &checker.deck_names,
            &checker.spot_names,
        ],
        &checker.var_names,
        |id| {
            checker
                .var_shaped
                .get(usize::from(id))
                .copied()
                .unwrap_or(false)
                .then(|| checker.vars[usize::from(id)].scope)
        },
        &checker.fn_names,
        |id| matches!(checker.fn_sigs.get(usize::from(id)), Some(Some(sig)) if sig.result.is_some()),
        &checker.vis,
        &mut checker.diags,
    );
    checker.check_call_counts();
    for &u in &order {
        if let Some(file) = asts[u] {
            checker.resolve_kinds(u, file);
            checker.resolve_handlers(u, file);
        }
    }
    checker.never_completing();
    let mut styles = Vec::new();
    for &u in &order {
        if let Some(file) = asts[u] {
            let names = style::Styleable {
                kinds: &checker.kind_names,
                markers: &checker.marker_names,
                icons: &checker.icon_names,
                figures: &checker.figure_names,
            };
            styles.extend(style::styles(u, file, &names, &checker.vis, &mut checker.diags));
        }
    }
    let tiles = checker.tiles(&order, &asts);
    let start = checker.start(&order, &asts, &tiles, &units, &sources);
    let packs = order
        .iter()
        .filter_map(|&u| {
            let file = asts[u]?;
            Some(Pack {
                name: file.header.name.name.clone(),
                title: file.header.title.clone(),
                file: units[u].file,
                requires: deps[u]
                    .iter()
                    .filter_map(|d| order.iter().position(|o| o == d).map(|p| p as PackId))
                    .collect(),
            })
        })
        .collect();
    requires::explain(&mut checker.diags, &units, &checker.vis, &mut sources);
    checker.diags = limit_repeats(std::mem::take(&mut checker.diags));
    if !checker.diags.is_empty() {
        return Err(LoadError {
            sources,
            diagnostics: checker.diags,
        });
    }
    let Some(start) = start else {
        return Err(LoadError {
            sources,
            diagnostics: checker.diags,
        });
    };
    checker.program.vars = checker.vars;
    Ok(RulePack {
        reasons: checker.reasons.into_inner(),
        styles,
        program: checker.program,
        sources,
        packs,
        kinds: checker.kinds,
        figures: checker.figures,
        markers: checker.markers,
        icons: checker.icons,
        tiles,
        stacks: checker.stacks.order,
        start,
    })
}

/// Which units each unit sees: itself and its transitive requirements.
fn visibility(units: &[load::Unit], deps: &[Vec<usize>]) -> Visibility {
    let n = units.len();
    let mut visible = vec![vec![false; n]; n];
    for (u, row) in visible.iter_mut().enumerate() {
        let mut stack = vec![u];
        while let Some(x) = stack.pop() {
            if !row[x] {
                row[x] = true;
                stack.extend(&deps[x]);
            }
        }
    }
    Visibility {
        visible,
        pack_names: units.iter().map(|u| u.pack_name().unwrap_or("?").to_string()).collect(),
    }
}

struct Checker {
    /// The tile stacks and their draw order.
    stacks: stacks::Stacks,
    /// The kinds `extend figure` added to figures, with their postures.
    extended: Vec<(u16, u16, ast::Posture)>,
    diags: Vec<Diagnostic>,
    vis: Visibility,
    kind_names: Namespace,
    figure_names: Namespace,
    marker_names: Namespace,
    icon_names: Namespace,
    tile_names: Namespace,
    var_names: Namespace,
    deck_names: Namespace,
    card_names: Namespace,
    fn_names: Namespace,
    action_names: Namespace,
    spot_names: Namespace,
    kinds: Vec<FeatureKind>,
    figures: Vec<FigureType>,
    markers: Vec<Marker>,
    icons: Vec<Icon>,
    vars: Vec<Var>,
    /// Signatures of the functions checked so far.
    fn_sigs: Vec<Option<FnSig>>,
    /// Whether each variable's declaration gave it a scope and type (E0064
    /// judges only those).
    var_shaped: Vec<bool>,
    program: Program,
    /// Scoring reasons (kinds first): interned by `score`/`adjust` and by
    /// quoted texts in expressions, so shared with [`Names`].
    reasons: std::cell::RefCell<Vec<String>>,
    /// Clauses changed by `extend feature`: kind, clause, unit, where.
    kind_claims: Vec<(u16, &'static str, usize, Span)>,
    /// Each `score completed` given (declared or by `extend`): kind, where.
    scored_on_completion: Vec<(u16, Span)>,
    /// Kinds given a `complete when`, declared or by `extend`.
    completion_given: Vec<u16>,
}

/// The names an expression may use, borrowed field by field from the checker
/// so that its outputs stay free to change.
macro_rules! names {
    ($c:expr, $topology:expr) => {
        Names {
            kinds: &$c.kind_names,
            markers: &$c.marker_names,
            icons: &$c.icon_names,
            figures: &$c.figure_names,
            vars: &$c.var_names,
            decks: &$c.deck_names,
            cards: &$c.card_names,
            fns: &$c.fn_names,
            var_decls: &$c.vars,
            fn_sigs: &$c.fn_sigs,
            kind_topology: $topology,
            stacks: &$c.stacks,
            reasons: &$c.reasons,
            spots: &$c.spot_names,
        }
    };
}

/// The name of a feature kind's clause, as messages write it, and where it is.
fn clause_key(clause: &FeatureClause) -> (&'static str, Span) {
    match clause {
        FeatureClause::Complete { span, .. } => ("complete when", *span),
        FeatureClause::Score {
            moment: ScoreMoment::Completed,
            span,
            ..
        } => ("score completed", *span),
        FeatureClause::Score { span, .. } => ("score final", *span),
    }
}

/// Reports `t.feature(..)` and `t.features` of a placement candidate `t`,
/// which is not on the board (E0054).
fn candidate_features(tile: &str, e: &ast::Expr, diags: &mut Vec<Diagnostic>) {
    match e {
        ast::Expr::Member { base, name, args, .. } => {
            if matches!(&**base, ast::Expr::Name(id) if id.name == tile)
                && (name.name == "feature" || name.name == "features")
            {
                diags.push(
                    Diagnostic::new(
                        Code::CandidateFeatures,
                        format!("the candidate `{tile}` is not on the board, so it has no features"),
                    )
                    .at(name.span, format!("`{tile}.{}` would always be empty", name.name))
                    .note(format!(
                        "ask what it shows instead: `{tile}.side(d)` is the feature kind on side d; the features next to it are `{tile}.neighbour(d).features`"
                    )),
                );
            }
            candidate_features(tile, base, diags);
            args.iter().flatten().for_each(|a| candidate_features(tile, a, diags));
        }
        ast::Expr::Call { args, .. } => args.iter().for_each(|a| candidate_features(tile, a, diags)),
        ast::Expr::Unary { expr, .. } => candidate_features(tile, expr, diags),
        ast::Expr::Binary { lhs, rhs, .. } => {
            candidate_features(tile, lhs, diags);
            candidate_features(tile, rhs, diags);
        }
        ast::Expr::If {
            cond, then, otherwise, ..
        } => {
            candidate_features(tile, cond, diags);
            candidate_features(tile, then, diags);
            candidate_features(tile, otherwise, diags);
        }
        ast::Expr::Count { var, list, filter, .. } => {
            list.iter().for_each(|l| candidate_features(tile, l, diags));
            if var.name != tile {
                filter.iter().for_each(|f| candidate_features(tile, f, diags));
            }
        }
        ast::Expr::Int(_) | ast::Expr::Bool(..) | ast::Expr::Name(_) | ast::Expr::Str(..) => {}
    }
}

/// An action's (or a card's `play`, when `card`) checked `when`, unless it
/// reads the target its `for` clause binds (slot 0, the action's first
/// local): `when` is judged once a look, not for each target, so such a
/// test would judge one target for all.
fn when_not_on_target(a: &ast::ActionDecl, card: bool, when: Expr, diags: &mut Vec<Diagnostic>) -> Option<Expr> {
    let (Some(clause), Some(at)) = (&a.domain, &a.when) else {
        return Some(when);
    };
    if !when.free_slots().is_some_and(|slots| slots.contains(&0)) {
        return Some(when);
    }
    let target = &clause.var.as_ref().unwrap_or(&clause.domain).name;
    diags.push(
        Diagnostic::new(
            Code::WhenReadsTarget,
            if card {
                format!("the `when` of card `{}`'s play reads its target `{target}`", a.name.name)
            } else {
                format!("the `when` of action `{}` reads its target `{target}`", a.name.name)
            },
        )
        .at(at.span(), format!("judged once a look, not for each `{target}`"))
        .note(format!(
            "move the test on `{target}` into `where`, which is judged for each target; keep in `when` only what does not depend on `{target}`"
        )),
    );
    None
}

fn too_big(n: &ast::Number, what: &str) -> Diagnostic {
    Diagnostic::new(Code::NumberOutOfRange, format!("{what} {} is too large", n.value))
        .at(n.span, format!("at most {MAX_COUNT}"))
        .note(format!("{what}s are limited to {MAX_COUNT}"))
}

impl Checker {
    fn header(&mut self, file: &ast::File) {
        if let Some(v) = file.header.language {
            if v.value != LANGUAGE_VERSION {
                self.diags.push(
                    Diagnostic::new(
                        Code::LanguageVersion,
                        format!("language version {} is not supported", v.value),
                    )
                    .at(v.span, "unknown version")
                    .note(format!("this meeple understands `language {LANGUAGE_VERSION}`")),
                );
            }
        }
    }

    /// First pass: every declared name, so that uses may precede declarations.
    fn declare(&mut self, u: usize, file: &ast::File) {
        for item in &file.items {
            let d = &mut self.diags;
            match item {
                Item::Feature(f) => {
                    let id = self.kinds.len() as u16;
                    if self.kind_names.declare(&f.name, u, id, d) {
                        self.kinds.push(FeatureKind {
                            name: f.name.name.clone(),
                            topology: f.topology,
                            narrow: f.narrow.is_some(),
                            complete: None,
                            score_completed: None,
                            score_final: None,
                            span: f.name.span,
                        });
                    }
                }
                Item::Figure(f) => {
                    let id = self.figures.len() as u16;
                    if self.figure_names.declare(&f.name, u, id, d) {
                        self.figures.push(FigureType {
                            name: f.name.name.clone(),
                            ownership: f.ownership,
                            count: f.count.value,
                            weight: f.weight.map_or(1, |w| w.value.min(MAX_WEIGHT)),
                            places: Vec::new(),
                            span: f.name.span,
                        });
                    }
                }
                Item::Marker(m) => {
                    let id = self.markers.len() as u16;
                    if self.marker_names.declare(&m.name, u, id, d) {
                        self.markers.push(Marker {
                            name: m.name.name.clone(),
                            on: Vec::new(),
                            span: m.name.span,
                        });
                    }
                }
                Item::Icon(i) => {
                    let id = self.icons.len() as u16;
                    let value = match &i.value_type {
                        None => IconValue::None,
                        Some(t) if t.name == "compass" => IconValue::Compass,
                        Some(t) => {
                            d.push(
                                Diagnostic::new(Code::IconValue, format!("unknown icon value type `{}`", t.name))
                                    .at(t.span, "not a value type")
                                    .note("the only icon value type is `compass`"),
                            );
                            IconValue::None
                        }
                    };
                    if self.icon_names.declare(&i.name, u, id, d) {
                        self.icons.push(Icon {
                            name: i.name.name.clone(),
                            value,
                            span: i.name.span,
                        });
                    }
                }
                Item::Tile(t) if t.mode == TileMode::Define => {
                    let id = self.tile_names.entries.len() as u16;
                    self.tile_names.declare(&t.name, u, id, d);
                }
                Item::Var(v) => {
                    let id = self.vars.len() as u16;
                    if self.var_names.declare(&v.name, u, id, d) {
                        self.var_shaped.push(false);
                        self.vars.push(Var {
                            name: v.name.name.clone(),
                            scope: VarScope::Game,
                            ty: Type::Int,
                            init: None,
                            merge: Merge::Sum,
                            span: v.name.span,
                        });
                    }
                }
                Item::Fn(f) => {
                    let id = self.fn_sigs.len() as u16;
                    if self.fn_names.declare(&f.name, u, id, d) {
                        self.fn_sigs.push(None);
                        self.program.functions.push(Function {
                            name: f.name.name.clone(),
                            slots: 0,
                            body: FnBody::Expr(Expr::Nothing),
                            span: f.name.span,
                        });
                    }
                }
                Item::Action(a) => {
                    let id = self.action_names.entries.len() as u16;
                    self.action_names.declare(&a.name, u, id, d);
                }
                Item::Deck(deck) => {
                    let id = self.program.decks.len() as u16;
                    if self.deck_names.declare(&deck.name, u, id, d) {
                        self.program.decks.push(crate::ir::program::Deck {
                            name: deck.name.name.clone(),
                            reshuffle: deck.reshuffle,
                            span: deck.name.span,
                        });
                    }
                }
                Item::Card(card) => {
                    let id = self.program.cards.len() as u16;
                    // A played card is an action of the same name: the two share names.
                    let action = self.action_names.entries.len() as u16;
                    if self.action_names.declare(&card.name, u, action, d)
                        && self.card_names.declare(&card.name, u, id, d)
                    {
                        self.program.cards.push(crate::ir::program::Card {
                            name: card.name.name.clone(),
                            deck: 0,
                            count: card.count.value,
                            on_draw: None,
                            play: None,
                            at_end: None,
                            span: card.name.span,
                        });
                    }
                }
                Item::Spot { name, per_player } => {
                    let id = self.program.spots.len() as u16;
                    if self.spot_names.declare(name, u, id, d) {
                        self.program.spots.push(crate::ir::program::Spot {
                            name: name.name.clone(),
                            per_player: *per_player,
                            span: name.span,
                        });
                    }
                }
                Item::HandLimit(..) => {}
                Item::Tile(_)
                | Item::Start(_)
                | Item::Stack(_)
                | Item::Forbid(_)
                | Item::Style(_)
                | Item::Handler(_)
                | Item::ExtendFeature(..)
                | Item::ExtendFigure(..) => {}
            }
        }
    }

    fn topologies(&self) -> Vec<Topology> {
        self.kinds.iter().map(|k| k.topology).collect()
    }

    fn resolve_vars(&mut self, u: usize, file: &ast::File) {
        let topology = self.topologies();
        for item in &file.items {
            let Item::Var(v) = item else { continue };
            let Some(id) = self.var_names.declared(&v.name) else {
                continue;
            };
            let mut diags = std::mem::take(&mut self.diags);
            if let Some((scope, ty, merge)) = program::var_shape(v, &mut diags) {
                let init = v.init.as_ref().and_then(|e| {
                    let names = names!(self, &topology);
                    let es = ExprScope::plain(u, &names, &self.vis);
                    let typed = check_expr(
                        &es,
                        &mut Locals::default(),
                        e,
                        ty,
                        &format!("variable `{}`", v.name.name),
                        &mut diags,
                    )?;
                    let constant = matches!(typed.expr, Expr::Int(_) | Expr::Bool(_) | Expr::Nothing);
                    if scope != VarScope::Game && !constant {
                        diags.push(
                            Diagnostic::new(Code::BadVar, "player and feature variables start from a constant")
                                .at(e.span(), "not a constant")
                                .note("write a number, `true` or `false`"),
                        );
                        return None;
                    }
                    Some(typed.expr)
                });
                let var = &mut self.vars[id as usize];
                (var.scope, var.ty, var.merge, var.init) = (scope, ty, merge, init);
                self.var_shaped[id as usize] = true;
            }
            self.diags = diags;
        }
    }

    /// Refuses a function whose worst case, counted in calls, is out of
    /// reach of a game's evaluation budget (see `check/cost.rs`).
    fn check_call_counts(&mut self) {
        for (id, calls) in cost::too_many_calls(&self.program) {
            let f = &self.program.functions[id];
            self.diags.push(
                Diagnostic::new(
                    Code::TooManyCalls,
                    format!("function `{}` makes {calls} calls each time it runs", f.name),
                )
                .at(f.span, "declared here")
                .note(format!(
                    "at most {} calls are allowed: call a function once and keep its value with `let`",
                    cost::MAX_CALLS
                )),
            );
        }
    }

    fn resolve_fns(&mut self, u: usize, file: &ast::File) {
        let topology = self.topologies();
        for item in &file.items {
            let Item::Fn(f) = item else { continue };
            let Some(id) = self.fn_names.declared(&f.name) else {
                continue;
            };
            let mut diags = std::mem::take(&mut self.diags);
            let mut locals = Locals::default();
            let declared = program::fn_result(f, &mut diags);
            let checked = program::fn_params(f, &mut locals, &mut diags).and_then(|params| {
                let names = names!(self, &topology);
                let es = ExprScope::plain(u, &names, &self.vis);
                let declared = declared?;
                let (body, result) = match (&f.body, declared) {
                    (ast::FnBody::Expr(e), None) => {
                        let t = infer(&es, &mut locals, e, &mut diags)?;
                        (FnBody::Expr(t.expr), Some(t.ty))
                    }
                    (ast::FnBody::Expr(e), Some(ty)) => {
                        let t = check_expr(&es, &mut locals, e, ty, "the function's result", &mut diags)?;
                        (FnBody::Expr(t.expr), Some(ty))
                    }
                    (ast::FnBody::Block(b), Some(ty)) => {
                        let e = value_fn::compile(&es, &mut locals, b, ty, f.name.span, &mut diags)?;
                        (FnBody::Expr(e), Some(ty))
                    }
                    (ast::FnBody::Block(b), None) => {
                        let scope = program::StmtScope {
                            expr: es,
                            figures: &self.figures,
                        };
                        let mut out = program::Out {
                            blocks: &mut self.program.blocks,
                            reasons: &self.reasons,
                            diags: &mut diags,
                        };
                        (FnBody::Block(program::block(&scope, &mut locals, b, &mut out)), None)
                    }
                };
                Some((params, body, result))
            });
            let checked = checked.filter(|_| program::check_frame(&locals, f.name.span, &mut diags));
            if let Some((params, body, result)) = checked {
                self.fn_sigs[id as usize] = Some(FnSig { params, result });
                self.program.functions[id as usize] = Function {
                    name: f.name.name.clone(),
                    slots: locals.slots(),
                    body,
                    span: f.name.span,
                };
            }
            self.diags = diags;
        }
    }

    fn resolve_handlers(&mut self, u: usize, file: &ast::File) {
        let topology = self.topologies();
        for item in &file.items {
            let mut diags = std::mem::take(&mut self.diags);
            let mut locals = Locals::default();
            match item {
                Item::Handler(h) => {
                    let Some(event) = program::event(&h.event, &mut diags) else {
                        self.diags = diags;
                        continue;
                    };
                    if program::bind_event_params(event, &h.names, &mut locals, &mut diags) {
                        let names = names!(self, &topology);
                        let es = ExprScope::plain(u, &names, &self.vis);
                        let when = h
                            .when
                            .as_ref()
                            .map(|w| check_expr(&es, &mut locals, w, Type::Bool, "`when`", &mut diags));
                        let scope = program::StmtScope {
                            expr: es,
                            figures: &self.figures,
                        };
                        let mut out = program::Out {
                            blocks: &mut self.program.blocks,
                            reasons: &self.reasons,
                            diags: &mut diags,
                        };
                        let body = program::block(&scope, &mut locals, &h.body, &mut out);
                        let fits = program::check_frame(&locals, h.event.span, &mut diags);
                        let room = self.program.handlers.len() < names::MAX_NAMES;
                        if !room {
                            diags.push(
                                Diagnostic::new(Code::NumberOutOfRange, "too many handlers")
                                    .at(h.event.span, format!("handler number {}", names::MAX_NAMES + 1))
                                    .note(format!("a load may declare at most {} handlers", names::MAX_NAMES)),
                            );
                        }
                        if let (true, true, Some(when)) =
                            (fits, room, when.map_or(Some(None), |w| w.map(|t| Some(t.expr))))
                        {
                            self.program.handlers.push(Handler {
                                event,
                                slots: locals.slots(),
                                when,
                                body,
                                span: h.span,
                            });
                        }
                    }
                }
                Item::Action(a) => {
                    self.action(u, a, None, &topology, &mut diags);
                }
                Item::Card(c) => self.card(u, c, &topology, &mut diags),
                Item::HandLimit(n, decks) => self.hand_limit(u, n, decks, &mut diags),
                Item::Forbid(f) => self.forbid(u, f, &topology, &mut diags),
                _ => {}
            }
            self.diags = diags;
        }
    }

    /// Checks a `forbid` rule: its condition is a bool over the candidate
    /// tile (placement) or the feature (deployment).
    fn forbid(&mut self, u: usize, f: &ast::ForbidDecl, topology: &[Topology], diags: &mut Vec<Diagnostic>) {
        let mut locals = Locals::default();
        let what = match &f.what {
            ast::Forbidden::Placement { tile } => {
                locals.bind(&tile.name, Type::Tile, None);
                candidate_features(&tile.name, &f.when, diags);
                Some(ForbidWhat::Placement)
            }
            ast::Forbidden::Deployment { figure, feature } => {
                locals.bind(&feature.name, Type::Feature, None);
                if figure.name == "figure" {
                    Some(ForbidWhat::Deployment(None))
                } else {
                    self.figure_names
                        .lookup(figure, u, &self.vis, diags)
                        .map(|id| ForbidWhat::Deployment(Some(id)))
                }
            }
        };
        let names = names!(self, topology);
        let es = ExprScope::plain(u, &names, &self.vis);
        let when = check_expr(&es, &mut locals, &f.when, Type::Bool, "`forbid ... when`", diags);
        if let (Some(what), Some(when)) = (what, when) {
            self.program.forbids.push(Forbid {
                what,
                slots: locals.slots(),
                when: when.expr,
                reason: f.reason.clone(),
                span: f.span,
            });
        }
    }

    /// Checks an action (or a card's `play`); returns its id.
    fn action(
        &mut self,
        u: usize,
        a: &ast::ActionDecl,
        card: Option<u16>,
        topology: &[Topology],
        diags: &mut Vec<Diagnostic>,
    ) -> Option<u16> {
        let mut locals = Locals::default();
        let window = program::window(&a.window, diags);
        let names = names!(self, topology);
        let es = ExprScope::plain(u, &names, &self.vis);
        let scope = program::StmtScope {
            expr: es,
            figures: &self.figures,
        };
        let domain = match &a.domain {
            Some(clause) => program::action_domain(&scope, &mut locals, clause, diags).map(Some),
            None => Some(None),
        };
        let when = match &a.when {
            Some(w) => check_expr(&scope.expr, &mut locals, w, Type::Bool, "`when`", diags)
                .and_then(|t| when_not_on_target(a, card.is_some(), t.expr, diags))
                .map(Some),
            None => Some(None),
        };
        let mut out = program::Out {
            blocks: &mut self.program.blocks,
            reasons: &self.reasons,
            diags,
        };
        let body = program::block(&scope, &mut locals, &a.body, &mut out);
        if !program::check_frame(&locals, a.name.span, out.diags) {
            return None;
        }
        let (window, domain, when) = (window?, domain?, when?);
        self.program.actions.push(Action {
            name: a.name.name.clone(),
            window,
            domain,
            when,
            slots: locals.slots(),
            body,
            card,
            span: a.span,
        });
        Some((self.program.actions.len() - 1) as u16)
    }

    /// A block of statements with no parameters; returns it with its frame size.
    fn rule_block(
        &mut self,
        u: usize,
        b: &ast::Block,
        owner: Span,
        topology: &[Topology],
        diags: &mut Vec<Diagnostic>,
    ) -> (u32, u16) {
        let mut locals = Locals::default();
        let names = names!(self, topology);
        let scope = program::StmtScope {
            expr: ExprScope::plain(u, &names, &self.vis),
            figures: &self.figures,
        };
        let mut out = program::Out {
            blocks: &mut self.program.blocks,
            reasons: &self.reasons,
            diags,
        };
        let block = program::block(&scope, &mut locals, b, &mut out);
        program::check_frame(&locals, owner, out.diags);
        (block, locals.slots())
    }

    fn hand_limit(&mut self, u: usize, n: &ast::Number, decks: &[ast::Ident], diags: &mut Vec<Diagnostic>) {
        let ids: Vec<u16> = decks
            .iter()
            .filter_map(|d| self.deck_names.lookup(d, u, &self.vis, diags))
            .collect();
        if ids.len() != decks.len() {
            return;
        }
        let overlaps = self
            .program
            .hand_limits
            .iter()
            .find(|h| h.decks.is_empty() || ids.is_empty() || h.decks.iter().any(|d| ids.contains(d)));
        if let Some(first) = overlaps {
            diags.push(
                Diagnostic::new(Code::RepeatedClause, "two hand limits count the same deck")
                    .at(n.span, "given again here")
                    .also(first.span, "first given here")
                    .note("give each deck at most one hand limit"),
            );
            return;
        }
        self.program.hand_limits.push(crate::ir::program::HandLimit {
            limit: n.value,
            decks: ids,
            span: n.span,
        });
    }

    fn card(&mut self, u: usize, c: &ast::CardDecl, topology: &[Topology], diags: &mut Vec<Diagnostic>) {
        let Some(id) = self.card_names.declared(&c.name) else {
            return;
        };
        if c.count.value > MAX_COUNT {
            diags.push(too_big(&c.count, "card count"));
        }
        if let Some(at) = c.old_at {
            diags.push(
                Diagnostic::new(Code::OldSpelling, "a card's game-end effect is written `on game_end`")
                    .at(at, "old spelling")
                    .note("write `on game_end { ... }`, as handlers and `on draw` do"),
            );
        }
        let deck = self.deck_names.lookup(&c.deck, u, &self.vis, diags);
        let on_draw = c
            .on_draw
            .as_ref()
            .map(|b| self.rule_block(u, b, c.name.span, topology, diags));
        let at_end = c
            .at_end
            .as_ref()
            .map(|b| self.rule_block(u, b, c.name.span, topology, diags));
        let play = c
            .play
            .as_ref()
            .and_then(|a| self.action(u, a, Some(id), topology, diags));
        if c.on_draw.is_none() && c.play.is_none() && c.at_end.is_none() && !c.kept {
            diags.push(
                Diagnostic::new(Code::CardDoesNothing, format!("card `{}` does nothing", c.name.name))
                                        .at(c.name.span, "no `on draw`, `play in`, `on game_end` or `kept`")
                                        .note("say when the card acts: `on draw { ... }` (at once), `play in WINDOW { ... }` (from the hand), `on game_end { ... }`, or `kept` (held until a rule uses it)"),
            );
        }
        let card = &mut self.program.cards[id as usize];
        card.deck = deck.unwrap_or(0);
        (card.on_draw, card.play, card.at_end) = (on_draw, play, at_end);
    }

    /// E0063: a kind given `score completed` that, with every pack loaded
    /// (so in any order), has no `complete when`.
    fn never_completing(&mut self) {
        for (i, kind) in self.kinds.iter().enumerate() {
            let id = i as u16;
            if self.completion_given.contains(&id) {
                continue;
            }
            let Some(&(_, span)) = self.scored_on_completion.iter().rev().find(|(k, _)| *k == id) else {
                continue;
            };
            let example = match kind.topology {
                Topology::Area => "complete when neighbours == 8",
                _ => "complete when open_edges == 0",
            };
            self.diags.push(
                Diagnostic::new(
                    Code::NeverCompletes,
                    format!("`{}` never completes, so its `score completed` never pays", kind.name),
                )
                .at(span, "never paid")
                .note(format!(
                    "add `{example}` (or another condition) to `{}`, or score it with `score final`",
                    kind.name
                )),
            );
        }
    }

    fn resolve_kinds(&mut self, u: usize, file: &ast::File) {
        let mut diags = std::mem::take(&mut self.diags);
        let topology = self.topologies();
        for item in &file.items {
            let (id, name, clauses, extend) = match item {
                Item::Feature(f) => {
                    let Some(entry) = self.kind_names.get(&f.name.name).filter(|e| e.span == f.name.span) else {
                        continue;
                    };
                    if let Some(span) = f.narrow {
                        if f.topology != ast::Topology::Edges {
                            diags.push(
                                Diagnostic::new(
                                    Code::NarrowOnArea,
                                    "`narrow` only applies to features that connect through edges",
                                )
                                .at(span, "not allowed here")
                                .also(f.topology_span, "this topology")
                                .note("remove `narrow`, or use `connects edges`"),
                            );
                        }
                    }
                    (entry.id, &f.name, &f.clauses, false)
                }
                Item::ExtendFeature(name, clauses) => {
                    let Some(id) = self.kind_names.lookup(name, u, &self.vis, &mut diags) else {
                        continue;
                    };
                    if self.kind_names.get(&name.name).is_some_and(|e| e.unit == u) {
                        diags.push(
                            Diagnostic::new(
                                Code::ExtendOwnKind,
                                format!("`{}` is declared in this pack", name.name),
                            )
                            .at(name.span, "extended here")
                            .note("write the clauses in the kind's own declaration; `extend feature` changes a kind of a required pack"),
                        );
                        continue;
                    }
                    (id, name, clauses, true)
                }
                _ => continue,
            };
            let names = names!(self, &topology);
            let scope = |in_complete| ExprScope {
                subject: Some((id, name.name.as_str())),
                in_complete,
                unit: u,
                names: &names,
                vis: &self.vis,
            };
            let mut seen: Vec<(&str, Span)> = Vec::new();
            let mut checked: Vec<(&'static str, Span, Option<Expr>)> = Vec::new();
            for clause in clauses {
                let (key, span) = clause_key(clause);
                if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                    diags.push(
                        Diagnostic::new(
                            Code::RepeatedClause,
                            format!("`{key}` is given twice for `{}`", name.name),
                        )
                        .at(span, "given again here")
                        .also(*first, "first given here")
                        .note("keep one of them"),
                    );
                    continue;
                }
                seen.push((key, span));
                let expr = match clause {
                    FeatureClause::Complete { expr, .. } => check_expr(
                        &scope(true),
                        &mut Locals::default(),
                        expr,
                        Type::Bool,
                        "`complete when`",
                        &mut diags,
                    ),
                    FeatureClause::Score { expr, .. } => check_expr(
                        &scope(false),
                        &mut Locals::default(),
                        expr,
                        Type::Int,
                        "a score",
                        &mut diags,
                    ),
                };
                checked.push((key, span, expr.map(|t| t.expr)));
            }
            let kind = &mut self.kinds[id as usize];
            if !extend {
                (kind.complete, kind.score_completed, kind.score_final) = (None, None, None);
            }
            // For E0063, judged once every pack's clauses are in: where each
            // kind's `score completed` was given (the last one wins), and
            // which kinds were given a `complete when` (one that did not
            // check counts as given).
            for (key, span, expr) in &checked {
                match *key {
                    "score completed" if expr.is_some() => self.scored_on_completion.push((id, *span)),
                    "complete when" => self.completion_given.push(id),
                    _ => {}
                }
            }
            for (key, span, expr) in checked {
                if extend {
                    let earlier = self.kind_claims.iter().find(|(k, c, _, _)| *k == id && *c == key);
                    if let Some(&(_, _, other, first)) = earlier.filter(|(_, _, o, _)| !self.vis.sees(u, *o)) {
                        let _ = other;
                        diags.push(
                            Diagnostic::new(
                                Code::ExclusiveClaim,
                                format!("`{key}` of `{}` is changed by two packs", name.name),
                            )
                            .at(span, "changed again here")
                            .also(first, "first changed here")
                            .note("neither pack requires the other, so neither change may win; load only one of them, or make one require the other (the requiring pack's change wins)"),
                        );
                        continue;
                    }
                    self.kind_claims.push((id, key, u, span));
                }
                match key {
                    "complete when" => kind.complete = expr,
                    "score completed" => kind.score_completed = expr,
                    _ => kind.score_final = expr,
                }
            }
        }
        self.diags = diags;
    }

    fn resolve_markers(&mut self, u: usize, file: &ast::File) {
        for item in &file.items {
            let Item::Marker(m) = item else { continue };
            let Some(id) = self.marker_names.declared(&m.name) else {
                continue;
            };
            let on: Vec<u16> =
                m.on.iter()
                    .filter_map(|k| self.kind_names.lookup(k, u, &self.vis, &mut self.diags))
                    .collect();
            self.markers[id as usize].on = on;
        }
    }

    fn resolve_figures(&mut self, u: usize, file: &ast::File) {
        for item in &file.items {
            if let Item::ExtendFigure(name, places) = item {
                self.extend_figure(u, name, places);
                continue;
            }
            let Item::Figure(f) = item else { continue };
            if f.count.value > MAX_COUNT {
                self.diags.push(too_big(&f.count, "figure count"));
            }
            if f.old_count {
                let own = match f.ownership {
                    Ownership::PerPlayer => "per_player",
                    Ownership::Neutral => "neutral",
                };
                self.diags.push(
                    Diagnostic::new(Code::OldSpelling, "a figure's count is written `xN` after its name")
                        .at(f.count.span, "old spelling")
                        .note(format!(
                            "write `figure {} x{} {own}`, as tiles and cards write their counts",
                            f.name.name, f.count.value
                        )),
                );
            }
            if let Some(w) = f.weight.filter(|w| w.value > MAX_WEIGHT) {
                self.diags.push(
                    Diagnostic::new(Code::NumberOutOfRange, "weight too large")
                        .at(w.span, format!("at most {MAX_WEIGHT}"))
                        .note("a figure counts as at most 100 figures for a majority"),
                );
            }
            let Some(id) = self.figure_names.declared(&f.name) else {
                continue;
            };
            let mut places = Vec::new();
            let mut spans: Vec<(u16, Span)> = Vec::new();
            for place in &f.places {
                for k in &place.kinds {
                    let Some(kind) = self.kind_names.lookup(k, u, &self.vis, &mut self.diags) else {
                        continue;
                    };
                    if let Some((_, first)) = spans.iter().find(|(x, _)| *x == kind) {
                        self.diags.push(
                            Diagnostic::new(
                                Code::RepeatedClause,
                                format!("figure `{}` names `{}` twice", f.name.name, k.name),
                            )
                            .at(k.span, "named again here")
                            .also(*first, "first named here")
                            .note("a figure stands or lies on each feature kind in one way only"),
                        );
                        continue;
                    }
                    spans.push((kind, k.span));
                    places.push((kind, place.posture));
                }
            }
            if f.places.iter().all(|p| p.kinds.is_empty()) {
                self.diags.push(
                    Diagnostic::new(
                        Code::FigureNowhere,
                        format!("figure `{}` has nowhere to stand", f.name.name),
                    )
                    .at(f.name.span, "declared here")
                    .note(format!(
                        "add `{{ stands on KIND }}` or `{{ lies on KIND }}` to `figure {}`",
                        f.name.name
                    )),
                );
            }
            self.figures[id as usize].places = places;
        }
    }

    /// `extend figure NAME { stands on KIND ... }`: more kinds a figure of
    /// a required pack may go on (packs are resolved in load order, so its
    /// declaration's are already there).
    fn extend_figure(&mut self, u: usize, name: &ast::Ident, places: &[ast::FigurePlace]) {
        let Some(id) = self.figure_names.lookup(name, u, &self.vis, &mut self.diags) else {
            return;
        };
        if self.figure_names.get(&name.name).is_some_and(|e| e.unit == u) {
            self.diags.push(
                Diagnostic::new(Code::ExtendOwnKind, format!("figure `{}` is declared in this pack", name.name))
                    .at(name.span, "extended here")
                    .note("list the kinds in the figure's own declaration; `extend figure` changes a figure of a required pack"),
            );
            return;
        }
        for place in places {
            for k in &place.kinds {
                let Some(kind) = self.kind_names.lookup(k, u, &self.vis, &mut self.diags) else {
                    continue;
                };
                // Packs loaded together may each extend a figure onto the same
                // kind (both requiring the pack that adds it): the same way
                // twice is one extension.
                if self.extended.contains(&(id, kind, place.posture)) {
                    continue;
                }
                let figure = &mut self.figures[id as usize];
                if figure.places.iter().any(|(x, _)| *x == kind) {
                    self.diags.push(
                        Diagnostic::new(
                            Code::RepeatedClause,
                            format!("figure `{}` already goes on `{}`", name.name, k.name),
                        )
                        .at(k.span, "named again here")
                        .also(figure.span, "declared here")
                        .note("a figure stands or lies on each feature kind in one way only"),
                    );
                    continue;
                }
                figure.places.push((kind, place.posture));
                self.extended.push((id, kind, place.posture));
            }
        }
    }

    fn tile_cx(&self, unit: usize) -> TileCx<'_> {
        TileCx {
            unit,
            vis: &self.vis,
            kinds: &self.kinds,
            kind_names: &self.kind_names,
            markers: &self.markers,
            marker_names: &self.marker_names,
            icons: &self.icons,
            icon_names: &self.icon_names,
        }
    }

    /// Applies every tile declaration in load order, then checks each tile.
    fn tiles(&mut self, order: &[usize], asts: &[Option<&ast::File>]) -> Vec<TileType> {
        let mut builds: Vec<Option<TileBuild>> = vec![None; self.tile_names.entries.len()];
        for &u in order {
            let Some(file) = asts[u] else { continue };
            for item in &file.items {
                let Item::Tile(decl) = item else { continue };
                self.tile_decl(u, decl, &mut builds);
            }
        }
        self.check_last(&builds);
        let kinds = &self.kinds;
        let mut total = 0u32;
        // Where the total first passes the limit: told once, with the total.
        let mut passed_at = None;
        let mut out = Vec::with_capacity(builds.len());
        for build in builds.into_iter().flatten() {
            total = total.saturating_add(build.count);
            if total > MAX_TILES && passed_at.is_none() {
                passed_at = Some(build.count_span);
            }
            if build.segments.len() > MAX_SEGMENTS {
                self.diags.push(
                    Diagnostic::new(
                        Code::NumberOutOfRange,
                        format!("tile `{}` has {} segments", build.name.name, build.segments.len()),
                    )
                    .at(build.name.span, format!("at most {MAX_SEGMENTS}"))
                    .note(format!("a tile may have at most {MAX_SEGMENTS} segments")),
                );
                continue;
            }
            out.push(tiles::finish(build, kinds, &mut self.diags));
        }
        if let Some(span) = passed_at {
            self.diags.push(
                Diagnostic::new(
                    Code::NumberOutOfRange,
                    format!("the tile set holds {total} tiles, more than {MAX_TILES}"),
                )
                .at(span, format!("the total passes {MAX_TILES} here"))
                .note(format!(
                    "a tile set (every pack loaded together) may hold at most {MAX_TILES} tiles"
                )),
            );
        }
        out
    }

    fn tile_decl(&mut self, u: usize, decl: &ast::TileDecl, builds: &mut [Option<TileBuild>]) {
        if let Some(n) = decl.count.filter(|n| n.value > MAX_COUNT) {
            self.diags.push(too_big(&n, "tile count"));
            return;
        }
        let mut diags = std::mem::take(&mut self.diags);
        match decl.mode {
            TileMode::Define => {
                let Some(id) = self.tile_names.declared(&decl.name) else {
                    self.diags = diags;
                    return;
                };
                let mut build = TileBuild {
                    name: decl.name.clone(),
                    count: decl.count.map_or(1, |n| n.value),
                    segments: Vec::new(),
                    icons: Vec::new(),
                    count_span: decl.count.map_or(decl.name.span, |n| n.span),
                    replaced_by: None,
                    broken: false,
                    stack: self.stacks.main(),
                    last: None,
                };
                if let Some(from) = &decl.from {
                    if let Some(src) = self.tile_names.lookup(from, u, &self.vis, &mut diags) {
                        match &builds[src as usize] {
                            Some(b) => {
                                build.segments = b.segments.clone();
                                build.icons = b.icons.clone();
                            }
                            None => diags.push(
                                Diagnostic::new(
                                    Code::MisplacedFrom,
                                    format!("`from {}` comes before tile `{}` is declared", from.name, from.name),
                                )
                                .at(from.span, "not declared yet")
                                .note(format!("move this tile after the declaration of `{}`", from.name)),
                            ),
                        }
                    }
                }
                if let Some(body) = &decl.body {
                    tiles::add_body(&mut build, body, &self.tile_cx(u), &mut diags);
                }
                builds[id as usize] = Some(build);
            }
            TileMode::Extend | TileMode::Replace => {
                if let Some(from) = &decl.from {
                    diags.push(
                        Diagnostic::new(
                            Code::MisplacedFrom,
                            "`from` cannot be used with `extend tile` or `replace tile`",
                        )
                        .at(from.span, "not allowed here")
                        .note(format!(
                            "to make a new tile from `{}`, write `tile NEW_NAME from {}`",
                            from.name, from.name
                        )),
                    );
                }
                let Some(id) = self.tile_names.lookup(&decl.name, u, &self.vis, &mut diags) else {
                    self.diags = diags;
                    return;
                };
                let cx = self.tile_cx(u);
                let Some(build) = builds[id as usize].as_mut() else {
                    self.diags = diags;
                    return;
                };
                if decl.mode == TileMode::Replace {
                    if let Some((other, first)) = build.replaced_by.filter(|(other, _)| *other != u) {
                        let _ = other;
                        diags.push(
                            Diagnostic::new(
                                Code::ExclusiveClaim,
                                format!("tile `{}` is replaced by two packs", decl.name.name),
                            )
                            .at(decl.name.span, "replaced again here")
                            .also(first, "first replaced here")
                            .note("these packs cannot be loaded together; load only one of them"),
                        );
                    }
                    build.replaced_by = Some((u, decl.name.span));
                    build.segments.clear();
                    build.icons.clear();
                }
                if let Some(n) = decl.count {
                    build.count = n.value;
                    build.count_span = n.span;
                }
                if let Some(body) = &decl.body {
                    tiles::add_body(build, body, &cx, &mut diags);
                }
            }
        }
        if let Some(place) = &decl.stack {
            let stack = self.stacks.resolve(&place.stack, u, &self.vis, &mut diags);
            let id = match decl.mode {
                TileMode::Define => self.tile_names.declared(&decl.name),
                TileMode::Extend | TileMode::Replace => self.tile_names.get(&decl.name.name).map(|e| e.id),
            };
            if let (Some(stack), Some(build)) = (stack, id.and_then(|id| builds[id as usize].as_mut())) {
                build.stack = stack;
                build.last = place.last;
            }
        }
        self.diags = diags;
    }

    /// At most one tile type of a stack is pinned `last` (E0052).
    fn check_last(&mut self, builds: &[Option<TileBuild>]) {
        let mut first: Vec<Option<(&ast::Ident, Span)>> = vec![None; self.stacks.order.len()];
        for build in builds.iter().flatten() {
            let Some(span) = build.last else { continue };
            match first[build.stack as usize] {
                None => first[build.stack as usize] = Some((&build.name, span)),
                Some((other, other_span)) => self.diags.push(
                    Diagnostic::new(
                        Code::TwoLastTiles,
                        format!(
                            "tiles `{}` and `{}` are both pinned last in stack `{}`",
                            other.name, build.name.name, self.stacks.order[build.stack as usize]
                        ),
                    )
                    .at(span, format!("`{}` pinned here", build.name.name))
                    .also(other_span, format!("`{}` pinned here", other.name))
                    .note("a stack may pin one tile type last; pin one of them, or give the other a stack of its own ordered after this one"),
                ),
            }
        }
    }

    /// Finds the one start tile.
    fn start(
        &mut self,
        order: &[usize],
        asts: &[Option<&ast::File>],
        tiles: &[TileType],
        units: &[load::Unit],
        sources: &Sources,
    ) -> Option<u16> {
        let mut plain: Option<(u16, Span)> = None;
        let mut replaced: Option<(u16, Span, usize)> = None;
        for &u in order {
            let Some(file) = asts[u] else { continue };
            for item in &file.items {
                let Item::Start(s) = item else { continue };
                let Some(id) = self.tile_names.lookup(&s.tile, u, &self.vis, &mut self.diags) else {
                    continue;
                };
                if s.replace {
                    if let Some((_, first, other)) = replaced {
                        self.diags.push(
                            Diagnostic::new(Code::ExclusiveClaim, "two packs replace the start tile")
                                .at(s.span, format!("replaced in {}", sources.name(units[u].file)))
                                .also(first, format!("first replaced in {}", sources.name(units[other].file)))
                                .note("these packs cannot be loaded together; load only one of them"),
                        );
                    } else {
                        replaced = Some((id, s.span, u));
                    }
                } else if let Some((_, first)) = plain {
                    self.diags.push(
                        Diagnostic::new(Code::StartConflict, "the start tile is declared twice")
                            .at(s.span, "declared again here")
                            .also(first, "first declared here")
                            .note("keep one `start`; an expansion with its own start tile says `replace start TILE`"),
                    );
                } else {
                    plain = Some((id, s.span));
                }
            }
        }
        let (id, span) = match (replaced, plain) {
            (Some((id, span, _)), _) | (None, Some((id, span))) => (id, span),
            (None, None) => {
                if self.diags.is_empty() {
                    let d = Diagnostic::new(Code::NoStartTile, "no start tile is declared");
                    let d = match asts.iter().flatten().next() {
                        Some(file) => d.at(file.header.name.span, "in this pack or the packs it requires"),
                        None => d,
                    };
                    self.diags
                        .push(d.note("add `start TILE` naming the tile that begins the game"));
                }
                return None;
            }
        };
        let tile = tiles
            .iter()
            .position(|t| t.name == self.tile_names.entries[id as usize].name)?;
        if tiles[tile].count == 0 {
            self.diags.push(
                Diagnostic::new(
                    Code::StartWithoutCopies,
                    format!("start tile `{}` has no copies", tiles[tile].name),
                )
                .at(span, "the start tile")
                .also(tiles[tile].count_span, "count set here")
                .note("give the start tile a count of at least 1: the start tile is one of its copies"),
            );
        }
        Some(tile as u16)
    }
}
