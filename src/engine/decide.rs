//! The pending decision: its legal options (placements, deployments with
//! their checks, actions and their targets, a choice's targets) and
//! [`Game::apply`], which checks a choice, records it and runs the machine
//! on to the next decision.

use super::board::{Misfit, PlacedTile, Pos};
use super::error::{ErrorKind, GameError};
use super::eval::{Env, Evaluator, Filter, Memo, Walked, CANDIDATE};
use super::game::{Game, MAX_TURN_DECISIONS};
use super::ids::{PlacedId, Player, Rotation};
use super::rules::{half_kinds, WindowActions, HALVES};
use super::task::{Pending, Phase, Task};
use super::types::{Choice, Event, Target};
use super::value::{value_target, Value};
use crate::ir::program::{Action, ForbidWhat, Window};
use crate::ir::ActionId;
use crate::ir::{FigureTypeId, KindId, Ownership, TileId};

impl Game {
    /// The legal choices for the pending decision.
    pub fn options(&self) -> Vec<Choice> {
        let mut out = Vec::new();
        self.options_into(&mut out);
        out
    }

    /// The legal choices, written into `out` (cleared first) to avoid allocating.
    pub fn options_into(&self, out: &mut Vec<Choice>) {
        self.budget.look(|| self.options_now(out));
    }

    fn options_now(&self, out: &mut Vec<Choice>) {
        out.clear();
        match &self.phase {
            Phase::Place(drawn) => {
                for tile in std::iter::once(*drawn).chain(self.state.extras().iter().map(|(t, _)| *t)) {
                    self.placements(tile, out);
                }
                if let Some(square) = self.bound_square() {
                    out.retain(|c| matches!(c, Choice::Place { pos, .. } if *pos == square));
                }
                self.action_options(Window::BeforePlace, out);
            }
            Phase::Deploy(placed) => {
                out.push(Choice::Pass);
                self.deploy_options(*placed, out);
                self.action_options(Window::Deploy, out);
            }
            Phase::Choose(p) => {
                out.extend(p.options().iter().map(|t| Choice::Pick(*t)));
                if p.optional() {
                    out.push(Choice::Decline);
                }
            }
            Phase::Over | Phase::Running => {}
        }
    }

    /// Every legal placement of `tile`: frontier squares in order, each with
    /// the tile's distinct rotations in order. The rotations' packed edges
    /// are gathered once, and the loop over the frontier is compiled for
    /// each number of distinct rotations, so it does no lookups.
    fn placements(&self, tile: TileId, out: &mut Vec<Choice>) {
        let rules = &*self.rules;
        let mut turns = [(Rotation::default(), 0u64); 4];
        let mut n = 0;
        for (&rot, turn) in rules.distinct_rotations(tile).iter().zip(&mut turns) {
            *turn = (rot, rules.rotated[tile as usize][rot.index()].packed);
            n += 1;
        }
        match n {
            1 => self.place_turns::<1>(tile, &[turns[0]], out),
            2 => self.place_turns::<2>(tile, &[turns[0], turns[1]], out),
            4 => self.place_turns::<4>(tile, &turns, out),
            _ => self.place_turns_any(tile, &turns[..n], out),
        }
    }

    /// [`Game::placements`] for a tile of `N` distinct rotations.
    fn place_turns<const N: usize>(&self, tile: TileId, turns: &[(Rotation, u64); N], out: &mut Vec<Choice>) {
        if self.rules.forbids_placement {
            return self.place_turns_any(tile, turns, out);
        }
        for slot in &self.state.board().frontier {
            for &(rot, packed) in turns {
                if slot.accepts(packed) {
                    out.push(Choice::Place {
                        tile,
                        pos: slot.pos,
                        rot,
                    });
                }
            }
        }
    }

    /// [`Game::placements`] for any number of rotations, with `forbid placement` rules.
    fn place_turns_any(&self, tile: TileId, turns: &[(Rotation, u64)], out: &mut Vec<Choice>) {
        let judged = self.rules.forbids_placement;
        for slot in &self.state.board().frontier {
            for &(rot, packed) in turns {
                if slot.accepts(packed) && !(judged && self.placement_forbidden(tile, slot.pos, rot).is_some()) {
                    out.push(Choice::Place {
                        tile,
                        pos: slot.pos,
                        rot,
                    });
                }
            }
        }
    }

    #[inline]
    fn action_options(&self, window: Window, out: &mut Vec<Choice>) {
        let actions = self.rules.actions_in(window);
        if !actions.list().is_empty() {
            self.window_options(actions, out);
        }
    }

    /// [`Game::action_options`] of a window with actions (out of line: a
    /// game with none pays for no more than the test).
    #[inline(never)]
    fn window_options(&self, actions: &WindowActions, out: &mut Vec<Choice>) {
        let list = actions.list();
        // A card's play needs the card in hand: most are not, and need no
        // look at all. The actions offered a look are found by the hand's
        // cards (`WindowActions::offered`), in order.
        let hand = || self.state.hand(self.state.current());
        match actions.offered(hand) {
            Some(mut places) => {
                while places != 0 {
                    let i = places.trailing_zeros() as usize;
                    places &= places - 1;
                    self.action_offers(list[i].0, out);
                }
            }
            None => {
                for &(action, card) in list {
                    if card.is_none_or(|c| hand().contains(&c)) {
                        self.action_offers(action, out);
                    }
                }
            }
        }
    }

