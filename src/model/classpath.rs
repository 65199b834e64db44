//! Class path entries: class folders, jars, and the JDK's own modules (`$JAVA_HOME/jmods`).
//!
//! Why an index: a test generator asks for many classes by name, so each jar is opened once, its
//! central directory is turned into a `binary name -> entry index` map, and later lookups are a
//! map access plus one inflate. Archives sit behind a `Mutex` because reading an entry needs
//! `&mut ZipArchive` while lookups take `&self`.
//!
//! `.jmod` files are a 4-byte header (`JM\x01\x00`) followed by an ordinary zip whose class
//! files live under `classes/`; they are read through a reader that hides the header.
//!
//! All listings are sorted so that everything downstream is deterministic.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, anyhow, bail};
use zip::ZipArchive;

/// Class bytes and package listings of the JDK's own modules.
pub trait JdkClasses {
    fn class_bytes(&mut self, binary_name: &str) -> anyhow::Result<Option<Vec<u8>>>;
    /// Binary names of the JDK classes whose name starts with `package_prefix.`.
    fn list_classes(&mut self, package_prefix: &str) -> anyhow::Result<Vec<String>>;
    /// The module of a JDK class (`java.logging` for `java.util.logging.Logger`), when the
    /// source knows it. Why: an instrumented JDK class must be patched into its own module
    /// (`--patch-module java.logging=...`); put into java.base, its package would be in two
    /// modules and the JVM would not boot.
    fn module_of(&mut self, _binary_name: &str) -> Option<String> {
        None
    }
}

/// A reader that shows a file from `base` on, so a zip with a prefix header reads as plain zip.
struct Offset<R> {
    inner: R,
    base: u64,
}

impl<R: Read> Read for Offset<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
}

impl<R: Seek> Seek for Offset<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        let p = match pos {
            SeekFrom::Start(n) => self
                .inner
                .seek(SeekFrom::Start(n.saturating_add(self.base)))?,
            other => self.inner.seek(other)?,
        };
        if p < self.base {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek before start of archive",
            ));
        }
        Ok(p - self.base)
    }
}

/// Class files are far smaller; anything bigger is a corrupt or hostile archive.
const MAX_CLASS_BYTES: u64 = 64 << 20;

type Archive = ZipArchive<Offset<BufReader<File>>>;

/// An opened zip (jar or jmod) with a class-name index.
struct Zip {
    path: PathBuf,
    archive: Mutex<Archive>,
    /// Binary name -> entry index.
    index: BTreeMap<String, usize>,
}

impl Zip {
    /// Open `path`, skipping `header` bytes; entries under `prefix` (e.g. `classes/`) are indexed.
    fn open(path: &Path, header: u64, prefix: &str) -> Result<Zip> {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut reader = Offset {
            inner: BufReader::new(file),
            base: header,
        };
        reader.seek(SeekFrom::Start(0))?;
        let archive = ZipArchive::new(reader).with_context(|| {
            format!(
                "{} is not a readable zip/jar archive (is the file corrupt or not a jar?)",
                path.display()
            )
        })?;
        // `file_names` yields names in entry-index order (the archive keeps an ordered map).
        let mut index = BTreeMap::new();
        for (i, entry) in archive.file_names().enumerate() {
            let Ok(entry) = entry else { continue };
            if let Some(name) = entry.strip_prefix(prefix).and_then(class_entry_name) {
                index.entry(name).or_insert(i);
            }
        }
        Ok(Zip {
            path: path.to_path_buf(),
            archive: Mutex::new(archive),
            index,
        })
    }

    fn read(&self, binary_name: &str) -> Result<Option<Vec<u8>>> {
        let Some(&i) = self.index.get(binary_name) else {
            return Ok(None);
        };
        let mut archive = self
            .archive
            .lock()
            .map_err(|_| anyhow!("archive lock poisoned"))?;
        let f = archive
            .by_index(i)
            .with_context(|| format!("cannot read {binary_name} from {}", self.path.display()))?;
        if f.size() > MAX_CLASS_BYTES {
            bail!(
                "{binary_name} in {} is {} bytes, too large for a class file (corrupt archive?)",
                self.path.display(),
                f.size()
            );
        }
        let mut out = Vec::with_capacity(f.size() as usize);
        f.take(MAX_CLASS_BYTES + 1)
            .read_to_end(&mut out)
            .with_context(|| {
                format!(
                    "cannot read {binary_name} from {} (corrupt archive?)",
                    self.path.display()
                )
            })?;
        Ok(Some(out))
    }
}

