//! Sound effects on the SID without interrupts: [`play`] starts an effect at once and the
//! program's frame loop calls [`tick`] once a frame to end notes and step multi-note effects.
//!
//! Every effect uses voice 1, so a new effect simply replaces the one playing. An effect
//! is a short list of steps (a frequency, a waveform and a length in frames); each step
//! opens the gate and its end closes it, so the release of the envelope fades it out.
//! Frequencies are for the PAL clock (985,248 Hz; NTSC plays them 4% higher).

use crate::global::Global;
use crate::hw::Reg8;

/// One note of an effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The SID's frequency value (PAL: Hz * 16,777,216 / 985,248).
    pub freq: u16,
    /// The control register without the gate bit ([`wave`]); 0 is a rest.
    pub wave: u8,
    /// Frames the gate stays open (or, for a rest, stays closed).
    pub frames: u8,
}

impl Step {
    /// A note of `frames` frames.
    pub const fn note(freq: u16, wave: u8, frames: u8) -> Step {
        Step { freq, wave, frames }
    }

    /// A silent step (the gate stays closed), for the gaps between notes.
    pub const fn rest(frames: u8) -> Step {
        Step { freq: 0, wave: 0, frames }
    }
}

/// The SID's waveforms (control register bits).
pub mod wave {
    /// Triangle.
    pub const TRIANGLE: u8 = 0x10;
    /// Sawtooth.
    pub const SAWTOOTH: u8 = 0x20;
    /// Pulse (the width is set to half).
    pub const PULSE: u8 = 0x40;
    /// Noise.
    pub const NOISE: u8 = 0x80;
}

/// A sound effect: its notes and the envelope they are played with. The program defines
/// its own (the game's are in `firmware/game-prg`); the runtime only plays them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    /// The notes, in order.
    pub steps: &'static [Step],
    /// The envelope's attack (high nibble) and decay (low nibble).
    pub attack_decay: u8,
    /// The envelope's sustain (high nibble) and release (low nibble).
    pub sustain_release: u8,
}

/// Gate: on starts attack-decay-sustain, off starts release.
const GATE: u8 = 0x01;

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

/// Starts `effect` now, replacing whatever was playing; never waits. An effect without
/// notes only silences the one playing.
pub fn play(effect: &'static Effect) {
    // Close the gate first, so the envelope starts again from its attack.
    CONTROL.write(0);
    VOLUME.write(0x0F);
    ATTACK_DECAY.write(effect.attack_decay);
    SUSTAIN_RELEASE.write(effect.sustain_release);
    PULSE_LO.write(0x00);
    PULSE_HI.write(0x08);
    PLAYING.set(if effect.steps.is_empty() { None } else { Some(start(effect.steps, 0)) });
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
