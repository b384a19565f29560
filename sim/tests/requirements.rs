//! The requirements document and the repository standing alone (X-1):
//!
//! - every requirement ID that a source file of `hdl/`, `sim/` or `testbenches/` cites (`SO-8`, or
//!   `so8_` in a test name) is listed in `docs/requirements.md`;
//! - no tracked text file names a path outside the repository (the sibling folder the
//!   specification came from, its seed texts, absolute paths of the machine it was written on);
//! - `docs/requirements.md` lists every ID of the six sections, and no other.
//!
//! "Listed" means the ID opens a Markdown heading (`### SO-8 Either order`) or the first cell of a
//! table row (`| SO-8 | ... |`).
use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The sections of the specification and how many requirements each has (IDs 1..=n).
const SECTIONS: [(&str, u32); 6] = [
    ("X", 6),
    ("SO", 14),
    ("ST", 9),
    ("WQ", 11),
    ("BR", 9),
    ("PA", 9),
];

/// The requirements document, relative to the repository root.
const REQUIREMENTS: &str = "docs/requirements.md";

/// Folders whose source files cite requirement IDs.
const SOURCE_DIRS: [&str; 3] = ["hdl", "sim", "testbenches"];

/// Extensions of the source files scanned for cited IDs.
const SOURCE_EXTS: [&str; 3] = ["rs", "toml", "md"];

fn root() -> PathBuf {
    ppu_sim::repo_root()
}

/// Every ID of the specification, from [`SECTIONS`].
fn expected_ids() -> BTreeSet<String> {
    SECTIONS
        .iter()
        .flat_map(|(s, n)| (1..=*n).map(move |i| format!("{}-{}", s, i)))
        .collect()
}

/// IDs cited in `text`: `SO-8` anywhere, and `so8_` (test-name style) as `SO-8`.
fn cited_ids(text: &str) -> BTreeSet<String> {
    let upper = Regex::new(r"\b(X|SO|ST|WQ|BR|PA)-(\d+)\b").unwrap();
    let lower = Regex::new(r"\b(x|so|st|wq|br|pa)(\d+)_").unwrap();
    let mut out = BTreeSet::new();
    for c in upper.captures_iter(text) {
        out.insert(format!("{}-{}", &c[1], c[2].parse::<u32>().unwrap_or(0)));
    }
    for c in lower.captures_iter(text) {
        out.insert(format!(
            "{}-{}",
            c[1].to_uppercase(),
            c[2].parse::<u32>().unwrap_or(0)
        ));
    }
    out
}

/// IDs listed in a Markdown document: opening a heading or the first cell of a table row.
fn listed_ids(markdown: &str) -> BTreeSet<String> {
    let re = Regex::new(r"(?m)^(?:#{1,6}[ \t]+|\|[ \t]*)(X|SO|ST|WQ|BR|PA)-(\d+)\b").unwrap();
    re.captures_iter(markdown)
        .map(|c| format!("{}-{}", &c[1], c[2].parse::<u32>().unwrap_or(0)))
        .collect()
}

fn requirements_doc() -> String {
    let path = root().join(REQUIREMENTS);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {}", path.display(), e))
}

/// Source files under `dir` (recursively), skipping build output and hidden folders.
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                source_files(&p, out);
            }
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SOURCE_EXTS.contains(&e))
        {
            out.push(p);
        }
    }
}

/// Cited IDs that the document does not list, with the files citing them.
fn unlisted_citations(files: &[(String, String)], listed: &BTreeSet<String>) -> Vec<String> {
    let mut out = vec![];
    for (name, text) in files {
        for id in cited_ids(text) {
            if !listed.contains(&id) {
                out.push(format!("{} cites {}", name, id));
            }
        }
    }
    out
}

/// What a tracked file must not contain: each pattern with the reason it is refused.
/// The patterns are assembled from pieces so that this file does not contain them itself.
fn outside_patterns(tracked: &[String]) -> Vec<(Regex, String)> {
    let mut pats = vec![
        (
            regex::escape(concat!("..", "/", "shared")),
            "the sibling folder the specification came from".to_string(),
        ),
        (
            regex::escape(concat!("shared", "/", "SPEC", ".md")),
            "the specification outside the repository".to_string(),
        ),
        (
            // An absolute path under the machine's work folder or a home folder (not a URL path:
            // the slash must not follow a word character, a dot or another slash).
            format!(
                r"(?:^|[^A-Za-z0-9_.~/-])/(?:{}|{}|{}|{})/",
                "work", "home", "Users", "root"
            ),
            "an absolute path of the machine it was written on".to_string(),
        ),
    ];
    // Dangling names: files that are not in the repository.
    let spec_file = concat!("SPEC", ".md");
    if !tracked.iter().any(|f| f.ends_with(spec_file)) {
        pats.push((
            regex::escape(spec_file),
            format!(
                "{} is not in the repository (use {})",
                spec_file, REQUIREMENTS
            ),
        ));
    }
    let seeds_dir = concat!("seeds", "/");
    if !tracked
        .iter()
        .any(|f| f.starts_with(seeds_dir) || f.contains(&format!("/{}", seeds_dir)))
    {
        pats.push((
            format!(r"\b{}", regex::escape(seeds_dir)),
            format!(
                "the patent texts are not in the repository (cite them as {})",
                REQUIREMENTS
            ),
        ));
    }
    pats.into_iter()
        .map(|(p, why)| (Regex::new(&p).unwrap(), why))
        .collect()
}

/// `file:line: text (reason)` for every line of `text` that matches a pattern.
fn outside_references(name: &str, text: &str, pats: &[(Regex, String)]) -> Vec<String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        for (re, why) in pats {
            if re.is_match(line) {
                out.push(format!("{}:{}: {} ({})", name, i + 1, line.trim(), why));
            }
        }
    }
    out
}

