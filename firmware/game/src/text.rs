//! Every message the game shows, in English and in French (the Loadstar original offered
//! both). Capitals only, as the C128's upper-case character set shows them; French
//! capitals go without accents, as French typesetting allows.
//!
//! Messages shown at the table fit 40 columns with a ten-letter name in front.

use bac_rules::Preset;

/// The language of the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Lang {
    /// English.
    English = 0,
    /// French.
    French = 1,
}

macro_rules! messages {
    ($($name:ident => $en:literal, $fr:literal;)*) => {
        /// A message, looked up in the current language with [`Msg::text`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs, reason = "each variant is named for its English text, beside it in the table below")]
        pub enum Msg { $($name,)* }

        /// The messages in table order: English then French.
        const TEXTS: &[[&[u8]; 2]] = &[$([$en, $fr],)*];
    };
}

/// The longest head over a hand (`PLAYER`, `BANKER`) in any language: a hand's total goes
/// after it, so it can never touch the head, whatever the translation.
pub const HAND_HEAD_MAX: u8 = {
    let (mut max, mut lang) = (0, 0);
    while lang < 2 {
        let (p, b) = (TEXTS[Msg::Player as usize][lang].len(), TEXTS[Msg::Banker as usize][lang].len());
        max = if p > max { p } else { max };
        max = if b > max { b } else { max };
        lang += 1;
    }
    max as u8
};

