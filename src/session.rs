//! A game played by people and agents together, one decision at a time,
//! with undo: [`Session`] keeps every decision made, so taking one back is
//! playing the game again from its seed without it (the engine is
//! deterministic for a seed and its decisions). It prints nothing and reads
//! no terminal: `meeple play` drives it, and so can any program.
//!
//! ```
//! use meeple::session::{Seat, Session};
//! use meeple::{load, PackRef, Player, RandomAgent, Rules};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
//! let seats = vec![Seat::Human, Seat::Agent(Box::new(RandomAgent::new(1)))];
//! let mut session = Session::new(rules, seats, 42).unwrap();
//! let first = session.game().options()[0];
//! session.decide(first).unwrap();                // the person's placement
//! let undone = session.undo(Player(0)).unwrap(); // ... taken back
//! assert_eq!(undone.len(), 1);
//! assert!(session.decisions().is_empty());
//! ```

use crate::agents::Agent;
use crate::engine::{Choice, Decision, ErrorKind, Game, GameError, Player, Rules, Setup};
use crate::record::{move_text, Record};
use std::sync::Arc;

/// Who plays a seat.
pub enum Seat {
    /// A person, who answers through [`Session::decide`].
    Human,
    /// An agent, asked through [`Session::play_agent`].
    Agent(Box<dyn Agent>),
}

/// One decision made in a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// Who decided.
    pub player: Player,
    /// What the game asked.
    pub asked: Decision,
    /// The answer.
    pub choice: Choice,
    /// The turn it was made in ([`Game::turn`]).
    pub turn: u32,
    /// The answer as a record writes it ([`move_text`]), named when it was made.
    pub text: String,
}

/// A game in progress with its seats and every decision made so far.
pub struct Session {
    rules: Arc<Rules>,
    setup: Setup,
    seed: u64,
    seats: Vec<Seat>,
    game: Game,
    decisions: Vec<Decided>,
}