/// The tracked files of the repository, or why they cannot be listed.
fn tracked_files() -> Result<Vec<String>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root())
        .args(["ls-files", "-z"])
        .output()
        .map_err(|e| format!("git cannot be run: {}", e))?;
    if !out.status.success() {
        return Err(format!(
            "git ls-files failed (not a git checkout?): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect())
}

/// The text of a file, or `None` for a binary (NUL byte or not UTF-8) or missing file.
fn text_of(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

#[test]
fn x1_every_cited_requirement_id_is_listed_in_docs_requirements() {
    let listed = listed_ids(&requirements_doc());
    let mut files = vec![];
    for d in SOURCE_DIRS {
        source_files(&root().join(d), &mut files);
    }
    assert!(
        files.len() > 20,
        "only {} source files found under {:?}",
        files.len(),
        SOURCE_DIRS
    );
    let texts: Vec<(String, String)> = files
        .iter()
        .filter_map(|p| {
            let name = p.strip_prefix(root()).unwrap_or(p).display().to_string();
            text_of(p).map(|t| (name, t))
        })
        .collect();
    let cited: BTreeSet<String> = texts.iter().flat_map(|(_, t)| cited_ids(t)).collect();
    assert!(
        cited.len() >= 20,
        "only {} requirement IDs cited in the sources: is the scan broken?",
        cited.len()
    );
    let missing = unlisted_citations(&texts, &listed);
    assert!(
        missing.is_empty(),
        "requirement IDs cited in the sources but not listed in {}:\n  {}",
        REQUIREMENTS,
        missing.join("\n  ")
    );
}

#[test]
fn x1_no_tracked_file_names_a_path_outside_the_repository() {
    let tracked = match tracked_files() {
        Ok(t) => t,
        Err(why) => {
            eprintln!("skipped: cannot list the tracked files: {}", why);
            return;
        }
    };
    let pats = outside_patterns(&tracked);
    let mut found = vec![];
    let mut scanned = 0;
    for name in &tracked {
        let Some(text) = text_of(&root().join(name)) else {
            continue;
        };
        scanned += 1;
        found.extend(outside_references(name, &text, &pats));
    }
    assert!(scanned > 20, "only {} tracked text files read", scanned);
    assert!(
        found.is_empty(),
        "tracked files name paths outside the repository (a clone does not have them; \
         point to {} instead):\n  {}",
        REQUIREMENTS,
        found.join("\n  ")
    );
}

#[test]
fn x1_docs_requirements_lists_every_id_of_the_six_sections() {
    let listed = listed_ids(&requirements_doc());
    let expected = expected_ids();
    let missing: Vec<&String> = expected.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "{} does not list {:?} (as a heading or a table row)",
        REQUIREMENTS,
        missing
    );
    let unknown: Vec<&String> = listed.difference(&expected).collect();
    assert!(
        unknown.is_empty(),
        "{} lists IDs that are not in the specification: {:?}",
        REQUIREMENTS,
        unknown
    );
}

/// The checks above find what they look for (synthetic inputs; the IDs and paths are built at
/// run time so that this file cites and names none of them).
#[test]
fn x1_the_requirement_checks_catch_what_they_look_for() {
    let bogus = format!("SO-{}", 15);
    // Cited IDs, both styles.
    let cited = cited_ids(&format!(
        "//! (SPEC {}, ST-3)\nfn {}_x() {{}}\nfn {}{}_y() {{}}",
        bogus, "so8", "pa", 9
    ));
    let want: BTreeSet<String> = [bogus.as_str(), "ST-3", "SO-8", "PA-9"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(cited, want);
    // Listed IDs: headings and first table cells, not mentions in running text.
    let doc = format!(
        "### X-1 Layout\n| ST-3 | table |\nsee {} and SO-4\n#### PA-2 Multicast\n",
        bogus
    );
    let listed = listed_ids(&doc);
    assert_eq!(
        listed,
        ["X-1", "ST-3", "PA-2"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    // A cited ID that is not listed is reported.
    let files = vec![("hdl/src/a.rs".to_string(), format!("// SPEC {}", bogus))];
    assert_eq!(unlisted_citations(&files, &listed).len(), 1);
    // A document missing an ID, or listing one outside the sections.
    let full: String = expected_ids()
        .iter()
        .map(|id| format!("### {} x\n", id))
        .collect();
    assert_eq!(listed_ids(&full), expected_ids());
    let short = full.replace("### WQ-7 x\n", "");
    assert_eq!(
        expected_ids().difference(&listed_ids(&short)).count(),
        1,
        "a missing ID must be seen"
    );
    let extra = format!("{}| {} | x |\n", full, bogus);
    assert_eq!(
        listed_ids(&extra).difference(&expected_ids()).count(),
        1,
        "an unknown ID must be seen"
    );
    // Paths outside the repository; URLs and relative paths inside it are fine.
    let pats = outside_patterns(&[]);
    let bad = [
        format!("see `{}/{}/{}.md`", "..", "shared", "SPEC"),
        format!("open {}{}", "/wo", "rk/wt/README.md"),
        format!("\"{}{}\"", "/ho", "me/someone/x"),
        format!("the {}{} texts", "seeds", "/"),
    ];
    for b in &bad {
        assert!(
            !outside_references("f.md", b, &pats).is_empty(),
            "not caught: {}",
            b
        );
    }
    let good = [
        "see docs/requirements.md".to_string(),
        format!("https://example.org/{}/x", "work"),
        "waves/ssync.vcd and ../hdl".to_string(),
        "Seeds for failure cases".to_string(),
    ];
    for g in &good {
        assert!(
            outside_references("f.md", g, &pats).is_empty(),
            "false alarm: {}",
            g
        );
    }
}
