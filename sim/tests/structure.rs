//! The structure of `sim/src` (SPEC X-1): the import graph between its files has no cycle; the
//! shared kit imports no mechanism; a mechanism imports no other mechanism; `registry.rs` is the
//! only file naming every mechanism; no function is longer than [`MAX_FN_LINES`] lines unless
//! its doc comment says why ("Long because ...").
//!
//! The graph is read from the source text: every path starting with `crate::`, `super::`,
//! `self::` or a child module's name, in `use` declarations and in expressions, resolved to the
//! deepest module file it names (`crate::eda::export::Unit` -> `eda/export.rs`).
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Longest function allowed without a reason.
const MAX_FN_LINES: usize = 120;

/// A module of the library: its path (`["stream_out", "tb"]`) and file.
#[derive(Debug)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The source text without comments (line comments and doc comments), strings kept.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module of the library, by module path.
fn modules() -> BTreeMap<Vec<String>, Module> {
    fn walk(dir: &Path, path: Vec<String>, file: PathBuf, out: &mut BTreeMap<Vec<String>, Module>) {
        let text = std::fs::read_to_string(&file).unwrap();
        let re =
            regex::Regex::new(r"(?m)^\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_0-9]+)\s*;").unwrap();
        let children: BTreeSet<String> = re
            .captures_iter(&code_of(&text))
            .map(|c| c[1].to_string())
            .collect();
        for c in &children {
            let (f, d) = if dir.join(format!("{}.rs", c)).exists() {
                (dir.join(format!("{}.rs", c)), dir.join(c))
            } else {
                (dir.join(c).join("mod.rs"), dir.join(c))
            };
            let mut p = path.clone();
            p.push(c.clone());
            walk(&d, p, f, out);
        }
        out.insert(path, Module { file, children });
    }
    let mut out = BTreeMap::new();
    walk(&src_dir(), vec![], src_dir().join("lib.rs"), &mut out);
    out
}

/// Expand one level of braces: `crate::eda::{self, export::Unit}` -> two paths.
fn expand(prefix: &str, rest: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0;
    let mut start = 0;
    for (i, ch) in rest.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(format!("{}::{}", prefix, rest[start..i].trim()));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(format!("{}::{}", prefix, rest[start..].trim()));
    out
}

/// The module files a file refers to.
fn edges(path: &[String], m: &Module, all: &BTreeMap<Vec<String>, Module>) -> BTreeSet<PathBuf> {
    let code = code_of(&std::fs::read_to_string(&m.file).unwrap());
    let child_alt = m.children.iter().cloned().collect::<Vec<_>>().join("|");
    let heads = if child_alt.is_empty() {
        "crate|super|self".to_string()
    } else {
        format!("crate|super|self|{}", child_alt)
    };
    let re = regex::Regex::new(&format!(
        r"(?:^|[^A-Za-z0-9_:])((?:{})(?:::[A-Za-z_][A-Za-z0-9_]*)*)(?:::\{{([^{{}}]*(?:\{{[^{{}}]*\}}[^{{}}]*)*)\}})?",
        heads
    ))
    .unwrap();
    let mut paths = vec![];
    for c in re.captures_iter(&code) {
        let p = c[1].to_string();
        if !p.contains("::") && c.get(2).is_none() {
            continue;
        }
        match c.get(2) {
            Some(g) => paths.extend(expand(&p, g.as_str())),
            None => paths.push(p),
        }
    }
    let mut out = BTreeSet::new();
    for p in paths {
        let segs: Vec<&str> = p.split("::").map(str::trim).collect();
        let mut cur: Vec<String> = match segs[0] {
            "crate" => vec![],
            "super" => path[..path.len().saturating_sub(1)].to_vec(),
            "self" => path.to_vec(),
            child => {
                let mut v = path.to_vec();
                v.push(child.to_string());
                v
            }
        };
        let mut i = 1;
        while i < segs.len() && segs[i] == "super" {
            cur.pop();
            i += 1;
        }
        for s in &segs[i..] {
            let mut next = cur.clone();
            next.push(s.to_string());
            if all.contains_key(&next) {
                cur = next;
            } else {
                break;
            }
        }
        if let Some(t) = all.get(&cur) {
            if t.file != m.file {
                out.insert(t.file.clone());
            }
        }
    }
    out
}

fn graph() -> (
    BTreeMap<Vec<String>, Module>,
    BTreeMap<PathBuf, BTreeSet<PathBuf>>,
) {
    let all = modules();
    let g = all
        .iter()
        .map(|(p, m)| (m.file.clone(), edges(p, m, &all)))
        .collect();
    (all, g)
}

fn rel(p: &Path) -> String {
    p.strip_prefix(src_dir()).unwrap_or(p).display().to_string()
}

