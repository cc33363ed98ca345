//! [`IsmctsAgent`]: information-set Monte Carlo tree search (single
//! observer, ISMCTS-SO). One tree per decision, over the choices of every
//! player; each iteration
//!
//! 1. *determinises*: takes a fresh sample of what the agent's player cannot
//!    see ([`Game::view_with_seed`], with a seed from the agent's own RNG),
//! 2. *selects* down the tree by UCB1 among the children whose choice is
//!    legal in that sample, counting for each such child that it was
//!    available (so a choice legal in few samples is not undervalued),
//! 3. *expands* one untried legal choice,
//! 4. *plays out* the sample to its end with random choices (a playout
//!    that passed on half of its deployments won less: 61% against 70% of
//!    40 games at 100 iterations and exploration 0.7), and
//! 5. *backs up* each player's reward, their final lead squashed into 0..1
//!    ([`rewards`]), on the choices that player made.
//!
//! The choice played is the root's most visited child. Every sample comes
//! from the player's view, so the search learns nothing hidden, and with a
//! budget in iterations the same seed always makes the same choices.

use super::Scratch;
use crate::engine::{Choice, Game, GameError, Player, Rng};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How much an [`IsmctsAgent`] searches per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (one playout each): the same seed always makes
    /// the same choices, on any machine.
    Iterations(u32),
    /// As many iterations as fit in this time: stronger on a faster machine,
    /// and so *not* deterministic across machines or runs.
    Time(Duration),
}

impl Budget {
    /// Reads a budget as `meeple sim --agents ismcts:BUDGET` takes it: a
    /// number of iterations (`300`) or a time (`50ms`, `2s`, `1.5s`).
    pub fn parse(text: &str) -> Result<Budget, String> {
        let fix = "give iterations per decision (such as ismcts:100) or a time per decision (such as ismcts:50ms, ismcts:1s or ismcts:1.5s)";
        let not_one = || format!("`{text}` is not a budget for ismcts; {fix}");
        let (number, unit) = match text.find(|c: char| !c.is_ascii_digit() && c != '.') {
            Some(at) => text.split_at(at),
            None => (text, ""),
        };
        let budget = match unit {
            "" => {
                let value: u64 = number.parse().map_err(|_| not_one())?;
                Budget::Iterations(
                    u32::try_from(value).map_err(|_| format!("ismcts:{text} is too many iterations; {fix}"))?,
                )
            }
            "ms" | "s" => {
                let value: f64 = number.parse().map_err(|_| not_one())?;
                let seconds = if unit == "ms" { value / 1000.0 } else { value };
                // At most a day a decision (a longer one is a typing slip).
                if !(0.0..=86_400.0).contains(&seconds) {
                    return Err(format!("ismcts:{text} is more than a day a decision; {fix}"));
                }
                Budget::Time(Duration::from_secs_f64(seconds))
            }
            _ => return Err(not_one()),
        };
        if budget == Budget::Iterations(0) || budget == Budget::Time(Duration::ZERO) {
            return Err(format!("ismcts:{text} searches nothing; {fix}"));
        }
        Ok(budget)
    }
}

/// The UCB1 exploration constant (rewards lie in 0..1). Measured against
/// greedy at 100 iterations (40 base games each, `meeple bench --match`):
/// 0.05 won 72%, 0.1 92%, 0.15 95%, 0.3 88%, 0.7 70%, 1.2 50%.
const EXPLORATION: f64 = 0.15;

/// The lead, in points, that [`rewards`] counts as clearly ahead (measured
/// at 100 iterations with exploration 0.7: 10, 20 and 40 won 70%, 70% and
/// 68% of 40 games; not measured again at 0.15).
const LEAD_SCALE: f64 = 20.0;

/// Children of a node, by their choice. A fixed hasher (rustc-hash's Fx),
/// so nothing depends on the process's random hash keys; and a fast one,
/// as every option at every node an iteration passes is looked up (with
/// the standard library's SipHash, hashing took about a tenth of a
/// search). Nothing iterates a node's children, so the hasher changes no
/// choice, only the work.
type Children = HashMap<Choice, u32, FxBuildHasher>;

/// A node of the search tree: the choices made so far in every sample that
/// reached it.
#[derive(Default)]
struct Node {
    /// Times an iteration went through this node.
    visits: u32,
    /// Times this node's choice was legal when its parent was visited.
    available: u32,
    /// Summed rewards of the player who made this node's choice.
    reward: f64,
    /// The nodes one choice further, by choice.
    children: Children,
}

