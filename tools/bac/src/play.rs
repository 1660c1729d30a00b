//! `bac play`: Baccarat at the terminal, on the rules core, one line per command.
//!
//! Until the C128 game exists this is how a person plays bac128's rules; it drives the same
//! `Table` state machine the game will, so what it shows is what the C128 will deal.

use crate::rules_args::RulesArgs;
use anyhow::{Result, bail};
use bac_rules::{
    Asker, BetResult, Builtin, Card, Decision, Event, Money, Preset, Question, SeatId, SeatKind, Side, Spot, Strategy,
    Suit, Table, TableError, TableStep, Winner, optimal,
};
use clap::Args;
use std::io::{BufRead, Write};

/// `bac play` options.
#[derive(Args, Debug)]
#[command(after_help = "\
With FILE (a .prg or a .d81) the built-in C128 runs it in the terminal: keys go to the C128
keyboard (Esc is RUN/STOP, F1-F8 the function keys), Ctrl+Q or F12 quits. Without FILE you
play at the terminal on the rules core, with the --rules options; the C128 game will take
its place when its disk can be built.")]
pub struct PlayArgs {
    /// A .prg or .d81 to run in the built-in C128.
    file: Option<std::path::PathBuf>,
    /// Show the 40-column (VIC-IIe) screen.
    #[arg(long = "40", conflicts_with = "eighty")]
    forty: bool,
    /// Start with the 40/80 key down and show the 80-column (VDC) screen.
    #[arg(long = "80")]
    eighty: bool,
    #[command(flatten)]
    rules: RulesArgs,
    /// The shuffle's seed (default: from the clock).
    #[arg(long)]
    seed: Option<u32>,
}

const HELP: &str = "\
commands:  p N  bet N on Player     b N  bet N on Banker     t N  bet N on a tie
           c    take your bets back d    deal                q    quit
Chemin de fer:  bank N  put up the bank when it is yours;  banco  match the whole bank";

/// Runs `bac play`: a file in the built-in C128, or the terminal game on standard input and
/// output.
pub fn run(args: PlayArgs) -> Result<()> {
    if let Some(file) = &args.file {
        return play_file(file, &args);
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    play(&args, stdin.lock(), &mut out)
}

fn card_text(card: Card) -> String {
    let suit = match card.suit() {
        Suit::Clubs => '♣',
        Suit::Diamonds => '♦',
        Suit::Hearts => '♥',
        Suit::Spades => '♠',
    };
    format!("{}{suit}", char::from(card.rank_char()))
}

fn error_text(error: TableError) -> String {
    match error {
        TableError::SpotClosed(spot) => format!("this table takes no bets on {spot:?}"),
        TableError::NotWholeUnits => "stakes are whole units".into(),
        TableError::BelowMinimum(m) => format!("the minimum is {m}"),
        TableError::AboveMaximum(m) => format!("the maximum on one spot is {m}"),
        TableError::NotEnoughMoney(m) => format!("you have {m}"),
        TableError::BankCannotCover => "the bank cannot cover that".into(),
        TableError::NoPunters => "nobody bets against the bank".into(),
        TableError::NoBankStake => "the bank has not staked".into(),
        TableError::WrongSide => "the banker does not bet against himself".into(),
        TableError::BancoCalled => "banco was called: betting is closed".into(),
        other => format!("{other:?}"),
    }
}

/// The game loop, on any input and output (the tests script it).
pub fn play(args: &PlayArgs, input: impl BufRead, out: &mut impl Write) -> Result<()> {
    let rules = args.rules.rule_set()?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.subsec_nanos() | 1)
    });
    let mut table = Table::new(rules, seed).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let you = table.sit(SeatKind::Human, None).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let chemin = rules.preset == Preset::ChemDeFer;
    let mut house = optimal::solution(rules.draw, rules.decks).map_or(Builtin::Casino, Builtin::Optimal);
    if chemin {
        for _ in 0..2 {
            table.sit(SeatKind::Computer, None).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        }
        table.draw_for_bank(&mut |e| show_event(out, e, you)).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    }
    writeln!(
        out,
        "bac128: {}, {} decks, seed {seed}. You have {}.",
        rules.preset.name(),
        rules.decks,
        rules.starting_bankroll
    )?;
    writeln!(out, "{HELP}")?;
    let mut lines = input.lines();
    loop {
        if chemin {
            computers_bet(&mut table, you, out)?;
        }
        write!(out, "> ")?;
        out.flush()?;
        let Some(line) = lines.next() else { break };
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let amount = || -> Result<Money> {
            let Some(text) = words.get(1) else { bail!("how much? e.g. `p 10`") };
            let units: u32 = text.parse().map_err(|_| anyhow::anyhow!("`{text}` is not a whole number"))?;
            Ok(Money::units(units))
        };
        let outcome = match words.first().copied() {
            None => continue,
            Some("q" | "quit") => break,
            Some("?" | "h" | "help") => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            Some(word @ ("p" | "b" | "t")) => {
                let spot = match word {
                    "p" => Spot::Player,
                    "b" => Spot::Banker,
                    _ => Spot::Tie,
                };
                amount().and_then(|m| table.place(you, spot, m).map_err(|e| anyhow::anyhow!(error_text(e))))
            }
            Some("c") => table.clear(you).map_err(|e| anyhow::anyhow!(error_text(e))),
            Some("bank") if chemin => amount().and_then(|m| {
                if table.banker() != Some(you) {
                    bail!("the bank is not yours");
                }
                table.stake_bank(m, &mut |_| {}).map_err(|e| anyhow::anyhow!(error_text(e)))
            }),
            Some("banco") if chemin => table.banco(you, &mut |_| {}).map_err(|e| anyhow::anyhow!(error_text(e))),
            Some("d") => deal(&mut table, you, &mut house, &mut lines, out),
            Some(other) => Err(anyhow::anyhow!("unknown command `{other}` (? for help)")),
        };
        if let Err(message) = outcome {
            writeln!(out, "  {message}")?;
        }
        let bankroll = table.bankroll(you).unwrap_or(Money::ZERO);
        if bankroll == Money::ZERO && Spot::ALL.iter().all(|&s| table.stake(you, s) == Money::ZERO) {
            writeln!(out, "You are out of money. Game over.")?;
            break;
        }
    }
    writeln!(out, "You leave the table with {}.", table.bankroll(you).unwrap_or(Money::ZERO))?;
    Ok(())
}