messages! {
    Empty => b"", b"";
    Subtitle => b"FOR THE COMMODORE 128", b"POUR LE COMMODORE 128";
    Credit => b"WRITTEN IN RUST - BAC128", b"ECRIT EN RUST - BAC128";
    TitleContinue => b"F1  CONTINUE THE SAVED GAME", b"F1  REPRENDRE LA PARTIE";
    TitleNew => b"RETURN  NEW GAME", b"RETURN  NOUVELLE PARTIE";
    TitleHelp => b"HELP/F5  RULES AND KEYS", b"HELP/F5  REGLES ET TOUCHES";
    TitleLanguage => b"F7  EN FRANCAIS", b"F7  IN ENGLISH";
    TitleQuit => b"RUN/STOP  QUIT TO BASIC", b"RUN/STOP  RETOUR AU BASIC";
    SaveDamaged => b"SAVED GAME DAMAGED: NEW GAME", b"SAUVEGARDE ABIMEE: NOUVELLE PARTIE";
    SaveUnknown => b"UNKNOWN SAVE FILE: NEW GAME", b"SAUVEGARDE INCONNUE: NOUVELLE PARTIE";
    DiskTrouble => b"DISK ERROR: NOTHING SAVED", b"ERREUR DISQUE: RIEN SAUVE";
    WriteProtected => b"DISK WRITE PROTECTED: NOT SAVED", b"DISQUE PROTEGE: PAS SAUVE";
    DiskFull => b"DISK FULL: NOT SAVED", b"DISQUE PLEIN: PAS SAUVE";
    Saved => b"BANKROLLS SAVED", b"CAISSES SAUVEES";
    SaveRetry => b"RETURN: TRY AGAIN  STOP: QUIT UNSAVED", b"RETURN: REESSAYER  STOP: SANS SAUVER";
    Goodbye => b"THANK YOU FOR PLAYING", b"MERCI D'AVOIR JOUE";
    ReallyQuit => b"QUIT TO BASIC? Y/N", b"RETOUR AU BASIC? O/N";
    OptionsTitle => b"TABLE OPTIONS", b"OPTIONS DE LA TABLE";
    OptRules => b"RULES", b"REGLES";
    OptDecks => b"DECKS", b"JEUX";
    OptTie => b"TIE PAYS", b"EGALITE PAYEE";
    OptPlayers => b"PLAYERS", b"JOUEURS";
    OptComputers => b"COMPUTER PLAYERS", b"JOUEURS ORDINATEUR";
    OptSound => b"SOUND", b"SON";
    OptLanguage => b"LANGUAGE", b"LANGUE";
    OptScreen => b"COLUMNS", b"COLONNES";
    On => b"ON", b"OUI";
    Off => b"OFF", b"NON";
    LanguageName => b"ENGLISH", b"FRANCAIS";
    // "8 pour 1" counts the stake back (7 to 1): "contre" is "to".
    ToOne => b" TO 1", b" CONTRE 1";
    NoTieBet => b"NO TIE BET", b"PAS DE MISE";
    TieFixed => b"(FIXED)", b"(FIXE)";
    ChemOnly => b"(CHEMIN DE FER)", b"(CHEMIN DE FER)";
    OptionsKeys => b"CRSR UP/DOWN: CHOOSE  LEFT/RIGHT: CHANGE", b"HAUT/BAS: LIGNE  GAUCHE/DROITE: VALEUR";
    OptionsKeys2 => b"RETURN: PLAY  HELP: RULES  STOP: BACK", b"RETURN:JOUER  HELP:REGLES  STOP:RETOUR";
    AskName => b"NAME OF PLAYER ", b"NOM DU JOUEUR ";
    NameKeys => b"TYPE A NAME, THEN RETURN", b"TAPEZ UN NOM, PUIS RETURN";
    DefaultName => b"PLAYER", b"JOUEUR";
    PresetPuntoBanco => b"PUNTO BANCO", b"PUNTO BANCO";
    PresetNoCommission => b"NO COMMISSION", b"SANS COMMISSION";
    PresetSahara => b"SAHARA SANDS", b"SAHARA SANDS";
    PresetLoadstar => b"LOADSTAR 128", b"LOADSTAR 128";
    PresetChemDeFer => b"CHEMIN DE FER", b"CHEMIN DE FER";
    Player => b"PLAYER", b"JOUEUR";
    Banker => b"BANKER", b"BANQUE";
    Tie => b"TIE", b"EGAL";
    Punto => b"PUNTO", b"PONTE";
    Bank => b"BANK", b"BANQUE";
    Bankroll => b"BANKROLL", b"CAISSE";
    CardsLeft => b"SHOE", b"SABOT";
    Cut => b"CUT", b"COUPE";
    Naturals => b"NAT", b"NAT";
    BeadPlate => b"BEAD PLATE", b"PERLES";
    BigRoad => b"BIG ROAD", b"GRANDE ROUTE";
    BigEyeBoy => b"BIG EYE BOY", b"GRAND OEIL";
    SmallRoad => b"SMALL ROAD", b"PETITE ROUTE";
    Cockroach => b"COCKROACH", b"CAFARD";
    Chip => b"CHIP", b"JETON";
    Amount => b"SUM", b"SOMME";
    TypeAmount => b"TYPE AN AMOUNT, RETURN: ", b"TAPEZ UNE SOMME, RETURN: ";
    PlaceBets => b"YOUR BETS", b"FAITES VOS JEUX";
    StakeBank => b"STAKE THE BANK", b"FAITES LA BANQUE";
    BancoOrBet => b"BANCO OR BET", b"BANCO OU MISE";
    KeysHouse => b":BET 1-8:CHIP C:CLEAR RETURN:DEAL", b":MISE 1-8:JETON C:VIDE RETURN:DONNE";
    KeysBank => b"B:STAKE P:PASS C:CLEAR RETURN:DONE", b"B:MISE P:PASSE C:VIDE RETURN:FINI";
    KeysPunter => b"B:BANCO P:BET C:CLEAR RETURN:DONE", b"B:BANCO P:MISE C:VIDE RETURN:FINI";
    LeavePrompt => b"Y:QUIT  O:OPTIONS  N:PLAY ON", b"Q:QUITTER  O:OPTIONS  N:REJOUER";
    SpotClosed => b"NO SUCH BET IN THIS GAME", b"PAS DE TELLE MISE ICI";
    BelowMinimum => b"TABLE MINIMUM IS", b"MISE MINIMUM:";
    AboveMaximum => b"TABLE LIMIT IS", b"MISE MAXIMUM:";
    NotEnough => b"NOT ENOUGH MONEY", b"PAS ASSEZ D'ARGENT";
    Ceiling => b"A BANKROLL STOPS AT", b"UN CAPITAL S'ARRETE A";
    BankHoldsOnly => b"THE BANK HOLDS ONLY", b"LA BANQUE N'A QUE";
    BankBroken => b"YOU BROKE THE BANK!", b"VOUS AVEZ FAIT SAUTER LA BANQUE!";
    FreshBank => b"A FRESH BANK OF ", b"NOUVELLE BANQUE DE ";
    BancoCalled => b"BANCO IS CALLED: NO MORE BETS", b"BANCO: RIEN NE VA PLUS";
    WrongSide => b"NOT ON THAT SIDE", b"PAS DE CE COTE";
    StakeFirst => b"STAKE THE BANK FIRST", b"FAITES D'ABORD LA BANQUE";
    NoPunters => b"NOBODY BETS AGAINST THE BANK", b"PERSONNE NE PONTE";
    UnknownKey => b"PRESS HELP FOR THE KEYS", b"HELP POUR LES TOUCHES";
    NotNow => b"NOT NOW", b"PAS MAINTENANT";
    DrawForBank => b"DRAWING FOR THE BANK", b"TIRAGE DE LA BANQUE";
    HoldsBank => b" HOLDS THE BANK", b" TIENT LA BANQUE";
    CallsBanco => b": BANCO!", b": BANCO !";
    GetsBack => b" GETS BACK ", b" REPREND ";
    GivesUpBank => b" GIVES UP THE BANK", b" PASSE LA MAIN";
    BankShort => b"THE PUNTS FALL SHORT BY ", b"IL MANQUE AUX PONTES ";
    MakeUpKeys => b": M:MAKE IT UP  N:NO", b": M:COMPLETER  N:NON";
    MakesUp => b" MAKES UP ", b" COMPLETE DE ";
    BetsOver => b"BETS EXCEED THE BANK BY ", b"LES MISES DEPASSENT DE ";
    CoverKeys => b": C:COVER IT  R:RETURN IT", b": C:COUVRIR  R:RENDRE";
    Covers => b" COVERS ", b" COUVRE ";
    Shuffling => b"SHUFFLING THE SHOE", b"ON MELANGE LE SABOT";
    CutCardOut => b"THE CUT CARD: ONE MORE COUP", b"LA COUPE: ENCORE UN COUP";
    Replenished => b"SHOE EMPTY: DISCARDS SHUFFLED IN", b"SABOT VIDE: DEFAUSSE REMELANGEE";
    PlayerDrawsOn => b"PLAYER DRAWS ON ", b"LE JOUEUR TIRE A ";
    BankerDrawsOn => b"BANKER DRAWS ON ", b"LA BANQUE TIRE A ";
    BankerStandsOn => b"BANKER STANDS ON ", b"LA BANQUE RESTE A ";
    Against => b" AGAINST ", b" CONTRE ";
    Natural => b"NATURAL ", b"NATUREL ";
    PlayerWins => b"PLAYER WINS", b"LE JOUEUR GAGNE";
    BankerWins => b"BANKER WINS", b"LA BANQUE GAGNE";
    TieResult => b"TIE", b"EGALITE";
    YouHaveFive => b": YOU HAVE 5", b": VOUS AVEZ 5";
    BankHas => b": BANK HAS ", b": BANQUE A ";
    PlayerStood => b", PLAYER STOOD", b", JOUEUR RESTE";
    DrawOrStand => b"D: DRAW   S: STAND", b"D: TIRER   R: RESTER";
    PlayerTakes => b"THE PLAYER DRAWS", b"LE JOUEUR TIRE";
    PlayerKeeps => b"THE PLAYER STANDS", b"LE JOUEUR RESTE";
    BankerTakes => b"THE BANK DRAWS", b"LA BANQUE TIRE";
    BankerKeeps => b"THE BANK STANDS", b"LA BANQUE RESTE";
    Broke => b"NO MONEY LEFT: A NEW STAKE FOR ALL", b"PLUS D'ARGENT: NOUVELLE CAISSE";
    NextCoup => b"PRESS A KEY FOR THE NEXT COUP", b"UNE TOUCHE POUR LE COUP SUIVANT";
    SettledKeys => b"RETURN: NEW BETS   L: LAST BETS, DEAL", b"RETURN: MISER   L: LES MEMES, DONNEZ";
    SettledKeysChemin => b"RETURN: NEXT COUP", b"RETURN: COUP SUIVANT";
    NoStake => b"NO BET: RETURN AGAIN TO DEAL", b"AUCUNE MISE: RETURN POUR DONNER";
    HurryKey => b"SPACE: HURRY THE DEAL", b"ESPACE: DONNE RAPIDE";
    DrawAgain => b"A TIE FOR THE HIGHEST CARD: DRAW AGAIN", b"EGALITE: LES PREMIERS TIRENT ENCORE";
    Saving => b"SAVING...", b"SAUVEGARDE...";
    HelpMissing => b"HELP FILE NOT FOUND", b"FICHIER D'AIDE ABSENT";
    HelpKeys => b"SPACE: NEXT PAGE  UP: BACK  STOP: END", b"ESPACE: SUITE  HAUT: RETOUR  STOP: FIN";
    HelpKeysLast => b"THE END  UP: BACK  STOP: END", b"FIN  HAUT: RETOUR  STOP: FIN";
    HelpReadingBack => b"READING THE PAGE BEFORE...", b"LECTURE DE LA PAGE PRECEDENTE...";
}

