//! A unified diff of two texts, line by line, for `loopir fmt --check`.
//!
//! Myers' algorithm on the lines between the common prefix and suffix. Its cost grows
//! with the number of differing lines times the length of the texts, so past
//! [`MAX_EDITS`] edits the middle is shown as one replaced block: still a correct diff,
//! only a coarser one.

/// Edits beyond which the middle of the texts is shown as replaced wholesale.
const MAX_EDITS: usize = 1000;
/// Unchanged lines shown around each change.
const CONTEXT: usize = 3;

/// A diff and where the first change is.
pub struct Changes {
    /// The unified diff, `---`/`+++` header included.
    pub text: String,
    /// The 1-based line of the old text where the first change is.
    pub first_line: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// The lines of `text`, each with its line end (the last one may lack it), so that a
/// missing final newline is a difference.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

/// The unified diff that turns `old` into `new`, both named `name`.
pub fn unified(old: &[u8], new: &[u8], name: &str) -> Changes {
    let (a, b) = (lines(old), lines(new));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut script: Vec<(Op, usize, usize)> = (0..prefix).map(|i| (Op::Same, i, i)).collect();
    match edit_script(mid_a, mid_b) {
        Some(mid) => script.extend(mid.into_iter().map(|(op, i, j)| (op, i + prefix, j + prefix))),
        None => {
            script.extend((0..mid_a.len()).map(|i| (Op::Removed, i + prefix, 0)));
            script.extend((0..mid_b.len()).map(|j| (Op::Added, 0, j + prefix)));
        }
    }
    let (ea, eb) = (a.len() - suffix, b.len() - suffix);
    script.extend((0..suffix).map(|k| (Op::Same, ea + k, eb + k)));
    Changes { text: render(&a, &b, &script, name), first_line: prefix + 1 }
}

/// Myers' shortest edit script from `a` to `b`: (op, index in `a`, index in `b`), or
/// `None` past [`MAX_EDITS`] edits.
fn edit_script(a: &[&[u8]], b: &[&[u8]]) -> Option<Vec<(Op, usize, usize)>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let limit = (a.len() + b.len()).min(MAX_EDITS) as isize;
    let offset = limit + 1;
    let mut v = vec![0isize; 2 * offset as usize + 1];
    // The furthest x on each diagonal k = x - y after each number of edits d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    'search: for d in 0..=limit {
        for k in (-d..=d).step_by(2) {
            let at = |k: isize| (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
                v[at(k + 1)]
            } else {
                v[at(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                trace.push(v.clone());
                found = Some(d);
                break 'search;
            }
        }
        trace.push(v.clone());
    }
    let d_end = found?;
    // Walk back from the end through the recorded frontiers.
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let prev = &trace[(d - 1) as usize];
        let at = |k: isize| (k + offset) as usize;
        let k = x - y;
        let down = k == -d || (k != d && prev[at(k - 1)] < prev[at(k + 1)]);
        let prev_k = if down { k + 1 } else { k - 1 };
        let prev_x = prev[at(prev_k)];
        let prev_y = prev_x - prev_k;
        let (start_x, start_y) = if down { (prev_x, prev_y + 1) } else { (prev_x + 1, prev_y) };
        while x > start_x && y > start_y {
            x -= 1;
            y -= 1;
            ops.push((Op::Same, x as usize, y as usize));
        }
        if down {
            ops.push((Op::Added, 0, prev_y as usize));
        } else {
            ops.push((Op::Removed, prev_x as usize, 0));
        }
        (x, y) = (prev_x, prev_y);
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        ops.push((Op::Same, x as usize, y as usize));
    }
    ops.reverse();
    Some(ops)
}

