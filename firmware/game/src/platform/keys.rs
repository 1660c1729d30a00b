//! The keyboard: keys as the game reads them, and the hurry key a deal polls.

/// Keys as PETSCII codes, the way the C128's GETIN reports them.
pub mod key {
    /// RUN/STOP.
    pub const STOP: u8 = 3;
    /// TAB.
    pub const TAB: u8 = 9;
    /// RETURN (and the keypad's ENTER).
    pub const RETURN: u8 = 13;
    /// Cursor down.
    pub const DOWN: u8 = 17;
    /// CLR/HOME.
    pub const HOME: u8 = 19;
    /// INST/DEL.
    pub const DEL: u8 = 20;
    /// ESC.
    pub const ESC: u8 = 27;
    /// Cursor right.
    pub const RIGHT: u8 = 29;
    /// SPACE.
    pub const SPACE: u8 = 32;
    /// HELP.
    pub const HELP: u8 = 132;
    /// F1.
    pub const F1: u8 = 133;
    /// F3.
    pub const F3: u8 = 134;
    /// F5.
    pub const F5: u8 = 135;
    /// F7.
    pub const F7: u8 = 136;
    /// Cursor up.
    pub const UP: u8 = 145;
    /// Cursor left.
    pub const LEFT: u8 = 157;
}

/// Keys as they go down.
pub trait Keys {
    /// A key that went down since the last call.
    fn key(&mut self) -> Option<u8>;
    /// Whether the player taps or holds SPACE to hurry the deal: SPACE went down since the
    /// last call or is down now. Those presses of SPACE are taken (no later [`Self::key`]
    /// reports them) and every other key stays for [`Self::key`], so a deal that asks
    /// cannot swallow a key meant for the screen after it.
    fn hurry(&mut self) -> bool;
}
