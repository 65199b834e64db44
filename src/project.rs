//! `--project DIR`: a Maven project as Maven itself sees it.
//!
//! Why: a Java developer should not assemble `--classpath target/classes:` plus every
//! dependency jar by hand, nor tell jforge where tests go and which JUnit the build runs.
//! Maven knows all of it, so jforge asks it (no pom is read by jforge), in two calls: `compile`
//! (so that classes exist and are not older than their sources; Maven's compiler plugin
//! decides what is stale) with `dependency:build-classpath` at test scope (the class path the
//! module's own tests compile and run with, in the same reactor so that a module's siblings
//! are their `target/classes`), then `help:effective-pom` alone into a file (each module's
//! artifact, packaging and build folders, interpolated; sharing a call with `compile`, some
//! builds wrote a second document and an invalid element into it). Plugin versions are pinned
//! so the result does not depend on the Maven installed; the user's Maven flags
//! (`ProjectSettings::maven_args`) go to every call (`crate::maven`). The effective POM is read
//! tolerantly ([`modules_of`]): only the few elements jforge needs must be well formed.
//!
//! Each module with Java classes (packaging other than `pom`) becomes a [`Module`]: its
//! classes, its `src/test/java` (from the effective POM), its test class path, and the JUnit
//! its build declares (4 or 5: the jars on that class path), whose jars check the written
//! tests. A module that declares no JUnit gets no tests: the caller prints
//! [`junit_snippet`].

use crate::settings::{ProjectSettings, RunSettings, SuiteSettings};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const HELP_PLUGIN: &str = "org.apache.maven.plugins:maven-help-plugin:3.4.0";
const DEPENDENCY_PLUGIN: &str = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1";

/// One Maven module with Java classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// `artifactId` (what `--module` and `mvn -pl :NAME` take).
    pub name: String,
    pub basedir: PathBuf,
    /// `project.build.outputDirectory`.
    pub classes: PathBuf,
    /// `project.build.testSourceDirectory` (where the tests go).
    pub test_sources: PathBuf,
    /// The module's test class path without its own folders: dependencies of every scope.
    pub dependencies: Vec<PathBuf>,
    /// 4 or 5, from the JUnit jars on `dependencies`; `None` when it declares none.
    pub junit: Option<u8>,
    /// The user's Maven flags, for the Maven calls made for this module later.
    pub maven_args: Vec<String>,
    /// `project.build.sourceDirectory` (the main sources: where the license header is read
    /// when the module has no tests yet).
    pub sources: PathBuf,
    /// The Java release its tests are compiled for (maven-compiler-plugin's `testRelease`,
    /// `release`, else `source`/`target`: see [`test_release_of`]); `None`: not said.
    pub test_release: Option<u32>,
    /// `project.build.testOutputDirectory`: the module's compiled tests (after `mvn
    /// test-compile`, [`compile_tests`]).
    pub test_classes: PathBuf,
    /// Which of its test classes its build runs (Surefire's includes and excludes).
    pub test_filter: TestFilter,
}

/// The test classes a module's build runs: maven-surefire-plugin's `<includes>` and
/// `<excludes>` (its defaults when the build sets none), as regular expressions over binary
/// class names for the JUnit Platform console launcher's `--include-classname` and
/// `--exclude-classname`.
///
/// Why: `coverage --project` compiled and ran every file of src/test/java, including a
/// benchmark the build excludes (which did not compile without its profile) and a
/// two-minute performance test it never runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFilter {
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
}

/// Surefire's default includes and excludes (3.x).
const SUREFIRE_INCLUDES: [&str; 4] = [
    "**/Test*.java",
    "**/*Test.java",
    "**/*Tests.java",
    "**/*TestCase.java",
];
const SUREFIRE_EXCLUDES: [&str; 1] = ["**/*$*"];

impl Default for TestFilter {
    fn default() -> Self {
        let re = |v: &[&str]| v.iter().filter_map(|p| surefire_pattern(p)).collect();
        TestFilter {
            includes: re(&SUREFIRE_INCLUDES),
            excludes: re(&SUREFIRE_EXCLUDES),
        }
    }
}

