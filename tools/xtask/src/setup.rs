//! The Debian packages the tests need, installed when missing.
//!
//! `cc1541` is the independent `.d81` reader and writer the disk tests compare against;
//! `cc65` builds the C port of the rules that the emulator tests hold to the Rust.

use anyhow::{Context, Result, bail};
use std::process::Command;

/// (command that proves the package is there, Debian package).
const PACKAGES: &[(&str, &str)] = &[("cc1541", "cc1541"), ("cl65", "cc65")];

fn have(command: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {command}")).output().is_ok_and(|o| o.status.success())
}

/// Installs every missing package with apt-get (through sudo when not root).
pub fn system_packages() -> Result<()> {
    let missing: Vec<&str> = PACKAGES.iter().filter(|(cmd, _)| !have(cmd)).map(|(_, pkg)| *pkg).collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !have("apt-get") {
        bail!("the tests need {} (a Debian package); install it with your package manager", missing.join(", "));
    }
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0"));
    let sudo = if root { "" } else { "sudo " };
    let script = format!(
        "{sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive {sudo}apt-get install -y -qq {}",
        missing.join(" ")
    );
    eprintln!("$ {script}");
    let status = Command::new("sh").arg("-c").arg(&script).status().context("running apt-get")?;
    if !status.success() {
        bail!("installing {} failed ({status})", missing.join(", "));
    }
    Ok(())
}
