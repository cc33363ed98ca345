//! Agents: whatever chooses at decision points. Random and greedy agents for
//! simulation, a searching one ([`IsmctsAgent`]) that plays well, and
//! [`play`] to run a game to its end.

mod ismcts;

pub use ismcts::{Budget, IsmctsAgent};

use crate::engine::{Choice, ErrorKind, Game, GameError, Rng};

/// Chooses among the legal options of a game's pending decision.
pub trait Agent {
    /// Picks a choice for `game`'s pending decision; `options` is never empty.
    /// A scripted agent may answer with a choice that is not in `options`;
    /// the game then refuses it with the reason.
    fn choose(&mut self, game: &Game, options: &[Choice]) -> Result<Choice, GameError>;

    /// The agent's name, for statistics.
    fn name(&self) -> &str;

    /// Whether the agent looks at the game. [`play`] then hands it the game
    /// as its player may see it ([`Game::view_for`]): the tile order, other
    /// players' cards and the draw piles sampled anew. An agent whose
    /// `looks()` is false promises to use nothing hidden (a random agent
    /// reads only `options`; a scripted one only finds a record's names on
    /// the board): it is handed the game itself, without the cost of a view.
    fn looks(&self) -> bool {
        true
    }

    /// Playouts the agent has run so far, for benchmarks; 0 for an agent
    /// that does not search.
    fn playouts(&self) -> u64 {
        0
    }
}

/// Picks uniformly at random (seeded).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// A random agent with its own seed.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: Rng::new(seed) }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _game: &Game, options: &[Choice]) -> Result<Choice, GameError> {
        if options.is_empty() {
            return Err(no_options());
        }
        Ok(options[self.rng.below(options.len())])
    }

    fn name(&self) -> &str {
        "random"
    }

    fn looks(&self) -> bool {
        false
    }
}

/// Picks the choice that scores the most points for itself right away (a
/// placement is worth its best deployment), breaking ties at random. A rule
/// that fails in a move it tries is its error, as it would be the game's
/// if the move were made.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: Rng,
    /// The copies it looks ahead in, after a choice and after the
    /// deployment that follows a placement: made once, then copied into.
    next: Scratch,
    after: Scratch,
    /// Lists reused from one decision to the next: the deployments that
    /// follow a placement tried, and each option's gain.
    deploys: Vec<Choice>,
    gains: Vec<i64>,
}

/// A game an agent looks ahead or plays out in, made anew for each look
/// in the same lists (a search copy, [`Game::search_clone_from`], or a
/// view's sample, [`Game::view_with_seed_into`]); a copy of the agent
/// starts without one.
#[derive(Debug, Default)]
struct Scratch(Option<Game>);

impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch(None)
    }
}

impl Scratch {
    /// The scratch game, made `player`'s view of `game` with the sample of
    /// `seed` ([`Game::view_with_seed_into`]); `None` for a player `game`
    /// does not have.
    fn view_of(&mut self, game: &Game, player: crate::engine::Player, seed: u64) -> Option<&mut Game> {
        match &mut self.0 {
            Some(copy) => {
                game.view_with_seed_into(player, seed, copy)?;
                Some(copy)
            }
            empty => Some(empty.insert(game.view_with_seed(player, seed)?.search_clone())),
        }
    }

    /// The scratch game, made a search copy of `game`.
    fn copy_of(&mut self, game: &Game) -> &mut Game {
        match &mut self.0 {
            Some(copy) => {
                copy.search_clone_from(game);
                copy
            }
            empty => empty.insert(game.search_clone()),
        }
    }
}

impl GreedyAgent {
    /// A greedy agent with its own seed for tie-breaking.
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: Rng::new(seed),
            next: Scratch::default(),
            after: Scratch::default(),
            deploys: Vec::new(),
            gains: Vec::new(),
        }
    }

    /// Points the current player gains by `choice` (and, after a placement,
    /// by the best deployment that follows). A rule that fails on the way
    /// is the game's error, as it would be if the move were made: a broken
    /// rule is not steered around.
    fn gain(&mut self, game: &Game, choice: Choice) -> Result<i64, GameError> {
        let player = game.deciding_player().unwrap_or_else(|| game.current_player());
        let before = game.scores()[player.index()];
        let next = self.next.copy_of(game);
        if let Err(e) = next.apply(choice) {
            return if e.kind().is_rule_failure() {
                Err(e.context("greedy, trying one of its moves").in_look())
            } else {
                Ok(i64::MIN)
            };
        }
        let mut best = next.scores()[player.index()] - before;
        if matches!(choice, Choice::Place { .. }) && next.deciding_player() == Some(player) && !next.is_over() {
            // In the agent's kept list, taken out while the copies are used.
            let mut deploys = std::mem::take(&mut self.deploys);
            next.options_into(&mut deploys);
            let tried = best_deployment(&mut self.after, next, &deploys, player, before);
            self.deploys = deploys;
            best = best.max(tried?);
        }
        Ok(best)
    }
}

