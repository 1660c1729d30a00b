//! The saved game: the settings, every seat's name and bankroll, a Sahara tie stake that
//! stays on the table and the Loadstar house bank, in a SEQ file with a checksum, so that
//! money survives quitting (as in the Loadstar original) and a damaged file is recognised
//! instead of believed.
//!
//! Layout (little-endian): `BAC1`, format version, the eight settings bytes, the seat
//! count, the house bank (a byte, 1 when kept, then its cents: 0 means a fresh bank), then
//! per seat its kind (0 person, 1 computer), its name ([`NAME_LEN`] bytes, space padded,
//! then its length), its bankroll in cents and the tie stake it has on the table in cents;
//! last a CRC-16 of everything before it. Version 1 (before the house and the tie stake)
//! still loads, with a fresh bank and no stake on the table.

use bac_rules::{Money, Preset, SeatKind};

use crate::settings::{MAX_COMPUTERS, MAX_HUMANS, NAME_LEN, Name, Settings};
use crate::text::Lang;

/// The file's name on the disk.
pub const FILE: &[u8] = b"BAC SAVE";
/// The new file, written in full before the old one is scratched.
pub const NEW_FILE: &[u8] = b"BAC SAVE.NEW";
/// Most seats a save holds.
pub const MAX_SAVED_SEATS: usize = (MAX_HUMANS + MAX_COMPUTERS) as usize;
const MAGIC: &[u8; 4] = b"BAC1";
const VERSION: u8 = 2;
/// The format before the house bank and the tie stake.
const VERSION_1: u8 = 1;
const SEAT_BYTES_1: usize = 1 + NAME_LEN + 1 + 4;
const SEAT_BYTES: usize = SEAT_BYTES_1 + 4;
const HEADER_BYTES_1: usize = 4 + 1 + 8 + 1;
const HEADER_BYTES: usize = HEADER_BYTES_1 + 1 + 4;
/// Largest file: header, seats, checksum.
pub const MAX_BYTES: usize = HEADER_BYTES + MAX_SAVED_SEATS * SEAT_BYTES + 2;

/// One seat as saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedSeat {
    /// Person or computer.
    pub kind: SeatKind,
    /// The name shown.
    pub name: Name,
    /// Its bankroll.
    pub bankroll: Money,
    /// A tie stake that stays on the table for the next coup (seed 002), not in the
    /// bankroll.
    pub tie_stake: Money,
}

impl SavedSeat {
    /// An empty seat.
    pub const BLANK: SavedSeat =
        SavedSeat { kind: SeatKind::Human, name: Name::EMPTY, bankroll: Money::ZERO, tie_stake: Money::ZERO };

    /// Puts a tie stake that stayed back in the bankroll: the seat has left the table that
    /// kept it (see `App::keep_bankrolls`).
    pub fn take_back_tie_stake(&mut self) {
        if let Some(all) = self.bankroll.checked_add(self.tie_stake) {
            self.bankroll = all;
            self.tie_stake = Money::ZERO;
        }
    }

    /// Whether the seat can play a coup at a table whose smallest stake is `min`: it can
    /// stake that, or has a tie stake that stays on the table.
    pub fn can_play(&self, min: Money) -> bool {
        self.bankroll >= min || self.tie_stake > Money::ZERO
    }
}

/// A whole save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The options in force.
    pub settings: Settings,
    /// Seats in table order; `count` are used.
    pub seats: [SavedSeat; MAX_SAVED_SEATS],
    /// Seats used.
    pub count: u8,
    /// The Loadstar house bank as it was left, if it was played.
    pub house: Option<Money>,
}

/// Why a save file was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// Shorter than its own header says.
    Truncated,
    /// Not a bac128 save.
    NotASave,
    /// A format this program does not know.
    Version(u8),
    /// The checksum does not match: the file is damaged.
    Checksum,
    /// A field holds a value no game writes.
    Field,
}