/// A Surefire include/exclude pattern (`**/*Test.java`, `org/acme/**/Foo*`,
/// `%regex[.*Perf.*Test.*]`) as a regular expression over a binary class name; `None` for an
/// empty pattern. A glob matches the class file's path: `**/` is any package (or none), `*`
/// any part of one name, `?` one character, `.java`/`.class` at the end are dropped; a
/// `%regex[...]` is matched by Surefire against the path of the class file
/// (`org/acme/FooTest.class`), so its `/` become `.` and a trailing `.class` goes.
pub fn surefire_pattern(p: &str) -> Option<String> {
    let p = p.trim();
    if p.is_empty() {
        return None;
    }
    if let Some(inner) = p.strip_prefix("%regex[").and_then(|r| r.strip_suffix(']')) {
        let inner = inner
            .trim_end_matches("\\.class")
            .trim_end_matches("\\.java")
            .trim_end_matches(".class")
            .trim_end_matches(".java");
        return Some(format!("^{}$", inner.replace('/', "\\.")));
    }
    let p = p
        .trim_end_matches(".java")
        .trim_end_matches(".class")
        .trim_start_matches('/');
    let mut re = String::from("^");
    let mut rest = p;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("**/") {
            re.push_str("(.*\\.)?");
            rest = r;
        } else if let Some(r) = rest.strip_prefix("**") {
            re.push_str(".*");
            rest = r;
        } else {
            let c = rest.chars().next().unwrap_or('*');
            match c {
                '*' => re.push_str("[^.]*"),
                '?' => re.push_str("[^.]"),
                '/' => re.push_str("\\."),
                '$' => re.push_str("\\$"),
                c if c.is_alphanumeric() || c == '_' => re.push(c),
                c => re.push_str(&regex::escape(&c.to_string())),
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    re.push('$');
    Some(re)
}

/// The Surefire filter of a module from its effective POM's `<project>`: the
/// maven-surefire-plugin's `<includes>`/`<excludes>` (its configuration, else its
/// `default-test` execution's), Surefire's defaults for what it does not set. A `<test>`
/// parameter (a single test chosen on the command line) is not the build's view and is
/// ignored.
pub fn test_filter_of(project: roxmltree::Node) -> TestFilter {
    let mut f = TestFilter::default();
    let build = project.children().find(|c| c.has_tag_name("build"));
    let plugin = build
        .into_iter()
        .flat_map(|b| b.children().filter(|c| c.has_tag_name("plugins")))
        .flat_map(|ps| ps.children().filter(|c| c.has_tag_name("plugin")))
        .find(|p| child(*p, "artifactId") == Some("maven-surefire-plugin"));
    let Some(plugin) = plugin else {
        return f;
    };
    let mut configs: Vec<roxmltree::Node> = plugin
        .children()
        .filter(|c| c.has_tag_name("configuration"))
        .collect();
    configs.extend(
        plugin
            .descendants()
            .filter(|e| e.has_tag_name("execution") && child(*e, "id") == Some("default-test"))
            .filter_map(|e| e.children().find(|c| c.has_tag_name("configuration"))),
    );
    let list = |tag: &str, item: &str| -> Option<Vec<String>> {
        configs.iter().find_map(|c| {
            let l = c.children().find(|x| x.has_tag_name(tag))?;
            let v: Vec<String> = l
                .children()
                .filter(|x| x.has_tag_name(item))
                .filter_map(|x| x.text())
                .flat_map(|t| t.split(','))
                .filter_map(surefire_pattern)
                .collect();
            Some(v)
        })
    };
    if let Some(v) = list("includes", "include").filter(|v| !v.is_empty()) {
        f.includes = v;
    }
    if let Some(mut v) = list("excludes", "exclude") {
        // Surefire always leaves out nested classes unless an include names them.
        v.extend(f.excludes.iter().cloned());
        f.excludes = v;
    }
    f
}

/// `mvn test-compile` in the project: its own tests compiled as its build compiles them
/// (into each module's `test_classes`), for [`Module::test_classes`].
pub fn compile_tests(dir: &Path, java: Option<&Path>, maven_args: &[String]) -> Result<()> {
    let java_home = match java {
        Some(j) => Some(crate::runner::java::find_java(Some(j))?.home),
        None => None,
    };
    crate::maven::Call {
        dir,
        java_home,
        user: maven_args,
        doing: format!("compile the tests of the project in {}", dir.display()),
    }
    .run(&["test-compile".to_string()])?;
    Ok(())
}

impl Module {
    /// The class path of the code under test: the module's classes, then its dependencies.
    pub fn classpath(&self) -> String {
        std::iter::once(&self.classes)
            .chain(&self.dependencies)
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":")
    }

    /// The JUnit jars of the module's own class path (the ones its build runs tests with),
    /// plus the Platform launcher for JUnit 5 when the project does not have it (Surefire
    /// brings its own): fetched through Maven at the version of the project's Platform.
    pub fn junit_classpath(&self) -> Result<String> {
        let mut jars: Vec<PathBuf> = self
            .dependencies
            .iter()
            .filter(|p| is_test_framework_jar(p))
            .cloned()
            .collect();
        if self.junit == Some(5)
            && !jars
                .iter()
                .any(|p| jar_stem(p) == "junit-platform-launcher")
        {
            let version = jars
                .iter()
                .find_map(|p| version_of(p, "junit-platform-engine"))
                .context(
                    "the project's JUnit 5 has no junit-platform-engine jar on its test class path",
                )?;
            jars.push(fetch_launcher(&version, &self.maven_args)?);
        }
        Ok(jars
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":"))
    }
}

impl Module {
    /// The JUnit Platform console launcher to run the module's own tests with: for JUnit 5
    /// the `junit-platform-console-standalone` jar of the project's own Platform version
    /// (fetched through Maven; a launcher of another version found no test in a project on
    /// JUnit 5.14 and reported 0% with exit 0); `None` for JUnit 4, which any launcher with
    /// the Vintage engine runs.
    pub fn console_launcher(&self) -> Result<Option<PathBuf>> {
        if self.junit != Some(5) {
            return Ok(None);
        }
        let version = self
            .dependencies
            .iter()
            .find_map(|p| version_of(p, "junit-platform-engine"))
            .context(
                "the project's JUnit 5 has no junit-platform-engine jar on its test class path",
            )?;
        fetch_platform_jar(
            "junit-platform-console-standalone",
            &version,
            &self.maven_args,
            "to run the project's own tests",
        )
        .map(Some)
    }
}

/// The file name of `p` without `-<version>.jar`: `junit-jupiter-api-5.10.2.jar` ->
/// `junit-jupiter-api`.
fn jar_stem(p: &Path) -> String {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = name.strip_suffix(".jar").unwrap_or(&name);
    match name.find(|c: char| c.is_ascii_digit()) {
        Some(i) if i > 0 && name[..i].ends_with('-') => name[..i - 1].to_string(),
        _ => name.to_string(),
    }
}

/// The version in `<artifact>-<version>.jar` when `p` is that artifact's jar.
fn version_of(p: &Path, artifact: &str) -> Option<String> {
    let name = p.file_name()?.to_string_lossy().to_string();
    let v = name
        .strip_prefix(artifact)?
        .strip_prefix('-')?
        .strip_suffix(".jar")?;
    v.starts_with(|c: char| c.is_ascii_digit())
        .then(|| v.to_string())
}

/// Jars of JUnit and what its API needs at compile and run time.
fn is_test_framework_jar(p: &Path) -> bool {
    let s = jar_stem(p);
    s == "junit"
        || s.starts_with("junit-jupiter")
        || s.starts_with("junit-platform")
        || s.starts_with("junit-vintage")
        || s.starts_with("hamcrest")
        || s == "opentest4j"
        || s == "apiguardian-api"
}

/// JUnit 5 when the Jupiter API is there, else 4 when `junit:junit` 4.x is.
fn junit_of(deps: &[PathBuf]) -> Option<u8> {
    if deps.iter().any(|p| jar_stem(p) == "junit-jupiter-api") {
        Some(5)
    } else if deps
        .iter()
        .any(|p| version_of(p, "junit").is_some_and(|v| v.starts_with('4')))
    {
        Some(4)
    } else {
        None
    }
}

/// What to add to a module's pom when it declares no JUnit.
pub fn junit_snippet() -> &'static str {
    "    <dependency>\n      <groupId>org.junit.jupiter</groupId>\n      <artifactId>junit-jupiter</artifactId>\n      <version>5.10.2</version>\n      <scope>test</scope>\n    </dependency>\n\
     (or, for JUnit 4: junit:junit:4.13.2 with <scope>test</scope>)"
}