    /// The options of `action` offered now (the caller has found that a
    /// card's play has its card in hand).
    #[inline]
    fn action_offers(&self, action: ActionId, out: &mut Vec<Choice>) {
        // An action with no targets (so no memo, `Compiled::action_memo`:
        // its `when` is judged once) is judged here: listing the options is already a look
        // ([`Game::options_into`]), so the look `each_action_target`
        // would open inside it changes nothing but the work. Its `when`
        // runs in a spare frame when it needs one.
        let compiled = &self.compiled;
        let Some(a) = self.rules.pack.program.actions.get(action as usize) else {
            return;
        };
        if a.domain.is_none() {
            let framed = compiled.action_frame_free.get(action as usize) != Some(&true);
            let mut locals = if framed {
                self.budget.frame(compiled, a.slots as usize)
            } else {
                Vec::new()
            };
            let mut env = Env {
                locals: &mut locals,
                subject: None,
                depth: 0,
            };
            let holds = self.action_when_holds(action, a, &self.evaluator(), &mut env);
            if framed {
                self.budget.keep(locals);
            }
            if holds && self.fresh(action, a, Target::None) {
                out.push(Choice::Action {
                    action,
                    target: Target::None,
                });
            }
        } else {
            self.each_action_target(action, &mut |target| out.push(Choice::Action { action, target }));
        }
    }

    /// Every figure type the current player may deploy on each segment of
    /// the placed tile: [`Game::deploy_check`]'s tests, with those about the
    /// feature made once per segment rather than once per figure type, and
    /// those about the figure type alone (a player's, one left) once.
    fn deploy_options(&self, placed: PlacedId, out: &mut Vec<Choice>) {
        let pack = &self.rules.pack;
        // The figure types the current player may deploy anywhere (their
        // own, one left in the supply), found once: `figure_check`'s
        // tests that do not depend on the segment.
        let player = self.state.current();
        // (By id alone: a short list, moved with no copy of its room.)
        let figures: smallvec::SmallVec<[FigureTypeId; 8]> = pack
            .figures
            .iter()
            .enumerate()
            .map(|(f, fig)| (f as FigureTypeId, fig))
            .filter(|&(f, fig)| fig.ownership == Ownership::PerPlayer && self.state.supply_of(player, f) > 0)
            .map(|(f, _)| f)
            .collect();
        if figures.is_empty() {
            return;
        }
        let tile = &pack.tiles[self.state.board().placed[placed.index()].tile as usize];
        for (seg, segment) in tile.segments.iter().enumerate() {
            let seg = seg as u8;
            let feature = self.feature_of(placed, seg);
            let (complete, occupied) = self.holding(feature);
            if complete {
                continue;
            }
            for &f in &figures {
                let fig = &pack.figures[f as usize];
                // A figure of weight 0 may still join an occupied feature.
                if !(occupied && fig.weight > 0)
                    && fig.posture_on(segment.kind).is_some()
                    && self.deployment_forbidden(f, feature).is_none()
                {
                    out.push(Choice::Deploy { figure_type: f, seg });
                }
            }
        }
    }

    /// Why `figure` (or any figure, when `None`) may not be deployed on the
    /// segment, or `None` when it may.
    pub(crate) fn deploy_refusal(&self, placed: PlacedId, seg: u8, figure: Option<FigureTypeId>) -> Option<GameError> {
        let refusal = self.deploy_check(placed, seg, figure).err()?;
        let pack = &self.rules.pack;
        let tile = &pack.tiles[self.state.board().placed[placed.index()].tile as usize];
        let kind = |seg: u8| &pack.kinds[tile.segments[seg as usize].kind as usize].name;
        let fig = |f: FigureTypeId| &pack.figures[f as usize].name;
        Some(match refusal {
            Refusal::NoSegment => ErrorKind::NoSuchSegment.error(format!("tile {} has no segment {seg}", tile.name)),
            Refusal::NoFigure(f) => ErrorKind::NoSuchId.error(format!(
                "figure type {f} does not exist; the packs define {}",
                pack.figures.len()
            )),
            Refusal::Complete => ErrorKind::FeatureComplete.error(format!("the {} is already complete", kind(seg))),
            Refusal::Occupied => {
                ErrorKind::FeatureOccupied.error(format!("the {} already has a figure on it", kind(seg)))
            }
            Refusal::Neutral(f) => ErrorKind::NeutralFigure.error(format!("{} is not a player's figure", fig(f))),
            Refusal::CannotStand(f) => {
                ErrorKind::FigureCannotStand.error(format!("{} cannot go on a {}", with_article(fig(f)), kind(seg)))
            }
            Refusal::NoneLeft(f) => ErrorKind::SupplyEmpty.error(format!("no {} is left in the supply", fig(f))),
            Refusal::Forbidden(rule) => ErrorKind::Forbidden.error(format!(
                "{} may not go on this {}: {}",
                with_article(fig(figure.unwrap_or_default())),
                kind(seg),
                pack.program.forbids[rule].reason
            )),
        })
    }

