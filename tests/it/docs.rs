//! The documentation stays true to the binary: README.md is a short entry (at most 300 lines)
//! whose links into docs/ resolve, and each command's page in docs/ has a flag table (flag,
//! value, default, meaning) listing exactly the long flags `jforge <command> --help` lists.

use crate::support::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The commands, each documented on `docs/<command>.md`.
const COMMANDS: [&str; 7] = [
    "gen",
    "exhaustive",
    "builders",
    "params",
    "concolic",
    "coverage",
    "merge",
];

const README_MAX_LINES: usize = 300;

/// The header row that starts a page's flag table.
const FLAG_TABLE_HEADER: &str = "| flag | value | default | meaning |";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first long flag (`--name`) in `text`, if any.
fn first_long_flag(text: &str) -> Option<String> {
    long_flags(text).into_iter().next()
}

/// Every long flag (`--name`) in `text`, in order.
fn long_flags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("--") {
        let name: String = rest[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            out.push(format!("--{name}"));
        }
        rest = &rest[i + 2 + name.len()..];
    }
    out
}

/// The long flags of `jforge <command> --help`, `--help` itself left out. Option lines are
/// indented by at most 6 spaces (`  -q, --quiet`, `      --class <NAME>`); their descriptions,
/// which may name other flags, are indented deeper or follow on the same line.
fn help_flags(command: &str) -> BTreeSet<String> {
    let o = run_ok(jforge().args([command, "--help"]));
    let text = String::from_utf8_lossy(&o.stdout);
    let flags: BTreeSet<String> = text
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            l.len() - t.len() <= 6 && t.starts_with('-')
        })
        .filter_map(first_long_flag)
        .filter(|f| f != "--help")
        .collect();
    assert!(
        flags.len() >= 5,
        "`jforge {command} --help` lists only {flags:?}:\n{text}"
    );
    flags
}

/// The cells of a Markdown table row, split at the `|` not escaped as `\|`.
fn cells(row: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in row.trim().chars() {
        match c {
            '|' if !escaped => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
        escaped = c == '\\';
    }
    // the empty cells before the leading and after the trailing `|`
    out.remove(0);
    out.pop();
    out.iter().map(|c| c.trim().to_string()).collect()
}

/// The long flags of a page's flag table: the rows under the first `FLAG_TABLE_HEADER`,
/// each of four cells whose first names exactly one long flag (a short form may precede it).
fn table_flags(page: &str, text: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| l.trim() != FLAG_TABLE_HEADER);
    assert!(
        lines.next().is_some(),
        "{page}: no flag table (a table whose header is `{FLAG_TABLE_HEADER}`)"
    );
    assert!(
        lines.next().is_some_and(|l| l.starts_with("|---")),
        "{page}: the flag table's header is not followed by its `|---|` line"
    );
    let mut flags = Vec::new();
    for row in lines.take_while(|l| l.starts_with('|')) {
        let c = cells(row);
        assert_eq!(
            c.len(),
            4,
            "{page}: a flag table row has four cells (flag, value, default, meaning): {row}"
        );
        assert!(
            !c[3].is_empty(),
            "{page}: a flag without its meaning: {row}"
        );
        let named = long_flags(&c[0]);
        assert_eq!(
            named.len(),
            1,
            "{page}: each row of the flag table names one long flag in its first cell: {row}"
        );
        flags.extend(named);
    }
    assert!(!flags.is_empty(), "{page}: the flag table has no rows");
    flags
}

/// What is wrong between `jforge <command> --help` and the flag table of its page.
fn flag_table_problems(command: &str) -> Vec<String> {
    let page = format!("docs/{command}.md");
    let table: BTreeSet<String> = table_flags(&page, &read(&repo().join(&page)))
        .into_iter()
        .collect();
    let help = help_flags(command);
    let missing = help
        .difference(&table)
        .map(|f| format!("{page}: `jforge {command} {f}` is missing from the page's flag table"));
    let stale = table.difference(&help).map(|f| {
        format!("{page}: the flag table lists {f}, which `jforge {command} --help` does not have")
    });
    missing.chain(stale).collect()
}