/// The modules of the Maven project in `dir` (a folder with a pom.xml), compiled.
/// `java`: the JDK Maven runs with (`--java`), else Maven's own choice; `maven_args`: the
/// user's flags for every Maven call.
pub fn read(dir: &Path, java: Option<&Path>, maven_args: &[String]) -> Result<Vec<Module>> {
    let pom = dir.join("pom.xml");
    if !pom.is_file() {
        bail!(
            "{} has no pom.xml: --project takes the folder of a Maven project (its root pom for a multi-module build)",
            dir.display()
        );
    }
    let dir =
        std::fs::canonicalize(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let work = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-project-"))
        .context("cannot create a temporary folder")?;
    let java_home = match java {
        Some(j) => Some(crate::runner::java::find_java(Some(j))?.home),
        None => None,
    };
    let call = |doing: String| crate::maven::Call {
        dir: &dir,
        java_home: java_home.clone(),
        user: maven_args,
        doing,
    };
    compile_with_classpaths(
        &call(format!("compile the project in {}", dir.display())),
        work.path(),
    )?;
    let effective = work.path().join("effective.xml");
    call(format!("write the effective POM of {}", dir.display())).run(&[
        format!("{HELP_PLUGIN}:effective-pom"),
        format!("-Doutput={}", effective.display()),
    ])?;
    let text = std::fs::read_to_string(&effective).with_context(|| {
        format!(
            "Maven wrote no effective POM at {} although it succeeded",
            effective.display()
        )
    })?;
    let mut modules = modules_of(&text, &classpaths_in(work.path())?)?;
    modules
        .iter_mut()
        .for_each(|m| m.maven_args = maven_args.to_vec());
    Ok(modules)
}

/// `mvn compile dependency:build-classpath`: each module's test class path into
/// `out/<groupId>:<artifactId>.cp`.
fn compile_with_classpaths(call: &crate::maven::Call, out: &Path) -> Result<()> {
    call.run(&[
        "compile".to_string(),
        format!("{DEPENDENCY_PLUGIN}:build-classpath"),
        format!(
            "-Dmdep.outputFile={}/${{project.groupId}}:${{project.artifactId}}.cp",
            out.display()
        ),
        "-Dmdep.includeScope=test".to_string(),
    ])?;
    Ok(())
}

/// The class paths written by [`compile_with_classpaths`], by `groupId:artifactId`.
fn classpaths_in(out: &Path) -> Result<BTreeMap<String, Vec<PathBuf>>> {
    let mut cps = BTreeMap::new();
    let entries =
        std::fs::read_dir(out).with_context(|| format!("cannot read {}", out.display()))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(id) = name.strip_suffix(".cp") {
            let text = std::fs::read_to_string(e.path())
                .with_context(|| format!("cannot read {}", e.path().display()))?;
            cps.insert(
                id.to_string(),
                crate::emit::junit_jars::split_cp(text.trim()),
            );
        }
    }
    Ok(cps)
}

/// The text of `node`'s child element `name`.
fn child<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> Option<&'a str> {
    node.children()
        .find(|c| c.has_tag_name(name))
        .and_then(|c| c.text())
        .map(str::trim)
}

/// The modules described by an effective POM (one `<project>` or a `<projects>` list) with
/// their class paths by `groupId:artifactId`. Read tolerantly: several XML documents in the
/// file are each read, and a document that is not well-formed XML is read again without
/// the parts jforge does not need (properties, plugins, profiles...), where Maven has been
/// seen to write invalid element names such as `<javaTarget.qualifier?>`.
fn modules_of(effective: &str, cps: &BTreeMap<String, Vec<PathBuf>>) -> Result<Vec<Module>> {
    let mut out: Vec<Module> = Vec::new();
    let mut unread = Vec::new();
    for text in xml_documents(effective) {
        let text = match roxmltree::Document::parse(text) {
            Ok(_) => text.to_string(),
            Err(_) => {
                // First only the elements whose names XML does not allow (a property named
                // `javaTarget.qualifier?`), so that the properties and plugins the release
                // level is read from stay; then everything jforge does not read.
                let fixed = without_invalid_elements(text);
                if roxmltree::Document::parse(&fixed).is_ok() {
                    fixed
                } else {
                    without_unneeded_parts(&fixed)
                }
            }
        };
        let doc = match roxmltree::Document::parse(&text) {
            Ok(doc) => doc,
            Err(e) => {
                unread.push(e.to_string());
                continue;
            }
        };
        for p in doc.descendants().filter(|n| n.has_tag_name("project")) {
            if let Some(m) = module_of(p, cps)?
                && !out
                    .iter()
                    .any(|o| o.name == m.name && o.classes == m.classes)
            {
                out.push(m);
            }
        }
    }
    if out.is_empty() {
        if let Some(e) = unread.first() {
            bail!(
                "Maven's effective POM is not XML jforge can read ({e}); run `mvn help:effective-pom` in the project to see it, and report it to jforge with that output"
            );
        }
        bail!("the project has no module with Java classes (every module's packaging is pom)");
    }
    Ok(out)
}

/// The XML documents in `text`, one per `<?xml` declaration (and what comes before the
/// first, when it is not blank).
fn xml_documents(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text.match_indices("<?xml").map(|(i, _)| i).collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts
        .iter()
        .enumerate()
        .map(|(k, &a)| &text[a..starts.get(k + 1).copied().unwrap_or(text.len())])
        .filter(|d| !d.trim().is_empty())
        .collect()
}

/// `text` without the elements whose names are no XML names (`<javaTarget.qualifier?>`, a
/// property Maven's help plugin writes as it finds it), each with what it holds.
fn without_invalid_elements(text: &str) -> String {
    let Ok(open) = regex::Regex::new(r"<([A-Za-z_][^\s<>/]*)(/?)>") else {
        return text.to_string();
    };
    let valid = |n: &str| {
        n.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
    };
    let mut out = text.to_string();
    // Each pass removes one element; a bound keeps a malformed file from looping.
    for _ in 0..1000 {
        let Some(c) = open.captures_iter(&out).find(|c| !valid(&c[1])) else {
            break;
        };
        let whole = c.get(0).map_or(0..0, |m| m.range());
        let end = if &c[2] == "/" {
            whole.end
        } else {
            let close = format!("</{}>", &c[1]);
            out[whole.end..]
                .find(&close)
                .map_or(whole.end, |i| whole.end + i + close.len())
        };
        out.replace_range(whole.start..end, "");
    }
    out
}