    /// The first `forbid placement` rule whose condition holds for placing
    /// `tile` on `pos` turned `rot`, by index; `None` when none forbids it.
    /// The candidate is not on the board: the condition sees it as the tile
    /// value `CANDIDATE` (slot 0). A condition that cannot be evaluated (a
    /// rule's arithmetic fails) forbids nothing, as a failing `when` of an
    /// action offers nothing.
    #[inline]
    pub(super) fn placement_forbidden(&self, tile: TileId, pos: Pos, rot: Rotation) -> Option<usize> {
        if !self.rules.forbids_placement {
            return None;
        }
        self.placement_judged(tile, pos, rot)
    }

    /// [`Game::placement_forbidden`] where the packs have such rules (out
    /// of line: a placement in packs without asks one test).
    #[inline(never)]
    fn placement_judged(&self, tile: TileId, pos: Pos, rot: Rotation) -> Option<usize> {
        let ev = Evaluator {
            candidate: Some(PlacedTile {
                tile,
                pos,
                rot,
                first_node: u32::MAX,
                areas: 0,
            }),
            ..self.evaluator()
        };
        self.forbidding(&ev, |what| what == ForbidWhat::Placement, Value::Tile(CANDIDATE))
    }

    /// The first `forbid deployment` rule whose condition holds for putting a
    /// figure of type `figure` on `feature`, by index.
    #[inline]
    fn deployment_forbidden(&self, figure: FigureTypeId, feature: u32) -> Option<usize> {
        if !self.rules.forbids_deployment {
            return None;
        }
        self.deployment_judged(figure, feature)
    }

    /// [`Game::deployment_forbidden`] where the packs have such rules (out
    /// of line: the options of packs without ask one test).
    #[inline(never)]
    fn deployment_judged(&self, figure: FigureTypeId, feature: u32) -> Option<usize> {
        let applies = |what| matches!(what, ForbidWhat::Deployment(f) if f.is_none_or(|f| f == figure));
        self.forbidding(&self.evaluator(), applies, Value::Feature(feature))
    }

    /// Judges a candidate by every rule that `applies`; each judgement has
    /// the whole evaluation budget of a decision (as each look at an
    /// action's targets has), so options and the check of a choice agree.
    fn forbidding(&self, ev: &Evaluator, applies: impl Fn(ForbidWhat) -> bool, subject: Value) -> Option<usize> {
        self.budget.look(|| self.forbidding_now(ev, applies, subject))
    }

    fn forbidding_now(&self, ev: &Evaluator, applies: impl Fn(ForbidWhat) -> bool, subject: Value) -> Option<usize> {
        let mut locals = self.compiled.frame(0);
        self.rules.pack.program.forbids.iter().position(|rule| {
            if !applies(rule.what) {
                return false;
            }
            locals.clear();
            locals.resize_with(usize::from(rule.slots).max(1), || Value::None);
            locals[0] = subject.clone();
            let mut env = Env {
                locals: &mut locals,
                subject: None,
                depth: 0,
            };
            ev.eval(&rule.when, &mut env) == Ok(Value::Bool(true))
        })
    }

    fn deploy_check(&self, placed: PlacedId, seg: u8, figure: Option<FigureTypeId>) -> Result<(), Refusal> {
        let pack = &self.rules.pack;
        let tile = &pack.tiles[self.state.board().placed[placed.index()].tile as usize];
        let segment = tile.segments.get(seg as usize).ok_or(Refusal::NoSegment)?;
        let feature = self.feature_of(placed, seg);
        let (complete, occupied) = self.holding(feature);
        if complete {
            return Err(Refusal::Complete);
        }
        let joining = figure.and_then(|f| pack.figures.get(f as usize));
        if occupied && joining.is_none_or(|fig| fig.weight > 0) {
            return Err(Refusal::Occupied);
        }
        match figure {
            Some(f) => self.figure_check(f, segment.kind, feature),
            None => Ok(()),
        }
    }

    /// Whether a feature is complete with figures still on it (no figure may
    /// join it), and whether a player's figure that counts (of weight above
    /// 0) occupies it; a figure of weight 0 is not a follower: it neither
    /// occupies a feature nor is kept off an occupied one.
    fn holding(&self, feature: u32) -> (bool, bool) {
        let features = self.state.features();
        if features.figure_count(feature) == 0 {
            return (false, false);
        }
        let occupied = features.standings(feature).iter().any(|s| s.followers > 0);
        (features.is_done(features.find(feature)), occupied)
    }

    /// The tests of a deployment that depend on the figure type: a player's
    /// figure, able to stand on the segment's kind, one left in the current
    /// player's supply, and no `forbid deployment` rule against it.
    fn figure_check(&self, f: FigureTypeId, kind: KindId, feature: u32) -> Result<(), Refusal> {
        let fig = self.rules.pack.figures.get(f as usize).ok_or(Refusal::NoFigure(f))?;
        if fig.ownership != Ownership::PerPlayer {
            return Err(Refusal::Neutral(f));
        }
        if fig.posture_on(kind).is_none() {
            return Err(Refusal::CannotStand(f));
        }
        if self.state.supply_of(self.state.current(), f) == 0 {
            return Err(Refusal::NoneLeft(f));
        }
        if let Some(rule) = self.deployment_forbidden(f, feature) {
            return Err(Refusal::Forbidden(rule));
        }
        Ok(())
    }

