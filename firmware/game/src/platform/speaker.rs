//! Sound: the effects the game plays.

/// Sound effects, each a few frames long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A card lands.
    Card,
    /// The player's side won.
    Win,
    /// The player's side lost.
    Loss,
    /// The shoe is shuffled.
    Shuffle,
    /// A chip is placed.
    Chip,
    /// A refused key or bet.
    Error,
}

/// The sound chip.
pub trait Speaker {
    /// Starts a sound effect.
    fn sound(&mut self, sound: Sound);
}
