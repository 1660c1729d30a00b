//! The `bac` command line.
fn main() {}