    /// Whether an action may be taken on `target` now (`Target::None` for
    /// an action without a domain): one of the targets it offers, found as
    /// the options list them, with no list made.
    fn offers(&self, action: ActionId, target: Target) -> bool {
        let Some(a) = self.rules.pack.program.actions.get(action as usize) else {
            return false;
        };
        // A card's action is offered only while its card is in hand.
        let mut found = false;
        if a.card
            .is_none_or(|c| self.state.hand(self.state.current()).contains(&c))
        {
            self.each_action_target(action, &mut |t| found |= self.same_target(t, target));
        }
        found
    }

    /// The targets of an action known to be offered, the card
    /// it needs held, each handed to `offer` in turn as it is found: listing
    /// a decision's options makes no list per action.
    fn each_action_target(&self, action: ActionId, offer: &mut dyn FnMut(Target)) {
        // Targets the current player must own, of a type all of whose
        // figures are in their supply: none on the board, nothing offered.
        // (A look charges nothing and changes nothing, so it is not made.)
        if let Some(Some(t)) = self.compiled.action_owned_type.get(action as usize) {
            let given = self.rules.pack.figures.get(*t as usize).map(|f| f.count);
            let current = self.state.current();
            if given.is_some_and(|n| self.state.supply(current, *t).is_some_and(|left| u32::from(left) >= n)) {
                return;
            }
        }
        // Each look at an action's targets has the whole evaluation budget,
        // and charges nothing to the game's.
        self.budget.look(|| self.action_targets_now(action, offer));
    }

    fn action_targets_now(&self, action: ActionId, offer: &mut dyn FnMut(Target)) {
        let Some(a) = self.rules.pack.program.actions.get(action as usize) else {
            return;
        };
        let mut offer_fresh = |t: Target| {
            if self.fresh(action, a, t) {
                offer(t);
            }
        };
        // Every target is judged against the same state: counts over the
        // board that do not depend on the target are counted once, in a
        // memo made for an action whose conditions may count.
        let memo = match self.compiled.action_memo.get(action as usize) {
            Some(false) => None,
            _ => Some(Memo::default()),
        };
        // A look that uses no local slot is made with no frame.
        if self.compiled.action_frame_free.get(action as usize) == Some(&true) {
            self.targets_in(action, a, &mut Vec::new(), memo.as_ref(), &mut offer_fresh);
            return;
        }
        let mut locals = self.budget.frame(&self.compiled, a.slots as usize);
        self.targets_in(action, a, &mut locals, memo.as_ref(), &mut offer_fresh);
        self.budget.keep(locals);
    }

    /// Whether action `a` (number `action`) may still be taken on `target`
    /// this turn: a card's play uses up the card, and a deploy action ends
    /// the decision; any other action is offered once a turn on each
    /// target, so no action can be taken again and again without changing
    /// anything.
    fn fresh(&self, action: ActionId, a: &Action, target: Target) -> bool {
        let once = a.card.is_none() && a.window == Window::BeforePlace;
        !(once
            && self
                .taken
                .iter()
                .any(|(x, done)| *x == action && self.same_target(*done, target)))
    }

    /// Whether the `when` of action `a` (number `action`) holds now (when
    /// it has none, it does), judged by `ev` in `env`; a failure is taken
    /// as not.
    fn action_when_holds(&self, action: ActionId, a: &Action, ev: &Evaluator, env: &mut Env) -> bool {
        let Some(when) = &a.when else {
            return true;
        };
        let holds = match self.compiled.action_when.get(action as usize) {
            Some(Some(test)) => test(ev, env),
            _ => ev.eval(when, env).map(|v| v.truthy()),
        };
        holds == Ok(true)
    }

    /// The targets of action `a` (number `action`) now, judged in a frame
    /// of `locals` with counts remembered in `memo`, each handed to `offer`
    /// (which applies `action_targets_now`'s once-a-turn filter).
    fn targets_in(
        &self,
        action: ActionId,
        a: &Action,
        locals: &mut Vec<Value>,
        memo: Option<&Memo>,
        offer: &mut dyn FnMut(Target),
    ) {
        let ev = Evaluator {
            memo,
            ..self.evaluator()
        };
        let mut env = Env {
            locals,
            subject: None,
            depth: 0,
        };
        let compiled = &self.compiled;
        // `when` reads no target (the checker sees to it): judged once, as
        // soon as it is needed.
        let when_holds = |env: &mut Env| self.action_when_holds(action, a, &ev, env);
        match &a.domain {
            None => {
                if when_holds(&mut env) {
                    offer(Target::None);
                }
            }
            Some((domain, filter)) => {
                let walked = filter.as_ref().map(|expr| Walked { expr, slot: 0 });
                let filter: Option<&dyn Filter> = match compiled.action_filter.get(action as usize) {
                    Some(Some(fast)) => Some(fast),
                    _ => walked.as_ref().map(|f| f as &dyn Filter),
                };
                // `when` is judged at the first target `where` lets
                // through, never when there is none: a look of an action
                // the player has nothing to use on costs no more than that.
                let mut when = None;
                // A feature is judged by its root where the filter can be,
                // with nothing bound (`CompiledFilter::feature`).
                let on_feature = filter.and_then(|f| f.feature_test());
                // A look that runs out of budget offers what it has found.
                let _ = ev.each_candidate(*domain, 0, filter, self.state.current(), &mut env, |env, item| {
                    if when == Some(false) {
                        return Ok(());
                    }
                    let target = value_target(&item);
                    let passes = match (on_feature, &item) {
                        (Some(test), Value::Feature(f)) => test(&ev, env, *f) == Ok(true),
                        _ => {
                            env.locals[0] = item;
                            filter.is_none_or(|f| f.holds_found(&ev, env, *domain) == Ok(true))
                        }
                    };
                    if passes && *when.get_or_insert_with(|| when_holds(env)) {
                        offer(target);
                    }
                    Ok(())
                });
            }
        }
    }