/// CRC-16/CCITT-FALSE, bit by bit: it catches every change within 16 bits and every
/// dropped byte, and needs no table (256 words the C128 would rather keep).
fn crc16(data: &[u8]) -> u16 {
    let mut crc = 0xFFFFu16;
    for &byte in data {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

fn preset_code(p: Preset) -> u8 {
    Preset::ALL.iter().position(|&q| q == p).unwrap_or(0) as u8
}

/// Writes `saved` into `out`; returns the length used. What it writes, [`decode`] takes:
/// a tie stake at a game that keeps none (which the game never leaves in a seat) is written
/// in the bankroll, not as a field the reader would refuse.
pub fn encode(saved: &Saved, out: &mut [u8; MAX_BYTES]) -> usize {
    let s = &saved.settings;
    let stays = s.rules().pays.tie_stake_stays;
    let count = usize::from(saved.count).min(MAX_SAVED_SEATS);
    out[..4].copy_from_slice(MAGIC);
    out[4] = VERSION;
    out[5..13].copy_from_slice(&[
        s.lang as u8,
        u8::from(s.sound),
        s.columns,
        preset_code(s.preset),
        s.decks,
        s.tie_pays,
        s.humans,
        s.computers,
    ]);
    out[13] = count as u8;
    out[14] = u8::from(saved.house.is_some());
    out[15..19].copy_from_slice(&saved.house.unwrap_or(Money::ZERO).in_cents().to_le_bytes());
    let mut at = HEADER_BYTES;
    for seat in &saved.seats[..count] {
        let mut seat = *seat;
        if !stays {
            seat.take_back_tie_stake();
        }
        out[at] = u8::from(seat.kind == SeatKind::Computer);
        out[at + 1..at + 1 + NAME_LEN].fill(b' ');
        let name = seat.name.as_bytes();
        out[at + 1..at + 1 + name.len()].copy_from_slice(name);
        out[at + 1 + NAME_LEN] = name.len() as u8;
        out[at + 2 + NAME_LEN..at + SEAT_BYTES_1].copy_from_slice(&seat.bankroll.in_cents().to_le_bytes());
        out[at + SEAT_BYTES_1..at + SEAT_BYTES].copy_from_slice(&seat.tie_stake.in_cents().to_le_bytes());
        at += SEAT_BYTES;
    }
    let sum = crc16(&out[..at]);
    out[at..at + 2].copy_from_slice(&sum.to_le_bytes());
    at + 2
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Reads a save, checking everything before trusting anything.
pub fn decode(bytes: &[u8]) -> Result<Saved, SaveError> {
    if bytes.len() < 4 || &bytes[..4] != MAGIC {
        return Err(SaveError::NotASave);
    }
    let (header, seat_bytes) = match bytes.get(4) {
        Some(&VERSION) => (HEADER_BYTES, SEAT_BYTES),
        Some(&VERSION_1) => (HEADER_BYTES_1, SEAT_BYTES_1),
        Some(&other) => return Err(SaveError::Version(other)),
        None => return Err(SaveError::Truncated),
    };
    if bytes.len() < header + 2 {
        return Err(SaveError::Truncated);
    }
    let count = usize::from(bytes[13]);
    if count > MAX_SAVED_SEATS {
        return Err(SaveError::Field);
    }
    let end = header + count * seat_bytes;
    if bytes.len() < end + 2 {
        return Err(SaveError::Truncated);
    }
    if u16::from_le_bytes([bytes[end], bytes[end + 1]]) != crc16(&bytes[..end]) {
        return Err(SaveError::Checksum);
    }
    let house = match (header == HEADER_BYTES).then(|| bytes[14]) {
        None | Some(0) => None,
        Some(1) => Some(Money::cents(u32_at(bytes, 15))),
        Some(_) => return Err(SaveError::Field),
    };
    let f = &bytes[5..13];
    let lang = match f[0] {
        0 => Lang::English,
        1 => Lang::French,
        _ => return Err(SaveError::Field),
    };
    let preset = *Preset::ALL.get(usize::from(f[3])).ok_or(SaveError::Field)?;
    let mut settings = Settings {
        lang,
        sound: f[1] != 0,
        columns: f[2],
        preset,
        decks: f[4],
        tie_pays: f[5],
        humans: f[6],
        computers: f[7],
    };
    let before = settings;
    settings.normalise();
    if settings != before || usize::from(settings.humans + settings.computers) != count {
        return Err(SaveError::Field);
    }
    let mut seats = [SavedSeat::BLANK; MAX_SAVED_SEATS];
    for (i, seat) in seats.iter_mut().take(count).enumerate() {
        let at = header + i * seat_bytes;
        let kind = match bytes[at] {
            0 => SeatKind::Human,
            1 => SeatKind::Computer,
            _ => return Err(SaveError::Field),
        };
        let len = usize::from(bytes[at + 1 + NAME_LEN]);
        if len > NAME_LEN {
            return Err(SaveError::Field);
        }
        let name = Name::new(&bytes[at + 1..at + 1 + len]);
        if name.as_bytes().len() != len {
            return Err(SaveError::Field);
        }
        let bankroll = Money::cents(u32_at(bytes, at + 2 + NAME_LEN));
        let tie_stake =
            if seat_bytes == SEAT_BYTES { Money::cents(u32_at(bytes, at + SEAT_BYTES_1)) } else { Money::ZERO };
        // A stake only a Sahara table keeps, in whole units as every stake is.
        if tie_stake != Money::ZERO && (!settings.rules().pays.tie_stake_stays || !tie_stake.is_whole()) {
            return Err(SaveError::Field);
        }
        *seat = SavedSeat { kind, name, bankroll, tie_stake };
    }
    Ok(Saved { settings, seats, count: count as u8, house })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Saved {
        let mut settings = Settings::new(80);
        settings.preset = Preset::ChemDeFer;
        settings.humans = 2;
        settings.computers = 1;
        settings.decks = 6;
        settings.lang = Lang::French;
        let mut seats = [SavedSeat::BLANK; MAX_SAVED_SEATS];
        let seat =
            |kind, name: &[u8], bankroll| SavedSeat { kind, name: Name::new(name), bankroll, tie_stake: Money::ZERO };
        seats[0] = seat(SeatKind::Human, b"ADA", Money::cents(123_456));
        seats[1] = seat(SeatKind::Human, b"BOB 2", Money::units(9));
        seats[2] = seat(SeatKind::Computer, b"MARCEL", Money::MAX);
        Saved { settings, seats, count: 3, house: None }
    }

    #[test]
    fn round_trip() {
        let saved = sample();
        let mut buf = [0u8; MAX_BYTES];
        let n = encode(&saved, &mut buf);
        assert_eq!(n, HEADER_BYTES + 3 * SEAT_BYTES + 2);
        assert_eq!(decode(&buf[..n]), Ok(saved));
    }

    /// A Loadstar bank and a Sahara tie stake come back as saved.
    #[test]
    fn the_house_bank_and_a_tie_stake_round_trip() {
        let mut saved = sample();
        saved.settings.preset = Preset::Loadstar;
        saved.settings.computers = 0;
        saved.settings.decks = 4;
        saved.count = 2;
        saved.seats[2] = SavedSeat::BLANK;
        saved.house = Some(Money::units(999_900));
        let mut buf = [0u8; MAX_BYTES];
        let n = encode(&saved, &mut buf);
        assert_eq!(decode(&buf[..n]), Ok(saved));
        saved.settings.preset = Preset::Sahara;
        saved.settings.decks = 8;
        saved.seats[1].tie_stake = Money::units(25);
        let n = encode(&saved, &mut buf);
        assert_eq!(decode(&buf[..n]), Ok(saved));
        // A tie stake at a table that has none is a field no game writes: a seat left with
        // one is written with it in the bankroll (issue 31: such a save was called damaged)...
        let sahara = buf;
        saved.settings.preset = Preset::Loadstar;
        saved.settings.decks = 4;
        let n = encode(&saved, &mut buf);
        let back = decode(&buf[..n]).expect("the save loads");
        assert_eq!(back.seats[1].tie_stake, Money::ZERO);
        assert_eq!(back.seats[1].bankroll, saved.seats[1].bankroll.checked_add(Money::units(25)).unwrap());
        // ... and a file that holds one anyway is refused.
        let mut bad = sahara;
        bad[5 + 3] = preset_code(Preset::Loadstar);
        bad[5 + 4] = 4;
        let end = n - 2;
        let sum = crc16(&bad[..end]);
        bad[end..n].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(decode(&bad[..n]), Err(SaveError::Field));
    }

    /// A save of the first format (before the house and the tie stake) still loads: a
    /// fresh bank, nothing on the table.
    #[test]
    fn a_version_1_save_still_loads() {
        let saved = sample();
        let mut v1 = b"BAC1\x01".to_vec();
        let s = &saved.settings;
        v1.extend([s.lang as u8, u8::from(s.sound), s.columns, 4, s.decks, s.tie_pays, s.humans, s.computers]);
        v1.push(saved.count);
        for seat in &saved.seats[..3] {
            v1.push(u8::from(seat.kind == SeatKind::Computer));
            let mut name = [b' '; NAME_LEN];
            name[..seat.name.as_bytes().len()].copy_from_slice(seat.name.as_bytes());
            v1.extend(name);
            v1.push(seat.name.as_bytes().len() as u8);
            v1.extend(seat.bankroll.in_cents().to_le_bytes());
        }
        v1.extend(crc16(&v1).to_le_bytes());
        assert_eq!(decode(&v1), Ok(saved));
        v1[4] = 3;
        assert_eq!(decode(&v1), Err(SaveError::Version(3)));
    }

    #[test]
    fn every_single_byte_change_or_cut_is_refused() {
        let mut buf = [0u8; MAX_BYTES];
        let n = encode(&sample(), &mut buf);
        for at in 0..n {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = buf;
                bad[at] ^= flip;
                assert!(decode(&bad[..n]).is_err(), "byte {at} ^ {flip:#x} accepted");
            }
        }
        for len in 0..n {
            assert!(decode(&buf[..len]).is_err(), "cut at {len} accepted");
        }
        assert_eq!(decode(b"HELLO WORLD"), Err(SaveError::NotASave));
    }
}
