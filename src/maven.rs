//! Every `mvn` jforge starts: the user's Maven flags on each call, and a failure that says
//! which command failed and what Maven said.
//!
//! Why one place: a build may need flags to pass at all (`-Drat.skip`, a profile, an offline
//! mirror), and they must reach every Maven call (compile, effective POM, class path, the
//! JUnit launcher), not only the first. They come from the `MAVEN_ARGS` environment variable
//! ([`env_args`], split as a shell would; Maven 3.9 reads it itself, 3.8 does not, so jforge
//! passes it on the command line and removes it from Maven's environment) and from
//! `--maven-arg`, in that order.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The flags every Maven call starts with: batch mode, quiet, no colours.
const BASE: [&str; 3] = ["-B", "-q", "-Dstyle.color=never"];

/// `MAVEN_ARGS`, split into words as a shell would (quotes group, backslashes escape); none
/// when it is unset or blank.
pub fn env_args() -> Result<Vec<String>> {
    match std::env::var("MAVEN_ARGS") {
        Ok(text) => split_args(&text),
        Err(_) => Ok(Vec::new()),
    }
}

/// `text` split into words as a shell would.
fn split_args(text: &str) -> Result<Vec<String>> {
    shlex::split(text).with_context(|| {
        format!(
            "cannot split MAVEN_ARGS='{text}' into words (an unclosed quote?): write it as a shell command line, e.g. MAVEN_ARGS='-Drat.skip -Pfast'"
        )
    })
}

/// One Maven call: `mvn -B -q -Dstyle.color=never <user flags> <goals>` in `dir`.
pub struct Call<'a> {
    /// The folder Maven runs in (the project's, or a scratch folder).
    pub dir: &'a Path,
    /// The JDK Maven runs with (`JAVA_HOME`), else Maven's own choice.
    pub java_home: Option<PathBuf>,
    /// The user's flags: `MAVEN_ARGS`, then `--maven-arg`.
    pub user: &'a [String],
    /// What the call is for, in the error ("compile the project in /p").
    pub doing: String,
}

impl Call<'_> {
    /// Every word after `mvn`.
    fn words(&self, goals: &[String]) -> Vec<String> {
        BASE.iter()
            .map(|s| s.to_string())
            .chain(self.user.iter().cloned())
            .chain(goals.iter().cloned())
            .collect()
    }

    /// The command as the user could paste it into a shell.
    pub fn shown(&self, goals: &[String]) -> String {
        let mut parts = vec![format!("cd {} &&", quote(&self.dir.display().to_string()))];
        if let Some(h) = &self.java_home {
            parts.push(format!("JAVA_HOME={}", quote(&h.display().to_string())));
        }
        parts.push("mvn".to_string());
        parts.extend(self.words(goals).iter().map(|w| quote(w)));
        parts.join(" ")
    }

    /// Runs Maven with `goals`; a failure (Maven missing, or a non-zero exit) is an error
    /// naming the command, Maven's first `[ERROR]` lines and what to do.
    pub fn run(&self, goals: &[String]) -> Result<Output> {
        let mut c = Command::new("mvn");
        c.current_dir(self.dir)
            .args(self.words(goals))
            .env_remove("MAVEN_ARGS")
            .stdin(Stdio::null());
        if let Some(h) = &self.java_home {
            c.env("JAVA_HOME", h);
        }
        let o = c.output().map_err(|e| {
            anyhow::anyhow!(
                "cannot run mvn to {} ({e}): Maven must be on the PATH (apt-get install maven)",
                self.doing
            )
        })?;
        if !o.status.success() {
            bail!(
                "Maven could not {} ({}).\ncommand: {}\n{}\nrun that command to see Maven's whole output and fix the build until it passes; Maven flags the build needs (e.g. -Drat.skip, -Pfast) go to every Maven call jforge makes with --maven-arg=FLAG (repeatable) or the MAVEN_ARGS environment variable",
                self.doing,
                o.status,
                self.shown(goals),
                first_errors(&o)
            );
        }
        Ok(o)
    }
}

/// `w` quoted for a shell when it needs it (`-Dstyle.color=never` does not).
fn quote(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c);
    if !w.is_empty() && w.chars().all(plain) {
        return w.to_string();
    }
    shlex::try_quote(w).map_or_else(|_| w.to_string(), |q| q.to_string())
}

/// Maven's first `[ERROR]` lines (colour escapes removed), else the last lines it wrote.
fn first_errors(o: &Output) -> String {
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    let plain = regex::Regex::new("\x1b\\[[0-9;]*m")
        .map(|re| re.replace_all(&text, "").to_string())
        .unwrap_or(text);
    // Maven's advice on re-running it with -e or -X follows every failure: not the cause.
    const BOILERPLATE: [&str; 5] = [
        "To see the full stack trace",
        "Re-run Maven using the -X",
        "For more information about the errors",
        "[Help 1] http",
        "After correcting the problems",
    ];
    let errors: Vec<&str> = plain
        .lines()
        .filter(|l| l.starts_with("[ERROR]") && l.len() > "[ERROR] ".len())
        .filter(|l| !BOILERPLATE.iter().any(|b| l.contains(b)))
        .take(5)
        .collect();
    if !errors.is_empty() {
        return errors.join("\n");
    }
    let lines: Vec<&str> = plain.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return "(Maven wrote nothing)".to_string();
    }
    lines[lines.len().saturating_sub(5)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maven_args_split_like_a_shell_and_commands_can_be_pasted() {
        assert_eq!(
            split_args(" -Drat.skip  -Dx='a b' -Pfast ").unwrap(),
            ["-Drat.skip", "-Dx=a b", "-Pfast"]
        );
        assert!(split_args("").unwrap().is_empty());
        let e = split_args("-Dx='a").unwrap_err().to_string();
        assert!(e.contains("MAVEN_ARGS"), "{e}");
        let user = vec!["-Dx=a b".to_string()];
        let call = Call {
            dir: Path::new("/p q"),
            java_home: None,
            user: &user,
            doing: "compile".into(),
        };
        assert_eq!(
            call.shown(&["compile".to_string()]),
            "cd '/p q' && mvn -B -q -Dstyle.color=never '-Dx=a b' compile"
        );
    }
}