impl Msg {
    /// The message in `lang`.
    pub fn text(self, lang: Lang) -> &'static [u8] {
        TEXTS[self as usize][lang as usize]
    }

    /// The name of a rule set.
    pub fn preset(p: Preset) -> Msg {
        match p {
            Preset::PuntoBanco => Msg::PresetPuntoBanco,
            Preset::NoCommission => Msg::PresetNoCommission,
            Preset::Sahara => Msg::PresetSahara,
            Preset::Loadstar => Msg::PresetLoadstar,
            Preset::ChemDeFer => Msg::PresetChemDeFer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_fits_a_40_column_line_and_uses_the_character_set() {
        for (i, pair) in TEXTS.iter().enumerate() {
            for text in pair {
                assert!(text.len() <= 40, "message {i} is {} long", text.len());
                assert!(
                    text.iter().all(|&c| crate::glyph::screen_code(c) != 0x20 || c == b' '),
                    "message {i} has a character the set lacks: {:?}",
                    core::str::from_utf8(text)
                );
            }
        }
    }

    #[test]
    fn table_prompts_fit_behind_a_full_name() {
        for msg in [Msg::PlaceBets, Msg::StakeBank, Msg::BancoOrBet, Msg::YouHaveFive] {
            for lang in [Lang::English, Lang::French] {
                assert!(10 + 2 + msg.text(lang).len() <= 40, "{msg:?} {lang:?}");
            }
        }
    }

    /// Issue 31: at 40 columns the French key lines stopped short (`C:EFFACE RETURN`, with
    /// no word for RETURN). Each key line says what every key does in both languages: as
    /// many `key:action` pairs in French as in English, on one 40-column line with the
    /// spots' letters before it where the table puts them.
    #[test]
    fn key_lines_give_every_key_its_action_in_both_languages() {
        let lines: [(&[u8], Msg); 12] = [
            (b"P B T", Msg::KeysHouse),
            (b"", Msg::KeysBank),
            (b"", Msg::KeysPunter),
            (b"", Msg::OptionsKeys),
            (b"", Msg::OptionsKeys2),
            (b"", Msg::SaveRetry),
            (b"", Msg::LeavePrompt),
            (b"", Msg::HelpKeys),
            (b"", Msg::HelpKeysLast),
            (b"", Msg::DrawOrStand),
            (b"", Msg::SettledKeys),
            (b"", Msg::MakeUpKeys),
        ];
        let pairs = |t: &[u8]| t.iter().filter(|&&c| c == b':').count();
        for (spots, msg) in lines {
            let (en, fr) = (msg.text(Lang::English), msg.text(Lang::French));
            assert_eq!(
                pairs(en),
                pairs(fr),
                "{msg:?}: {:?} against {:?}",
                core::str::from_utf8(en),
                core::str::from_utf8(fr)
            );
            for text in [en, fr] {
                assert!(spots.len() + text.len() <= 40, "{msg:?} is {} long", spots.len() + text.len());
                assert_ne!(text.last(), Some(&b':'), "{msg:?}");
            }
        }
    }
}