/// `text` without the elements jforge does not read from an effective POM (outer ones
/// first, so that what they hold goes with them).
fn without_unneeded_parts(text: &str) -> String {
    const UNNEEDED: [&str; 14] = [
        "profiles",
        "reporting",
        "pluginManagement",
        "plugins",
        "properties",
        "dependencyManagement",
        "dependencies",
        "distributionManagement",
        "repositories",
        "pluginRepositories",
        "developers",
        "contributors",
        "resources",
        "testResources",
    ];
    let mut out = text.to_string();
    for name in UNNEEDED {
        let re = format!(r"(?s)<{name}(\s[^>]*)?/>|<{name}(\s[^>]*)?>.*?</{name}\s*>");
        if let Ok(re) = regex::Regex::new(&re) {
            out = re.replace_all(&out, "").to_string();
        }
    }
    out
}

/// The module a `<project>` of the effective POM describes; `None` for packaging `pom`.
fn module_of(p: roxmltree::Node, cps: &BTreeMap<String, Vec<PathBuf>>) -> Result<Option<Module>> {
    let packaging = child(p, "packaging").unwrap_or("jar");
    if packaging == "pom" {
        return Ok(None);
    }
    let artifact = child(p, "artifactId").context("a project without artifactId")?;
    let group = child(p, "groupId")
        .or_else(|| {
            p.children()
                .find(|c| c.has_tag_name("parent"))
                .and_then(|pa| child(pa, "groupId"))
        })
        .context("a project without groupId")?;
    let build = p
        .children()
        .find(|c| c.has_tag_name("build"))
        .with_context(|| format!("{artifact}: no <build> in the effective POM"))?;
    let dir = |tag: &str| -> Result<PathBuf> {
        child(build, tag)
            .map(PathBuf::from)
            .with_context(|| format!("{artifact}: no {tag} in the effective POM"))
    };
    let classes = dir("outputDirectory")?;
    let basedir = classes
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let sources = child(build, "sourceDirectory")
        .map(PathBuf::from)
        .unwrap_or_else(|| basedir.join("src/main/java"));
    let deps = cps
        .get(&format!("{group}:{artifact}"))
        .cloned()
        .unwrap_or_default();
    let test_classes = child(build, "testOutputDirectory")
        .map(PathBuf::from)
        .unwrap_or_else(|| basedir.join("target/test-classes"));
    Ok(Some(Module {
        name: artifact.to_string(),
        basedir,
        classes,
        test_sources: dir("testSourceDirectory")?,
        junit: junit_of(&deps),
        dependencies: deps,
        maven_args: Vec::new(),
        sources,
        test_release: test_release_of(p),
        test_classes,
        test_filter: test_filter_of(p),
    }))
}

/// The `<properties>` of an effective POM's `<project>`, by name.
fn properties_of<'a>(project: roxmltree::Node<'a, 'a>) -> BTreeMap<&'a str, &'a str> {
    project
        .children()
        .filter(|c| c.has_tag_name("properties"))
        .flat_map(|ps| ps.children().filter(roxmltree::Node::is_element))
        .map(|p| (p.tag_name().name(), p.text().map_or("", str::trim)))
        .collect()
}

/// `value` with its `${name}` references replaced from `props` (an effective POM
/// interpolates most of them; a profile's property may still name another), a few levels
/// deep; `None` when one stays unresolved.
fn resolve(value: &str, props: &BTreeMap<&str, &str>) -> Option<String> {
    let mut v = value.trim().to_string();
    for _ in 0..8 {
        let Some(start) = v.find("${") else {
            return Some(v);
        };
        let end = start + v[start..].find('}')?;
        let with = props.get(&v[start + 2..end])?;
        v.replace_range(start..=end, with);
    }
    (!v.contains("${")).then_some(v)
}

/// A Java level as Maven's compiler plugin takes it: `8`, `1.8`, `17` -> 8, 8, 17.
fn java_level(v: &str) -> Option<u32> {
    let v = v.trim();
    let v = v.strip_prefix("1.").filter(|r| !r.is_empty()).unwrap_or(v);
    v.parse().ok().filter(|&n| n > 0)
}

/// The maven-compiler-plugin of a `<build>` or `<pluginManagement>`.
fn compiler_in<'a, 'i>(parent: Option<roxmltree::Node<'a, 'i>>) -> Option<roxmltree::Node<'a, 'i>> {
    parent?
        .children()
        .filter(|c| c.has_tag_name("plugins"))
        .flat_map(|ps| ps.children().filter(|c| c.has_tag_name("plugin")))
        .find(|p| child(*p, "artifactId") == Some("maven-compiler-plugin"))
}

/// The Java release a module's tests are compiled for, from its effective POM's `<project>`:
/// maven-compiler-plugin's `testRelease`, then `release`, then `testTarget`/`testSource`,
/// then `target`/`source`, each from the plugin's `default-testCompile` execution, its
/// configuration, or the property the plugin reads (`maven.compiler.testRelease`, ...);
/// `${...}` references resolved against the project's properties.
pub fn test_release_of(project: roxmltree::Node) -> Option<u32> {
    let props = properties_of(project);
    // The build's plugin, else the one its pluginManagement configures.
    let build = project.children().find(|c| c.has_tag_name("build"));
    let managed = build.and_then(|b| b.children().find(|c| c.has_tag_name("pluginManagement")));
    let plugin = compiler_in(build).or_else(|| compiler_in(managed));
    let mut configs = Vec::new();
    if let Some(plugin) = plugin {
        configs.extend(
            plugin
                .descendants()
                .filter(|e| e.has_tag_name("execution"))
                .filter(|e| {
                    child(*e, "id") == Some("default-testCompile")
                        || e.descendants()
                            .any(|g| g.has_tag_name("goal") && g.text() == Some("testCompile"))
                })
                .filter_map(|e| e.children().find(|c| c.has_tag_name("configuration"))),
        );
        configs.extend(plugin.children().find(|c| c.has_tag_name("configuration")));
    }
    let level = |key: &str| -> Option<u32> {
        let set = |v: &str| resolve(v, &props).and_then(|v| java_level(&v));
        configs
            .iter()
            .find_map(|c| child(*c, key).and_then(set))
            .or_else(|| {
                props
                    .get(format!("maven.compiler.{key}").as_str())
                    .and_then(|v| set(v))
            })
    };
    [
        "testRelease",
        "release",
        "testTarget",
        "testSource",
        "target",
        "source",
    ]
    .into_iter()
    .find_map(level)
}