    /// Applies a choice to the pending decision.
    pub fn apply(&mut self, choice: Choice) -> Result<(), GameError> {
        if self.turn_decisions >= MAX_TURN_DECISIONS && self.decision().is_some() {
            let at = self
                .asking
                .map_or("the rules".to_string(), |s| self.rules.pack.locate(s));
            return Err(ErrorKind::Runaway.error(format!(
                "a rule ran away: more than {MAX_TURN_DECISIONS} decisions in one turn (the rule that keeps asking: {at})"
            )));
        }
        let asking = match (&self.phase, choice) {
            (Phase::Place(_) | Phase::Deploy(_), Choice::Action { action, .. }) => {
                self.rules.pack.program.actions.get(action as usize).map(|a| a.span)
            }
            (Phase::Choose(p), _) => match &**p {
                Pending::Rule(c) => self.frames.get(c.frame as usize).map(|f| f.origin),
                Pending::Trim { .. } => None,
            },
            _ => None,
        };
        let player = self.state.current();
        match (&self.phase, choice) {
            (Phase::Place(drawn), Choice::Place { tile, pos, rot }) => self.apply_place(*drawn, tile, pos, rot)?,
            (Phase::Deploy(placed), Choice::Pass) => {
                let placed = *placed;
                self.emit(Event::Passed {
                    player: Player::at(player),
                });
                self.after_deploy(placed, None);
            }
            (
                Phase::Deploy(placed),
                Choice::Deploy {
                    figure_type: figure,
                    seg,
                },
            ) => {
                let placed = *placed;
                if let Some(why) = self.deploy_refusal(placed, seg, Some(figure)) {
                    return Err(why);
                }
                let id = self.state.deploy(figure, Some(Player::at(player)), placed, seg).id;
                self.emit(Event::Deployed {
                    player: Player::at(player),
                    figure_type: figure,
                    placed,
                    seg,
                });
                self.after_deploy(placed, Some(id));
            }
            (Phase::Place(_) | Phase::Deploy(_), Choice::Action { action, target }) => {
                self.apply_action(player, action, target)?
            }
            (Phase::Choose(p), Choice::Pick(target)) => {
                // The pick is most often an option as listed: found as it
                // is before any feature is looked up by its root.
                let options = p.options();
                if !options.contains(&target) && !options.iter().any(|t| self.same_target(*t, target)) {
                    return Err(ErrorKind::NotAnOption.error("that is not one of the choices"));
                }
                let p = self.take_pending();
                let spot = self.spot(target);
                self.emit(Event::Chose {
                    player: Player(p.player()),
                    target,
                    spot,
                });
                self.resume_pick(&p, target);
                self.keep_pending(p);
            }
            (Phase::Choose(p), Choice::Decline) => {
                if !p.optional() {
                    return Err(ErrorKind::CannotDecline.error("this choice must be made; it cannot be declined"));
                }
                let p = self.take_pending();
                self.emit(Event::Declined {
                    player: Player(p.player()),
                });
                self.resume_decline(&p);
                self.keep_pending(p);
            }
            (Phase::Over, _) => return Err(ErrorKind::GameOver.error("the game is over")),
            (Phase::Place(tile), _) => {
                return Err(ErrorKind::WrongDecision.error(format!(
                    "tile {} must be placed first",
                    self.rules.pack.tiles[*tile as usize].name
                )))
            }
            (Phase::Deploy(_), _) => {
                return Err(ErrorKind::WrongDecision.error("the tile is already placed; deploy a figure or pass"))
            }
            (Phase::Choose(_), _) => {
                return Err(ErrorKind::WrongDecision.error("a choice is pending; pick one of its options"))
            }
            (Phase::Running, _) => return Err(ErrorKind::WrongDecision.error("the game is not waiting for a decision")),
        }
        self.turn_decisions += 1;
        self.asking = asking.or(self.asking);
        self.phase = Phase::Running;
        self.run()
    }

