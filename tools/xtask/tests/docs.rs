//! The documentation the repository cites is there: every `docs/` path named in a source
//! file, a manifest, a script or a Markdown file exists, and so does the heading its
//! `#anchor` names; every relative link of a Markdown file leads to a file (and heading)
//! that exists. Also: the README stays a page for users, and its pictures of the table are
//! the golden screens they were copied from.
//!
//! The whole working tree is walked, tracked or not (so a citation fails before it is
//! committed), but for build output, npm packages and git's own folder.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository's top exists")
}

/// Folders never walked: cargo's output, npm's packages, git's own.
const SKIPPED: &[&str] = &["target", "node_modules", ".git"];

/// This file names paths that do not exist, to test the scanner.
const THIS_FILE: &str = "tools/xtask/tests/docs.rs";

/// Every file under `top` but in [`SKIPPED`] folders, relative to `top`, in a fixed order.
fn files(top: &Path) -> Vec<PathBuf> {
    fn walk(top: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("a readable folder").flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                if !SKIPPED.iter().any(|s| entry.file_name() == *s) {
                    walk(top, &path, out);
                }
            } else if kind.is_file() {
                out.push(path.strip_prefix(top).expect("under the top").to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(top, top, &mut out);
    out
}

fn path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

fn anchor_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

/// A path a line cites, with the anchor after it if any.
#[derive(Debug, PartialEq)]
struct Citation {
    path: String,
    anchor: Option<String>,
}

/// Reads an anchor (`#name`) at the start of `rest`.
fn anchor_at(rest: &str) -> Option<String> {
    let name: String = rest.strip_prefix('#')?.chars().take_while(|&c| anchor_char(c)).collect();
    (!name.is_empty()).then_some(name)
}

/// The `docs/` paths `line` cites: a run of path characters in which `docs/` begins the path
/// or follows a `/` (`../docs/x.md`), with a sentence's full stop taken off its end. URLs
/// (`https://host/docs/...`) are not ours and are left alone.
fn doc_citations(line: &str) -> Vec<Citation> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("docs/").map(|i| i + from) {
        from = at + "docs/".len();
        let start = line[..at].char_indices().rev().find(|&(_, c)| !path_char(c)).map_or(0, |(i, c)| i + c.len_utf8());
        if at != start && !line[..at].ends_with('/') {
            continue; // `rustdocs/`: another word.
        }
        if line[..start].ends_with(':') || line[start..].starts_with('/') {
            continue; // A URL or an absolute path.
        }
        let end = line[at..].find(|c: char| !path_char(c)).map_or(line.len(), |i| i + at);
        let path = line[start..end].trim_end_matches('.');
        let anchor = if path.len() == end - start { anchor_at(&line[end..]) } else { None };
        found.push(Citation { path: path.to_string(), anchor });
        from = end;
    }
    found
}

/// The relative links of a Markdown line: `[text](target)`, `![alt](target)`. Links to the
/// web and to mail are not ours.
fn markdown_links(line: &str) -> Vec<Citation> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(close) = after.find(')') else { break };
        let target = after[..close].trim();
        rest = &after[close..];
        if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a.to_string())),
            None => (target, None),
        };
        found.push(Citation { path: path.to_string(), anchor });
    }
    found
}

/// The anchors GitHub gives a Markdown file's headings: the text in lower case, spaces as
/// `-`, anything but letters, digits, `-` and `_` left out, and `-1`, `-2`... after a
/// heading met before. Headings inside fenced code are not headings.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let text = line.trim_start_matches('#').trim();
        let slug: String = text
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut unique = slug.clone();
        let mut n = 0;
        while seen.contains(&unique) {
            n += 1;
            unique = format!("{slug}-{n}");
        }
        seen.insert(unique);
    }
    seen
}