/// The leading block comment of a Java source (`/* ... */` before anything but blank lines),
/// its lines without trailing blanks.
fn leading_comment(text: &str) -> Option<String> {
    let rest = text.trim_start_matches('\u{feff}').trim_start();
    if !rest.starts_with("/*") {
        return None;
    }
    let end = rest.find("*/")? + 2;
    Some(
        rest[..end]
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// The license header of a module: the leading block comment that its test sources (its main
/// sources when it has no tests yet) share, files jforge wrote left out. Shared means by at
/// least 90% of the files (a file or two without it, say a generated one, do not matter), or,
/// when the files spell their header in several ways, the most common spelling if at least
/// half of the files use it: Commons CLI 1.9.0's tests use two spellings of the Apache header
/// (30 of 39 files and 9 of 39), both of which its license check (apache-rat) accepts, and a
/// file with none fails that check. `None` when there are no sources or no comment is shared.
pub fn license_header(m: &Module) -> Option<String> {
    let mut files = Vec::new();
    java_files(&m.test_sources, 0, &mut files);
    files.retain(|p| crate::emit::suite::Marker::of_file(p).is_none());
    if files.is_empty() {
        java_files(&m.sources, 0, &mut files);
    }
    shared_header(files.iter().filter_map(|p| std::fs::read_to_string(p).ok()))
}

/// The leading comment at least 90% of `texts` start with, or the most common one when at
/// least half of them (two or more) start with it (see [`license_header`]).
fn shared_header(texts: impl Iterator<Item = String>) -> Option<String> {
    let mut count: BTreeMap<Option<String>, usize> = BTreeMap::new();
    let mut total = 0;
    for t in texts {
        *count.entry(leading_comment(&t)).or_default() += 1;
        total += 1;
    }
    // The most common comment; ties go to the first in sorted order, so the choice is stable.
    let (header, n) = count
        .into_iter()
        .filter_map(|(h, n)| Some((h?, n)))
        .rev()
        .max_by_key(|(_, n)| *n)?;
    (n * 10 >= total * 9 || (n >= 2 && n * 2 >= total)).then_some(header)
}

/// The `.java` files below `dir`.
/// The binary names of the test classes jforge wrote into a module's test sources (files
/// with jforge's marker): left out when the module's own suite is run.
pub fn jforge_test_classes(m: &Module) -> Vec<String> {
    let mut files = Vec::new();
    java_files(&m.test_sources, 0, &mut files);
    let mut out: Vec<String> = files
        .iter()
        .filter(|p| crate::emit::suite::Marker::of_file(p).is_some())
        .filter_map(|p| p.strip_prefix(&m.test_sources).ok())
        .map(|rel| {
            rel.with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_string())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect();
    out.sort();
    out
}

fn java_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() && depth < 64 => java_files(&p, depth + 1, out),
            Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "java") => out.push(p),
            _ => {}
        }
    }
}

/// The modules named by `--module` (all when none is named); an unknown name lists the
/// project's modules.
pub fn choose(modules: Vec<Module>, names: &[String]) -> Result<Vec<Module>> {
    if names.is_empty() {
        return Ok(modules);
    }
    for n in names {
        if !modules.iter().any(|m| &m.name == n) {
            let all: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
            bail!(
                "no module '{n}' in the project; its modules are: {}",
                all.join(", ")
            );
        }
    }
    Ok(modules
        .into_iter()
        .filter(|m| names.contains(&m.name))
        .collect())
}

