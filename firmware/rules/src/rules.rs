//! The rule sets: one preset for each game in the seeds, with the options they disagree on.

use crate::money::Money;
use crate::payout::PayTable;
use crate::shoe::{Burn, EndOfShoe, MAX_DECKS};
use crate::tableau::DrawRules;

/// The games in the seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Seeds 000 and 001: Punto Banco with 5% commission on banker wins.
    PuntoBanco,
    /// Seed 000's alternative: no commission, but a banker win with 6 pays half.
    NoCommission,
    /// Seed 002: the Sahara Sands house rules.
    Sahara,
    /// Seed 003 and the Loadstar 128 original: you hold the Player hand against the house.
    Loadstar,
    /// Seed 004: Chemin de fer, the bank rotating among the seats.
    ChemDeFer,
}

impl Preset {
    /// Every preset, in menu order.
    pub const ALL: [Preset; 5] =
        [Preset::PuntoBanco, Preset::NoCommission, Preset::Sahara, Preset::Loadstar, Preset::ChemDeFer];

    /// The name used on the command line and in saved games.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::PuntoBanco => "punto-banco",
            Preset::NoCommission => "no-commission",
            Preset::Sahara => "sahara",
            Preset::Loadstar => "loadstar",
            Preset::ChemDeFer => "chemin-de-fer",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The deck counts the game is played with (the seeds' "6-8 decks", "Four standard
    /// 52-card decks"); the analysis accepts any 1–8.
    pub const fn customary_decks(self) -> (u8, u8) {
        match self {
            Preset::Sahara => (6, 8),
            Preset::Loadstar => (4, 4),
            _ => (1, MAX_DECKS),
        }
    }
}

/// Who pays the winners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Banking {
    /// The house, starting with this much.
    House(Money),
    /// One of the seats, in turn (Chemin de fer).
    Seats,
}

/// Why a rule set cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Decks outside 1–8.
    Decks(u8),
    /// Ties pay 8 or 9 to 1, and only where there is a tie bet with a choice of odds.
    TiePays(u16),
}

/// Everything that makes one game differ from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// The preset this started from.
    pub preset: Preset,
    /// The drawing rules.
    pub draw: DrawRules,
    /// The payouts.
    pub pays: PayTable,
    /// Decks in the shoe, 1–8.
    pub decks: u8,
    /// When the shoe is shuffled.
    pub end_of_shoe: EndOfShoe,
    /// Whether the first card is burned.
    pub burn: Burn,
    /// Who banks.
    pub banking: Banking,
    /// The smallest stake on a spot.
    pub min_bet: Money,
    /// The largest stake on a spot (the Loadstar original has none but the bankroll).
    pub max_bet: Money,
    /// What a new seat starts with.
    pub starting_bankroll: Money,
}

impl RuleSet {
    /// The preset as the seeds describe it.
    pub const fn preset(preset: Preset) -> RuleSet {
        // The seeds say nothing of shoes or limits for Punto Banco: an eight-deck shoe with
        // the cut card 14 from the end, and limits of 1 to 10,000, as casinos customarily do.
        let punto_banco = RuleSet {
            preset,
            draw: DrawRules::PuntoBanco,
            pays: PayTable::commission(8),
            decks: 8,
            end_of_shoe: EndOfShoe::CutCard { from_end: 14 },
            burn: Burn::None,
            banking: Banking::House(Money::units(10_000_000)),
            min_bet: Money::units(1),
            max_bet: Money::units(10_000),
            starting_bankroll: Money::units(1_000),
        };
        match preset {
            Preset::PuntoBanco => punto_banco,
            Preset::NoCommission => RuleSet { pays: PayTable::no_commission(8), ..punto_banco },
            // Seed 002: "6-8 decks", "A marker card is placed in front of the last seven".
            Preset::Sahara => {
                RuleSet { pays: PayTable::SAHARA, end_of_shoe: EndOfShoe::CutCard { from_end: 7 }, ..punto_banco }
            }
            // Seed 003 and the original: four decks, reshuffle at 8 or fewer, 100,000
            // against a bank of 1,000,000, any stake up to the bankroll.
            Preset::Loadstar => RuleSet {
                draw: DrawRules::Loadstar,
                pays: PayTable::EVEN_AGAINST_THE_BANK,
                decks: 4,
                end_of_shoe: EndOfShoe::ReshuffleAt { remaining: 8 },
                banking: Banking::House(Money::units(1_000_000)),
                max_bet: Money::MAX,
                starting_bankroll: Money::units(100_000),
                ..punto_banco
            },
            // Seed 004 names no shoe: six decks, as the game is customarily dealt.
            Preset::ChemDeFer => RuleSet {
                draw: DrawRules::ChemDeFer,
                pays: PayTable::EVEN_AGAINST_THE_BANK,
                decks: 6,
                banking: Banking::Seats,
                max_bet: Money::MAX,
                ..punto_banco
            },
        }
    }

    /// The same rules with `decks` decks.
    pub const fn with_decks(self, decks: u8) -> Result<RuleSet, RulesError> {
        if decks < 1 || decks > MAX_DECKS {
            return Err(RulesError::Decks(decks));
        }
        Ok(RuleSet { decks, ..self })
    }

    /// The same rules with ties paying `to_one`:1. Seed 000 offers "9 for 1, or 8 to 1";
    /// seed 001's "9 times their wager" is 9 for 1, which is 8 to 1; 9 to 1 is the richer
    /// house rule. Sahara Sands fixes 8:1 and the bank games have no tie bet.
    pub const fn with_tie_pays(self, to_one: u16) -> Result<RuleSet, RulesError> {
        let tie_bet_has_choice = matches!(self.preset, Preset::PuntoBanco | Preset::NoCommission);
        if !tie_bet_has_choice || !(to_one == 8 || to_one == 9) {
            return Err(RulesError::TiePays(to_one));
        }
        let pays = match self.preset {
            Preset::NoCommission => PayTable::no_commission(to_one),
            _ => PayTable::commission(to_one),
        };
        Ok(RuleSet { pays, ..self })
    }

    /// The same rules with a different end-of-shoe policy.
    pub const fn with_end_of_shoe(self, end_of_shoe: EndOfShoe) -> RuleSet {
        RuleSet { end_of_shoe, ..self }
    }

    /// The same rules with burning on or off.
    pub const fn with_burn(self, burn: Burn) -> RuleSet {
        RuleSet { burn, ..self }
    }
}
