//! The choices the rules leave open, and their answers: the player on 5 (Loadstar, Chemin
//! de fer), the bank's Loadstar options, the Chemin de fer banker. A leaf module: the
//! strategies that answer ([`crate::strategy`]) and the game-theoretic solution they may
//! use ([`crate::optimal`]) both speak it.

/// A choice the rules leave open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The Player hand holds 5 on two cards.
    PlayerOnFive,
    /// The bank holds `total` on two cards; `player_third` is the points of the player's
    /// third card, or `None` if the player stood.
    Banker {
        /// The bank's two-card total, 0–7.
        total: u8,
        /// The points of the player's third card.
        player_third: Option<u8>,
    },
}

/// An answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Take a third card.
    Draw,
    /// Keep two cards.
    Stand,
}

impl Decision {
    /// `Draw` when `draw` is true.
    pub const fn draw_if(draw: bool) -> Decision {
        if draw { Decision::Draw } else { Decision::Stand }
    }
}
