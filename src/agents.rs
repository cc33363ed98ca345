//! Agents: whatever chooses at decision points. Random and greedy agents for
//! simulation, and [`play`] to run a game to its end.

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
/// placement is worth its best deployment), breaking ties at random.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: Rng,
}

impl GreedyAgent {
    /// A greedy agent with its own seed for tie-breaking.
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent { rng: Rng::new(seed) }
    }

    /// Points the current player gains by `choice` (and, after a placement,
    /// by the best deployment that follows).
    fn gain(game: &Game, choice: Choice) -> i64 {
        let player = game.deciding_player().unwrap_or_else(|| game.current_player());
        let before = game.scores()[player.index()];
        let mut next = game.search_clone();
        if next.apply(choice).is_err() {
            return i64::MIN;
        }
        let mut best = next.scores()[player.index()] - before;
        if matches!(choice, Choice::Place { .. }) && next.deciding_player() == Some(player) && !next.is_over() {
            for deploy in next.options() {
                let mut after = next.search_clone();
                if after.apply(deploy).is_ok() {
                    best = best.max(after.scores()[player.index()] - before);
                }
            }
        }
        best
    }
}

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, options: &[Choice]) -> Result<Choice, GameError> {
        let gains: Vec<i64> = options.iter().map(|c| GreedyAgent::gain(game, *c)).collect();
        let best = gains.iter().copied().max().unwrap_or(0);
        let top: Vec<usize> = (0..options.len()).filter(|&i| gains[i] == best).collect();
        Ok(options[top[self.rng.below(top.len())]])
    }

    fn name(&self) -> &str {
        "greedy"
    }
}

/// Plays `game` to its end, asking `agents[player]` at each decision.
pub fn play(game: &mut Game, agents: &mut [Box<dyn Agent>]) -> Result<(), GameError> {
    if agents.is_empty() {
        return Err(ErrorKind::NoSuchId.error("no agents to play the game: give one per player"));
    }
    let mut options = Vec::new();
    while game.decision().is_some() {
        game.options_into(&mut options);
        let player = game.deciding_player().unwrap_or_default();
        let agent = &mut agents[player.index() % agents.len()];
        // The tile order is hidden in every game, so an agent that looks
        // always gets a view.
        let choice = if agent.looks() {
            let view = game
                .view_for(player)
                .ok_or_else(|| ErrorKind::NoSuchId.error(format!("no player {player} in this game")))?;
            agent.choose(&view, &options)?
        } else {
            agent.choose(game, &options)?
        };
        game.apply(choice)?;
    }
    Ok(())
}

/// Makes an agent by name (`random` or `greedy`).
pub fn agent_by_name(name: &str, seed: u64) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(RandomAgent::new(seed))),
        "greedy" => Some(Box::new(GreedyAgent::new(seed))),
        _ => None,
    }
}

/// The names [`agent_by_name`] accepts.
pub const AGENT_NAMES: &[&str] = &["random", "greedy"];
