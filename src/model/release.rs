//! The JDK's API as of an older Java release, read from the JDK's own `lib/ct.sym`: the
//! signatures `javac --release N` compiles against. Why: a Maven project that compiles its
//! tests for Java 8 cannot compile a test calling `CharSequence.isEmpty()` (Java 15) or
//! `Reader.nullReader()` (Java 11), which the running JDK 17 offers. jforge's check compiles
//! the written tests with the project's release and removes such tests, but what they covered
//! went with them (Commons CSV's head: 6 tests of 34 in a 60 s run, issue 33 item 2). Left
//! out of the operations instead, the run spends its time on calls the project can keep.
//!
//! ct.sym is a zip whose top folders are named by the releases that share a file
//! (`879/java.base/java/io/Reader.sig`: Java 7, 8 and 9; `BCDEFG/...`: 11 to 16), each `.sig`
//! a class file of signatures. The release the JDK itself is has no folder: its API is the
//! JDK's own.

use super::ClassInfo;
use super::classfile::parse_class;
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

/// The classes of one release in a JDK's ct.sym.
pub struct ReleaseApi {
    release: u32,
    zip: zip::ZipArchive<File>,
    /// Internal class name (`java/io/Reader`) to its entry for this release.
    entries: HashMap<String, String>,
    /// Classes the release lacks that a later release of ct.sym has, to their entry there
    /// (only their superclass is read: [`ReleaseApi::nearest_class`]).
    later: HashMap<String, String>,
    parsed: HashMap<String, Option<ClassInfo>>,
}

/// The letter ct.sym names release `n` by (`8`, `9`, `A` for 10, `B` for 11, ...).
fn release_char(n: u32) -> Option<char> {
    match n {
        0..=9 => char::from_digit(n, 10),
        10..=35 => char::from_u32('A' as u32 + n - 10),
        _ => None,
    }
}

/// Whether `class` (binary name) is a class of the JDK, whose members may postdate a release
/// (the worker's `Outcomes.JDK_PREFIXES` are the same).
pub fn is_jdk_class(class: &str) -> bool {
    [
        "java.",
        "javax.",
        "jdk.",
        "sun.",
        "com.sun.",
        "org.w3c.",
        "org.xml.",
        "org.ietf.",
    ]
    .iter()
    .any(|p| class.starts_with(p))
}

impl ReleaseApi {
    /// The API of release `release` in the JDK at `java_home` (feature release `jdk`);
    /// `None` when that is the JDK's own release or newer (everything is there), or the JDK
    /// has no ct.sym or no folder for it (nothing is known: nothing is left out).
    pub fn open(java_home: &Path, jdk: u32, release: u32) -> Result<Option<ReleaseApi>> {
        if release >= jdk {
            return Ok(None);
        }
        let Some(c) = release_char(release) else {
            return Ok(None);
        };
        let path = java_home.join("lib").join("ct.sym");
        let Ok(file) = File::open(&path) else {
            return Ok(None);
        };
        let zip = zip::ZipArchive::new(file)
            .with_context(|| format!("reading {} (the JDK's API by release)", path.display()))?;
        let later_chars: Vec<char> = (release + 1..jdk).filter_map(release_char).collect();
        let (mut entries, mut later) = (HashMap::new(), HashMap::new());
        for name in zip.file_names() {
            let Ok(name) = name else { continue };
            let mut parts = name.splitn(3, '/');
            let (Some(dir), Some(_module), Some(rest)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let Some(class) = rest.strip_suffix(".sig") else {
                continue;
            };
            if dir.contains(c) {
                entries.insert(class.to_string(), name.to_string());
            } else if dir.contains(&later_chars[..]) {
                later.insert(class.to_string(), name.to_string());
            }
        }
        if entries.is_empty() {
            return Ok(None);
        }
        Ok(Some(ReleaseApi {
            release,
            zip,
            entries,
            later,
            parsed: HashMap::new(),
        }))
    }

    /// The release this describes.
    pub fn release(&self) -> u32 {
        self.release
    }

    /// The class (internal name) as of this release; `None` when it is not in it.
    fn class(&mut self, internal: &str) -> Option<&ClassInfo> {
        if !self.parsed.contains_key(internal) {
            let info = self.entries.get(internal).cloned().and_then(|e| {
                let mut f = self.zip.by_name(&e).ok()?;
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut f, &mut bytes).ok()?;
                parse_class(&bytes).ok()
            });
            self.parsed.insert(internal.to_string(), info);
        }
        self.parsed.get(internal).and_then(|c| c.as_ref())
    }