    /// Places a tile (the drawn one, or an extra one) after checking it
    /// was drawn, fits and uses the square a rule demands.
    fn apply_place(&mut self, drawn: TileId, tile: TileId, pos: Pos, rot: Rotation) -> Result<(), GameError> {
        let player = Player::at(self.state.current());
        let kinds = self.rules.pack.tiles.len();
        if tile as usize >= kinds {
            return Err(ErrorKind::NoSuchId.error(format!(
                "tile id {tile} does not exist; the packs define {kinds} tile types (0 to {})",
                kinds.saturating_sub(1)
            )));
        }
        if tile != drawn && !self.state.extras().iter().any(|(t, _)| *t == tile) {
            let name = |t: TileId| self.rules.pack.tiles.get(t as usize).map_or("?", |x| x.name.as_str());
            return Err(ErrorKind::TileNotDrawn.error(format!(
                "tile {} was not drawn; the drawn tile is {}",
                name(tile),
                name(drawn)
            )));
        }
        if let Err(misfit) = self.state.board().fits(&self.rules, tile, pos, rot) {
            return Err(ErrorKind::from(misfit).error(self.describe_misfit(tile, pos, rot, misfit)));
        }
        if let Some(rule) = self.placement_forbidden(tile, pos, rot) {
            let name = &self.rules.pack.tiles[tile as usize].name;
            return Err(ErrorKind::Forbidden.error(format!(
                "tile {name} may not go on ({}, {}) turned {}: {}",
                pos.0,
                pos.1,
                rot.degrees(),
                self.rules.pack.program.forbids[rule].reason
            )));
        }
        if let Some(square) = self.bound_square().filter(|s| *s != pos) {
            return Err(ErrorKind::SquareRequired.error(format!(
                "the tile must go on square ({}, {}), where it fits",
                square.0, square.1
            )));
        }
        // Demands on this turn's placement are spent, used or not.
        let turn = self.turn;
        self.steers.retain(|s| s.turn > turn);
        let placed = self.state.place(&self.rules, tile, pos, rot);
        self.emit(Event::Placed { player, tile, pos, rot });
        let log = &mut self.log;
        self.state.set_aside_extras(Some((drawn, tile)), |tile, kept| {
            log.emit(Event::TileSetAside { tile, kept })
        });
        self.after_place(placed);
        Ok(())
    }

    /// Takes an action offered with the pending decision, after checking it
    /// is offered now on that target.
    fn apply_action(&mut self, player: usize, action: ActionId, target: Target) -> Result<(), GameError> {
        let window = self.rules.pack.program.actions.get(action as usize).map(|a| a.window);
        let allowed = match (&self.phase, window) {
            (Phase::Place(_), Some(Window::BeforePlace)) | (Phase::Deploy(_), Some(Window::Deploy)) => {
                self.offers(action, target)
            }
            _ => false,
        };
        if !allowed {
            let actions = &self.rules.pack.program.actions;
            let Some(a) = actions.get(action as usize) else {
                return Err(ErrorKind::NoSuchId.error(format!(
                    "action {action} does not exist; the packs define {} (take an action from `Game::options`)",
                    actions.len()
                )));
            };
            return Err(
                ErrorKind::ActionUnavailable.error(format!("the action `{}` is not available on that now", a.name))
            );
        }
        let spot = self.spot(target);
        self.emit(Event::Acted {
            player: Player::at(player),
            action,
            target,
            spot,
        });
        match self.rules.pack.program.actions[action as usize].card {
            Some(card) => self.discard_card(player, card),
            None => self.taken.push((action, target)),
        }
        match self.phase {
            Phase::Place(tile) => self.tasks.push(Task::AwaitPlace(tile)),
            // An action instead of deploying ends the deploy decision: its
            // body runs, then `deploy_done`, then the scoring.
            Phase::Deploy(placed) => {
                self.tasks.push(Task::Scoring(placed));
                self.deploy_done(placed);
            }
            _ => unreachable!("actions are checked against the phase above"),
        }
        self.start_action(action, target);
        Ok(())
    }

    /// Takes the answered choice out of the phase: the machine runs on.
    fn take_pending(&mut self) -> Box<Pending> {
        match std::mem::replace(&mut self.phase, Phase::Running) {
            Phase::Choose(p) => p,
            _ => unreachable!("called only while a choice is pending"),
        }
    }

    /// The message for a tile that does not fit, in the game's terms.
    pub(crate) fn describe_misfit(&self, tile: TileId, pos: Pos, rot: Rotation, misfit: Misfit) -> String {
        let pack = &self.rules.pack;
        let name = &pack.tiles[tile as usize].name;
        let here = format!("tile {name} at ({}, {}) rot {}", pos.0, pos.1, rot.degrees());
        let kind_name = |k: u16| {
            if k == 0 {
                "nothing".to_string()
            } else {
                pack.kinds[k as usize - 1].name.clone()
            }
        };
        let what = |sig: u16| match sig {
            0 => "nothing".to_string(),
            s if s & HALVES != 0 => match half_kinds(s) {
                (a, b) if a == b => kind_name(a),
                (a, b) => format!("{} and {}", kind_name(a), kind_name(b)),
            },
            k => kind_name(k),
        };
        match misfit {
            Misfit::Occupied => {
                let other = self
                    .state
                    .board()
                    .tile_at(pos)
                    .map_or("?", |p| pack.tiles[p.tile as usize].name.as_str());
                format!("{here}: the square already holds tile {other}")
            }
            Misfit::Isolated => format!("{here}: it touches no placed tile"),
            Misfit::NoSuchTile => format!(
                "{here}: no tile type has that id (the packs define {})",
                pack.tiles.len()
            ),
            Misfit::Mismatch { edge, mine, theirs } => {
                let side = ["north", "east", "south", "west"][edge as usize];
                let article = if what(theirs).starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                format!(
                    "{here}: its {side} edge ({}) meets {article} {}",
                    what(mine),
                    what(theirs)
                )
            }
        }
    }
}

