//! House edges: what each bet the rules allow costs the bettor per unit staked per coup.

use crate::exact::Odds;
use bac_rules::{PayTable, Spot};

/// The house edge of a stake on `spot` (a fraction: 0.0106 is 1.06%), or `None` if the
/// table takes no bets there.
///
/// A Sahara Sands tie stake that stays on the table is counted coup by coup, as a stake
/// played again: per coup it wins 8 or loses 1, the same as an ordinary 8:1 tie bet.
pub fn house_edge(pays: &PayTable, odds: &Odds, spot: Spot) -> Option<f64> {
    let ratio = |o: bac_rules::Odds| f64::from(o.win) / f64::from(o.per);
    let expected = match spot {
        Spot::Player => ratio(pays.player?) * odds.player - odds.banker,
        Spot::Banker => {
            let banker = ratio(pays.banker?);
            let six = pays.banker_on_six.map_or(banker, ratio);
            banker * (odds.banker - odds.banker_six) + six * odds.banker_six - odds.player
        }
        Spot::Tie => ratio(pays.tie?) * odds.tie - (1.0 - odds.tie),
    };
    Some(-expected)
}

/// The name of a spot in reports and JSON.
pub fn spot_name(spot: Spot) -> &'static str {
    match spot {
        Spot::Player => "player",
        Spot::Banker => "banker",
        Spot::Tie => "tie",
    }
}
