//! Rendering coverage summaries: terminal table, JSON, JaCoCo-compatible XML, HTML.

use super::{ClassSummary, Counter, totals};
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn pct(c: Counter) -> String {
    if c.total == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", c.percent())
    }
}

/// The terminal table: one row per class, then the total.
pub fn table(classes: &[ClassSummary], per_method: bool) -> String {
    let mut s = String::new();
    let w = classes
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(5)
        .clamp(5, 70);
    let _ = writeln!(
        s,
        "{:<w$}  {:>16}  {:>16}  {:>12}",
        "Class", "Lines", "Branches", "Methods"
    );
    let row = |s: &mut String, name: &str, l: Counter, b: Counter, m: Option<Counter>| {
        let f = |c: Counter| format!("{}/{} {:>6}", c.covered, c.total, pct(c));
        let _ = writeln!(
            s,
            "{:<w$}  {:>16}  {:>16}  {:>12}",
            name,
            f(l),
            f(b),
            m.map(|m| format!("{}/{}", m.covered, m.total))
                .unwrap_or_default()
        );
    };
    for c in classes {
        row(&mut s, &c.name, c.lines, c.branches, Some(c.methods));
        if per_method {
            for m in &c.methods_detail {
                row(
                    &mut s,
                    &format!("  {}{}", m.name, m.descriptor),
                    m.lines,
                    m.branches,
                    None,
                );
            }
        }
    }
    let (l, b, m) = totals(classes);
    row(&mut s, "Total", l, b, Some(m));
    s
}

/// The JSON report; `sharding` (with `--shard`, and in a merged report) says which run and
/// shard it is of, for `jforge merge`.
pub fn json(
    classes: &[ClassSummary],
    sharding: Option<&crate::shard::Sharding>,
) -> serde_json::Value {
    let (l, b, m) = totals(classes);
    let mut v = serde_json::json!({
        "lines": l,
        "branches": b,
        "methods": m,
        "line_percent": l.percent(),
        "branch_percent": b.percent(),
        "classes": classes,
    });
    if let (Some(s), Some(o)) = (sharding, v.as_object_mut()) {
        o.insert(
            "sharding".into(),
            serde_json::to_value(s).unwrap_or_default(),
        );
    }
    v
}

/// The classes of several coverage reports, sorted by name; a class measured in two (a
/// nested class measured with each of two classes) keeps its best measurement (most lines,
/// then branches covered), since each saw only its own shard's tests.
pub fn combine(lists: Vec<Vec<ClassSummary>>) -> Vec<ClassSummary> {
    let mut by_name: std::collections::BTreeMap<String, ClassSummary> =
        std::collections::BTreeMap::new();
    for c in lists.into_iter().flatten() {
        let better = by_name.get(&c.name).is_none_or(|o| {
            (c.lines.covered, c.branches.covered) > (o.lines.covered, o.branches.covered)
        });
        if better {
            by_name.insert(c.name.clone(), c);
        }
    }
    by_name.into_values().collect()
}