/// Why a figure may not be deployed (worded by [`Game::deploy_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    NoSegment,
    NoFigure(FigureTypeId),
    Complete,
    Occupied,
    Neutral(FigureTypeId),
    CannotStand(FigureTypeId),
    NoneLeft(FigureTypeId),
    /// The `forbid deployment` rule of this index forbids it.
    Forbidden(usize),
}

/// "a follower", "an eagle".
pub fn with_article(word: &str) -> String {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {word}"),
        _ => format!("a {word}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Decision, Game, Rng, Rules, Setup};
    use super::{Choice, Target, Window};
    use crate::bundled::{load_bundled, test_sets};
    use std::sync::Arc;

    /// At every deploy decision of random games of each bundled set of
    /// packs, the deployments offered are exactly those `deploy_check`
    /// allows, segment by segment and figure type by figure type.
    #[test]
    fn deployments_offered_are_those_the_check_allows() {
        let mut deploys = 0;
        for set in test_sets(|names| load_bundled(names).is_ok()) {
            let rules = Arc::new(Rules::new(load_bundled(&set).unwrap()));
            let figure_types = rules.pack.figures.len() as u16;
            for seed in 0..3 {
                let mut game = Game::new(rules.clone(), Setup::new(2 + seed as usize % 3).seed(seed)).unwrap();
                let mut rng = Rng::new(seed);
                while let Some(decision) = game.decision() {
                    let options = game.options();
                    if let Decision::Deploy { placed, .. } = decision {
                        let offered: Vec<(u8, u16)> = options
                            .iter()
                            .filter_map(|c| match c {
                                Choice::Deploy { figure_type, seg } => Some((*seg, *figure_type)),
                                _ => None,
                            })
                            .collect();
                        let segments = rules.pack.tiles[game.state.board().placed[placed.index()].tile as usize]
                            .segments
                            .len() as u8;
                        let allowed: Vec<(u8, u16)> = (0..segments)
                            .flat_map(|seg| (0..figure_types).map(move |f| (seg, f)))
                            .filter(|&(seg, f)| game.deploy_check(placed, seg, Some(f)).is_ok())
                            .collect();
                        assert_eq!(offered, allowed, "packs {set:?}, seed {seed}");
                        deploys += 1;
                    }
                    game.apply(options[rng.below(options.len())]).unwrap();
                }
            }
        }
        assert!(deploys > 1000, "{deploys} deploy decisions seen");
    }

    /// Actions with no targets are judged where the options are listed
    /// (in a spare frame when their `when` uses a local slot: `count` here),
    /// not in a look of their own:
    /// at every decision of random games, the actions listed are those a
    /// look at each action of the window offers (`Game::offers`), a card's
    /// while it is held, and one not of a card once a turn. The same with
    /// a window of more than 64 actions, whose cards are looked for in the
    /// hand one by one (`WindowActions::offered` says none).
    #[test]
    fn actions_judged_where_the_options_are_listed_are_those_a_look_offers() {
        let text = "pack quick\nlanguage 1\nrequires base\ndeck d\n\
                    var game f: bool = false\nvar game n: int = 0\n\
                    on turn_start {\n  set f = false\n}\n\
                    on tile_placed(t) when d.left > 0 {\n  draw card from d\n}\n\
                    card c0 x6 in d {\n  play in before_place when not f {\n    set f = true\n  }\n}\n\
                    card c1 x6 in d {\n  play in before_place when n % 3 != 1 {\n    set n = n + 1\n  }\n}\n\
                    card c2 x6 in d {\n  play in deploy {\n    set n = n + 2\n  }\n}\n\
                    action tap in before_place when n % 5 != 4 {\n  set n = n + 1\n}\n\
                    action rest in deploy when n % 2 == 1 {\n  set n = n + 1\n}\n\
                    action count in before_place when count(road r where not r.completed) % 2 == 1 {\n  set n = n + 1\n}\n";
        listed_actions_are_those_a_look_offers(text.to_string());
        // 62 more actions before placing: 66 in all.
        let mut long = text.to_string();
        for i in 0..62 {
            long += &format!(
                "action pad{i} in before_place when n % 7 == {} {{\n  set n = n + 3\n}}\n",
                i % 7
            );
        }
        let rules = Rules::new(crate::bundled::over_base("quick", long.clone()));
        assert!(
            rules.actions_in(Window::BeforePlace).offered(|| &[]).is_none(),
            "a window of 66 actions"
        );
        listed_actions_are_those_a_look_offers(long);
    }

    /// Plays random games of pack `text` (over base, 3 players), each of
    /// its actions (the first six: `c0` to `c2`'s plays, `tap`, `rest` and
    /// `count`, each both offered and not) judged where the options are
    /// listed, and asserts that those listed are those a look offers.
    fn listed_actions_are_those_a_look_offers(text: String) {
        let rules = Arc::new(Rules::new(crate::bundled::over_base("quick", text)));
        let compiled = Game::new(rules.clone(), Setup::new(3)).unwrap().compiled;
        let actions = rules.pack.program.actions.len();
        assert!(
            rules.pack.program.actions.iter().all(|a| a.domain.is_none()),
            "every action is judged where the options are listed"
        );
        assert!(
            (0..actions).any(|a| !compiled.action_frame_free[a]),
            "one is judged in a frame"
        );
        let (mut offered, mut refused) = (vec![0; actions], vec![0; actions]);
        for seed in 0..3 {
            let mut game = Game::new(rules.clone(), Setup::new(3).seed(seed)).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(decision) = game.decision() {
                let options = game.options();
                let window = match decision {
                    Decision::Place { .. } => Some(Window::BeforePlace),
                    Decision::Deploy { .. } => Some(Window::Deploy),
                    _ => None,
                };
                let listed: Vec<_> = options
                    .iter()
                    .filter_map(|c| match c {
                        Choice::Action { action, target } => Some((*action, *target)),
                        _ => None,
                    })
                    .collect();
                let looked: Vec<_> = window
                    .map(|w| game.rules.actions_in(w).list().to_vec())
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|&(action, _)| {
                        let yes = game.offers(action, Target::None);
                        let tally = if yes { &mut offered } else { &mut refused };
                        tally[action as usize] += 1;
                        yes
                    })
                    .map(|(action, _)| (action, Target::None))
                    .collect();
                assert_eq!(listed, looked, "seed {seed}, turn {}", game.turn());
                let choice = options[rng.below(options.len())];
                game.apply(choice).unwrap();
            }
        }
        // Each action was both offered and not, for its `when`, its card
        // or the once a turn of an action not of a card.
        assert!(
            offered.iter().zip(&refused).take(6).all(|(&o, &r)| o > 10 && r > 10),
            "offered {offered:?}, refused {refused:?}"
        );
    }

    /// An action's `when`, judged at the first target its `where` lets
    /// through (never when none does), offers what the same test at the
    /// end of `where` offers: at every decision of random games, the same
    /// options, with `when` both true and false where targets were found.
    #[test]
    fn an_actions_when_offers_what_the_same_test_in_where_offers() {
        let pack = |test: &str| {
            let text = format!(
                "pack retreat\nlanguage 1\nrequires base\n\
                 action retreat in deploy for follower x where x.owner == current_player {test} {{\n  take back x\n}}\n"
            );
            Arc::new(Rules::new(crate::bundled::over_base("retreat", text)))
        };
        let (when, wherein) = (
            pack("when current_player.score % 3 != 1"),
            pack("and current_player.score % 3 != 1"),
        );
        let (mut held, mut failed) = (0, 0);
        for seed in 0..4 {
            let mut a = Game::new(when.clone(), Setup::new(3).seed(seed)).unwrap();
            let mut b = Game::new(wherein.clone(), Setup::new(3).seed(seed)).unwrap();
            let mut rng = Rng::new(seed);
            while a.decision().is_some() {
                let options = a.options();
                assert_eq!(options, b.options(), "seed {seed}, turn {}", a.turn());
                if matches!(a.decision(), Some(Decision::Deploy { .. }))
                    && a.state
                        .figures()
                        .iter()
                        .any(|m| m.owner.map(|p| p.index()) == Some(a.state.current()))
                {
                    if options.iter().any(|c| matches!(c, Choice::Action { .. })) {
                        held += 1;
                    } else if a.scores()[a.state.current()] % 3 == 1 {
                        failed += 1;
                    }
                }
                let choice = options[rng.below(options.len())];
                a.apply(choice).unwrap();
                b.apply(choice).unwrap();
            }
            assert_eq!(a.scores(), b.scores(), "seed {seed}");
        }
        assert!(held > 20 && failed > 20, "when held {held} times, failed {failed}");
    }

    /// An action on figures of one type the current player must own (`for
    /// pawn x where x.owner == current_player`) is passed over while all of
    /// theirs are in the supply:
    /// at every decision of random games of each bundled set with such an
    /// action, the targets offered are those a look finds, and the look
    /// was passed over at some decisions and found targets at others.
    #[test]
    fn looks_at_figures_all_in_the_supply_are_passed_over_and_offer_the_same() {
        let (mut passed_over, mut found) = (0, 0);
        for set in test_sets(|names| load_bundled(names).is_ok()) {
            let rules = Arc::new(Rules::new(load_bundled(&set).unwrap()));
            for seed in 0..3 {
                let mut game = Game::new(rules.clone(), Setup::new(2 + seed as usize % 3).seed(seed)).unwrap();
                let owned: Vec<u16> = (0..game.compiled.action_owned_type.len() as u16)
                    .filter(|&a| game.compiled.action_owned_type[a as usize].is_some())
                    .collect();
                if owned.is_empty() {
                    break;
                }
                let mut rng = Rng::new(seed);
                while game.decision().is_some() {
                    for &action in &owned {
                        let (mut offered, mut looked) = (Vec::new(), Vec::new());
                        game.each_action_target(action, &mut |t| offered.push(t));
                        game.budget
                            .look(|| game.action_targets_now(action, &mut |t| looked.push(t)));
                        assert_eq!(offered, looked, "packs {set:?}, seed {seed}");
                        let t = game.compiled.action_owned_type[action as usize].unwrap();
                        let given = rules.pack.figures[t as usize].count;
                        if u32::from(game.state.supply(game.state.current(), t).unwrap()) >= given {
                            passed_over += 1;
                        } else {
                            found += usize::from(!looked.is_empty());
                        }
                    }
                    let options = game.options();
                    game.apply(options[rng.below(options.len())]).unwrap();
                }
            }
        }
        assert!(
            passed_over > 100 && found > 100,
            "{passed_over} passed over, {found} with targets"
        );
    }
}