/// Information-set Monte Carlo tree search (see the module's text). Seeded:
/// with [`Budget::Iterations`] it makes the same choices for the same seed
/// and game view.
///
/// ```
/// use meeple::agents::Budget;
/// use meeple::{load, play, Agent, Game, GreedyAgent, IsmctsAgent, PackRef, Rules, Setup};
/// use std::sync::Arc;
///
/// let rules = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).expect("base loads")));
/// let mut game = Game::new(rules, Setup::new(2).seed(3)).expect("two players can play");
/// let mut agents: Vec<Box<dyn Agent>> = vec![
///     Box::new(IsmctsAgent::new(1, Budget::Iterations(10))), // 10 playouts a decision
///     Box::new(GreedyAgent::new(2)),
/// ];
/// play(&mut game, &mut agents).expect("the game ends"); // the agent is handed views only
/// assert!(game.is_over() && agents[0].playouts() > 0);
/// ```
pub struct IsmctsAgent {
    rng: Rng,
    budget: Budget,
    name: String,
    /// The tree of the current decision (an arena, node 0 the root), kept
    /// to reuse its memory.
    nodes: Vec<Node>,
    /// Playouts run since the agent was made.
    playouts: u64,
    /// Options of one step of an iteration, reused.
    options: Vec<Choice>,
    /// The nodes of one iteration's path, each with the player who chose it.
    path: Vec<(u32, usize)>,
    /// A node's options not tried yet, and the nodes of those tried, as
    /// [`IsmctsAgent::select`] sorts them, reused.
    untried: Vec<Choice>,
    legal: Vec<u32>,
    /// The game an iteration plays in, made each iteration's view
    /// ([`Game::view_with_seed_into`]).
    sample: Scratch,
}

impl IsmctsAgent {
    /// An agent with its own seed, searching `budget` per decision. Every
    /// decision searches at least one iteration, as a time budget too
    /// short for one does: `Budget::Iterations(0)` is taken as 1 (and
    /// named so), not as a search of nothing that plays the first option.
    pub fn new(seed: u64, budget: Budget) -> IsmctsAgent {
        let budget = match budget {
            Budget::Iterations(0) => Budget::Iterations(1),
            other => other,
        };
        let name = match budget {
            Budget::Iterations(n) => format!("ismcts:{n}"),
            // Whole milliseconds as they are (`ismcts:1500ms`), a part of
            // one kept (`ismcts:0.25ms`).
            Budget::Time(t) => format!("ismcts:{}ms", t.as_nanos() as f64 / 1e6),
        };
        IsmctsAgent {
            rng: Rng::new(seed),
            budget,
            name,
            nodes: Vec::new(),
            playouts: 0,
            options: Vec::new(),
            path: Vec::new(),
            untried: Vec::new(),
            legal: Vec::new(),
            sample: Scratch::default(),
        }
    }

    /// One iteration from `game`, as `me` sees it. A rule that fails on
    /// the way is returned: the sample is a game that could be being
    /// played, so the rules can fail in play too, and a search that played
    /// on would steer around a broken rule without a word.
    fn iterate(&mut self, game: &Game, me: Player) -> Result<(), GameError> {
        // The kept game, taken out of the agent while the iteration plays in
        // it, made the view with this iteration's sample.
        let mut scratch = std::mem::take(&mut self.sample);
        let Some(sample) = scratch.view_of(game, me, self.rng.next_u64()) else {
            self.sample = scratch;
            return Ok(());
        };
        let mut failed = None;
        self.path.clear();
        let mut node = 0u32;
        let mut expanded = false;
        // Selection and expansion.
        while !expanded && sample.decision().is_some() {
            sample.options_into(&mut self.options);
            let chooser = sample.deciding_player().map_or(0, Player::index);
            let choice = if self.options.len() == 1 {
                // A forced choice is played without a node of its own.
                self.options[0]
            } else {
                let (choice, child) = self.select(node);
                node = match child {
                    Some(child) => child,
                    None => {
                        expanded = true;
                        self.expand(node, choice)
                    }
                };
                self.path.push((node, chooser));
                choice
            };
            if let Err(e) = sample.apply(choice) {
                failed = Some(e);
                break;
            }
        }
        // Playout (after a choice refused in selection, as ever, from where
        // the sample stands; not after a rule's failure).
        let rule_failed = |f: &Option<GameError>| f.as_ref().is_some_and(|e| e.kind().is_rule_failure());
        while !rule_failed(&failed) && sample.decision().is_some() {
            sample.options_into(&mut self.options);
            let choice = self.options[self.rng.below(self.options.len())];
            if let Err(e) = sample.apply(choice) {
                failed = Some(e);
                break;
            }
        }
        if let Some(e) = failed.filter(|e| e.kind().is_rule_failure()) {
            self.sample = scratch;
            return Err(e
                .context("ismcts, searching a game that could be being played (its hidden tiles and cards sampled)")
                .in_look());
        }
        self.playouts += 1;
        // Back-propagation.
        let rewards = rewards(sample.scores());
        self.nodes[0].visits += 1;
        for &(n, chooser) in &self.path {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            n.reward += rewards.get(chooser).copied().unwrap_or(0.0);
        }
        self.sample = scratch;
        Ok(())
    }

