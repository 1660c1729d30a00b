//! Bad input from the command line (an option's value, a file's content): reported with
//! what is wrong and where, and exit code 2, as for the arguments `clap` itself refuses.

use std::fmt;

/// An error in what the user asked for, not in `bac`.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// The exit code for bad input, as `clap` uses for a bad argument.
pub const EXIT_CODE: u8 = 2;

/// `Err(BadInput)` with `message`, as an `anyhow::Error`.
pub fn bad_input<T>(message: impl Into<String>) -> anyhow::Result<T> {
    Err(BadInput(message.into()).into())
}