/// The most points `player` (who had `before`) has after one of `deploys`,
/// each tried after the placement `next` has made, in `after` made a copy
/// of it (the last in `next` itself); `i64::MIN` when none can be made.
fn best_deployment(
    after: &mut Scratch,
    next: &mut Game,
    deploys: &[Choice],
    player: crate::engine::Player,
    before: i64,
) -> Result<i64, GameError> {
    let mut best = i64::MIN;
    for (i, &deploy) in deploys.iter().enumerate() {
        // The last deployment is tried in the copy after the placement
        // itself, which is not needed again: a copy fewer.
        let after = if i + 1 == deploys.len() {
            &mut *next
        } else {
            after.copy_of(next)
        };
        match after.apply(deploy) {
            Ok(()) => best = best.max(after.scores()[player.index()] - before),
            Err(e) if e.kind().is_rule_failure() => {
                return Err(e
                    .context("greedy, trying one of its moves and a deployment after it")
                    .in_look())
            }
            Err(_) => {}
        }
    }
    Ok(best)
}

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, options: &[Choice]) -> Result<Choice, GameError> {
        if options.is_empty() {
            return Err(no_options());
        }
        let mut gains = std::mem::take(&mut self.gains);
        gains.clear();
        for &choice in options {
            match self.gain(game, choice) {
                Ok(gain) => gains.push(gain),
                Err(e) => {
                    self.gains = gains;
                    return Err(e);
                }
            }
        }
        // A tie broken at random: the k-th of the options with the best gain.
        let best = gains.iter().copied().max().unwrap_or(0);
        let ties = gains.iter().filter(|&&g| g == best).count();
        let k = self.rng.below(ties);
        let pick = gains
            .iter()
            .enumerate()
            .filter(|&(_, &g)| g == best)
            .nth(k)
            .map(|(i, _)| i);
        self.gains = gains;
        Ok(options[pick.expect("the best gain is one of the gains")])
    }

    fn name(&self) -> &str {
        "greedy"
    }
}

/// An agent asked to choose among no options.
pub(super) fn no_options() -> GameError {
    ErrorKind::NotAnOption
        .error("no options to choose from: give the options of the pending decision (`Game::options`)")
}

/// Plays `game` to its end, asking `agents[player]` at each decision. The
/// list repeats when it is shorter than the players (one agent plays every
/// seat, two alternate), as `meeple sim --agents` does; agents past the
/// number of players are not asked.
pub fn play(game: &mut Game, agents: &mut [Box<dyn Agent>]) -> Result<(), GameError> {
    if agents.is_empty() {
        return Err(ErrorKind::NoSuchId.error("no agents to play the game: give one per player"));
    }
    let mut options = Vec::with_capacity(64);
    // The view an agent is handed, each made in the lists of the view
    // before (`Scratch::view_of` with `view_for`'s seed: the same sample).
    let mut view = Scratch::default();
    while game.decision().is_some() {
        game.options_into(&mut options);
        let player = game.deciding_player().unwrap_or_default();
        let agent = &mut agents[player.index() % agents.len()];
        // The tile order is hidden in every game, so an agent that looks
        // always gets a view.
        let choice = if agent.looks() {
            let view = view
                .view_of(game, player, 0)
                .ok_or_else(|| ErrorKind::NoSuchId.error(format!("no player {player} in this game")))?;
            agent.choose(view, &options)?
        } else {
            agent.choose(game, &options)?
        };
        // A choice the game refuses names the agent that made it: a program's
        // own agent may be at fault. (The options listed are always taken;
        // a broken rule's error says so itself.)
        if let Err(e) = game.apply(choice) {
            return Err(if options.contains(&choice) {
                e
            } else {
                e.context(format_args!(
                    "player {player}'s agent `{}` chose {choice:?}, which is not among the {} options",
                    agent.name(),
                    options.len()
                ))
            });
        }
    }
    Ok(())
}

/// An agent as `meeple sim --agents` names it: `random`, `greedy`,
/// `ismcts` (a default budget, [`DEFAULT_ISMCTS_ITERATIONS`]), `ismcts:N`
/// (N iterations per decision) or `ismcts:TIME` (`50ms`, `1s` per decision;
/// not deterministic across machines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// [`RandomAgent`].
    Random,
    /// [`GreedyAgent`].
    Greedy,
    /// [`IsmctsAgent`] with its budget per decision.
    Ismcts(Budget),
}

/// The iterations per decision of `ismcts` without a budget.
pub const DEFAULT_ISMCTS_ITERATIONS: u32 = 100;

impl AgentSpec {
    /// Reads an agent's name; an error says what is wrong and how to fix it.
    pub fn parse(name: &str) -> Result<AgentSpec, String> {
        match name.split_once(':') {
            None if name == "random" => Ok(AgentSpec::Random),
            None if name == "greedy" => Ok(AgentSpec::Greedy),
            None if name == "ismcts" => Ok(AgentSpec::Ismcts(Budget::Iterations(DEFAULT_ISMCTS_ITERATIONS))),
            Some(("ismcts", budget)) => Budget::parse(budget).map(AgentSpec::Ismcts),
            _ => Err(format!(
                "unknown agent `{name}`; agents are {} (ismcts takes a budget per decision: ismcts:100 iterations, ismcts:50ms)",
                AGENT_NAMES.join(", ")
            )),
        }
    }

    /// A new agent of this kind with its own seed.
    pub fn agent(self, seed: u64) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Greedy => Box::new(GreedyAgent::new(seed)),
            AgentSpec::Ismcts(budget) => Box::new(IsmctsAgent::new(seed, budget)),
        }
    }
}

/// Makes an agent by name ([`AgentSpec::parse`] says why a name is refused).
pub fn agent_by_name(name: &str, seed: u64) -> Option<Box<dyn Agent>> {
    AgentSpec::parse(name).ok().map(|spec| spec.agent(seed))
}

/// The names [`agent_by_name`] accepts (`ismcts` also with a budget).
pub const AGENT_NAMES: &[&str] = &["random", "greedy", "ismcts"];