/// Turn a zip entry or relative file path `a/b/C$D.class` into `a.b.C$D`; `None` for non-class
/// entries, `module-info`, `package-info` and multi-release `META-INF/versions/...` entries.
fn class_entry_name(entry: &str) -> Option<String> {
    let stem = entry.strip_suffix(".class")?;
    if stem.starts_with("META-INF/") || stem.is_empty() {
        return None;
    }
    let simple = stem.rsplit('/').next().unwrap_or(stem);
    if simple == "module-info" || simple == "package-info" {
        return None;
    }
    Some(stem.replace('/', "."))
}

/// `prefix` filter: `com.acme` matches `com.acme.X` and `com.acme.sub.Y`, not `com.acmex.Z`.
fn matches_prefix(name: &str, prefix: Option<&str>) -> bool {
    match prefix {
        None | Some("") => true,
        Some(p) => name
            .strip_prefix(p)
            .is_some_and(|rest| rest.starts_with('.')),
    }
}

/// The JDK's classes read from `$JAVA_HOME/jmods/*.jmod`.
pub struct JmodClasses {
    jmods: Vec<Zip>,
    /// Module name of each jmod (its file name without `.jmod`).
    modules: Vec<String>,
    /// Binary name -> index into `jmods` (first module wins).
    owner: BTreeMap<String, usize>,
}

impl JmodClasses {
    /// Open every `.jmod` of `java_home`. `Ok(None)` when there is no `jmods` directory (a JRE or
    /// a JDK image without jmods).
    pub fn open(java_home: &Path) -> Result<Option<JmodClasses>> {
        let dir = java_home.join("jmods");
        if !dir.is_dir() {
            return Ok(None);
        }
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .with_context(|| format!("cannot list {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jmod"))
            .collect();
        paths.sort();
        // java.base first: it answers most look-ups.
        if let Some(i) = paths
            .iter()
            .position(|p| p.file_name().is_some_and(|n| n == "java.base.jmod"))
        {
            let p = paths.remove(i);
            paths.insert(0, p);
        }
        let mut jmods = Vec::new();
        let mut modules = Vec::new();
        let mut owner = BTreeMap::new();
        for p in paths {
            let mut header = [0u8; 4];
            File::open(&p)
                .and_then(|mut f| f.read_exact(&mut header))
                .with_context(|| format!("cannot read {}", p.display()))?;
            if &header != b"JM\x01\x00" {
                bail!(
                    "{} is not a jmod file (bad header); check JAVA_HOME",
                    p.display()
                );
            }
            let z = Zip::open(&p, 4, "classes/")?;
            let idx = jmods.len();
            for name in z.index.keys() {
                owner.entry(name.clone()).or_insert(idx);
            }
            jmods.push(z);
            modules.push(
                p.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
        Ok(Some(JmodClasses {
            jmods,
            modules,
            owner,
        }))
    }
}

impl JdkClasses for JmodClasses {
    fn class_bytes(&mut self, binary_name: &str) -> Result<Option<Vec<u8>>> {
        match self.owner.get(binary_name) {
            Some(&i) => self.jmods[i].read(binary_name),
            None => Ok(None),
        }
    }

    fn list_classes(&mut self, package_prefix: &str) -> Result<Vec<String>> {
        Ok(self
            .owner
            .keys()
            .filter(|n| matches_prefix(n, Some(package_prefix)))
            .cloned()
            .collect())
    }

    fn module_of(&mut self, binary_name: &str) -> Option<String> {
        self.owner
            .get(binary_name)
            .map(|&i| self.modules[i].clone())
    }
}

enum Entry {
    Dir(PathBuf),
    Jar(Zip),
}

/// The user's class path: class folders and jars, searched in order.
pub struct ClassPath {
    paths: Vec<PathBuf>,
    entries: Vec<Entry>,
}

impl ClassPath {
    /// Each entry must exist and be a directory or a readable jar/zip.
    pub fn new(entries: &[PathBuf]) -> Result<ClassPath> {
        let mut out = Vec::with_capacity(entries.len());
        for p in entries {
            if p.is_dir() {
                out.push(Entry::Dir(p.clone()));
            } else if p.is_file() {
                let z = Zip::open(p, 0, "").map_err(|e| {
                    anyhow!(
                        "class path entry {} is a file but not a readable jar ({}): pass a jar or a folder of .class files",
                        p.display(),
                        e.root_cause()
                    )
                })?;
                out.push(Entry::Jar(z));
            } else {
                bail!(
                    "class path entry {} does not exist: check the path (compile the project first if it is a build output folder)",
                    p.display()
                );
            }
        }
        Ok(ClassPath {
            paths: entries.to_vec(),
            entries: out,
        })
    }

    /// Parse a `:`-separated class path. An empty string (or empty segments) means no entries; a
    /// `dir/*` entry expands to the `.jar`/`.JAR` files of `dir` (sorted), like `java` does.
    pub fn parse(s: &str) -> Result<ClassPath> {
        let mut paths = Vec::new();
        for part in s.split(':').filter(|p| !p.is_empty()) {
            if part == "*" || part.ends_with("/*") {
                let dir = Path::new(part.strip_suffix('*').unwrap_or(part));
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                let rd = std::fs::read_dir(dir).with_context(|| {
                    format!(
                        "class path wildcard {part}: cannot list folder {}",
                        dir.display()
                    )
                })?;
                let mut jars: Vec<PathBuf> = rd
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.is_file() && p.extension().is_some_and(|e| e == "jar" || e == "JAR")
                    })
                    .collect();
                jars.sort();
                paths.extend(jars);
            } else {
                paths.push(PathBuf::from(part));
            }
        }
        ClassPath::new(&paths)
    }