    /// The class a test compiled for this release names in place of `class` (binary name):
    /// `class` itself when the release has it, else its nearest superclass the release has,
    /// read from the later releases' signatures (`InaccessibleObjectException`, Java 9 ->
    /// `RuntimeException` at release 8). `None` when the chain is not known (a class new in
    /// the JDK's own release has no signature in ct.sym).
    pub fn nearest_class(&mut self, class: &str) -> Option<String> {
        let mut c = class.replace('.', "/");
        for _ in 0..32 {
            if self.class(&c).is_some() {
                return Some(c.replace('/', "."));
            }
            let entry = self.later.get(&c)?.clone();
            let mut f = self.zip.by_name(&entry).ok()?;
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut f, &mut bytes).ok()?;
            c = parse_class(&bytes).ok()?.super_class?.replace('.', "/");
        }
        None
    }

    /// Whether `class` (binary name) exists in this release.
    pub fn has_class(&mut self, class: &str) -> bool {
        self.class(&class.replace('.', "/")).is_some()
    }

    /// Whether `class` (binary name) has, declared or inherited, a method or constructor
    /// (`<init>`) `name` with erased descriptor `desc` in this release, or a field `name`
    /// when `desc` is `None`.
    pub fn has_member(&mut self, class: &str, name: &str, desc: Option<&str>) -> bool {
        let mut work = vec![class.replace('.', "/")];
        let mut seen = 0;
        while let Some(c) = work.pop() {
            seen += 1;
            if seen > 64 {
                break;
            }
            let Some(ci) = self.class(&c) else { continue };
            let found = match desc {
                Some(d) if name == "<init>" => ci.constructors.iter().any(|m| m.descriptor == d),
                Some(d) => ci
                    .methods
                    .iter()
                    .any(|m| m.name == name && m.descriptor == d),
                None => ci.fields.iter().any(|f| f.name == name),
            };
            if found {
                return true;
            }
            if name == "<init>" {
                return false;
            }
            work.extend(ci.super_class.iter().map(|s| s.replace('.', "/")));
            work.extend(ci.interfaces.iter().map(|s| s.replace('.', "/")));
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_8_lacks_what_java_11_and_15_added() {
        let home = crate::model::classpath::test_java_home();
        let Some(mut api) = ReleaseApi::open(&home, 17, 8).unwrap() else {
            panic!("the JDK at {} has no ct.sym", home.display());
        };
        assert_eq!(api.release(), 8);
        assert!(api.has_class("java.io.Reader"));
        assert!(!api.has_class("java.util.HexFormat"));
        assert!(api.has_member("java.io.Reader", "read", Some("()I")));
        assert!(!api.has_member("java.io.Reader", "nullReader", Some("()Ljava/io/Reader;")));
        assert!(!api.has_member("java.lang.CharSequence", "isEmpty", Some("()Z")));
        // inherited: StringBuilder's length() is CharSequence's, hashCode Object's
        assert!(api.has_member("java.lang.StringBuilder", "hashCode", Some("()I")));
        assert!(api.has_member("java.lang.String", "isEmpty", Some("()Z")));
        assert!(api.has_member("java.lang.Integer", "MAX_VALUE", None));
        assert!(api.has_member("java.util.ArrayList", "<init>", Some("(I)V")));
        // 11 has nullReader, not CharSequence.isEmpty
        let mut api11 = ReleaseApi::open(&home, 17, 11).unwrap().unwrap();
        assert!(api11.has_member("java.io.Reader", "nullReader", Some("()Ljava/io/Reader;")));
        assert!(!api11.has_member("java.lang.CharSequence", "isEmpty", Some("()Z")));
        // an exception class of Java 9 is caught as its superclass at release 8
        assert_eq!(
            api.nearest_class("java.lang.reflect.InaccessibleObjectException")
                .as_deref(),
            Some("java.lang.RuntimeException")
        );
        assert_eq!(
            api.nearest_class("java.io.UncheckedIOException").as_deref(),
            Some("java.io.UncheckedIOException")
        );
        assert_eq!(api.nearest_class("com.acme.NoSuch"), None);
        assert_eq!(
            api11
                .nearest_class("java.lang.reflect.InaccessibleObjectException")
                .as_deref(),
            Some("java.lang.reflect.InaccessibleObjectException")
        );
        // the JDK's own release: nothing to read
        assert!(ReleaseApi::open(&home, 17, 17).unwrap().is_none());
    }
}
