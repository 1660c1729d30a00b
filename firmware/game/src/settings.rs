//! The choices made on the options screen, and the rule set they give.

use bac_rules::{Preset, RuleSet};

use crate::text::Lang;

/// Longest player name, in characters.
pub const NAME_LEN: usize = 10;
/// People at the keyboard (hot seat).
pub const MAX_HUMANS: u8 = 4;
/// Computer players, at Chemin de fer only.
pub const MAX_COMPUTERS: u8 = 2;

/// A player's name: capitals, digits and spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name {
    bytes: [u8; NAME_LEN],
    len: u8,
}

impl Name {
    /// An empty name.
    pub const EMPTY: Name = Name { bytes: [b' '; NAME_LEN], len: 0 };

    /// A name from text; characters a name may not hold are dropped, the rest cut at
    /// [`NAME_LEN`].
    pub fn new(text: &[u8]) -> Name {
        let mut name = Name::EMPTY;
        for &c in text {
            name.push(c);
        }
        name
    }

    /// Whether `c` may be part of a name.
    pub fn allowed(c: u8) -> bool {
        c.is_ascii_uppercase() || c.is_ascii_digit() || c == b' ' || c == b'-' || c == b'.'
    }

    /// Appends a character; false when it is not allowed or the name is full.
    pub fn push(&mut self, c: u8) -> bool {
        let c = c.to_ascii_uppercase();
        if !Name::allowed(c) || usize::from(self.len) == NAME_LEN {
            return false;
        }
        self.bytes[usize::from(self.len)] = c;
        self.len += 1;
        true
    }

    /// Removes the last character.
    pub fn pop(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            self.bytes[usize::from(self.len)] = b' ';
        }
    }

    /// The characters.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// Everything the options screen sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The language of every message.
    pub lang: Lang,
    /// Sound effects on.
    pub sound: bool,
    /// 40 or 80 columns.
    pub columns: u8,
    /// The rule set.
    pub preset: Preset,
    /// Decks in the shoe.
    pub decks: u8,
    /// What a tie pays, to one (Punto Banco with or without commission).
    pub tie_pays: u8,
    /// People at the table.
    pub humans: u8,
    /// Computer players (Chemin de fer).
    pub computers: u8,
}

impl Settings {
    /// The choices at power-on: the Loadstar original's game, in English.
    pub const fn new(columns: u8) -> Settings {
        Settings {
            lang: Lang::English,
            sound: true,
            columns,
            preset: Preset::Loadstar,
            decks: 4,
            tie_pays: 8,
            humans: 1,
            computers: 0,
        }
    }

    /// Whether the tie's odds are a choice in this game.
    pub fn tie_choice(&self) -> bool {
        matches!(self.preset, Preset::PuntoBanco | Preset::NoCommission)
    }

    /// Whether computer players can sit.
    pub fn computers_allowed(&self) -> bool {
        self.preset == Preset::ChemDeFer
    }

    /// Makes the other fields agree with the preset: decks within its range, the tie at
    /// 8:1 where it is fixed, enough players for Chemin de fer.
    pub fn normalise(&mut self) {
        let (low, high) = self.preset.customary_decks();
        self.decks = self.decks.clamp(low, high);
        if !self.tie_choice() {
            self.tie_pays = 8;
        }
        self.tie_pays = self.tie_pays.clamp(8, 9);
        self.humans = self.humans.clamp(1, MAX_HUMANS);
        if self.computers_allowed() {
            self.computers = self.computers.min(MAX_COMPUTERS);
            if self.humans + self.computers < 2 {
                self.computers = 1;
            }
        } else {
            self.computers = 0;
        }
        if self.columns != 40 {
            self.columns = 80;
        }
    }

    /// The rules these settings give.
    pub fn rules(&self) -> RuleSet {
        // Looked up, not built: `RuleSet::preset` evaluated at run time costs the C128
        // well over a kilobyte of code; the table costs five rule sets of data.
        static PRESETS: [RuleSet; 5] = [
            RuleSet::preset(Preset::PuntoBanco),
            RuleSet::preset(Preset::NoCommission),
            RuleSet::preset(Preset::Sahara),
            RuleSet::preset(Preset::Loadstar),
            RuleSet::preset(Preset::ChemDeFer),
        ];
        let rules = *PRESETS.iter().find(|r| r.preset == self.preset).unwrap_or(&PRESETS[0]);
        let rules = rules.with_decks(self.decks).unwrap_or(rules);
        if self.tie_choice() { rules.with_tie_pays(u16::from(self.tie_pays)).unwrap_or(rules) } else { rules }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_what_a_name_may_hold() {
        let mut n = Name::new(b"ann-marie o'neil");
        assert_eq!(n.as_bytes(), b"ANN-MARIE ");
        assert!(!n.push(b'X'));
        n.pop();
        n.pop();
        assert_eq!(n.as_bytes(), b"ANN-MARI");
        assert!(!Name::EMPTY.as_bytes().iter().any(|_| true));
    }

    #[test]
    fn normalising_respects_each_preset() {
        for preset in Preset::ALL {
            let mut s = Settings { preset, decks: 99, tie_pays: 9, humans: 0, computers: 9, ..Settings::new(40) };
            s.normalise();
            let (low, high) = preset.customary_decks();
            assert!((low..=high).contains(&s.decks), "{preset:?}");
            assert_eq!(s.rules().decks, s.decks);
            assert_eq!(s.tie_pays == 9, s.tie_choice(), "{preset:?}");
            assert!(s.humans >= 1);
            assert_eq!(s.computers > 0, preset == Preset::ChemDeFer);
        }
    }
}