    pub fn entries(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Bytes of the class `binary_name` (dots, `$` kept) from the first entry holding it.
    pub fn find(&self, binary_name: &str) -> Result<Option<Vec<u8>>> {
        Ok(self.find_with_origin(binary_name)?.map(|(b, _)| b))
    }

    /// Like [`ClassPath::find`], also returning the entry the class came from.
    pub fn find_with_origin(&self, binary_name: &str) -> Result<Option<(Vec<u8>, PathBuf)>> {
        if binary_name.is_empty() || binary_name.contains('/') || binary_name.contains("..") {
            return Ok(None);
        }
        for (e, p) in self.entries.iter().zip(&self.paths) {
            match e {
                Entry::Dir(d) => {
                    let f = d.join(format!("{}.class", binary_name.replace('.', "/")));
                    if f.is_file() {
                        let b = std::fs::read(&f)
                            .with_context(|| format!("cannot read {}", f.display()))?;
                        return Ok(Some((b, p.clone())));
                    }
                }
                Entry::Jar(z) => {
                    if let Some(b) = z.read(binary_name)? {
                        return Ok(Some((b, p.clone())));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Sorted, deduplicated binary names of all classes in all entries, optionally only those in
    /// package `package_prefix` or its sub-packages.
    pub fn list_classes(&self, package_prefix: Option<&str>) -> Vec<String> {
        let mut out = std::collections::BTreeSet::new();
        for e in &self.entries {
            match e {
                Entry::Dir(d) => {
                    let mut names = Vec::new();
                    walk_dir(d, d, 0, &mut names);
                    out.extend(
                        names
                            .into_iter()
                            .filter(|n| matches_prefix(n, package_prefix)),
                    );
                }
                Entry::Jar(z) => {
                    out.extend(
                        z.index
                            .keys()
                            .filter(|n| matches_prefix(n, package_prefix))
                            .cloned(),
                    );
                }
            }
        }
        out.into_iter().collect()
    }

    /// Sorted class names in one jar (no module-info, package-info or META-INF/versions).
    /// The classes of a jar, or of a class folder.
    pub fn jar_classes(jar: &Path) -> Result<Vec<String>> {
        if jar.is_dir() {
            let mut out = Vec::new();
            walk_dir(jar, jar, 0, &mut out);
            out.sort();
            return Ok(out);
        }
        let z = Zip::open(jar, 0, "")?;
        Ok(z.index.into_keys().collect())
    }
}

fn walk_dir(root: &Path, dir: &Path, depth: usize, out: &mut Vec<String>) {
    // Depth limit guards against symlink loops.
    if depth > 64 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk_dir(root, &p, depth + 1, out);
        } else if let Ok(rel) = p.strip_prefix(root) {
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if let Some(n) = class_entry_name(&rel.join("/")) {
                out.push(n);
            }
        }
    }
}

/// The home of the `java` on PATH, as unit tests of JDK classes find it.
#[cfg(test)]
pub(crate) fn test_java_home() -> std::path::PathBuf {
    let settings = std::process::Command::new("java")
        .args(["-XshowSettings:properties", "-version"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&settings.stderr);
    text.lines()
        .find_map(|l| l.trim().strip_prefix("java.home = "))
        .map(std::path::PathBuf::from)
        .expect("java.home")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names() {
        assert_eq!(
            class_entry_name("a/b/C$D.class").as_deref(),
            Some("a.b.C$D")
        );
        assert_eq!(class_entry_name("module-info.class"), None);
        assert_eq!(class_entry_name("a/package-info.class"), None);
        assert_eq!(class_entry_name("META-INF/versions/11/a/B.class"), None);
        assert_eq!(class_entry_name("a/B.txt"), None);
        assert!(matches_prefix("com.acme.X", Some("com.acme")));
        assert!(matches_prefix("com.acme.sub.Y", Some("com.acme")));
        assert!(!matches_prefix("com.acmex.Z", Some("com.acme")));
        assert!(!matches_prefix("com.acme", Some("com.acme")));
    }
}
