// Placeholder until the solver writes this file.
/// Loadstar, by decks (index 0 = one deck).
pub static LOADSTAR: [Solution; 8] = [PLACEHOLDER; 8];
/// Chemin de fer, by decks (index 0 = one deck).
pub static CHEMIN_DE_FER: [Solution; 8] = [PLACEHOLDER; 8];
const PLACEHOLDER: Solution = Solution { player_draws_on_five: Chance::ALWAYS, banker_draws: [0; 8], banker_mixes: None };
