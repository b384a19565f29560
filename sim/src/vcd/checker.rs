//! Independent read-back of VCD files (SPEC X-3): parses with the `vcd` crate's parser (not the
//! writer that produced the file) and checks that the file is well formed.
use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// What a well-formed VCD contains.
#[derive(Debug, Clone)]
pub struct VcdSummary {
    /// Every variable as `scope.scope.name` with its declared width.
    pub vars: Vec<(String, u32)>,
    pub timestamps: usize,
    pub changes: usize,
    pub end_time: u64,
}

impl VcdSummary {
    pub fn has_var(&self, path: &str) -> bool {
        self.vars.iter().any(|(p, _)| p == path)
    }
}

/// Every variable below `items` as (`scope.scope.name`, width, id), in declaration order.
pub fn collect(items: &[vcd::ScopeItem], prefix: &str, out: &mut Vec<(String, u32, vcd::IdCode)>) {
    for item in items {
        match item {
            vcd::ScopeItem::Scope(s) => {
                collect(&s.children, &format!("{}{}.", prefix, s.identifier), out)
            }
            vcd::ScopeItem::Var(v) => {
                out.push((format!("{}{}", prefix, v.reference), v.size, v.code))
            }
        }
    }
}

/// Parse `path` and check: a header with a timescale and at least one scope and variable;
/// every variable width positive (strings excepted); every value change of a declared
/// variable with exactly its declared width; timestamps strictly increasing.
pub fn check_vcd(path: &Path) -> Result<VcdSummary, String> {
    let file = File::open(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    let mut parser = vcd::Parser::new(BufReader::new(file));
    let header = parser
        .parse_header()
        .map_err(|e| format!("{}: header: {}", path.display(), e))?;
    if header.timescale.is_none() {
        return Err(format!("{}: no $timescale", path.display()));
    }
    let mut vars = vec![];
    collect(&header.items, "", &mut vars);
    if vars.is_empty() {
        return Err(format!("{}: no variables declared", path.display()));
    }
    let mut widths: HashMap<vcd::IdCode, (u32, String)> = HashMap::new();
    for (name, size, code) in &vars {
        if *size == 0 {
            return Err(format!(
                "{}: variable {} declared with width 0",
                path.display(),
                name
            ));
        }
        widths.insert(*code, (*size, name.clone()));
    }
    let mut last: Option<u64> = None;
    let mut timestamps = 0;
    let mut changes = 0;
    for cmd in parser {
        let cmd = cmd.map_err(|e| format!("{}: body: {}", path.display(), e))?;
        match cmd {
            vcd::Command::Timestamp(t) => {
                if let Some(l) = last {
                    if t <= l {
                        return Err(format!(
                            "{}: timestamp #{} does not increase (previous #{})",
                            path.display(),
                            t,
                            l
                        ));
                    }
                }
                last = Some(t);
                timestamps += 1;
            }
            vcd::Command::ChangeScalar(id, _) => {
                changes += 1;
                match widths.get(&id) {
                    Some((1, _)) => {}
                    Some((w, n)) => {
                        return Err(format!(
                            "{}: scalar change of {} declared {} bits wide",
                            path.display(),
                            n,
                            w
                        ))
                    }
                    None => return Err(format!("{}: change of undeclared id", path.display())),
                }
            }
            vcd::Command::ChangeVector(id, v) => {
                changes += 1;
                match widths.get(&id) {
                    Some((w, _)) if *w as usize == v.len() => {}
                    Some((w, n)) => {
                        return Err(format!(
                            "{}: {} declared {} bits wide changes to a {}-bit value",
                            path.display(),
                            n,
                            w,
                            v.len()
                        ))
                    }
                    None => return Err(format!("{}: change of undeclared id", path.display())),
                }
            }
            vcd::Command::ChangeString(id, _) | vcd::Command::ChangeReal(id, _) => {
                changes += 1;
                if !widths.contains_key(&id) {
                    return Err(format!("{}: change of undeclared id", path.display()));
                }
            }
            _ => {}
        }
        if changes > 0 && last.is_none() {
            return Err(format!(
                "{}: value change before the first timestamp",
                path.display()
            ));
        }
    }
    if timestamps == 0 {
        return Err(format!("{}: no timestamps", path.display()));
    }
    Ok(VcdSummary {
        vars: vars.into_iter().map(|(n, s, _)| (n, s)).collect(),
        timestamps,
        changes,
        end_time: last.unwrap_or(0),
    })
}