fn push_line(out: &mut String, mark: char, line: &[u8]) {
    out.push(mark);
    let text = String::from_utf8_lossy(line);
    match text.strip_suffix('\n') {
        Some(t) => {
            out.push_str(t);
            out.push('\n');
        }
        None => {
            out.push_str(&text);
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// The script as hunks with [`CONTEXT`] lines of context.
fn render(a: &[&[u8]], b: &[&[u8]], script: &[(Op, usize, usize)], name: &str) -> String {
    let mut out = format!("--- {name}\n+++ {name} (reformatted)\n");
    let changed: Vec<usize> =
        script.iter().enumerate().filter(|(_, s)| s.0 != Op::Same).map(|(i, _)| i).collect();
    let mut i = 0;
    while i < changed.len() {
        // A hunk: changes closer than twice the context share one.
        let mut j = i;
        while j + 1 < changed.len() && changed[j + 1] - changed[j] <= 2 * CONTEXT {
            j += 1;
        }
        let start = changed[i].saturating_sub(CONTEXT);
        let end = (changed[j] + CONTEXT + 1).min(script.len());
        let part = &script[start..end];
        // Line numbers: where this hunk starts in each text.
        let before_a = script[..start].iter().filter(|s| s.0 != Op::Added).count();
        let before_b = script[..start].iter().filter(|s| s.0 != Op::Removed).count();
        let len_a = part.iter().filter(|s| s.0 != Op::Added).count();
        let len_b = part.iter().filter(|s| s.0 != Op::Removed).count();
        let from = |before: usize, len: usize| if len == 0 { before } else { before + 1 };
        out.push_str(&format!(
            "@@ -{},{len_a} +{},{len_b} @@\n",
            from(before_a, len_a),
            from(before_b, len_b)
        ));
        for &(op, x, y) in part {
            match op {
                Op::Same => push_line(&mut out, ' ', a[x]),
                Op::Removed => push_line(&mut out, '-', a[x]),
                Op::Added => push_line(&mut out, '+', b[y]),
            }
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    /// Applies a unified diff to `old` (the test's own reading of the format).
    fn apply(old: &str, diff: &str) -> String {
        let old: Vec<&str> = old.split_inclusive('\n').collect();
        let mut out = String::new();
        let mut next = 0;
        let mut lines = diff.lines().skip(2).peekable();
        while let Some(header) = lines.next() {
            let from: usize =
                header.split(['-', ',']).nth(1).and_then(|s| s.parse().ok()).expect("a hunk header");
            let start = from.saturating_sub(1);
            while next < start {
                out.push_str(old[next]);
                next += 1;
            }
            while let Some(l) = lines.peek().copied() {
                if l.starts_with("@@") {
                    break;
                }
                lines.next();
                let no_newline = lines.peek().is_some_and(|n| n.starts_with('\\'));
                if no_newline {
                    lines.next();
                }
                let text = if no_newline { l[1..].to_owned() } else { format!("{}\n", &l[1..]) };
                match l.as_bytes()[0] {
                    b' ' => {
                        out.push_str(&text);
                        next += 1;
                    }
                    b'-' => next += 1,
                    b'+' => out.push_str(&text),
                    _ => panic!("a diff line: {l}"),
                }
            }
        }
        while next < old.len() {
            out.push_str(old[next]);
            next += 1;
        }
        out
    }

    fn check(old: &str, new: &str) -> String {
        let c = unified(old.as_bytes(), new.as_bytes(), "f.stmt");
        assert_eq!(apply(old, &c.text), new, "diff:\n{}", c.text);
        c.text
    }

    #[test]
    fn diffs_apply() {
        let texts = [
            "",
            "a\n",
            "a\nb\nc\n",
            "a\nb\nc",
            "x\na\nb\nc\n",
            "a\nc\n",
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
            "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\neleven\n12\n",
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12",
        ];
        for old in texts {
            for new in texts {
                check(old, new);
            }
        }
    }

    #[test]
    fn a_small_change_is_a_small_hunk() {
        let old = "for (x, 0, 9) {\n  f(x) = x+1\n}";
        let new = "for (x, 0, 9) {\n f(x) = x + 1\n}\n";
        let d = check(old, new);
        assert_eq!(
            d,
            "--- f.stmt\n+++ f.stmt (reformatted)\n@@ -1,3 +1,3 @@\n for (x, 0, 9) {\n-  f(x) = x+1\n-}\n\\ No newline at end of file\n+ f(x) = x + 1\n+}\n"
        );
        let many: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let changed = many.replace("line 5\n", "line five\n").replace("line 30\n", "line thirty\n");
        let d = check(&many, &changed);
        assert_eq!(d.matches("@@").count(), 4, "{d}");
        assert!(d.contains("@@ -3,7 +3,7 @@\n line 2\n"), "{d}");
    }

    #[test]
    fn past_the_edit_limit_the_middle_is_replaced() {
        let old: String = (0..1500).map(|i| format!("{i}\n")).collect();
        let new: String = (0..1500).map(|i| format!("{i} changed\n")).collect();
        let d = check(&old, &new);
        assert_eq!(d.matches("\n-").count(), 1500);
    }
}