/// The mechanism folders: the modules `registry.rs` names.
fn mechanism_dirs() -> Vec<PathBuf> {
    let text = std::fs::read_to_string(src_dir().join("registry.rs")).unwrap();
    let re = regex::Regex::new(r"crate::([a-z_0-9]+)::mechanism\(\)").unwrap();
    re.captures_iter(&text)
        .map(|c| src_dir().join(&c[1]))
        .collect()
}

#[test]
fn x1_import_graph_has_no_cycle() {
    let (_, g) = graph();
    // Depth-first search with colours; report the first cycle found.
    fn visit(
        n: &PathBuf,
        g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        colour: &mut BTreeMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        colour.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in g.get(n).into_iter().flatten() {
            match colour.get(m).copied().unwrap_or(0) {
                1 => {
                    let i = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut c = stack[i..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, g, colour, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(n.clone(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for n in g.keys() {
        if colour.get(n).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, &g, &mut colour, &mut vec![]) {
                let names: Vec<String> = c.iter().map(|p| rel(p)).collect();
                panic!("import cycle: {}", names.join(" -> "));
            }
        }
    }
}

#[test]
fn x1_shared_kit_and_mechanisms_import_no_mechanism() {
    let (_, g) = graph();
    let mechs = mechanism_dirs();
    assert!(
        mechs.len() >= 3,
        "registry.rs names {} mechanisms",
        mechs.len()
    );
    let mech_of = |f: &Path| mechs.iter().find(|d| f.starts_with(d)).cloned();
    let registry = src_dir().join("registry.rs");
    let mut bad = vec![];
    for (from, tos) in &g {
        if *from == registry {
            continue;
        }
        for to in tos {
            if let Some(m) = mech_of(to) {
                if mech_of(from) != Some(m.clone()) {
                    bad.push(format!("{} -> {}", rel(from), rel(to)));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports into a mechanism from outside it: {:?}",
        bad
    );
}

#[test]
fn x1_only_the_registry_names_every_mechanism() {
    let mechs = mechanism_dirs();
    let names: Vec<String> = mechs
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    let (all, _) = graph();
    for m in all.values() {
        if m.file.ends_with("registry.rs") || m.file.ends_with("lib.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&m.file).unwrap());
        let named = names
            .iter()
            .filter(|n| code.contains(&format!("crate::{}::", n)))
            .count();
        assert!(
            named < names.len(),
            "{} names every mechanism; only registry.rs may",
            rel(&m.file)
        );
    }
}

/// (name, first line, length) of every function in `text` longer than `limit` lines whose doc
/// comment does not say "Long because".
fn long_functions(text: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let re = regex::Regex::new(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?(?:const\s+)?fn\s+([A-Za-z_0-9]+)")
        .unwrap();
    let mut out = vec![];
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = re.captures(l) else { continue };
        let mut depth = 0i64;
        let mut opened = false;
        let mut end = i;
        'scan: for (j, l2) in lines.iter().enumerate().skip(i) {
            let code = match l2.find("//") {
                Some(k) if !l2[..k].contains('"') => &l2[..k],
                _ => l2,
            };
            for ch in code.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    ';' if !opened && depth == 0 => break 'scan,
                    _ => {}
                }
                if opened && depth == 0 {
                    end = j;
                    break 'scan;
                }
            }
        }
        let len = end + 1 - i;
        let documented = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("///") || l.trim_start().starts_with("#["))
            .any(|l| l.contains("Long because"));
        if opened && len > limit && !documented {
            out.push((c[1].to_string(), i + 1, len));
        }
    }
    out
}

#[test]
fn x1_no_function_over_the_limit_without_a_reason() {
    let (all, _) = graph();
    let mut bad = vec![];
    for m in all.values() {
        let text = std::fs::read_to_string(&m.file).unwrap();
        for (name, line, len) in long_functions(&text, MAX_FN_LINES) {
            bad.push(format!(
                "{}:{} {} ({} lines)",
                rel(&m.file),
                line,
                name,
                len
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "functions over {} lines: {:#?}",
        MAX_FN_LINES,
        bad
    );
}

#[test]
fn x1_the_checks_themselves_catch_what_they_look_for() {
    // A long function is found, and a reason exempts it.
    let body = "    x();\n".repeat(10);
    let f = format!("fn big() {{\n{}}}\n", body);
    assert_eq!(long_functions(&f, 5).len(), 1);
    assert_eq!(
        long_functions(&format!("/// Long because: a table.\n{}", f), 5).len(),
        0
    );
    assert_eq!(long_functions(&f, 20).len(), 0);
    // Brace groups expand into one path each.
    assert_eq!(
        expand("crate::eda", "self, export::Unit, tools"),
        vec![
            "crate::eda::self",
            "crate::eda::export::Unit",
            "crate::eda::tools"
        ]
    );
    // The graph sees the registry's arrows into every mechanism.
    let (_, g) = graph();
    let reg = g.get(&src_dir().join("registry.rs")).unwrap();
    for d in mechanism_dirs() {
        assert!(
            reg.iter().any(|t| t.starts_with(&d)),
            "registry -> {}",
            d.display()
        );
    }
}