/// `path` taken from `base`, with `.` and `..` worked out (the file need not exist).
fn resolve(base: &Path, path: &str) -> PathBuf {
    let mut out = base.to_path_buf();
    for part in Path::new(path).components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with citing `citation` from `file`: the path missing, or the heading.
/// `relative` says whether the path is read from the citing file's folder.
fn check(top: &Path, file: &Path, citation: &Citation, relative: bool) -> Option<String> {
    let base = if relative { top.join(file.parent().unwrap_or(Path::new(""))) } else { top.to_path_buf() };
    let target = if citation.path.is_empty() { top.join(file) } else { resolve(&base, &citation.path) };
    let shown = if citation.path.is_empty() { file.display().to_string() } else { citation.path.clone() };
    if !target.starts_with(top) || !target.exists() {
        return Some(format!("cites {shown}, which does not exist"));
    }
    let anchor = citation.anchor.as_ref()?;
    if target.extension().is_some_and(|e| e == "md") {
        let text = std::fs::read_to_string(&target).unwrap_or_default();
        if !anchors(&text).contains(anchor) {
            return Some(format!("cites {shown}#{anchor}, but {shown} has no heading for #{anchor}"));
        }
    }
    None
}

#[test]
fn every_cited_doc_path_exists() {
    let top = repo();
    let mut wrong = BTreeSet::new();
    let mut cited = 0;
    for file in files(&top) {
        if file == Path::new(THIS_FILE) {
            continue;
        }
        // Pictures, disk images and other binary files cite nothing.
        let Ok(text) = std::fs::read_to_string(top.join(&file)) else { continue };
        let markdown = file.extension().is_some_and(|e| e == "md");
        for (n, line) in text.lines().enumerate() {
            let mut found: Vec<(Citation, bool)> = doc_citations(line)
                .into_iter()
                .map(|c| {
                    let relative = c.path.starts_with("./") || c.path.starts_with("../");
                    (c, relative)
                })
                .collect();
            if markdown {
                found.extend(markdown_links(line).into_iter().map(|c| (c, true)));
            }
            for (citation, relative) in found {
                cited += 1;
                if let Some(why) = check(&top, &file, &citation, relative) {
                    wrong.insert(format!("{}:{}: {why}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(cited > 20, "only {cited} citations found: the scanner has gone wrong");
    assert!(wrong.is_empty(), "cited docs that are not there:\n{}", wrong.into_iter().collect::<Vec<_>>().join("\n"));
}

#[test]
fn the_readme_is_a_page_for_users() {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let lines = text.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines: a user's README is about 250; design and figures go to docs/");
}

/// The README's pictures, and the golden screens they are copies of.
const COPIES: &[(&str, &str)] = &[
    ("docs/images/table-40.png", "emulator-tests/tests/golden/game-shoe-40.png"),
    ("docs/images/table-80.png", "emulator-tests/tests/golden/game-shoe-80.png"),
];

#[test]
fn the_readme_pictures_are_the_golden_screens() {
    let top = repo();
    for (copy, golden) in COPIES {
        let read = |p: &str| std::fs::read(top.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(read(copy) == read(golden), "{copy} differs from {golden}: copy the blessed picture over it");
    }
}

#[test]
fn the_scanner_finds_citations_and_leaves_other_words_alone() {
    let cite = |path: &str, anchor: Option<&str>| Citation { path: path.into(), anchor: anchor.map(Into::into) };
    assert_eq!(
        doc_citations("see docs/speed.md#the-game. Or `docs/odds.md`, and ../docs/x.md."),
        vec![cite("docs/speed.md", Some("the-game")), cite("docs/odds.md", None), cite("../docs/x.md", None)]
    );
    assert_eq!(
        doc_citations("(docs/disk-and-loading.md#tried-and-left-out)."),
        vec![cite("docs/disk-and-loading.md", Some("tried-and-left-out"))]
    );
    assert!(doc_citations("https://example.org/docs/a.md and rustdocs/b and /abs/docs/c").is_empty());
    assert_eq!(
        markdown_links("![a](images/x.png) [b](speed.md#on-the-host) [c](https://x.org/y)"),
        vec![cite("images/x.png", None), cite("speed.md", Some("on-the-host"))]
    );
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# Odds\n## `bac analyze`: exact odds\n```\n# not a heading\n```\n### The simulator's shoe\n## Tests\n## Tests\n";
    let expected: BTreeSet<String> =
        ["odds", "bac-analyze-exact-odds", "the-simulators-shoe", "tests", "tests-1"].map(String::from).into();
    assert_eq!(anchors(text), expected);
}

#[test]
fn a_missing_path_or_heading_is_named() {
    let top = repo();
    let readme = Path::new("README.md");
    let missing = Citation { path: "docs/no-such-file.md".into(), anchor: None };
    assert_eq!(
        check(&top, readme, &missing, false).as_deref(),
        Some("cites docs/no-such-file.md, which does not exist")
    );
    let heading = Citation { path: "docs/speed.md".into(), anchor: Some("no-such-heading".into()) };
    assert!(check(&top, readme, &heading, false).is_some_and(|w| w.contains("no heading for #no-such-heading")));
    let fine = Citation { path: "docs/speed.md".into(), anchor: Some("the-game".into()) };
    assert_eq!(check(&top, readme, &fine, false), None);
}