fn seat_name(seat: SeatId, you: SeatId) -> String {
    if seat == you { "You".to_string() } else { format!("Seat {}", seat + 1) }
}

/// "You hold" but "Seat 2 holds": the subject and its verb, agreeing.
fn seat_does(seat: SeatId, you: SeatId, verb: &str) -> String {
    if seat == you { format!("You {verb}") } else { format!("Seat {} {verb}s", seat + 1) }
}

/// Chemin de fer: a computer banker stakes a tenth of its bankroll; computer punters cover
/// what is left of the bank, each up to a tenth of theirs.
fn computers_bet(table: &mut Table, you: SeatId, out: &mut impl Write) -> Result<()> {
    let Some(banker) = table.banker() else { return Ok(()) };
    if banker != you && table.bank_stake() == Money::ZERO {
        let stake = Money::units((table.bankroll(banker).unwrap_or(Money::ZERO).whole_units() / 10).max(1));
        if table.stake_bank(stake, &mut |_| {}).is_ok() {
            writeln!(out, "{} puts up a bank of {stake}.", seat_name(banker, you))?;
        }
    }
    Ok(())
}

fn computers_cover(table: &mut Table, you: SeatId) {
    let Some(banker) = table.banker() else { return };
    for seat in table.seat_ids().collect::<Vec<_>>() {
        if seat == you || seat == banker || table.kind(seat) != Some(SeatKind::Computer) {
            continue;
        }
        let covered: u32 =
            table.seat_ids().filter(|&s| s != banker).map(|s| table.stake(s, Spot::Player).whole_units()).sum();
        let open = table.bank_stake().whole_units().saturating_sub(covered);
        let budget = (table.bankroll(seat).unwrap_or(Money::ZERO).whole_units() / 10).min(open);
        if budget > 0 {
            let _ = table.place(seat, Spot::Player, Money::units(budget));
        }
    }
}

fn deal<B: BufRead>(
    table: &mut Table,
    you: SeatId,
    house: &mut Builtin,
    lines: &mut std::io::Lines<B>,
    out: &mut impl Write,
) -> Result<()> {
    if table.rules().preset == Preset::ChemDeFer {
        computers_cover(table, you);
    }
    let mut events = Vec::new();
    table.deal(&mut |e| events.push(e)).map_err(|e| anyhow::anyhow!(error_text(e)))?;
    loop {
        let step = table.step(&mut |e| events.push(e)).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        for event in events.drain(..) {
            show_event(out, event, you);
        }
        match step {
            TableStep::Card { .. } => {}
            TableStep::Ask { question, asker } => {
                let decision = if asker == Asker::Seat(you) {
                    ask(question, lines, out)?
                } else {
                    house.decide(question, table.rng())
                };
                table.answer(decision, &mut |e| events.push(e)).map_err(|e| anyhow::anyhow!("{e:?}"))?;
            }
            TableStep::Settled(_) => {
                writeln!(out, "  You have {}.", table.bankroll(you).unwrap_or(Money::ZERO))?;
                return Ok(());
            }
        }
    }
}