    /// The choice to make at `node` among `self.options`: an untried one
    /// (with `None`) if there is any, else the best by UCB1 (with its node).
    /// Every legal child's availability is counted.
    fn select(&mut self, node: u32) -> (Choice, Option<u32>) {
        let (untried, legal) = (&mut self.untried, &mut self.legal);
        untried.clear();
        legal.clear();
        let children = &self.nodes[node as usize].children;
        for &choice in &self.options {
            match children.get(&choice) {
                Some(&child) => legal.push(child),
                None => untried.push(choice),
            }
        }
        for &child in legal.iter() {
            self.nodes[child as usize].available += 1;
        }
        if !untried.is_empty() {
            return (untried[self.rng.below(untried.len())], None);
        }
        let mut best: Option<(f64, Choice, u32)> = None;
        for (&choice, &child) in self.options.iter().zip(legal.iter()) {
            let c = &self.nodes[child as usize];
            let visits = f64::from(c.visits.max(1));
            let value = c.reward / visits + EXPLORATION * (f64::from(c.available).ln() / visits).sqrt();
            if best.is_none_or(|(v, _, _)| value > v) {
                best = Some((value, choice, child));
            }
        }
        let (_, choice, child) = best.expect("options are never empty");
        (choice, Some(child))
    }

    /// Adds `choice`'s node under `node`; returns it.
    fn expand(&mut self, node: u32, choice: Choice) -> u32 {
        let child = self.nodes.len() as u32;
        self.nodes.push(Node {
            available: 1,
            ..Node::default()
        });
        self.nodes[node as usize].children.insert(choice, child);
        child
    }
}

/// Each player's reward for final `scores`: the lead over the best other
/// player, squashed into 0..1 (0.5 for a tie, about 0.88 for a lead of
/// [`LEAD_SCALE`] points). A win counts for no more than its margin: with a
/// few playouts per choice, the margin tells choices apart far better than
/// win or loss (against greedy at 200 iterations and exploration 0.7, 95%
/// of 40 base games won with it, 75% with 1 for a win and 0 for a loss; at
/// 100 iterations and 0.15, 80% with 0.3 for a win plus 0.7 times this).
fn rewards(scores: &[i64]) -> Vec<f64> {
    scores
        .iter()
        .enumerate()
        .map(|(p, s)| {
            let rival = scores
                .iter()
                .enumerate()
                .filter(|(q, _)| *q != p)
                .map(|(_, s)| *s)
                .max()
                .unwrap_or(*s);
            0.5 + 0.5 * (s.saturating_sub(rival) as f64 / LEAD_SCALE).tanh()
        })
        .collect()
}

impl super::Agent for IsmctsAgent {
    fn choose(&mut self, game: &Game, options: &[Choice]) -> Result<Choice, GameError> {
        match options {
            [] => return Err(super::no_options()),
            [only] => return Ok(*only),
            _ => {}
        }
        let me = game.deciding_player().unwrap_or_else(|| game.current_player());
        self.nodes.clear();
        self.nodes.push(Node::default());
        let started = Instant::now();
        let mut done = 0u32;
        loop {
            let enough = match self.budget {
                Budget::Iterations(n) => done >= n,
                Budget::Time(t) => done > 0 && started.elapsed() >= t,
            };
            if enough {
                break;
            }
            self.iterate(game, me)?;
            done += 1;
        }
        // The most visited choice among the real options (a sample's
        // options at the root are the player's own, so they match).
        let root = &self.nodes[0];
        let visits = |c: &Choice| root.children.get(c).map_or(0, |&n| self.nodes[n as usize].visits);
        let mut best = options[0];
        for choice in options {
            if visits(choice) > visits(&best) {
                best = *choice;
            }
        }
        Ok(best)
    }

    fn name(&self) -> &str {
        &self.name
    }

    /// One per iteration since the agent was made.
    fn playouts(&self) -> u64 {
        self.playouts
    }
}