/// The modules of `--project` to generate tests for: read, chosen by `--module`, those
/// without JUnit left out with a warning that shows what to add (an error when none is left).
pub fn plan(project: &ProjectSettings, java: Option<&Path>) -> Result<Vec<Module>> {
    let dir = project.dir.as_path();
    let modules = choose(read(dir, java, &project.maven_args)?, &project.modules)?;
    let (with, without): (Vec<Module>, Vec<Module>) =
        modules.into_iter().partition(|m| m.junit.is_some());
    if with.is_empty() {
        bail!(
            "no module of {} declares JUnit, so nothing can run the tests jforge would write: add to the <dependencies> of {}:\n{}",
            dir.display(),
            without
                .iter()
                .map(|m| m.basedir.join("pom.xml").display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            junit_snippet()
        );
    }
    for m in &without {
        eprintln!(
            "warning: module {} declares no JUnit: no tests written there; add to the <dependencies> of {}:\n{}",
            m.name,
            m.basedir.join("pom.xml").display(),
            junit_snippet()
        );
    }
    Ok(with)
}

/// Every class in the module's classes folder (binary names).
pub fn classes_of(m: &Module) -> Result<Vec<String>> {
    crate::model::classpath::ClassPath::jar_classes(&m.classes)
}

/// One run of a command on a module of `--project`: the module and the selected classes it
/// holds.
pub struct ModuleRun {
    pub module: Module,
    pub classes: Vec<String>,
    /// More than one module runs: files named once per run get the module's name
    /// ([`per_module`]).
    pub many: bool,
}

/// `--project` for the commands that take `--class`/`--package` (coverage, exhaustive,
/// builders): the chosen modules (`--module`), each with the selected classes it holds (its
/// top-level classes when nothing is selected and `all_when_none`); modules holding none are
/// left out, and none at all is an error. `needs_junit`: modules without JUnit are left out
/// with the dependency to add (the command runs or writes tests there).
pub fn module_runs(
    project: &ProjectSettings,
    java: Option<&Path>,
    classes: &[String],
    packages: &[String],
    needs_junit: bool,
) -> Result<Vec<ModuleRun>> {
    let dir = project.dir.as_path();
    let modules = if needs_junit {
        plan(project, java)?
    } else {
        choose(read(dir, java, &project.maven_args)?, &project.modules)?
    };
    let wanted: Vec<String> = classes
        .iter()
        .map(|c| crate::select::normalize(c))
        .collect();
    let mut runs = Vec::new();
    for module in modules {
        let held: Vec<String> = classes_of(&module)?
            .into_iter()
            .filter(|c| {
                wanted.contains(c)
                    || packages
                        .iter()
                        .any(|p| c.starts_with(p.trim_end_matches(".*")) && !c.contains('$'))
                    || (wanted.is_empty() && packages.is_empty() && !c.contains('$'))
            })
            .collect();
        if !held.is_empty() {
            runs.push(ModuleRun {
                module,
                classes: held,
                many: false,
            });
        }
    }
    if runs.is_empty() {
        bail!(
            "no module of {} holds the classes named by --class/--package; name classes of the project's own modules",
            dir.display()
        );
    }
    let many = runs.len() > 1;
    runs.iter_mut().for_each(|r| r.many = many);
    Ok(runs)
}

/// Runs a command once per module of `--project` ([`module_runs`]): `one` gets the module and
/// the shared flags set for it (the module's class path and classes, `--stats-json` per
/// module when several run). Error tests found in any module make the outcome.
pub fn run_modules(
    project: &ProjectSettings,
    run: &RunSettings,
    needs_junit: bool,
    mut one: impl FnMut(&ModuleRun, RunSettings) -> Result<crate::exit::Outcome>,
) -> Result<crate::exit::Outcome> {
    use crate::exit::Outcome;
    let runs = module_runs(project, run.java.as_deref(), &run.classes, &[], needs_junit)?;
    let mut outcome = Outcome::Clean;
    for r in &runs {
        let mut shared = run.clone();
        shared.classpath = r.module.classpath();
        shared.classes = r.classes.clone();
        if r.many {
            shared.stats_json = (run.stats_json.as_ref()).map(|p| per_module(p, &r.module.name));
        }
        eprintln!("module {} ({} classes)", r.module.name, r.classes.len());
        if one(r, shared)? == Outcome::ErrorsFound {
            outcome = Outcome::ErrorsFound;
        }
    }
    Ok(outcome)
}

/// A suite written with `--project`: into the module's `src/test/java`, with the JUnit it
/// declares (4 when none), error tests as `...ErrorCases` (which `mvn test` skips), checked
/// with the module's JUnit jars unless `--junit-classpath` says otherwise, compiled for the
/// Java release its tests are, each file under the license header its sources share.
pub fn suite_into(m: &Module, suite: &mut SuiteSettings) -> Result<()> {
    suite.output_dir = Some(m.test_sources.clone());
    suite.junit = m.junit.unwrap_or(4);
    suite.errors_unrun = true;
    suite.test_release = m.test_release;
    suite.header = license_header(m);
    if suite.junit_classpath.is_none() {
        suite.junit_classpath = Some(m.junit_classpath()?);
    }
    Ok(())
}

/// `report.json` -> `report-<module>.json`: one report per module of a multi-module run.
pub fn per_module(p: &Path, module: &str) -> PathBuf {
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let ext = p
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    p.with_file_name(format!("{stem}-{module}{ext}"))
}

/// The Maven command that runs the error-revealing tests written by `--project` (named
/// `...ErrorCases`, see `emit::suite::UNRUN_SUFFIX`), which a plain `mvn test` skips.
pub fn errors_command(dir: &Path) -> String {
    format!(
        "mvn -f {} test -Dtest='*ErrorCases' -Dsurefire.failIfNoSpecifiedTests=false",
        dir.join("pom.xml").display()
    )
}

/// `junit-platform-launcher` at `version`, from jforge's cache or fetched through Maven.
fn fetch_launcher(version: &str, maven_args: &[String]) -> Result<PathBuf> {
    fetch_platform_jar(
        "junit-platform-launcher",
        version,
        maven_args,
        "needed to check JUnit 5 tests",
    )
}

/// `org.junit.platform:<artifact>:<version>`'s jar from the jforge cache, fetched through
/// Maven (`dependency:copy`) on first use.
fn fetch_platform_jar(
    artifact: &str,
    version: &str,
    maven_args: &[String],
    why: &str,
) -> Result<PathBuf> {
    let name = format!("{artifact}-{version}.jar");
    let caches = crate::runner::jar::cache_dirs();
    if let Some(p) = caches
        .iter()
        .map(|c| c.join("junit").join(&name))
        .find(|p| p.is_file())
    {
        return Ok(p);
    }
    let dest = caches
        .iter()
        .map(|c| c.join("junit"))
        .find(|d| std::fs::create_dir_all(d).is_ok())
        .context("no writable cache folder ($XDG_CACHE_HOME, ~/.cache or the temp directory)")?;
    let jar = dest.join(&name);
    crate::maven::Call {
        dir: &dest,
        java_home: None,
        user: maven_args,
        doing: format!("fetch org.junit.platform:{artifact}:{version} ({why})"),
    }
    .run(&[
        format!("{DEPENDENCY_PLUGIN}:copy"),
        format!("-Dartifact=org.junit.platform:{artifact}:{version}"),
        format!("-DoutputDirectory={}", dest.display()),
    ])?;
    if !jar.is_file() {
        bail!(
            "Maven fetched org.junit.platform:{artifact}:{version} but {} is not there; pass the JUnit jars with --junit-classpath",
            jar.display()
        );
    }
    Ok(jar)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EFFECTIVE: &str = r#"<?xml version="1.0"?>
<projects>
  <project xmlns="http://maven.apache.org/POM/4.0.0">
    <groupId>org.acme</groupId><artifactId>parent</artifactId><packaging>pom</packaging>
    <build><outputDirectory>/p/target/classes</outputDirectory><testSourceDirectory>/p/src/test/java</testSourceDirectory></build>
  </project>
  <project xmlns="http://maven.apache.org/POM/4.0.0">
    <parent><groupId>org.acme</groupId><artifactId>parent</artifactId></parent>
    <artifactId>core</artifactId>
    <dependencies><dependency><artifactId>junit</artifactId></dependency></dependencies>
    <build><outputDirectory>/p/core/target/classes</outputDirectory><testSourceDirectory>/p/core/src/test/java</testSourceDirectory></build>
  </project>
  <project xmlns="http://maven.apache.org/POM/4.0.0">
    <groupId>org.acme</groupId><artifactId>app</artifactId>
    <build><outputDirectory>/p/app/target/classes</outputDirectory><testSourceDirectory>/p/app/src/test/java</testSourceDirectory></build>
  </project>
</projects>"#;

    #[test]
    fn modules_come_from_the_effective_pom_and_their_class_paths() {
        let mut cps = BTreeMap::new();
        cps.insert(
            "org.acme:core".to_string(),
            vec![
                PathBuf::from("/m2/commons-lang3-3.12.0.jar"),
                PathBuf::from("/m2/junit-4.13.2.jar"),
                PathBuf::from("/m2/hamcrest-core-1.3.jar"),
            ],
        );
        cps.insert(
            "org.acme:app".to_string(),
            vec![
                PathBuf::from("/p/core/target/classes"),
                PathBuf::from("/m2/junit-jupiter-api-5.10.2.jar"),
                PathBuf::from("/m2/junit-platform-engine-1.10.2.jar"),
            ],
        );
        let m = modules_of(EFFECTIVE, &cps).unwrap();
        let names: Vec<&str> = m.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["core", "app"]);
        assert_eq!(m[0].junit, Some(4));
        assert_eq!(m[1].junit, Some(5));
        assert_eq!(m[0].basedir, PathBuf::from("/p/core"));
        assert_eq!(m[0].test_sources, PathBuf::from("/p/core/src/test/java"));
        assert_eq!(
            m[0].classpath(),
            "/p/core/target/classes:/m2/commons-lang3-3.12.0.jar:/m2/junit-4.13.2.jar:/m2/hamcrest-core-1.3.jar"
        );
        assert_eq!(
            m[0].junit_classpath().unwrap(),
            "/m2/junit-4.13.2.jar:/m2/hamcrest-core-1.3.jar"
        );
        let e = choose(m, &["nope".to_string()]).unwrap_err().to_string();
        assert!(e.contains("its modules are: core, app"), "{e}");
    }

    /// What `help:effective-pom` wrote for Apache Commons CSV when it shared a call with
    /// `compile`: a header document, then the project with an invalid element name.
    const BROKEN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by Maven Help Plugin -->
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <groupId>org.apache.commons</groupId><artifactId>commons-csv</artifactId>
  <properties>
    <javaTarget.qualifier></javaTarget.qualifier>
    <javaTarget.qualifier?></javaTarget.qualifier?>
  </properties>
  <build>
    <outputDirectory>/c/target/classes</outputDirectory><testSourceDirectory>/c/src/test/java</testSourceDirectory>
    <plugins><plugin><configuration><a?b/></configuration></plugin></plugins>
  </build>
</project>"#;

    #[test]
    fn an_effective_pom_is_read_past_extra_documents_and_invalid_names() {
        let mut cps = BTreeMap::new();
        cps.insert(
            "org.apache.commons:commons-csv".to_string(),
            vec![PathBuf::from("/m2/junit-jupiter-api-5.12.2.jar")],
        );
        let m = modules_of(BROKEN, &cps).unwrap();
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].name, "commons-csv");
        assert_eq!(m[0].classes, PathBuf::from("/c/target/classes"));
        assert_eq!(m[0].test_sources, PathBuf::from("/c/src/test/java"));
        assert_eq!(m[0].junit, Some(5));
        // A document nothing can be read from is still an error that says what to do.
        let e = modules_of("<project><build>", &cps)
            .unwrap_err()
            .to_string();
        assert!(e.contains("mvn help:effective-pom"), "{e}");
    }

    #[test]
    fn jar_names_give_artifact_and_version() {
        assert_eq!(
            jar_stem(Path::new("/x/junit-jupiter-api-5.10.2.jar")),
            "junit-jupiter-api"
        );
        assert_eq!(jar_stem(Path::new("/x/junit-4.13.2.jar")), "junit");
        assert_eq!(
            version_of(Path::new("/x/junit-4.13.2.jar"), "junit").as_deref(),
            Some("4.13.2")
        );
        assert_eq!(
            version_of(Path::new("/x/junit-jupiter-api-5.10.2.jar"), "junit"),
            None
        );
        assert_eq!(
            junit_of(&[PathBuf::from("/x/commons-lang3-3.12.0.jar")]),
            None
        );
        assert_eq!(junit_of(&[PathBuf::from("/x/junit-3.8.2.jar")]), None);
    }

    /// The parts of Apache Commons CSV 1.14.1's effective POM (`mvn help:effective-pom`)
    /// that set its level: `maven.compiler.release` 8 from a JDK 9+ profile of its parent,
    /// `source`/`target` 1.8 in the compiler plugin's pluginManagement.
    const COMMONS_CSV: &str = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <artifactId>commons-csv</artifactId>
  <properties>
    <commons.compiler.release>8</commons.compiler.release>
    <maven.compiler.release>8</maven.compiler.release>
    <maven.compiler.source>1.8</maven.compiler.source>
    <maven.compiler.target>1.8</maven.compiler.target>
  </properties>
  <build>
    <pluginManagement><plugins><plugin>
      <artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version>
      <configuration><source>1.8</source><target>1.8</target><encoding>UTF-8</encoding></configuration>
    </plugin></plugins></pluginManagement>
  </build>