impl Session {
    /// A new game of `seats.len()` players with `seed`.
    pub fn new(rules: Arc<Rules>, seats: Vec<Seat>, seed: u64) -> Result<Session, GameError> {
        let setup = Setup::new(seats.len()).seed(seed);
        let game = Game::new(rules.clone(), setup.clone())?;
        Ok(Session {
            rules,
            setup,
            seed,
            seats,
            game,
            decisions: Vec::new(),
        })
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seed the game was set up with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every decision so far, in order.
    pub fn decisions(&self) -> &[Decided] {
        &self.decisions
    }

    /// Whether a person plays `player`'s seat.
    pub fn is_human(&self, player: Player) -> bool {
        matches!(self.seats.get(player.index()), Some(Seat::Human))
    }

    /// The agent's name at an agent's seat.
    pub fn agent_name(&self, player: Player) -> Option<&str> {
        match self.seats.get(player.index())? {
            Seat::Agent(agent) => Some(agent.name()),
            Seat::Human => None,
        }
    }

    /// Answers the pending decision with `choice`, for a person's seat (an
    /// agent's seat is asked with [`Session::play_agent`], and a choice for
    /// it is refused, `WrongDecision`). A choice the game refuses changes
    /// nothing, and the error says why; so does one after which a rule
    /// fails ([`ErrorKind::is_rule_failure`]: the game is played again up
    /// to before it), and the error names the rule.
    pub fn decide(&mut self, choice: Choice) -> Result<&Decided, GameError> {
        if let Some(player) = self.game.deciding_player() {
            if let Some(Seat::Agent(agent)) = self.seats.get(player.index()) {
                return Err(GameError::new(
                    ErrorKind::WrongDecision,
                    format!(
                        "player {player} is played by the agent `{}`: its decisions are made with play_agent, not decide",
                        agent.name()
                    ),
                ));
            }
        }
        self.apply(choice)
    }

    /// Plays `choice` for whoever is to decide, and keeps it.
    fn apply(&mut self, choice: Choice) -> Result<&Decided, GameError> {
        let asked = self
            .game
            .decision()
            .ok_or_else(|| GameError::new(ErrorKind::GameOver, "the game is over"))?;
        let player = self.game.deciding_player().unwrap_or_default();
        let text = move_text(&self.game, choice).unwrap_or_default();
        let turn = self.game.turn();
        if let Err(e) = self.game.apply(choice) {
            if e.kind().is_rule_failure() {
                // A rule failed part-way through running the machine: play
                // the game again up to before this choice, so it stands as
                // it did.
                self.game = self.replayed(self.decisions.len())?;
            }
            return Err(e);
        }
        self.decisions.push(Decided {
            player,
            asked,
            choice,
            turn,
            text,
        });
        Ok(self.decisions.last().expect("just pushed"))
    }

    /// When an agent plays the seat that must decide, asks it and plays its
    /// choice; `None` when a person must decide or the game is over. An
    /// agent that looks sees only its player's view, as in [`crate::play`].
    pub fn play_agent(&mut self) -> Result<Option<&Decided>, GameError> {
        let Some(player) = self.game.deciding_player() else {
            return Ok(None);
        };
        let Some(Seat::Agent(agent)) = self.seats.get_mut(player.index()) else {
            return Ok(None);
        };
        let options = self.game.options();
        let choice = if agent.looks() {
            let view = self
                .game
                .view_for(player)
                .ok_or_else(|| ErrorKind::NoSuchId.error(format!("no player {player} in this game")))?;
            agent.choose(&view, &options)?
        } else {
            agent.choose(&self.game, &options)?
        };
        self.apply(choice).map(Some)
    }

    /// Takes back `player`'s last decision and every decision made after
    /// it (by anyone), returning them in the order they were made: the game
    /// is played again from its seed with the decisions before it, so it
    /// waits for that decision of `player`'s again. Agents are asked anew
    /// for the decisions after it.
    pub fn undo(&mut self, player: Player) -> Result<Vec<Decided>, GameError> {
        let players = self.game.players();
        if player.index() >= players {
            return Err(GameError::new(
                ErrorKind::NoSuchId,
                format!("no player {player} in this game of {players} players (players are numbered from 0)"),
            ));
        }
        let Some(last) = self.decisions.iter().rposition(|d| d.player == player) else {
            return Err(GameError::new(
                ErrorKind::NoSuchTarget,
                format!("player {player} has made no decision yet, so there is nothing of theirs to take back"),
            ));
        };
        let undone = self.decisions.split_off(last);
        self.game = self.replayed(self.decisions.len())?;
        Ok(undone)
    }

    /// The game played again from its seed with the first `n` decisions.
    fn replayed(&self, n: usize) -> Result<Game, GameError> {
        let mut game = Game::new(self.rules.clone(), self.setup.clone())?;
        for d in &self.decisions[..n] {
            game.apply(d.choice)?;
        }
        Ok(game)
    }

    /// How many decisions lie before the turn being played: the decisions
    /// up to the first placement decision of the current turn (all of them
    /// when the game is over, or waits for that placement). A record ends
    /// between turns, so a game stopped in the middle of a turn is recorded
    /// up to here.
    pub fn whole_turns(&self) -> usize {
        if self.game.is_over() {
            return self.decisions.len();
        }
        let placing = |d: &Decided| matches!(d.asked, Decision::Place { .. });
        let turn = match self.decisions.iter().rev().find(|d| placing(d)) {
            Some(d) => d.turn,
            // Only the set-up's choices so far: a record has no step for them
            // before the first placement, so all or none come to the same.
            None => return self.decisions.len(),
        };
        if matches!(self.game.decision(), Some(Decision::Place { .. })) && self.game.turn() != turn {
            return self.decisions.len();
        }
        self.decisions
            .iter()
            .position(|d| placing(d) && d.turn == turn)
            .unwrap_or(self.decisions.len())
    }

    /// The record of the game so far: the whole game once it is over,
    /// otherwise every whole turn ([`Session::whole_turns`]), which replays
    /// with `meeple replay`. `rules` and `players` are written as given.
    pub fn record(&self, rules: Vec<String>, players: Vec<String>) -> Result<Record, GameError> {
        let whole = self.whole_turns();
        let seed = Some(self.seed);
        if whole == self.decisions.len() {
            return Record::from_game(&self.game, rules, players, seed);
        }
        Record::from_game(&self.replayed(whole)?, rules, players, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{GreedyAgent, RandomAgent};
    use crate::check::{load, PackRef};
    use crate::record::{replay_with, Step};

    fn base() -> Arc<Rules> {
        Arc::new(Rules::new(
            load(&[PackRef::Bundled("base".into())]).expect("base loads"),
        ))
    }

    fn human_and_bot() -> Session {
        Session::new(base(), vec![Seat::Human, Seat::Agent(Box::new(GreedyAgent::new(3)))], 5).expect("2 players")
    }

    /// The person always takes the first option; agents answer their own.
    fn play_first_options(session: &mut Session, decisions: usize) {
        for _ in 0..decisions {
            if session.play_agent().expect("agents play").is_some() {
                continue;
            }
            let Some(first) = session.game().options().first().copied() else {
                return;
            };
            session.decide(first).expect("options are legal");
        }
    }

    #[test]
    fn a_whole_game_plays_and_its_record_replays_to_the_same_scores() {
        let mut session = human_and_bot();
        play_first_options(&mut session, 10_000);
        assert!(session.game().is_over());
        let record = session
            .record(vec!["base".into()], vec!["A".into(), "B".into()])
            .unwrap();
        assert_eq!(record.seed, Some(5));
        let replayed = replay_with(&record, base()).expect("the record replays");
        assert_eq!(replayed.scores(), session.game().scores());
    }

    #[test]
    fn undo_takes_back_the_players_last_decision_and_the_agents_after_it() {
        let mut session = human_and_bot();
        play_first_options(&mut session, 12);
        let human = Player(0);
        let before = session.decisions().to_vec();
        let last = before.iter().rposition(|d| d.player == human).unwrap();
        let undone = session.undo(human).unwrap();
        assert_eq!(
            undone,
            before[last..].to_vec(),
            "the human's decision and everything after it"
        );
        assert_eq!(session.decisions(), &before[..last]);
        // The game waits for that decision again, exactly as it stood.
        assert_eq!(session.game().decision(), Some(before[last].asked));
        assert_eq!(session.game().deciding_player(), Some(human));
        assert!(session.game().options().contains(&before[last].choice));
        // And it goes on from there.
        session.decide(before[last].choice).unwrap();
        assert_eq!(session.decisions().len(), last + 1);
    }

    #[test]
    fn undo_with_nothing_to_take_back_is_an_error_and_changes_nothing() {
        let mut session = human_and_bot();
        assert!(session.undo(Player(0)).is_err());
        assert!(session.decisions().is_empty());
        assert!(session.game().decision().is_some());
    }

    #[test]
    fn a_refused_choice_changes_nothing() {
        let mut session = human_and_bot();
        let Some(Decision::Place { tile, .. }) = session.game().decision() else {
            panic!("the game starts with a placement");
        };
        let far = Choice::Place {
            tile,
            pos: (40, 40),
            rot: crate::engine::Rotation::default(),
        };
        assert_eq!(session.decide(far).unwrap_err().kind(), ErrorKind::NotAdjacent);
        assert!(session.decisions().is_empty());
        assert_eq!(session.play_agent().unwrap(), None, "still the human's placement");
    }

    #[test]
    fn a_choice_after_which_a_rule_fails_leaves_the_game_as_it_stood() {
        let text = "pack echo\nrequires base\n\non tile_placed(t) {\n  score 1 to current_player reason \"x\"\n}\n\n\
                    on points_scored(p, n) {\n  score 1 to p reason \"echo\"\n}\n";
        let pack = load(&[PackRef::Text {
            name: "echo".into(),
            text: text.into(),
        }])
        .expect("the pack loads");
        let mut session = Session::new(Arc::new(Rules::new(pack)), vec![Seat::Human, Seat::Human], 1).unwrap();
        let before = session.game().options();
        let error = session.decide(before[0]).unwrap_err();
        assert!(error.kind().is_rule_failure(), "{error}");
        assert!(session.decisions().is_empty());
        assert!(matches!(session.game().decision(), Some(Decision::Place { .. })));
        assert_eq!(session.game().options(), before);
        assert_eq!(session.game().scores(), &[0, 0]);
    }

    #[test]
    fn a_game_stopped_mid_turn_is_recorded_up_to_its_whole_turns() {
        let mut session =
            Session::new(base(), vec![Seat::Human, Seat::Agent(Box::new(RandomAgent::new(9)))], 8).unwrap();
        play_first_options(&mut session, 9);
        // Stop after the human placed a tile but before deploying.
        while !matches!(
            session.game().decision(),
            Some(Decision::Deploy { player: Player(0), .. })
        ) {
            play_first_options(&mut session, 1);
        }
        let whole = session.whole_turns();
        assert!(whole < session.decisions().len());
        assert!(matches!(session.decisions()[whole].asked, Decision::Place { .. }));
        let record = session
            .record(vec!["base".into()], vec!["A".into(), "B".into()])
            .unwrap();
        let turns = record.turns.iter().filter(|s| matches!(s, Step::Turn { .. })).count();
        let placed = session.decisions()[..whole]
            .iter()
            .filter(|d| matches!(d.choice, Choice::Place { .. }))
            .count();
        assert_eq!(turns, placed, "one Turn step for each placement of the whole turns");
        let replayed = replay_with(&record, base()).expect("the record replays as far as it went");
        assert!(!replayed.is_over());
        assert_eq!(
            replayed.board().placed.len(),
            placed + 1,
            "the start tile and each placement"
        );
    }
}