fn ask<B: BufRead>(question: Question, lines: &mut std::io::Lines<B>, out: &mut impl Write) -> Result<Decision> {
    let prompt = match question {
        Question::PlayerOnFive => "You hold 5. Draw a card? (y/n) ".to_string(),
        Question::Banker { total, player_third: Some(c) } => {
            format!("The bank holds {total}, the player drew a {c}. Draw? (y/n) ")
        }
        Question::Banker { total, player_third: None } => {
            format!("The bank holds {total}, the player stood. Draw? (y/n) ")
        }
    };
    loop {
        write!(out, "{prompt}")?;
        out.flush()?;
        let Some(line) = lines.next() else { bail!("input ended in the middle of a coup") };
        match line?.trim() {
            "y" | "yes" => return Ok(Decision::Draw),
            "n" | "no" => return Ok(Decision::Stand),
            _ => writeln!(out, "  y or n")?,
        }
    }
}

fn show_event(out: &mut impl Write, event: Event, you: SeatId) {
    let line = match event {
        Event::Shoe(bac_rules::ShoeNews::Shuffled) => "The shoe is shuffled.".to_string(),
        Event::Shoe(bac_rules::ShoeNews::CutCardOut) => "The cut card is out: one more coup after this.".to_string(),
        Event::Shoe(_) => return,
        Event::Card { side, card } => {
            format!("  {} gets {}", if side == Side::Player { "Player" } else { "Banker" }, card_text(card))
        }
        Event::Decided { side, decision } => {
            format!(
                "  {} {}",
                if side == Side::Player { "Player" } else { "Banker" },
                if decision == Decision::Draw { "draws" } else { "stands" }
            )
        }
        Event::Result(o) => {
            let winner = match o.winner {
                Winner::Player => "Player wins",
                Winner::Banker => "Banker wins",
                Winner::Tie => "Tie",
            };
            format!(
                "  Player {} - Banker {}: {winner}{}",
                o.player_total(),
                o.banker_total(),
                if o.natural() { " (natural)" } else { "" }
            )
        }
        Event::Settled { seat, spot, stake, result } => {
            let how = match result {
                BetResult::Won(w) => format!("wins {w}"),
                BetResult::WonAndStays(w) => format!("wins {w}, the stake stays"),
                BetResult::Lost => "loses".to_string(),
                BetResult::Push => "is returned".to_string(),
            };
            format!("  {}: {stake} on {spot:?} {how}", seat_name(seat, you))
        }
        Event::DrewForBank { seat, card } => format!("  {} {}", seat_does(seat, you, "draw"), card_text(card)),
        Event::Banker { seat } => format!("  {} the bank.", seat_does(seat, you, "hold")),
        Event::BankStake { amount } => format!("  The bank is {amount}."),
        Event::Banco { seat } => format!("  {}: Banco!", seat_name(seat, you)),
        Event::Returned { seat, amount } => format!("  {} back {amount}.", seat_does(seat, you, "take")),
        Event::HandHolder { seat } => format!("  {} the Player hand.", seat_does(seat, you, "hold")),
    };
    let _ = writeln!(out, "{line}");
}

/// Starts `file` in a fresh C128 and hands it to the terminal front end.
fn play_file(file: &std::path::Path, args: &PlayArgs) -> Result<()> {
    use crate::run_cmd::{program_of, screen_choice};
    use anyhow::Context;
    use emulator_tests::{Config, RunOptions, start};
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    // The TOD clock starts at the time of day, as after a real power-on and a clock setting,
    // so that programs seeding their generator from it differ from run to run.
    let tenths = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() / 100);
    let config =
        Config { eighty_columns: args.eighty, tod_start_tenths: (tenths % 864_000) as u64, ..Config::default() };
    let origin = file.display().to_string();
    let machine = start(program_of(file, &bytes, &origin), RunOptions { config, ..RunOptions::default() })
        .with_context(|| format!("starting {origin}"))?;
    crate::terminal::play(machine, screen_choice(args.forty, args.eighty))
}