/// The terminal table on stdout (every method with `methods`) and the `--json`, `--xml` and
/// `--html` reports asked for: `jforge coverage`'s and `jforge merge`'s.
pub fn write(
    out: &crate::settings::ReportFiles,
    classes: &[ClassSummary],
    sharding: Option<&crate::shard::Sharding>,
    methods: bool,
) -> Result<()> {
    print!("{}", table(classes, methods));
    if let Some(p) = &out.json {
        let text = serde_json::to_string_pretty(&json(classes, sharding))?;
        std::fs::write(p, text).with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &out.xml {
        std::fs::write(p, xml(classes, "jforge"))
            .with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(d) = &out.html {
        html(classes, d, &out.sources)?;
    }
    Ok(())
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn counter_xml(s: &mut String, indent: &str, kind: &str, c: Counter) {
    if c.total > 0 || kind == "LINE" || kind == "METHOD" {
        let _ = writeln!(
            s,
            "{indent}<counter type=\"{kind}\" missed=\"{}\" covered=\"{}\"/>",
            c.missed(),
            c.covered
        );
    }
}

/// `Outer$Inner` -> `Outer.java` (the class file's SourceFile is not kept; this is javac's
/// convention).
fn source_file(class: &str) -> String {
    let simple = class.rsplit('.').next().unwrap_or(class);
    format!("{}.java", simple.split('$').next().unwrap_or(simple))
}

fn package(class: &str) -> &str {
    class.rsplit_once('.').map(|(p, _)| p).unwrap_or("")
}

/// JaCoCo's XML report format (report.dtd 1.1): packages, classes, methods, source files
/// with per-line counts, and LINE / BRANCH / METHOD counters (no INSTRUCTION counters:
/// jforge has no instruction probes).
pub fn xml(classes: &[ClassSummary], name: &str) -> String {
    let mut s = String::new();
    xml_prologue(&mut s, name);
    let mut pkgs: std::collections::BTreeMap<&str, Vec<&ClassSummary>> = Default::default();
    for c in classes {
        pkgs.entry(package(&c.name)).or_default().push(c);
    }
    for (p, cs) in &pkgs {
        package_xml(&mut s, p, cs);
    }
    let (l, b, m) = totals(classes);
    counter_xml(&mut s, "  ", "BRANCH", b);
    counter_xml(&mut s, "  ", "LINE", l);
    counter_xml(&mut s, "  ", "METHOD", m);
    s.push_str("</report>\n");
    s
}

/// The XML declaration, the DOCTYPE, the opening `<report>` and its `<sessioninfo>` (stamped
/// with the current time, as JaCoCo does).
fn xml_prologue(s: &mut String, name: &str) {
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n");
    s.push_str("<!DOCTYPE report PUBLIC \"-//JACOCO//DTD Report 1.1//EN\" \"report.dtd\">\n");
    let _ = writeln!(s, "<report name=\"{}\">", esc(name));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let _ = writeln!(
        s,
        "  <sessioninfo id=\"jforge\" start=\"{now}\" dump=\"{now}\"/>"
    );
}

/// One `<package>` element: its classes, its source files, then its counters.
fn package_xml(s: &mut String, package: &str, classes: &[&ClassSummary]) {
    let _ = writeln!(
        s,
        "  <package name=\"{}\">",
        esc(&package.replace('.', "/"))
    );
    for c in classes {
        class_xml(s, c);
    }
    source_files_xml(s, classes);
    let (l, b, m) = totals(&classes.iter().map(|c| (*c).clone()).collect::<Vec<_>>());
    counter_xml(s, "    ", "BRANCH", b);
    counter_xml(s, "    ", "LINE", l);
    counter_xml(s, "    ", "METHOD", m);
    s.push_str("  </package>\n");
}

/// One `<class>` element: its methods with their counters, then the class's counters.
fn class_xml(s: &mut String, c: &ClassSummary) {
    let _ = writeln!(
        s,
        "    <class name=\"{}\" sourcefilename=\"{}\">",
        esc(&c.name.replace('.', "/")),
        esc(&source_file(&c.name))
    );
    for m in &c.methods_detail {
        let line = m.line.map(|l| format!(" line=\"{l}\"")).unwrap_or_default();
        let _ = writeln!(
            s,
            "      <method name=\"{}\" desc=\"{}\"{line}>",
            esc(&m.name),
            esc(&m.descriptor)
        );
        counter_xml(s, "        ", "BRANCH", m.branches);
        counter_xml(s, "        ", "LINE", m.lines);
        counter_xml(
            s,
            "        ",
            "METHOD",
            Counter {
                covered: m.covered as u32,
                total: 1,
            },
        );
        s.push_str("      </method>\n");
    }
    counter_xml(s, "      ", "BRANCH", c.branches);
    counter_xml(s, "      ", "LINE", c.lines);
    counter_xml(s, "      ", "METHOD", c.methods);
    counter_xml(
        s,
        "      ",
        "CLASS",
        Counter {
            covered: (c.methods.covered > 0) as u32,
            total: 1,
        },
    );
    s.push_str("    </class>\n");
}

/// The `<sourcefile>` elements of a package, with per-line counts: classes sharing a source
/// file are merged line by line.
fn source_files_xml(s: &mut String, classes: &[&ClassSummary]) {
    let mut files: std::collections::BTreeMap<
        String,
        std::collections::BTreeMap<u32, (bool, u32, u32)>,
    > = Default::default();
    for c in classes {
        let f = files.entry(source_file(&c.name)).or_default();
        for (&l, &(cov, bt, bc)) in &c.line_detail {
            let e = f.entry(l).or_default();
            e.0 |= cov;
            e.1 += bt;
            e.2 += bc;
        }
    }
    for (f, lines) in &files {
        let _ = writeln!(s, "    <sourcefile name=\"{}\">", esc(f));
        let (mut lc, mut bc) = (Counter::default(), Counter::default());
        for (l, &(cov, bt, bcv)) in lines {
            let _ = writeln!(
                s,
                "      <line nr=\"{l}\" mi=\"{}\" ci=\"{}\" mb=\"{}\" cb=\"{bcv}\"/>",
                (!cov) as u32,
                cov as u32,
                bt - bcv
            );
            lc.total += 1;
            lc.covered += cov as u32;
            bc.total += bt;
            bc.covered += bcv;
        }
        counter_xml(s, "      ", "BRANCH", bc);
        counter_xml(s, "      ", "LINE", lc);
        s.push_str("    </sourcefile>\n");
    }
}

const CSS: &str = "body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}\
td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}td:first-child,th:first-child{text-align:left}\
pre{margin:0}.src td{border:none;padding:0 6px;text-align:left;font-family:monospace;white-space:pre}\
.fc{background:#cfc}.pc{background:#ffc}.nc{background:#fcc}.nr{color:#888;text-align:right}";

fn bar(c: Counter) -> String {
    format!("{}/{} ({})", c.covered, c.total, pct(c))
}

fn page_name(class: &str) -> String {
    format!("{}.html", class.replace('$', "_"))
}

/// A browsable HTML report in `dir`: `index.html` (one row per class) and one page per class
/// with its methods and its lines, coloured (green covered, yellow partly covered branches,
/// red missed). Source text is shown when the class's source file is found under one of
/// `sources` (package folders); otherwise the bytecode line numbers are listed.
pub fn html(classes: &[ClassSummary], dir: &Path, sources: &[PathBuf]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut idx = String::new();
    let _ = write!(
        idx,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>jforge coverage</title>\
         <style>{CSS}</style></head><body><h1>jforge coverage</h1><table>\
         <tr><th>Class</th><th>Lines</th><th>Branches</th><th>Methods</th></tr>"
    );
    for c in classes {
        let _ = write!(
            idx,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&page_name(&c.name)),
            esc(&c.name),
            bar(c.lines),
            bar(c.branches),
            bar(c.methods)
        );
        std::fs::write(dir.join(page_name(&c.name)), class_page(c, sources))
            .with_context(|| format!("writing the HTML report in {}", dir.display()))?;
    }
    let (l, b, m) = totals(classes);
    let _ = write!(
        idx,
        "<tr><th>Total</th><th>{}</th><th>{}</th><th>{}</th></tr></table></body></html>",
        bar(l),
        bar(b),
        bar(m)
    );
    std::fs::write(dir.join("index.html"), idx)
        .with_context(|| format!("writing {}", dir.join("index.html").display()))?;
    Ok(())
}

fn class_page(c: &ClassSummary, sources: &[PathBuf]) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{0}</title><style>{CSS}</style>\
         </head><body><p><a href=\"index.html\">index</a></p><h1>{0}</h1>\
         <p>Lines {1} &middot; Branches {2} &middot; Methods {3}</p><table>\
         <tr><th>Method</th><th>Line</th><th>Lines</th><th>Branches</th></tr>",
        esc(&c.name),
        bar(c.lines),
        bar(c.branches),
        bar(c.methods)
    );
    for m in &c.methods_detail {
        let cls = if m.covered { "" } else { " class=\"nc\"" };
        let _ = write!(
            s,
            "<tr{cls}><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&m.name),
            esc(&m.descriptor),
            m.line.map(|l| l.to_string()).unwrap_or_default(),
            bar(m.lines),
            bar(m.branches)
        );
    }
    s.push_str("</table>");
    let rel = format!(
        "{}/{}",
        super::report::package(&c.name).replace('.', "/"),
        source_file(&c.name)
    );
    let rel = rel.trim_start_matches('/').to_string();
    let text = sources
        .iter()
        .find_map(|d| std::fs::read_to_string(d.join(&rel)).ok());
    let class_of = |l: u32| match c.line_detail.get(&l) {
        None => "",
        Some(&(false, _, _)) => "nc",
        Some(&(true, bt, bc)) if bc < bt => "pc",
        Some(_) => "fc",
    };
    s.push_str("<h2>Lines</h2><table class=\"src\">");
    match text {
        Some(t) => {
            for (i, line) in t.lines().enumerate() {
                let n = i as u32 + 1;
                let title = c
                    .line_detail
                    .get(&n)
                    .filter(|d| d.1 > 0)
                    .map(|d| format!(" title=\"{} of {} branches covered\"", d.2, d.1))
                    .unwrap_or_default();
                let _ = write!(
                    s,
                    "<tr><td class=\"nr\">{n}</td><td class=\"{}\"{title}>{}</td></tr>",
                    class_of(n),
                    esc(line)
                );
            }
        }
        None => {
            s.push_str("<tr><td colspan=\"2\">(no source: bytecode line numbers)</td></tr>");
            for (&n, &(_, bt, bc)) in &c.line_detail {
                let _ = write!(
                    s,
                    "<tr><td class=\"nr\">{n}</td><td class=\"{}\">line {n}{}</td></tr>",
                    class_of(n),
                    if bt > 0 {
                        format!(": {bc} of {bt} branches")
                    } else {
                        String::new()
                    }
                );
            }
        }
    }
    s.push_str("</table></body></html>");
    s
}