</project>"#;

    fn release_of(xml: &str) -> Option<u32> {
        let doc = roxmltree::Document::parse(xml).unwrap();
        test_release_of(doc.root_element())
    }

    #[test]
    fn the_test_release_comes_from_the_compiler_plugin_or_its_properties() {
        assert_eq!(release_of(COMMONS_CSV), Some(8));
        let pom = |props: &str, config: &str| {
            format!(
                "<project><properties>{props}</properties><build><plugins><plugin>\
                 <artifactId>maven-compiler-plugin</artifactId>{config}</plugin></plugins></build></project>"
            )
        };
        // Nothing said: the JDK's own.
        assert_eq!(release_of(&pom("", "")), None);
        // source/target alone, "1.x" or "x".
        assert_eq!(
            release_of(&pom(
                "<maven.compiler.source>1.7</maven.compiler.source>",
                ""
            )),
            Some(7)
        );
        assert_eq!(
            release_of(&pom(
                "",
                "<configuration><target>11</target></configuration>"
            )),
            Some(11)
        );
        // release beats source/target; testRelease beats release.
        assert_eq!(
            release_of(&pom(
                "<maven.compiler.release>11</maven.compiler.release>",
                "<configuration><source>1.8</source><target>1.8</target></configuration>"
            )),
            Some(11)
        );
        assert_eq!(
            release_of(&pom(
                "<maven.compiler.release>11</maven.compiler.release><maven.compiler.testRelease>17</maven.compiler.testRelease>",
                ""
            )),
            Some(17)
        );
        // The testCompile execution's configuration beats the plugin's.
        assert_eq!(
            release_of(&pom(
                "",
                "<configuration><release>8</release></configuration><executions><execution>\
                 <id>default-testCompile</id><configuration><release>21</release></configuration>\
                 </execution></executions>"
            )),
            Some(21)
        );
        // A reference the effective POM left is resolved; an unresolvable one is no level.
        assert_eq!(
            release_of(&pom(
                "<jdk.level>${base.level}</jdk.level><base.level>9</base.level>",
                "<configuration><release>${jdk.level}</release></configuration>"
            )),
            Some(9)
        );
        assert_eq!(
            release_of(&pom(
                "<maven.compiler.release>${nowhere}</maven.compiler.release><maven.compiler.source>8</maven.compiler.source>",
                ""
            )),
            Some(8)
        );
        // Read into each module.
        let m = modules_of(EFFECTIVE, &BTreeMap::new()).unwrap();
        assert_eq!(m[0].test_release, None);
        assert_eq!(m[0].sources, PathBuf::from("/p/core/src/main/java"));
    }

    const APACHE: &str = "/*\n * Licensed to the Apache Software Foundation (ASF) under one\n * or more contributor license agreements.\n */";

    #[test]
    fn elements_with_names_xml_does_not_allow_are_cut_and_the_rest_is_read() {
        let text = "<project><properties><a>1</a><javaTarget.qualifier?>x</javaTarget.qualifier?><b?/><maven.compiler.release>8</maven.compiler.release></properties></project>";
        assert!(roxmltree::Document::parse(text).is_err());
        let fixed = without_invalid_elements(text);
        assert_eq!(
            fixed,
            "<project><properties><a>1</a><maven.compiler.release>8</maven.compiler.release></properties></project>"
        );
        let doc = roxmltree::Document::parse(&fixed).unwrap();
        assert_eq!(test_release_of(doc.root_element()), Some(8));
    }

    #[test]
    fn surefire_patterns_become_class_name_expressions() {
        let m = |pat: &str, class: &str| {
            regex::Regex::new(&surefire_pattern(pat).unwrap())
                .unwrap()
                .is_match(class)
        };
        assert!(m("**/*Test.java", "org.apache.commons.csv.CSVParserTest"));
        assert!(m("**/*Test.java", "CSVParserTest"));
        assert!(!m("**/*Test.java", "org.apache.commons.csv.CSVParserTests"));
        assert!(m("**/Test*.java", "a.b.TestFoo"));
        assert!(!m("**/Test*.java", "a.TestPkg.Foo"));
        assert!(m("**/*Benchmark*", "org.apache.commons.csv.CSVBenchmark"));
        assert!(m("**/*$*", "a.FooTest$Inner"));
        assert!(!m("**/*$*", "a.FooTest"));
        assert!(m("org/acme/**/It*.java", "org.acme.x.y.ItCase"));
        assert!(!m("org/acme/**/It*.java", "org.other.ItCase"));
        assert!(m("%regex[.*Perf.*Test.*]", "a.PerfLoadTest"));
        assert!(surefire_pattern("  ").is_none());
    }

    #[test]
    fn the_surefire_filter_is_read_from_the_effective_pom() {
        let pom =
            |plugin: &str| format!("<project><build><plugins>{plugin}</plugins></build></project>");
        let read = |text: &str| {
            let doc = roxmltree::Document::parse(text).unwrap();
            test_filter_of(doc.root_element())
        };
        // nothing configured: Surefire's defaults
        assert_eq!(read(&pom("")), TestFilter::default());
        let f = read(&pom(
            "<plugin><artifactId>maven-surefire-plugin</artifactId><configuration>\
             <excludes><exclude>**/*Benchmark*</exclude><exclude>**/PerformanceTest.java</exclude></excludes>\
             </configuration></plugin>",
        ));
        assert_eq!(f.includes, TestFilter::default().includes);
        assert_eq!(f.excludes.len(), 3, "{f:?}");
        let f = read(&pom(
            "<plugin><artifactId>maven-surefire-plugin</artifactId><executions><execution>\
             <id>default-test</id><configuration><includes><include>**/*Spec.java</include></includes>\
             </configuration></execution></executions></plugin>",
        ));
        assert_eq!(f.includes, vec!["^(.*\\.)?[^.]*Spec$".to_string()]);
    }

    #[test]
    fn the_license_header_is_the_comment_nearly_every_source_starts_with() {
        let d = tempfile::tempdir().unwrap();
        let m = Module {
            name: "m".into(),
            basedir: d.path().to_path_buf(),
            classes: d.path().join("target/classes"),
            test_sources: d.path().join("src/test/java"),
            dependencies: vec![],
            junit: Some(4),
            maven_args: vec![],
            sources: d.path().join("src/main/java"),
            test_release: None,
            test_classes: d.path().join("target/test-classes"),
            test_filter: TestFilter::default(),
        };
        let put = |rel: &str, text: &str| {
            let p = d.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        assert_eq!(license_header(&m), None, "no sources");
        // No tests yet: the main sources say it (trailing blanks and CRLF do not matter).
        put(
            "src/main/java/a/A.java",
            &format!(
                "{}  \r\npackage a;\nclass A {{}}\n",
                APACHE.replace('\n', "\r\n")
            ),
        );
        put(
            "src/main/java/a/B.java",
            &format!("{APACHE}\npackage a;\nclass B {{}}\n"),
        );
        assert_eq!(license_header(&m).as_deref(), Some(APACHE));
        // Tests there: theirs, one file in ten without it still counts, a file jforge wrote
        // is not asked.
        put(
            "src/test/java/a/ATest.java",
            "/* Another header */\npackage a;\n",
        );
        put(
            "src/test/java/a/BRegressionTest.java",
            "// jforge: gen, classes: a.B, run: 1\npackage a;\n",
        );
        assert_eq!(license_header(&m).as_deref(), Some("/* Another header */"));
        for i in 0..9 {
            put(
                &format!("src/test/java/a/T{i}Test.java"),
                &format!("{APACHE}\npackage a;\n"),
            );
        }
        assert_eq!(license_header(&m).as_deref(), Some(APACHE));
        put("src/test/java/a/ZTest.java", "package a;\nclass ZTest {}\n");
        assert_eq!(
            license_header(&m).as_deref(),
            Some(APACHE),
            "9 of 11: the most common of two spellings, used by most files"
        );
        // A second spelling of the same header in a third of the files (Commons CLI's case).
        let spelled = "/*\n  Licensed to the Apache Software Foundation (ASF) under one\n */";
        for i in 0..5 {
            put(
                &format!("src/test/java/a/U{i}Test.java"),
                &format!("{spelled}\npackage a;\n"),
            );
        }
        assert_eq!(license_header(&m).as_deref(), Some(APACHE), "9 of 16");
        for i in 0..6 {
            put(&format!("src/test/java/a/V{i}Test.java"), "package a;\n");
        }
        assert_eq!(
            license_header(&m),
            None,
            "9 of 22: no header is shared by half of the files"
        );
    }
}