#[test]
fn each_command_page_has_a_flag_table_matching_its_help() {
    let problems: Vec<String> = COMMANDS
        .iter()
        .flat_map(|c| flag_table_problems(c))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn flag_tables_and_help_lines_are_read_as_written() {
    let page = "| flag | value | default | meaning |\n|---|---|---|---|\n\
                | `-q`, `--quiet` | | off | no progress |\n\
                | `--junit` | `4\\|5` | `4` | JUnit version |\n\nafter the table `--seed`\n";
    assert_eq!(table_flags("page", page), ["--quiet", "--junit"]);
    assert_eq!(
        cells("| `--junit` | `4\\|5` | `4` | JUnit version |"),
        ["`--junit`", "`4\\|5`", "`4`", "JUnit version"]
    );
    assert_eq!(
        long_flags("`--include-methods RE`, not -- alone"),
        ["--include-methods"]
    );
    assert_eq!(
        first_long_flag("-q, --quiet   Only the table (see --methods)").as_deref(),
        Some("--quiet")
    );
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// GitHub's anchors of a Markdown text's headings: lower case, spaces as `-`, other
/// punctuation dropped; a repeated heading gets `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for l in prose_lines(text) {
        let Some(title) = l.strip_prefix('#') else {
            continue;
        };
        let slug: String = title
            .trim_start_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the inline links `[text](target)` of a Markdown text's prose.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in prose_lines(text) {
        let mut rest = l;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// What is wrong with the links of the Markdown file `file` into this repository: a target
/// file that does not exist, or an anchor that is no heading of its target.
fn broken_links(file: &Path) -> Vec<String> {
    let text = read(file);
    let dir = file.parent().unwrap();
    let name = file
        .strip_prefix(repo())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut problems = Vec::new();
    for target in link_targets(&text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let linked: PathBuf = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(path)
        };
        if !linked.exists() {
            problems.push(format!("{name}: link to {target}: no such file"));
            continue;
        }
        if let Some(a) = anchor
            && !anchors(&read(&linked)).contains(a)
        {
            problems.push(format!(
                "{name}: link to {target}: no heading with that anchor"
            ));
        }
    }
    problems
}

fn docs_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    pages
}

#[test]
fn readme_is_short_and_its_docs_links_resolve() {
    let readme = read(&repo().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; at most {README_MAX_LINES}: move reference text to docs/"
    );
    let problems = broken_links(&repo().join("README.md"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let linked: BTreeSet<String> = link_targets(&readme)
        .into_iter()
        .filter(|t| t.starts_with("docs/"))
        .map(|t| t.split('#').next().unwrap().to_string())
        .collect();
    for page in docs_pages() {
        let rel = format!("docs/{}", page.file_name().unwrap().to_string_lossy());
        assert!(linked.contains(&rel), "README.md does not link to {rel}");
    }
    for c in COMMANDS {
        assert!(
            linked.contains(&format!("docs/{c}.md")),
            "README.md does not link to docs/{c}.md"
        );
    }
}

#[test]
fn docs_pages_links_resolve() {
    let pages = docs_pages();
    assert!(pages.len() >= COMMANDS.len(), "{pages:?}");
    let problems: Vec<String> = pages.iter().flat_map(|p| broken_links(p)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn anchors_and_links_are_read_as_github_renders_them() {
    let page = "# `jforge gen`: tests\n```sh\n# not a heading [x](nowhere.md)\n```\n\
                ### `gen --concolic`: the solver's help\n## Flags\n## Flags\n\
                see [a](gen.md#flags) and [b](#flags-1).\n";
    let a = anchors(page);
    for want in [
        "jforge-gen-tests",
        "gen---concolic-the-solvers-help",
        "flags",
        "flags-1",
    ] {
        assert!(a.contains(want), "{want} not in {a:?}");
    }
    assert!(!a.contains("not-a-heading-xnowheremd"), "{a:?}");
    assert_eq!(link_targets(page), ["gen.md#flags", "#flags-1"]);
}
