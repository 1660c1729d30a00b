//! Sound effects on the SID without interrupts: [`play`] starts an effect at once and the
//! game's frame loop calls [`tick`] once a frame to end notes and step multi-note effects.
//!
//! Every effect uses voice 1, so a new effect simply replaces the one playing. An effect
//! is a short list of steps (a frequency, a waveform and a length in frames); each step
//! opens the gate and its end closes it, so the release of the envelope fades it out.
//! Frequencies are for the PAL clock (985,248 Hz; NTSC plays them 4% higher).

use crate::global::Global;
use crate::hw::Reg8;

/// The sound effects of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// A card dealt: a short flick of noise.
    Card,
    /// A win: a rising arpeggio.
    Win,
    /// A loss: two falling notes.
    Loss,
    /// Shuffling: bursts of noise.
    Shuffle,
    /// A chip placed: a high click.
    Chip,
    /// A key that does nothing here: a low buzz.
    Error,
}

/// One note of an effect.
#[derive(Clone, Copy)]
struct Step {
    /// The SID's frequency value.
    freq: u16,
    /// The control register without the gate bit (waveform).
    wave: u8,
    /// Frames the gate stays open.
    frames: u8,
}

const TRIANGLE: u8 = 0x10;
const SAWTOOTH: u8 = 0x20;
const PULSE: u8 = 0x40;
const NOISE: u8 = 0x80;
/// Gate: on starts attack-decay-sustain, off starts release.
const GATE: u8 = 0x01;

const fn step(freq: u16, wave: u8, frames: u8) -> Step {
    Step { freq, wave, frames }
}

/// A silent step (the gate stays closed), for the gaps between noise bursts.
const fn rest(frames: u8) -> Step {
    Step { freq: 0, wave: 0, frames }
}

// Notes for PAL: Hz * 16,777,216 / 985,248.
const C4: u16 = 4455;
const G4: u16 = 6675;
const C5: u16 = 8911;
const E5: u16 = 11227;
const G5: u16 = 13351;
const C6: u16 = 17822;
const C7: u16 = 35645;
const A2: u16 = 1873;

const CARD: [Step; 1] = [step(0x6000, NOISE, 2)];
const WIN: [Step; 4] = [step(C5, PULSE, 4), step(E5, PULSE, 4), step(G5, PULSE, 4), step(C6, PULSE, 10)];
const LOSS: [Step; 2] = [step(G4, SAWTOOTH, 8), step(C4, SAWTOOTH, 16)];
const SHUFFLE: [Step; 6] =
    [step(0x3000, NOISE, 2), rest(2), step(0x3800, NOISE, 2), rest(2), step(0x3000, NOISE, 2), rest(1)];
const CHIP: [Step; 1] = [step(C7, TRIANGLE, 2)];
const ERROR: [Step; 1] = [step(A2, PULSE, 12)];

/// The steps and envelope (attack-decay, sustain-release) of each effect.
fn recipe(effect: Effect) -> (&'static [Step], u8, u8) {
    match effect {
        Effect::Card => (&CARD, 0x00, 0x84),
        Effect::Win => (&WIN, 0x08, 0xA6),
        Effect::Loss => (&LOSS, 0x08, 0xA8),
        Effect::Shuffle => (&SHUFFLE, 0x00, 0x83),
        Effect::Chip => (&CHIP, 0x00, 0x85),
        Effect::Error => (&ERROR, 0x08, 0xA6),
    }
}

const SID: u16 = c128_map::io::SID;
const FREQ_LO: Reg8 = Reg8::at(SID);
const FREQ_HI: Reg8 = Reg8::at(SID + 1);
const PULSE_LO: Reg8 = Reg8::at(SID + 2);
const PULSE_HI: Reg8 = Reg8::at(SID + 3);
const CONTROL: Reg8 = Reg8::at(SID + 4);
const ATTACK_DECAY: Reg8 = Reg8::at(SID + 5);
const SUSTAIN_RELEASE: Reg8 = Reg8::at(SID + 6);
const VOLUME: Reg8 = Reg8::at(SID + 0x18);

/// The effect playing: its steps, the step now, frames left of it, the waveform now.
#[derive(Clone, Copy)]
struct Playing {
    steps: &'static [Step],
    index: u8,
    frames_left: u8,
    wave: u8,
}

static PLAYING: Global<Option<Playing>> = Global::new(None);

/// Opens the gate for step `index` (a rest leaves it closed).
fn start(steps: &'static [Step], index: u8) -> Playing {
    let s = steps[usize::from(index)];
    if s.wave != 0 {
        FREQ_LO.write(s.freq as u8);
        FREQ_HI.write((s.freq >> 8) as u8);
        CONTROL.write(s.wave | GATE);
    }
    Playing { steps, index, frames_left: s.frames, wave: s.wave }
}

/// Starts `effect` now, replacing whatever was playing; never waits.
pub fn play(effect: Effect) {
    let (steps, ad, sr) = recipe(effect);
    // Close the gate first, so the envelope starts again from its attack.
    CONTROL.write(0);
    VOLUME.write(0x0F);
    ATTACK_DECAY.write(ad);
    SUSTAIN_RELEASE.write(sr);
    PULSE_LO.write(0x00);
    PULSE_HI.write(0x08);
    PLAYING.set(Some(start(steps, 0)));
}

/// Advances the effect playing by one frame: closes the gate at the end of each step and
/// starts the next. Call it once a frame.
pub fn tick() {
    let Some(mut p) = PLAYING.get() else { return };
    if p.frames_left > 1 {
        p.frames_left -= 1;
        PLAYING.set(Some(p));
        return;
    }
    if p.wave != 0 {
        CONTROL.write(p.wave);
    }
    let next = p.index + 1;
    PLAYING.set(if usize::from(next) < p.steps.len() { Some(start(p.steps, next)) } else { None });
}

/// Stops any effect at once: gate closed, volume off.
pub fn silence() {
    CONTROL.write(0);
    VOLUME.write(0);
    PLAYING.set(None);
}

/// Whether an effect is still stepping (its last note may still be fading out).
pub fn busy() -> bool {
    PLAYING.get().is_some()
}
