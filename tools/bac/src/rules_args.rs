//! The options that pick a rule set, shared by `analyze`, `sim` and `play`.

use crate::bad_input::bad_input;
use anyhow::Result;
use bac_rules::{Builtin, DrawRules, Preset, RuleSet, optimal};
use clap::{Args, ValueEnum};

/// A preset by its command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesName {
    /// Punto Banco, 5% commission on banker wins (seeds 000, 001).
    PuntoBanco,
    /// No commission; a banker win with 6 pays half (seed 000).
    NoCommission,
    /// Sahara Sands: no banker bets, tie stakes stay (seed 002).
    Sahara,
    /// Loadstar 128: you hold the Player hand against the house (seed 003).
    Loadstar,
    /// Chemin de fer: the bank rotates among the seats (seed 004).
    CheminDeFer,
}

impl RulesName {
    /// The rules crate's preset.
    pub fn preset(self) -> Preset {
        match self {
            RulesName::PuntoBanco => Preset::PuntoBanco,
            RulesName::NoCommission => Preset::NoCommission,
            RulesName::Sahara => Preset::Sahara,
            RulesName::Loadstar => Preset::Loadstar,
            RulesName::CheminDeFer => Preset::ChemDeFer,
        }
    }
}

/// Who answers the choices the rules leave open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyName {
    /// The casino's custom: the Punto Banco tableau.
    Casino,
    /// Always draw when free to.
    AlwaysDraw,
    /// Always stand when free to.
    AlwaysStand,
    /// The game-theoretic solution (`bac analyze` computes it).
    Optimal,
}

/// `--rules`, `--decks`, `--tie-pays`, `--strategy`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// The rule set.
    #[arg(long, value_enum, default_value = "punto-banco")]
    pub rules: RulesName,
    /// Decks in the shoe (default: the preset's own).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub decks: Option<u8>,
    /// What a tie pays, to one (8 or 9); Punto Banco and no-commission only.
    #[arg(long, value_parser = clap::value_parser!(u16).range(8..=9))]
    pub tie_pays: Option<u16>,
    /// Who answers the free choices (default: optimal where the rules give choices).
    #[arg(long, value_enum)]
    pub strategy: Option<StrategyName>,
}

impl RulesArgs {
    /// The rule set these options describe.
    pub fn rule_set(&self) -> Result<RuleSet> {
        let mut rules = RuleSet::preset(self.rules.preset());
        if let Some(decks) = self.decks {
            rules = match rules.with_decks(decks) {
                Ok(rules) => rules,
                Err(e) => return bad_input(format!("--decks {decks}: {e:?}")),
            };
        }
        if let Some(tie) = self.tie_pays {
            rules = match rules.with_tie_pays(tie) {
                Ok(rules) => rules,
                Err(_) => {
                    return bad_input(format!("--tie-pays: {} has no choice of tie odds", self.rules.preset().name()));
                }
            };
        }
        Ok(rules)
    }

    /// The strategy, defaulting to the optimal one where the rules leave choices.
    pub fn strategy(&self, rules: &RuleSet) -> (StrategyName, Builtin) {
        let name = self.strategy.unwrap_or(if rules.draw == DrawRules::PuntoBanco {
            StrategyName::Casino
        } else {
            StrategyName::Optimal
        });
        let builtin = match name {
            StrategyName::Casino => Builtin::Casino,
            StrategyName::AlwaysDraw => Builtin::AlwaysDraw,
            StrategyName::AlwaysStand => Builtin::AlwaysStand,
            StrategyName::Optimal => match optimal::solution(rules.draw, rules.decks) {
                Some(solution) => Builtin::Optimal(solution),
                None => Builtin::Casino,
            },
        };
        (name, builtin)
    }
}

/// The strategy's command-line name.
pub fn strategy_label(name: StrategyName) -> &'static str {
    match name {
        StrategyName::Casino => "casino",
        StrategyName::AlwaysDraw => "always-draw",
        StrategyName::AlwaysStand => "always-stand",
        StrategyName::Optimal => "optimal",
    }
}
