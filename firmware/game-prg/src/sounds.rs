//! The game's sound effects, played by the runtime's SID player (`c128_rt::sound`): each
//! `Sound` the game asks for is a few notes with an envelope. Frequencies are for the PAL
//! clock (985,248 Hz: Hz * 16,777,216 / 985,248; NTSC plays them 4% higher).

use bac_game::platform::Sound;
use c128_rt::sound::wave::{NOISE, PULSE, SAWTOOTH, TRIANGLE};
use c128_rt::sound::{Effect, Step};

const C4: u16 = 4455;
const G4: u16 = 6675;
const C5: u16 = 8911;
const E5: u16 = 11227;
const G5: u16 = 13351;
const C6: u16 = 17822;
const C7: u16 = 35645;
const A2: u16 = 1873;

/// A card dealt: a short flick of noise.
static CARD: Effect = Effect { steps: &[Step::note(0x6000, NOISE, 2)], attack_decay: 0x00, sustain_release: 0x84 };
/// A win: a rising arpeggio.
static WIN: Effect = Effect {
    steps: &[Step::note(C5, PULSE, 4), Step::note(E5, PULSE, 4), Step::note(G5, PULSE, 4), Step::note(C6, PULSE, 10)],
    attack_decay: 0x08,
    sustain_release: 0xA6,
};
/// A loss: two falling notes.
static LOSS: Effect = Effect {
    steps: &[Step::note(G4, SAWTOOTH, 8), Step::note(C4, SAWTOOTH, 16)],
    attack_decay: 0x08,
    sustain_release: 0xA8,
};
/// Shuffling: bursts of noise.
static SHUFFLE: Effect = Effect {
    steps: &[
        Step::note(0x3000, NOISE, 2),
        Step::rest(2),
        Step::note(0x3800, NOISE, 2),
        Step::rest(2),
        Step::note(0x3000, NOISE, 2),
        Step::rest(1),
    ],
    attack_decay: 0x00,
    sustain_release: 0x83,
};
/// A chip placed: a high click.
static CHIP: Effect = Effect { steps: &[Step::note(C7, TRIANGLE, 2)], attack_decay: 0x00, sustain_release: 0x85 };
/// A key that does nothing here: a low buzz.
static ERROR: Effect = Effect { steps: &[Step::note(A2, PULSE, 12)], attack_decay: 0x08, sustain_release: 0xA6 };

/// The effect that plays `sound`.
pub fn effect(sound: Sound) -> &'static Effect {
    match sound {
        Sound::Card => &CARD,
        Sound::Win => &WIN,
        Sound::Loss => &LOSS,
        Sound::Shuffle => &SHUFFLE,
        Sound::Chip => &CHIP,
        Sound::Error => &ERROR,
    }
}
