//! From text to [`ast::File`]: pest parses, this module converts the pairs into
//! owned nodes with byte spans, and turns pest errors into diagnostics.

use super::ast::*;
use crate::diagnostic::{Code, Diagnostic, MAX_NAME_CHARS};
use crate::source::{FileId, Span};
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/meeple.pest"]
struct RulesParser;

/// Deepest nesting of `(` and `{` accepted; checked before pest runs so no
/// input can exhaust the stack.
pub const MAX_NESTING: usize = 64;

/// Most operators (and `.member` steps) one expression may hold. The tree of
/// an expression is at most this deep plus its bracket depth and its
/// nesting of `if` expressions (each at most [`MAX_NESTING`]), so checking,
/// evaluating and dropping it cannot exhaust the stack.
pub const MAX_OPERATORS: usize = 256;

/// Most `if` statements nested in one another, each `else if` of a chain
/// inside the one before it: braces bound every other nesting of statements
/// ([`MAX_NESTING`]), but a chain of `else if` closes each brace it opens.
pub const MAX_IF_NESTING: usize = 256;

/// The largest number a rules file may write.
const MAX_NUMBER: u32 = 1_000_000;

/// Parses one file. On failure returns the syntax diagnostic.
pub fn parse_file(file: FileId, text: &str) -> Result<File, Diagnostic> {
    check_nesting(file, text)?;
    check_else_if_chains(file, text)?;
    // pest's error detail (every token it tried at the furthest position)
    // halves parsing speed, so it is only switched on to explain a failure,
    // and then left on: switching it off could race with another thread.
    let mut pairs = match RulesParser::parse(Rule::file, text) {
        Ok(pairs) => pairs,
        Err(first) => {
            let detailed = if first.parse_attempts().is_some() {
                first
            } else {
                pest::set_error_detail(true);
                RulesParser::parse(Rule::file, text).err().unwrap_or(first)
            };
            // A quoted text left open on its line derails the grammar from
            // there: named at its quote unless the grammar failed before it.
            let failed_at = match detailed.location {
                InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
            };
            if let Some(quote) = unclosed_text(text).filter(|&q| q <= failed_at) {
                return Err(Diagnostic::new(Code::Syntax, "quoted text not closed")
                    .at(
                        Span::new(file, quote..quote + 1),
                        "this text has no closing `\"` on its line",
                    )
                    .note("close it with `\"`; a quoted text cannot go on past the end of its line"));
            }
            return Err(syntax_error(file, text, detailed));
        }
    };
    let root = pairs.next().expect("the grammar's `file` rule always yields one pair");
    check_expression_sizes(file, root.clone())?;
    let cx = Cx { file };
    Ok(cx.file(root))
}

fn check_nesting(file: FileId, text: &str) -> Result<(), Diagnostic> {
    let mut depth = 0usize;
    for (i, b) in brackets(text) {
        if matches!(b, b'(' | b'{') {
            depth += 1;
            if depth > MAX_NESTING {
                return Err(Diagnostic::new(Code::TooDeep, "brackets nested too deeply")
                    .at(
                        Span::new(file, i..i + 1),
                        format!("this bracket is {depth} levels deep"),
                    )
                    .note(format!("at most {MAX_NESTING} levels of `(` and `{{` are allowed")));
            }
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    check_if_expressions(file, text)
}

/// Refuses `if ... then ... else` expressions nested more than
/// [`MAX_NESTING`] deep before the grammar meets them: deep enough, it fails
/// on them with a misleading message. An expression's `if` nests the next
/// one in its `then` branch (a `then` opens, its `else` closes) or in its
/// `else` branch (`else if`, a chain). Expressions hold no braces, so a
/// brace ends them all; a `then` with no `if` waiting for it (`draw tile
/// then remove`) opens nothing. The count never passes the real depth, which
/// the walk after parsing checks exactly.
fn check_if_expressions(file: FileId, text: &str) -> Result<(), Diagnostic> {
    // `if`s read whose `then` has not come (an `if` statement's never
    // comes: its `{` ends the wait).
    let mut waiting = 0usize;
    // `if` expressions whose `then` came and whose `else` has not.
    let mut open = 0usize;
    // The links of the `else if` chain being read.
    let mut chain = 0usize;
    let (mut before, mut previous) = ("", "");
    for (at, word) in words_and_braces(text) {
        match word {
            "{" | "}" => (waiting, open, chain) = (0, 0, 0),
            // `} else if` chains statements; an expression's `else if`
            // nests its `if` in the `else` branch.
            "if" if previous == "else" && before != "}" => {
                waiting += 1;
                chain += 1;
            }
            "if" => {
                waiting += 1;
                // A new expression, not inside an open one: a new chain.
                if open == 0 {
                    chain = 0;
                }
            }
            "then" if waiting > 0 => {
                waiting -= 1;
                open += 1;
                if open + chain > MAX_NESTING {
                    return Err(too_many_if_expressions(file, at..at + word.len(), open + chain));
                }
            }
            "else" => open = open.saturating_sub(1),
            _ => {}
        }
        (before, previous) = (previous, word);
    }
    Ok(())
}

/// Refuses a chain of `else if` statements that nests more than
/// [`MAX_IF_NESTING`] `if`s, counted with the chains around it, before the
/// grammar meets it: deep enough, it fails there with a misleading message.
/// Each `else if` nests its `if` inside the one before; a chain goes on while
/// the word after a branch's closing `}` is `else`. (What nests by braces is
/// bounded by [`MAX_NESTING`]; the walk after parsing counts every `if`.)
fn check_else_if_chains(file: FileId, text: &str) -> Result<(), Diagnostic> {
    // The `else if` of the chain at each brace depth, outermost first.
    let mut chains = vec![0usize];
    // A block just closed; and an `else` just after one.
    let (mut closed, mut after_else) = (false, false);
    for (at, word) in words_and_braces(text) {
        match word {
            "{" => chains.push(0),
            "}" if chains.len() > 1 => {
                chains.pop();
            }
            // A stray `}` (the grammar refuses it) closes nothing.
            "}" => {}
            "else" if closed => after_else = true,
            "if" if after_else => {
                *chains.last_mut().expect("depth 0 is never popped") += 1;
                // With the `if` that starts this chain.
                let depth = chains.iter().sum::<usize>() + 1;
                if depth > MAX_IF_NESTING {
                    return Err(too_many_ifs(file, at, depth));
                }
            }
            // Another word after a branch's block: the chain there is over.
            _ if closed => *chains.last_mut().expect("depth 0 is never popped") = 0,
            _ => {}
        }
        closed = word == "}";
        after_else = after_else && word == "else";
    }
    Ok(())
}

/// E0002 for an `if` statement nested `depth` deep, the one at `at`.
fn too_many_ifs(file: FileId, at: usize, depth: usize) -> Diagnostic {
    Diagnostic::new(Code::TooDeep, "`if` statements nested too deeply")
        .at(
            Span::new(file, at..at + 2),
            format!("`if` number {depth} inside one another"),
        )
        .note(format!(
            "at most {MAX_IF_NESTING} `if` statements may nest, each `else if` of a chain inside the one before it"
        ))
        .note("split a long `else if` chain into functions, each with a part of it")
}

/// E0002 for an `if` expression nested `depth` deep, marked by its keyword
/// at `keyword` (its `if`, or its `then`).
fn too_many_if_expressions(file: FileId, keyword: std::ops::Range<usize>, depth: usize) -> Diagnostic {
    Diagnostic::new(Code::TooDeep, "`if` expressions nested too deeply")
        .at(
            Span::new(file, keyword),
            format!("`if` expression number {depth} inside one another"),
        )
        .note(format!(
            "at most {MAX_NESTING} `if ... then ... else` may nest, each in a branch of the one before it"
        ))
        .note("write a long chain of cases as `if` statements (`if A { ... } else if B { ... }`) or split it into functions")
}

/// Refuses an expression with more than [`MAX_OPERATORS`] operators, `if`
/// statements nested more than [`MAX_IF_NESTING`] deep, and a name longer
/// than [`MAX_NAME_CHARS`] (E0040), which would make every comparison of
/// names (and "did you mean") slow. pest's token stream is flat, so this
/// walk does not recurse.
fn check_expression_sizes(file: FileId, root: Pair<Rule>) -> Result<(), Diagnostic> {
    let mut outermost: Option<(usize, usize)> = None;
    let mut operators = 0usize;
    // Where each `if` statement around the current token ends, outermost
    // first.
    let mut ifs: Vec<usize> = Vec::new();
    // The same for `if` expressions.
    let mut if_exprs: Vec<usize> = Vec::new();
    for pair in root.into_inner().flatten() {
        let span = pair.as_span();
        match pair.as_rule() {
            Rule::expr if outermost.is_none_or(|(_, end)| span.start() >= end) => {
                outermost = Some((span.start(), span.end()));
                operators = 0;
            }
            Rule::if_expr => {
                while if_exprs.last().is_some_and(|&end| end <= span.start()) {
                    if_exprs.pop();
                }
                if_exprs.push(span.end());
                if if_exprs.len() > MAX_NESTING {
                    let keyword = span.start()..span.start() + 2;
                    return Err(too_many_if_expressions(file, keyword, if_exprs.len()));
                }
            }
            Rule::if_stmt => {
                while ifs.last().is_some_and(|&end| end <= span.start()) {
                    ifs.pop();
                }
                ifs.push(span.end());
                if ifs.len() > MAX_IF_NESTING {
                    return Err(too_many_ifs(file, span.start(), ifs.len()));
                }
            }
            Rule::ident if span.as_str().len() > MAX_NAME_CHARS => {
                return Err(Diagnostic::new(Code::NameTooLong, "name too long")
                    .at(
                        Span::new(file, span.start()..span.end()),
                        format!("this name is {} characters long", span.as_str().len()),
                    )
                    .note(format!("a name may be at most {MAX_NAME_CHARS} characters long")));
            }
            Rule::op_or
            | Rule::op_and
            | Rule::op_not
            | Rule::op_neg
            | Rule::cmp_op
            | Rule::add_op
            | Rule::mul_op
            | Rule::member => {
                operators += 1;
                if operators > MAX_OPERATORS {
                    return Err(Diagnostic::new(Code::TooDeep, "expression too long")
                        .at(
                            Span::new(file, span.start()..span.end()),
                            format!("operator number {operators} of this expression"),
                        )
                        .note(format!("an expression may hold at most {MAX_OPERATORS} operators"))
                        .note("split it with `let` or a function (`fn name(...) = ...`)"));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The offset of the first `"` (outside comments) whose text reaches the
/// end of its line unclosed.
fn unclosed_text(text: &str) -> Option<usize> {
    let mut open: Option<usize> = None;
    let mut in_comment = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'\n' if open.is_some() => return open,
            b'\n' => in_comment = false,
            _ if in_comment => {}
            b'"' => open = if open.is_some() { None } else { Some(i) },
            b'#' if open.is_none() => in_comment = true,
            _ => {}
        }
    }
    open
}

/// Every `(`, `{`, `)` and `}` outside comments and strings, with its offset.
fn brackets(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    code_bytes(text).filter(|&(_, b)| matches!(b, b'(' | b'{' | b')' | b'}'))
}

/// Every word (a run of letters, digits and `_`), `{` and `}` outside
/// comments and strings, with its offset.
fn words_and_braces(text: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut code = code_bytes(text).peekable();
    std::iter::from_fn(move || loop {
        let (start, b) = code.next()?;
        if matches!(b, b'{' | b'}') {
            return Some((start, &text[start..start + 1]));
        }
        if !word_byte(b) {
            continue;
        }
        let mut end = start + 1;
        while let Some(&(i, b)) = code.peek() {
            if i != end || !word_byte(b) {
                break;
            }
            end += 1;
            code.next();
        }
        return Some((start, &text[start..end]));
    })
}

/// Every byte outside comments and strings (a comment's `#` and a string's
/// quotes left out too), with its offset.
fn code_bytes(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let (mut in_comment, mut in_string) = (false, false);
    text.bytes().enumerate().filter(move |&(_, b)| match b {
        b'\n' => {
            (in_comment, in_string) = (false, false);
            false
        }
        _ if in_comment => false,
        b'"' => {
            in_string = !in_string;
            false
        }
        _ if in_string => false,
        b'#' => {
            in_comment = true;
            false
        }
        _ => true,
    })
}

/// The last `(` or `{` without its closing partner.
fn unclosed_bracket(text: &str) -> Option<usize> {
    let mut open = Vec::new();
    for (i, b) in brackets(text) {
        if matches!(b, b'(' | b'{') {
            open.push(i);
        } else {
            open.pop();
        }
    }
    open.pop()
}

/// A human name for a grammar rule in "expected ..." messages. Keywords
/// (`kw_pack`) read as the word itself; structural rules by their name.
fn rule_name(rule: &Rule) -> String {
    match rule {
        Rule::EOI => "end of file".into(),
        Rule::ident => "a name".into(),
        Rule::integer => "a number".into(),
        Rule::count => "a count such as `x4`".into(),
        Rule::string => "a quoted text".into(),
        r => {
            let name = format!("{r:?}");
            match name.strip_prefix("kw_") {
                Some(word) => format!("`{word}`"),
                None => name.replace('_', " "),
            }
        }
    }
}

fn syntax_error(file: FileId, text: &str, error: pest::error::Error<Rule>) -> Diagnostic {
    let (pos, expected) = match error.parse_attempts() {
        Some(attempts) => {
            // Literal tokens (keywords, punctuation) and the named rules the
            // parser would have accepted at its furthest position. pest does
            // not export the token type, so tokens are read through Display.
            let mut names: Vec<String> = attempts
                .expected_tokens()
                .iter()
                .map(ToString::to_string)
                .filter_map(|t| token_name(&t))
                .collect();
            for stack in attempts.call_stacks() {
                let rule = stack.deepest.get_rule().copied().or(stack.parent);
                if let Some(rule) =
                    rule.filter(|r| matches!(r, Rule::ident | Rule::integer | Rule::count | Rule::string))
                {
                    names.push(rule_name(&rule));
                }
            }
            names.sort_by_key(|n| (n.starts_with('`'), n.clone()));
            names.dedup();
            (attempts.max_position, names)
        }
        None => {
            let pos = match error.location {
                InputLocation::Pos(p) => p,
                InputLocation::Span((a, _)) => a,
            };
            let names = match &error.variant {
                ErrorVariant::ParsingError { positives, .. } => {
                    positives.iter().map(|r| rule_name(r).to_string()).collect()
                }
                ErrorVariant::CustomError { message } => vec![message.clone()],
            };
            (pos, names)
        }
    };
    let mut pos = skip_blank(text, pos);
    // With nothing expected, the parser failed inside a word: a keyword
    // matched its start (`tile` of `tile_placed`) and the word ran on. The
    // error is the word's, from its start.
    let mut keyword = "";
    if expected.is_empty() {
        let start = word_start(text, pos);
        keyword = &text[start..pos];
        pos = start;
    }
    if let Some(d) = if_expression(file, text, pos, &expected) {
        return d;
    }
    let hint_expected = expected.clone();
    let expected = join_alternatives(&expected);
    let found = found_at(text, pos);
    let span = Span::new(file, pos..pos + found.len());
    let invisible = invisible_char(&found);
    let found_text = if found.is_empty() {
        "the end of the file".to_string()
    } else if let Some(what) = &invisible {
        what.clone()
    } else {
        format!("`{found}`")
    };
    let mut d = if hint_expected.is_empty() {
        Diagnostic::new(Code::Syntax, format!("unexpected {found_text}")).at(span, "not expected here")
    } else {
        Diagnostic::new(Code::Syntax, format!("expected {expected}, found {found_text}"))
            .at(span, format!("expected {expected}"))
    };
    if found == "\u{FEFF}" {
        d = d.note("a byte-order mark is accepted only as the first character of a file; delete this one (an editor saving \"UTF-8 with BOM\" puts one at the start)");
    } else if invisible.is_some() {
        d = d.note("delete the invisible character, or retype the line");
    }
    let hint = syntax_hint(text, pos, &found, &hint_expected);
    let note_is_reason = hint.as_deref().is_some_and(|h| MISSING_REASON.contains(&h));
    if let Some(note) = hint {
        d = d.note(note);
    } else if !keyword.is_empty() {
        d = d.note(format!("did you mean `{keyword}`?"));
    }
    // A `score` or `forbid` without its `reason`, found where the next line
    // begins: the reason goes at the end of the line before (its comment
    // aside), which the label shows.
    let before = &text[..content_len(&text[..pos])];
    if note_is_reason && text[before.len()..pos].contains('\n') {
        let last = before.len() - before.chars().next_back().map_or(0, char::len_utf8);
        d = d.also(Span::new(file, last..before.len()), "`reason \"...\"` goes after this");
    }
    if found.is_empty() {
        if let Some(open) = unclosed_bracket(text) {
            d = d.also(Span::new(file, open..open + 1), "this bracket is never closed");
        }
    }
    d
}

/// `if CONDITION then A` written as a value without its `else`. The nearest
/// `if` before the failure is parsed again as `if EXPR then EXPR`; when the
/// failure lies right after that, the error says that a conditional value
/// needs both cases.
fn if_expression(file: FileId, text: &str, pos: usize, expected: &[String]) -> Option<Diagnostic> {
    if !expected.iter().any(|e| e == "`else`") {
        return None;
    }
    let at = text
        .get(..pos)?
        .match_indices("if")
        .map(|(i, _)| i)
        .filter(|&i| is_word_at(text, i, 2) && !in_comment_or_string(text, i))
        .last()?;
    let probe = RulesParser::parse(Rule::if_then_probe, &text[at..]).ok()?.next()?;
    // The probe's span takes in the blanks after it; the label should not.
    let end = at + probe.as_str().trim_end().len();
    if skip_blank(text, end) != pos {
        return None;
    }
    let mut inner = probe.into_inner().filter(|p| p.as_rule() == Rule::expr);
    let cond = inner.next()?.as_str().trim();
    let cond = if cond.len() <= 40 && !cond.contains('\n') {
        cond
    } else {
        "CONDITION"
    };
    let span = Span::new(file, at..end);
    Some(
        Diagnostic::new(Code::IfExpression, "`if … then` used as a value without `else`")
            .at(span, "this value has no `else`")
            .note(format!(
                "a value must exist in both cases: `if {cond} then A else B`; to run statements only when the condition holds, write the statement `if {cond} {{ ... }}`"
            )),
    )
}

/// Whether `text[at..at + len]` is a whole word.
fn is_word_at(text: &str, at: usize, len: usize) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !text[..at].chars().next_back().is_some_and(ident) && !text[at + len..].chars().next().is_some_and(ident)
}

/// Whether `at` lies in a comment or a string of its line.
fn in_comment_or_string(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let mut in_string = false;
    for c in line.chars() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return true,
            _ => {}
        }
    }
    in_string
}

/// The first position at or after `pos` that is not whitespace or a comment.
fn skip_blank(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b'#' => {
                while pos < bytes.len() && bytes[pos] != b'\n' {
                    pos += 1;
                }
            }
            _ => break,
        }
    }
    pos
}

/// How an expected token (as pest displays it) reads in a message.
fn token_name(token: &str) -> Option<String> {
    let chars: Vec<char> = token.chars().collect();
    let range = chars.len() == 4 && chars[1] == '.' && chars[2] == '.';
    match token {
        _ if range && chars[0].is_ascii_digit() => Some("a number".into()),
        _ if range => Some("a name".into()),
        "_" => Some("a name".into()),
        "\"" => Some("a quoted text".into()),
        // The optional byte-order mark at the start is never worth asking for.
        "BUILTIN_RULE" | "#" | "\u{FEFF}" => None,
        t if t.trim().is_empty() => None,
        t => Some(format!("`{t}`")),
    }
}

/// A character that would be invisible (or look like a space) in a message,
/// named by its code point: `U+FEFF, an invisible byte-order mark`.
fn invisible_char(found: &str) -> Option<String> {
    let mut chars = found.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let what = match c {
        '\u{FEFF}' => "an invisible byte-order mark",
        c if c.is_whitespace() => "a space character the language does not use",
        c if c.is_control()
            || matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2064}') =>
        {
            "an invisible character"
        }
        _ => return None,
    };
    Some(format!("U+{:04X}, {what}", c as u32))
}

/// The token at `pos`: a word, or one character.
fn found_at(text: &str, pos: usize) -> String {
    let rest = text.get(pos..).unwrap_or("");
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if word.is_empty() {
        rest.chars().next().map(String::from).unwrap_or_default()
    } else {
        word
    }
}

/// The statements of the language, as messages name them; the first word
/// of each begins a statement (and `else` continues an `if`).
pub(crate) const STATEMENTS: &[&str] = &[
    "score",
    "place",
    "move",
    "take back",
    "set",
    "let",
    "if",
    "for",
    "choose",
    "may",
    "draw card",
    "draw tile",
    "discard",
    "strengthen",
    "adjust scoring",
    "delay scoring",
    "swap",
    "steer next placement",
    "extra turn",
];

/// The words that begin a statement, and `else`.
fn statement_words() -> impl Iterator<Item = &'static str> {
    let mut seen: Vec<&str> = Vec::new();
    STATEMENTS
        .iter()
        .filter_map(|s| s.split(' ').next())
        .chain(["else"])
        .filter(move |w| {
            let new = !seen.contains(w);
            seen.push(w);
            new
        })
}

/// The start of the word `pos` lies in (`pos` itself between words).
fn word_start(text: &str, pos: usize) -> usize {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if !text.get(pos..).and_then(|r| r.chars().next()).is_some_and(ident) {
        return pos;
    }
    text[..pos]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| ident(c))
        .last()
        .map_or(pos, |(i, _)| i)
}

/// The words that begin an item (a declaration at the top of a file).
const ITEM_WORDS: &[&str] = &[
    "feature", "extend", "figure", "marker", "icon", "tile", "replace", "start", "stack", "forbid", "var", "on",
    "action", "fn", "deck", "hand", "card", "spot", "style",
];

/// The operator `text` ends with, when it ends with one that wants an
/// operand after it (`=`, `+`, `==`, `and` ...); else empty.
fn unfinished_by(text: &str) -> &str {
    let symbols = text.trim_end_matches(|c: char| "=+-*/%<>!".contains(c));
    if symbols.len() < text.len() {
        return &text[symbols.len()..];
    }
    ["and", "or", "not"]
        .into_iter()
        .find(|w| text.ends_with(w) && is_word_at(text, text.len() - w.len(), w.len()))
        .unwrap_or("")
}

/// The notes [`missing_reason`] gives: a `score`'s, a `forbid`'s.
const MISSING_REASON: [&str; 2] = [
    "a `score` names why the points are paid: end it with `reason \"NAME\"`, e.g. `score 2 to current_player reason \"bonus\"`",
    "a `forbid` rule says why, for the player it refuses: end it with `reason \"TEXT\"` after its condition, e.g. `forbid deployment of follower on f when f.kind == field reason \"no farmers\"`",
];

/// The note for a `score` or `forbid` that ends before its `reason`:
/// `statement` is the statement the failure ends, `item` the text of the
/// item it lies in up to the failure (a `forbid` has no braces).
fn missing_reason(statement: &str, item: &str, expected: &[String]) -> Option<&'static str> {
    if !expected.iter().any(|e| e == "`reason`") {
        return None;
    }
    if statement.starts_with("score ") {
        Some(MISSING_REASON[0])
    } else if item.starts_with("forbid ") && !item.contains('{') {
        Some(MISSING_REASON[1])
    } else {
        None
    }
}

fn syntax_hint(text: &str, pos: usize, found: &str, expected: &[String]) -> Option<String> {
    // The text before the failure, without the blanks and comments that
    // end it.
    let before = text.get(..pos).map_or("", |t| &t[..content_len(t)]);
    let is_word = |w: &str| w.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    let keywords: Vec<&str> = expected
        .iter()
        .filter_map(|e| e.strip_prefix('`')?.strip_suffix('`'))
        .filter(|k| is_word(k))
        .collect();
    let expects = |token: &str| expected.iter().any(|e| e == token);
    // The statement before the failure, from its line's start or its block's.
    let statement = before
        .trim_end()
        .rsplit(['\n', '{', '}'])
        .next()
        .unwrap_or("")
        .trim_start();
    // The item (top-level declaration) the failure lies in, up to it: it
    // starts at the last line to start with a word in the first column.
    let item = {
        let (mut at, mut start) = (0, 0);
        for line in before.split_inclusive('\n') {
            if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                start = at;
            }
            at += line.len();
        }
        &before[start..]
    };
    if let Some(hint) = missing_reason(statement, item, expected) {
        return Some(hint.to_string());
    }
    // A word that begins its line and begins a statement or an item there
    // is that, not a misspelt keyword of the line before.
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let begins_line = text[line_start..pos].trim().is_empty();
    let begins_item = pos == line_start && ITEM_WORDS.contains(&found);
    let keyword_of_its_own = begins_item || begins_line && statement_words().any(|w| w == found);
    if is_word(found) && !keyword_of_its_own {
        if let Some(word) = crate::diagnostic::suggest(found, keywords.iter().copied()) {
            return Some(format!("did you mean `{word}`?"));
        }
    }
    if found == ";" && (expects("`score`") || expects("`on`")) {
        return Some("statements and declarations need no `;` between them: delete it".to_string());
    }
    // `pack my-pack`, `card lock-city`: a name written with hyphens.
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let word_before = &before[before.len() - before.chars().rev().take_while(|&c| ident(c)).count()..];
    let count = word_before
        .strip_prefix('x')
        .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
    if found == "-"
        && before.len() == pos
        && word_before.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && !count
        && text[pos + 1..].starts_with(|c: char| c.is_ascii_alphabetic())
    {
        let start = before.len() - word_before.len();
        let end = pos + text[pos..].chars().take_while(|&c| ident(c) || c == '-').count();
        let name = &text[start..end];
        let title = if statement.starts_with("pack ") {
            format!(
                " (the pack's title, in quotes after its name, may read freely: `pack {} \"{}\"`)",
                name.replace('-', "_"),
                name.replace('-', " ")
            )
        } else {
            String::new()
        };
        return Some(format!(
            "a name is one word of letters, digits and `_`: write `{}` for `{name}`{title}",
            name.replace('-', "_")
        ));
    }
    // A misspelt statement word reads as the name of a function to call, so
    // the parser stops after it, wanting the call's `(`.
    let previous = &before[before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8())..];
    // An expression left unfinished before the next item (`fn f(x: int) =`
    // or `= x +`, then `on turn_end ...`): the item's first word was read
    // as the last operand, and the parser failed after it.
    let before_previous = before[..before.len() - previous.len()].trim_end();
    let operator = unfinished_by(before_previous);
    if ITEM_WORDS.contains(&previous) && !operator.is_empty() {
        return Some(format!(
            "the expression before `{previous}` ends with `{operator}` and no operand, so `{previous}`, which begins the next item, was read as one: finish the expression"
        ));
    }
    // Other languages' spellings of `else if`, `and`, `or` and `==`.
    if expected == ["`(`"] && ["elif", "elsif", "elseif"].contains(&previous) {
        return Some(format!("write `else if` instead of `{previous}`"));
    }
    if found.starts_with('&') && expects("`and`") {
        return Some("write `and` (as in `a > 0 and b > 0`): `&&` is not used".to_string());
    }
    if found.starts_with('|') && expects("`or`") {
        return Some("write `or` (as in `a > 0 or b > 0`): `||` is not used".to_string());
    }
    if found == "=" && expects("`==`") {
        return Some("compare with `==`: a single `=` gives a value only in `let`, `set` and declarations".to_string());
    }
    if expected == ["`(`"] && is_word(previous) {
        if let Some(word) = crate::diagnostic::suggest(previous, statement_words()) {
            return Some(format!("did you mean `{word}` instead of `{previous}`?"));
        }
    }
    if found == "then" && expected.iter().any(|e| e == "`{`") {
        return Some("an `if` statement takes no `then`: write `if CONDITION { ... } else { ... }`".to_string());
    }
    // The words `keyword` in the grammar reserves.
    const RESERVED: [&str; 9] = ["and", "or", "not", "in", "where", "true", "false", "touches", "at"];
    if RESERVED.contains(&found) {
        return Some(format!("`{found}` is a reserved word and cannot be used as a name"));
    }
    // `fn where(...)`, `let in = 1`, `var game at: int`: the name a
    // declaration gives was passed over as no name at all.
    if RESERVED.contains(&previous) && names_a_reserved_word(statement) {
        return Some(format!("`{previous}` is a reserved word and cannot be used as a name"));
    }
    // An item word in the first column, where the item before wants more:
    // that item is unfinished.
    if begins_item && !before.ends_with('}') && !expected.is_empty() {
        return Some(format!(
            "`{found}` begins the next item, so the one before it is unfinished: it needs {} before `{found}`",
            join_alternatives(expected)
        ));
    }
    // A word run on past a keyword (`standsx`) is named by the caller.
    if before.ends_with('}') || before.ends_with(';') || found.is_empty() || expected.is_empty() {
        return None;
    }
    // Inside a tile's braces: the line that opens them declares a tile
    // (not a handler of `tile_placed`).
    let in_tile_body = before.rfind('{').is_some_and(|open| {
        let line = before[..open].rsplit('\n').next().unwrap_or("").trim_start();
        before.rfind('}').is_none_or(|close| close < open)
            && ["tile ", "extend tile ", "replace tile "]
                .iter()
                .any(|w| line.starts_with(w))
    });
    in_tile_body.then(|| "separate the segments of a tile body with `;`".to_string())
}

/// Whether `statement`, the text of a statement up to where it failed,
/// ends at the name a declaration gives: `fn NAME`, `let NAME`, `card
/// NAME` (and the other declarations of one word), `var SCOPE NAME`.
fn names_a_reserved_word(statement: &str) -> bool {
    const DECLARES: [&str; 10] = [
        "fn", "let", "card", "figure", "deck", "marker", "icon", "spot", "action", "feature",
    ];
    let words: Vec<&str> = statement.split_whitespace().collect();
    match words.as_slice() {
        [declares, _] => DECLARES.contains(declares),
        ["var", _, _] => true,
        _ => false,
    }
}

fn join_alternatives(names: &[String]) -> String {
    match names {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Length of `text` without trailing whitespace and comments. Strings (the
/// only place a `#` is not a comment) appear only in the header, so a `#`
/// after an even number of quotes on its line starts a comment.
fn content_len(text: &str) -> usize {
    let mut end = text.trim_end().len();
    loop {
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..end];
        let comment = line
            .char_indices()
            .filter(|(_, c)| *c == '#')
            .map(|(i, _)| i)
            .find(|i| line[..*i].matches('"').count() % 2 == 0);
        match comment {
            Some(i) => end = text[..line_start + i].trim_end().len(),
            None => return end,
        }
    }
}

struct Cx {
    file: FileId,
}

impl Cx {
    /// The pair's span without the whitespace and comments pest may have
    /// consumed after its last element (`a ~ b?` skips blanks even when `b`
    /// is absent).
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        let len = content_len(pair.as_str());
        Span::new(self.file, s.start()..s.start() + len)
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            span: self.span(&pair),
            name: pair.as_str().to_string(),
        }
    }

    /// Numbers beyond [`MAX_NUMBER`] are clamped here and reported by the checker.
    fn number(&self, pair: Pair<Rule>) -> Number {
        let digits = pair.as_str().trim_start_matches('x');
        Number {
            span: self.span(&pair),
            value: digits
                .parse::<u32>()
                .unwrap_or(u32::MAX)
                .min(MAX_NUMBER.saturating_add(1)),
        }
    }

    fn file(&self, root: Pair<Rule>) -> File {
        let mut inner = root.into_inner();
        let header = self.header(inner.next().expect("file starts with a header"));
        let items = inner
            .filter(|p| p.as_rule() != Rule::EOI)
            .map(|p| self.item(p))
            .collect();
        File { header, items }
    }

    fn header(&self, pair: Pair<Rule>) -> Header {
        let mut inner = pair.into_inner();
        let mut pack = inner.next().expect("header starts with pack").into_inner();
        pack.next(); // `pack`
        let name = self.ident(pack.next().expect("pack has a name"));
        let title = pack.next().map(|s| s.as_str().trim_matches('"').to_string());
        let mut header = Header {
            name,
            title,
            language: None,
            requires: Vec::new(),
        };
        for line in inner {
            match line.as_rule() {
                Rule::language_decl => {
                    let n = line.into_inner().nth(1).expect("language has a number");
                    header.language = Some(self.number(n));
                }
                Rule::requires_decl => {
                    header.requires.extend(line.into_inner().skip(1).map(|p| self.ident(p)));
                }
                rule => unreachable!("header line {rule:?}"),
            }
        }
        header
    }

    fn item(&self, pair: Pair<Rule>) -> Item {
        match pair.as_rule() {
            Rule::feature_decl => Item::Feature(self.feature(pair)),
            Rule::feature_extend => {
                let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let name = self.ident(inner.next().expect("extend feature has a name"));
                let clauses = inner.filter_map(|c| self.feature_clause(c)).collect();
                Item::ExtendFeature(name, clauses)
            }
            Rule::figure_decl => Item::Figure(self.figure(pair)),
            Rule::figure_extend => {
                let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let name = self.ident(inner.next().expect("extend figure has a name"));
                Item::ExtendFigure(name, inner.map(|p| self.figure_place(p)).collect())
            }
            Rule::marker_decl => {
                let mut inner = pair.into_inner().filter(|p| p.as_rule() == Rule::ident);
                let name = self.ident(inner.next().expect("marker has a name"));
                Item::Marker(MarkerDecl {
                    name,
                    on: inner.map(|p| self.ident(p)).collect(),
                })
            }
            Rule::icon_decl => {
                let mut inner = pair.into_inner().skip(1);
                Item::Icon(IconDecl {
                    name: self.ident(inner.next().expect("icon has a name")),
                    value_type: inner.next().map(|p| self.ident(p)),
                })
            }
            Rule::tile_decl => Item::Tile(self.tile(pair)),
            Rule::forbid_decl => {
                let span = self.span(&pair);
                let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let what_pair = inner.next().expect("forbid names what it judges");
                let rule = what_pair.as_rule();
                let mut names = what_pair
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::ident)
                    .map(|p| self.ident(p));
                let first = names.next().expect("forbid names a variable");
                let what = if rule == Rule::forbid_placement {
                    Forbidden::Placement { tile: first }
                } else {
                    Forbidden::Deployment {
                        figure: first,
                        feature: names.next().expect("forbid deployment names the feature"),
                    }
                };
                let when = self.expr(inner.next().expect("forbid has a condition"));
                let reason = inner.next().expect("forbid has a reason").as_str();
                Item::Forbid(ForbidDecl {
                    what,
                    when,
                    reason: reason[1..reason.len() - 1].to_string(),
                    span,
                })
            }
            Rule::stack_decl => {
                let mut inner = pair.into_inner().skip(1);
                let name = self.ident(inner.next().expect("stack has a name"));
                let order = inner.next().expect("stack has an order");
                let before = order.into_inner().next().map(|p| p.as_rule()) == Some(Rule::kw_before);
                let other = self.ident(inner.next().expect("stack is ordered against another"));
                Item::Stack(StackDecl { name, before, other })
            }
            Rule::var_decl => Item::Var(self.var(pair)),
            Rule::handler_decl => Item::Handler(self.handler(pair)),
            Rule::action_decl => Item::Action(Box::new(self.action(pair))),
            Rule::fn_decl => Item::Fn(self.function(pair)),
            Rule::style_decl => {
                let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let name = self.ident(inner.next().expect("style has a name"));
                let mut style = StyleDecl {
                    name,
                    colour: None,
                    shape: None,
                };
                for part in inner {
                    let rule = part.as_rule();
                    let value = part
                        .into_inner()
                        .find(|p| !is_keyword(p.as_rule()))
                        .expect("a style part has a value");
                    if rule == Rule::style_colour {
                        let text = value.as_str();
                        style.colour = Some((text[1..text.len() - 1].to_string(), self.span(&value)));
                    } else {
                        style.shape = Some(self.ident(value));
                    }
                }
                Item::Style(style)
            }
            Rule::spot_decl => {
                let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                Item::Spot {
                    name: self.ident(inner.next().expect("spot has a name")),
                    per_player: inner.next().is_some(),
                }
            }
            Rule::deck_decl => {
                let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let name = self.ident(inner.next().expect("deck has a name"));
                Item::Deck(DeckDecl {
                    name,
                    reshuffle: inner.next().is_some(),
                })
            }
            Rule::hand_decl => {
                let mut n = None;
                let mut decks = Vec::new();
                for part in pair.into_inner() {
                    match part.as_rule() {
                        Rule::integer => n = Some(self.number(part)),
                        Rule::ident => decks.push(self.ident(part)),
                        _ => {}
                    }
                }
                Item::HandLimit(n.expect("hand limit has a number"), decks)
            }
            Rule::card_decl => Item::Card(Box::new(self.card(pair))),
            Rule::start_decl => {
                let span = self.span(&pair);
                let mut inner = pair.into_inner();
                let mode = inner.next().expect("start has a mode");
                let replace = mode.into_inner().next().map(|m| m.as_rule()) == Some(Rule::start_replace);
                Item::Start(StartDecl {
                    replace,
                    tile: self.ident(inner.next().expect("start names a tile")),
                    span,
                })
            }
            rule => unreachable!("item {rule:?}"),
        }
    }

    fn var(&self, pair: Pair<Rule>) -> VarDecl {
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let scope = self.ident(
            inner
                .next()
                .expect("var has a scope")
                .into_inner()
                .next()
                .expect("scope is a name"),
        );
        let name = self.ident(inner.next().expect("var has a name"));
        let ty = self.ident(inner.next().expect("var has a type"));
        let mut decl = VarDecl {
            scope,
            name,
            ty,
            init: None,
            merge: None,
        };
        for part in inner {
            match part.as_rule() {
                Rule::expr => decl.init = Some(self.expr(part)),
                Rule::ident => decl.merge = Some(self.ident(part)),
                rule => unreachable!("var part {rule:?}"),
            }
        }
        decl
    }

    fn handler(&self, pair: Pair<Rule>) -> HandlerDecl {
        let span = self.span(&pair);
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let event = self.ident(inner.next().expect("handler names an event"));
        let mut decl = HandlerDecl {
            event,
            names: Vec::new(),
            when: None,
            body: Block { stmts: Vec::new() },
            span,
        };
        for part in inner {
            match part.as_rule() {
                Rule::names => decl.names = part.into_inner().map(|p| self.ident(p)).collect(),
                Rule::expr => decl.when = Some(self.expr(part)),
                Rule::block => decl.body = self.block(part),
                rule => unreachable!("handler part {rule:?}"),
            }
        }
        decl
    }

    fn action(&self, pair: Pair<Rule>) -> ActionDecl {
        let span = self.span(&pair);
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let name = self.ident(inner.next().expect("action has a name"));
        self.action_rest(name, inner, span)
    }

    /// An action's window, domain, condition and body (shared by `action`
    /// and a card's `play in`).
    fn action_rest<'i>(&self, name: Ident, mut parts: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> ActionDecl {
        let window = self.ident(parts.next().expect("an action has a window"));
        let mut decl = ActionDecl {
            name,
            window,
            domain: None,
            when: None,
            body: Block { stmts: Vec::new() },
            span,
        };
        for part in parts {
            match part.as_rule() {
                Rule::action_for => decl.domain = Some(self.domain_clause(part)),
                Rule::expr => decl.when = Some(self.expr(part)),
                Rule::block => decl.body = self.block(part),
                rule => unreachable!("action part {rule:?}"),
            }
        }
        decl
    }

    fn card(&self, pair: Pair<Rule>) -> CardDecl {
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let name = self.ident(inner.next().expect("card has a name"));
        let count = self.number(inner.next().expect("card has a count"));
        let deck = self.ident(inner.next().expect("card names its deck"));
        let mut decl = CardDecl {
            name,
            count,
            deck,
            on_draw: None,
            play: None,
            at_end: None,
            old_at: None,
            kept: false,
        };
        for part in inner {
            match part.as_rule() {
                Rule::card_draw => {
                    decl.on_draw = part
                        .into_inner()
                        .find(|p| p.as_rule() == Rule::block)
                        .map(|b| self.block(b))
                }
                Rule::card_kept => decl.kept = true,
                Rule::card_end => {
                    for p in part.into_inner() {
                        match p.as_rule() {
                            Rule::old_at => decl.old_at = Some(self.span(&p)),
                            Rule::block => decl.at_end = Some(self.block(p)),
                            _ => {}
                        }
                    }
                }
                Rule::card_play => {
                    let play_span = self.span(&part);
                    let parts = part.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    decl.play = Some(self.action_rest(decl.name.clone(), parts, play_span));
                }
                rule => unreachable!("card part {rule:?}"),
            }
        }
        decl
    }

    fn domain_clause(&self, pair: Pair<Rule>) -> DomainClause {
        let binder = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::binder)
            .expect("for has a binder");
        let (domain, var, list, filter) = self.binder(binder);
        DomainClause {
            domain,
            var,
            list,
            filter,
        }
    }

    /// `DOMAIN x [in LIST] [where COND]` or `x in LIST [where COND]`: the
    /// first name, the second (the variable, when there is a domain), the
    /// list and the condition.
    fn binder(&self, pair: Pair<Rule>) -> (Ident, Option<Ident>, Option<Expr>, Option<Expr>) {
        let mut idents = Vec::new();
        let (mut list, mut filter, mut last) = (None, None, None);
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::ident => idents.push(self.ident(part)),
                Rule::kw_in | Rule::kw_where => last = Some(part.as_rule()),
                Rule::expr if last == Some(Rule::kw_in) => list = Some(self.expr(part)),
                Rule::expr => filter = Some(self.expr(part)),
                r => unreachable!("binder part {r:?}"),
            }
        }
        let mut idents = idents.into_iter();
        let first = idents.next().expect("a binder names something");
        (first, idents.next(), list, filter)
    }

    fn function(&self, pair: Pair<Rule>) -> FnDecl {
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let name = self.ident(inner.next().expect("fn has a name"));
        let mut params = Vec::new();
        let mut body = None;
        let mut result = None;
        for part in inner {
            match part.as_rule() {
                Rule::fn_result => result = Some(self.ident(part.into_inner().next().expect("`:` has a type"))),
                Rule::param => {
                    let mut p = part.into_inner();
                    let n = self.ident(p.next().expect("param has a name"));
                    let t = self.ident(p.next().expect("param has a type"));
                    params.push((n, t));
                }
                Rule::fn_expr => {
                    body = Some(FnBody::Expr(
                        self.expr(part.into_inner().next().expect("= has an expression")),
                    ))
                }
                Rule::block => body = Some(FnBody::Block(self.block(part))),
                rule => unreachable!("fn part {rule:?}"),
            }
        }
        FnDecl {
            name,
            params,
            result,
            body: body.expect("fn has a body"),
        }
    }

    fn block(&self, pair: Pair<Rule>) -> Block {
        Block {
            stmts: pair.into_inner().map(|s| self.stmt(s)).collect(),
        }
    }

    fn stmt(&self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        if matches!(rule, Rule::for_stmt | Rule::choose_stmt) {
            return self.loop_or_choice(rule, pair.into_inner(), span);
        }
        if rule == Rule::options_stmt {
            return self.options(pair.into_inner(), span);
        }
        let mut inner = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let mut next = || inner.next().expect("statement parts follow the grammar");
        match rule {
            Rule::score_stmt => {
                let amount = self.expr(next());
                let to = self.expr(next());
                let reason_pair = next();
                Stmt::Score {
                    amount,
                    to,
                    reason_span: self.span(&reason_pair),
                    reason_named: reason_pair.as_rule() == Rule::ident,
                    reason: reason_pair.as_str().trim_matches('"').to_string(),
                    span,
                }
            }
            Rule::place_stmt => {
                let figure = self.ident(next());
                let mut rest: Vec<Pair<Rule>> = inner.collect();
                let at = match rest.last().map(Pair::as_rule) {
                    Some(Rule::place_at) => rest.pop().and_then(|p| p.into_inner().last()).map(|e| self.expr(e)),
                    _ => None,
                };
                let on = self.expr(rest.pop().expect("place has a target"));
                let owner = rest.pop().map(|o| self.expr(o));
                Stmt::Place {
                    figure,
                    owner,
                    on,
                    at,
                    span,
                }
            }
            Rule::place_spot_stmt => {
                let figure = self.ident(next());
                let mut rest: Vec<Pair<Rule>> = inner.collect();
                let spot = self.ident(rest.pop().expect("place names a spot"));
                let owner = rest.pop().map(|o| self.expr(o));
                Stmt::PlaceAtSpot {
                    figure,
                    owner,
                    spot,
                    span,
                }
            }
            Rule::move_spot_stmt => Stmt::MoveToSpot {
                figure: self.expr(next()),
                spot: self.ident(next()),
                span,
            },
            Rule::move_stmt => Stmt::Move {
                figure: self.expr(next()),
                to: self.expr(next()),
                at: inner.next().map(|e| self.expr(e)),
                span,
            },
            Rule::draw_card_stmt => Stmt::DrawCard {
                deck: self.ident(next()),
                player: inner.next().map(|e| self.expr(e)),
                span,
            },
            Rule::extra_tile_stmt => {
                let mut part = next();
                let mut from = None;
                if part.as_rule() == Rule::ident {
                    from = Some(self.ident(part));
                    part = next();
                }
                let policy = part.into_inner().next().map(|p| p.as_rule());
                Stmt::ExtraTile {
                    keep: policy == Some(Rule::kw_return),
                    from,
                    span,
                }
            }
            Rule::discard_stmt => Stmt::Discard {
                card: self.expr(next()),
                player: inner.next().map(|e| self.expr(e)),
                span,
            },
            Rule::strengthen_stmt => Stmt::Strengthen {
                player: self.expr(next()),
                feature: self.expr(next()),
                by: inner.next().map(|e| self.expr(e)),
                span,
            },
            Rule::adjust_stmt => {
                let feature = self.expr(next());
                let how = next().into_inner().next().map(|p| p.as_rule());
                let amount = self.expr(next());
                let reason = inner
                    .next()
                    .map(|r| (r.as_str().trim_matches('"').to_string(), self.span(&r)));
                Stmt::Adjust {
                    feature,
                    replace: how == Some(Rule::kw_to),
                    amount,
                    reason,
                    span,
                }
            }
            Rule::delay_stmt => Stmt::Delay {
                feature: self.expr(next()),
                span,
            },
            Rule::swap_stmt => Stmt::Swap {
                a: self.expr(next()),
                b: self.expr(next()),
                span,
            },
            Rule::steer_stmt => Stmt::Steer {
                square: self.expr(next()),
                span,
            },
            Rule::extra_turn_stmt => Stmt::ExtraTurn { span },
            Rule::may_stmt => Stmt::May {
                body: self.block(next()),
                span,
            },
            Rule::return_stmt => Stmt::Return {
                figure: self.expr(next()),
                span,
            },
            Rule::take_back_stmt => Stmt::TakeBack {
                figure: self.expr(next()),
                span,
            },
            Rule::set_stmt => {
                let mut lv = next().into_inner();
                let target = self.ident(lv.next().expect("lvalue has a name"));
                let field = lv.next().map(|f| self.ident(f));
                Stmt::Set {
                    target,
                    field,
                    value: self.expr(next()),
                    span,
                }
            }
            Rule::let_stmt => Stmt::Let {
                name: self.ident(next()),
                value: self.expr(next()),
                span,
            },
            Rule::if_stmt => {
                let cond = self.expr(next());
                let then = self.block(next());
                let otherwise = inner.next().map(|e| match e.as_rule() {
                    Rule::if_stmt => {
                        let s = self.stmt(e);
                        Block { stmts: vec![s] }
                    }
                    _ => self.block(e),
                });
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    span,
                }
            }
            Rule::call_stmt => {
                let func = self.ident(next());
                let args = next().into_inner().map(|a| self.expr(a)).collect();
                Stmt::Call { func, args, span }
            }
            rule => unreachable!("statement {rule:?}"),
        }
    }

    /// `choose [by PLAYER] { NAME [when COND] { ... } ... }`.
    fn options(&self, pairs: pest::iterators::Pairs<Rule>, span: Span) -> Stmt {
        let mut by = None;
        let mut options = Vec::new();
        for part in pairs {
            match part.as_rule() {
                Rule::expr => by = Some(self.expr(part)),
                Rule::option_arm => {
                    let mut inner = part.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    let name = self.ident(inner.next().expect("an option has a name"));
                    let (mut when, mut body) = (None, None);
                    for p in inner {
                        match p.as_rule() {
                            Rule::expr => when = Some(self.expr(p)),
                            _ => body = Some(self.block(p)),
                        }
                    }
                    options.push(OptionArm {
                        name,
                        when,
                        body: body.expect("an option has a body"),
                    });
                }
                _ => {}
            }
        }
        Stmt::ChooseOption { by, options, span }
    }

    /// `for each` and `choose`: their `by`, `in` and `where` clauses are told
    /// apart by the keyword before each.
    fn loop_or_choice(&self, rule: Rule, pairs: pest::iterators::Pairs<Rule>, span: Span) -> Stmt {
        let (mut may, mut by, mut list, mut filter) = (false, None, None, None);
        let mut idents = Vec::new();
        let mut blocks = Vec::new();
        let mut last_keyword = None;
        let mut old_each = None;
        for part in pairs {
            match part.as_rule() {
                Rule::may => may = true,
                Rule::old_each => old_each = Some(self.span(&part)),
                Rule::binder => {
                    let (first, second, l, f) = self.binder(part);
                    idents.push(first);
                    idents.extend(second);
                    (list, filter) = (l, f);
                }
                r if is_keyword(r) => last_keyword = Some(r),
                Rule::ident => idents.push(self.ident(part)),
                Rule::block => blocks.push(self.block(part)),
                Rule::expr => {
                    let e = self.expr(part);
                    match last_keyword {
                        Some(Rule::kw_by) => by = Some(e),
                        Some(Rule::kw_in) => list = Some(e),
                        _ => filter = Some(e),
                    }
                }
                r => unreachable!("loop or choice part {r:?}"),
            }
        }
        let mut idents = idents.into_iter();
        let first = idents.next().expect("a domain or variable follows");
        let second = idents.next();
        let mut blocks = blocks.into_iter();
        let body = blocks.next().expect("a body follows");
        if rule == Rule::for_stmt {
            Stmt::ForEach {
                domain: first,
                var: second,
                list,
                filter,
                body,
                old_each,
                span,
            }
        } else {
            Stmt::Choose {
                optional: may,
                by,
                domain: first,
                var: second,
                list,
                filter,
                body,
                otherwise: blocks.next(),
                span,
            }
        }
    }

    /// A `complete when` or `score` clause of a feature kind.
    fn feature_clause(&self, clause: Pair<Rule>) -> Option<FeatureClause> {
        let span = self.span(&clause);
        Some(match clause.as_rule() {
            Rule::complete_clause => {
                let expr = self.expr(clause.into_inner().nth(2).expect("complete has an expression"));
                FeatureClause::Complete { expr, span }
            }
            Rule::score_clause => {
                let mut parts = clause.into_inner().skip(1);
                let moment_pair = parts.next().expect("score has a moment");
                let moment = match moment_pair.into_inner().next().map(|p| p.as_rule()) {
                    Some(Rule::kw_completed) => ScoreMoment::Completed,
                    _ => ScoreMoment::Final,
                };
                let expr = self.expr(parts.next().expect("score has an expression"));
                FeatureClause::Score { moment, expr, span }
            }
            _ => return None,
        })
    }

    fn feature(&self, pair: Pair<Rule>) -> FeatureDecl {
        let mut inner = pair.into_inner();
        inner.next(); // `feature`
        let name = self.ident(inner.next().expect("feature has a name"));
        let topo = inner.next().expect("feature has a topology");
        let topology_span = self.span(&topo);
        let topology = match topo.into_inner().next().map(|p| p.as_rule()) {
            Some(Rule::topo_edges) => Topology::Edges,
            Some(Rule::topo_half_edges) => Topology::HalfEdges,
            _ => Topology::Area,
        };
        let mut narrow = None;
        let mut clauses = Vec::new();
        for clause in inner {
            if clause.as_rule() == Rule::narrow {
                narrow = Some(self.span(&clause));
            } else if let Some(c) = self.feature_clause(clause) {
                clauses.push(c);
            }
        }
        FeatureDecl {
            name,
            topology,
            topology_span,
            narrow,
            clauses,
        }
    }

    /// `stands on a, b` or `lies on a`.
    fn figure_place(&self, pair: Pair<Rule>) -> FigurePlace {
        let mut parts = pair.into_inner();
        let posture = match parts.next().and_then(|p| p.into_inner().next()).map(|p| p.as_rule()) {
            Some(Rule::kw_stands) => Posture::Standing,
            _ => Posture::Lying,
        };
        FigurePlace {
            posture,
            kinds: parts
                .filter(|p| p.as_rule() == Rule::ident)
                .map(|p| self.ident(p))
                .collect(),
        }
    }

    fn figure(&self, pair: Pair<Rule>) -> FigureDecl {
        let mut inner = pair.into_inner();
        inner.next(); // `figure`
        let name = self.ident(inner.next().expect("figure has a name"));
        let mut ownership = Ownership::Neutral;
        let mut count = None;
        let mut old_count = false;
        let mut weight = None;
        let mut places = Vec::new();
        for part in inner {
            match part.as_rule() {
                Rule::ownership => {
                    if part.clone().into_inner().next().map(|p| p.as_rule()) == Some(Rule::kw_per_player) {
                        ownership = Ownership::PerPlayer;
                    }
                }
                Rule::count => count = Some(self.number(part)),
                Rule::integer => {
                    old_count = true;
                    count = Some(self.number(part));
                }
                Rule::figure_weight => {
                    weight = Some(self.number(part.into_inner().nth(1).expect("weight has a number")));
                }
                Rule::figure_place => places.push(self.figure_place(part)),
                rule => unreachable!("figure part {rule:?}"),
            }
        }
        FigureDecl {
            name,
            ownership,
            count: count.expect("figure has a count"),
            old_count,
            weight,
            places,
        }
    }

    fn tile(&self, pair: Pair<Rule>) -> TileDecl {
        let mut inner = pair.into_inner();
        let mode = match inner.next().and_then(|m| m.into_inner().next()).map(|p| p.as_rule()) {
            Some(Rule::tile_extend) => TileMode::Extend,
            Some(Rule::tile_replace) => TileMode::Replace,
            _ => TileMode::Define,
        };
        let name = self.ident(inner.next().expect("tile has a name"));
        let mut decl = TileDecl {
            mode,
            name,
            from: None,
            count: None,
            stack: None,
            body: None,
        };
        for part in inner {
            match part.as_rule() {
                Rule::tile_from => decl.from = part.into_inner().nth(1).map(|p| self.ident(p)),
                Rule::count => decl.count = Some(self.number(part)),
                Rule::tile_stack => {
                    let mut inner = part.into_inner().skip(1);
                    let stack = self.ident(inner.next().expect("`in` names a stack"));
                    let last = inner.next().map(|p| self.span(&p));
                    decl.stack = Some(TileStack { stack, last });
                }
                Rule::tile_body => {
                    let items = part.into_inner().map(|p| self.tile_item(p)).collect();
                    decl.body = Some(TileBody { items });
                }
                rule => unreachable!("tile part {rule:?}"),
            }
        }
        decl
    }

    fn tile_item(&self, pair: Pair<Rule>) -> TileItem {
        let span = self.span(&pair);
        match pair.as_rule() {
            Rule::icon_item => {
                let mut inner = pair.into_inner().skip(1);
                TileItem::Icon {
                    name: self.ident(inner.next().expect("icon has a name")),
                    value: inner.next().map(|p| self.ident(p)),
                }
            }
            Rule::segment => {
                let mut inner = pair.into_inner();
                let kind = self.ident(inner.next().expect("segment has a kind"));
                let mut words = Vec::new();
                let mut touches = Vec::new();
                for part in inner {
                    match part.as_rule() {
                        Rule::ident => words.push(self.ident(part)),
                        Rule::touches => {
                            touches = part.into_inner().skip(1).map(|p| self.ident(p)).collect();
                        }
                        rule => unreachable!("segment part {rule:?}"),
                    }
                }
                TileItem::Segment(SegmentDecl {
                    kind,
                    words,
                    touches,
                    span,
                })
            }
            rule => unreachable!("tile item {rule:?}"),
        }
    }

    fn expr(&self, pair: Pair<Rule>) -> Expr {
        match pair.as_rule() {
            Rule::expr => self.expr(pair.into_inner().next().expect("expr has a body")),
            Rule::or_expr | Rule::and_expr | Rule::sum | Rule::product => self.binary_chain(pair),
            Rule::cmp_expr => self.binary_chain(pair),
            Rule::not_expr | Rule::unary => {
                let mut ops = Vec::new();
                let mut operand = None;
                for part in pair.into_inner() {
                    match part.as_rule() {
                        Rule::op_not => ops.push((UnOp::Not, self.span(&part))),
                        Rule::op_neg => ops.push((UnOp::Neg, self.span(&part))),
                        _ => operand = Some(self.expr(part)),
                    }
                }
                let mut expr = operand.expect("prefix chain ends in an operand");
                for (op, op_span) in ops.into_iter().rev() {
                    let span = op_span.to(expr.span());
                    expr = Expr::Unary {
                        op,
                        expr: Box::new(expr),
                        span,
                    };
                }
                expr
            }
            Rule::postfix => {
                let mut inner = pair.into_inner();
                let mut expr = self.expr(inner.next().expect("postfix has a base"));
                for member in inner {
                    let span = expr.span().to(self.span(&member));
                    let mut parts = member.into_inner();
                    let name = self.ident(parts.next().expect("member has a name"));
                    let args = parts.next().map(|a| a.into_inner().map(|e| self.expr(e)).collect());
                    expr = Expr::Member {
                        base: Box::new(expr),
                        name,
                        args,
                        span,
                    };
                }
                expr
            }
            Rule::integer => Expr::Int(self.number(pair)),
            Rule::string => {
                let span = self.span(&pair);
                Expr::Str(pair.as_str().trim_matches('"').to_string(), span)
            }
            Rule::boolean => {
                let span = self.span(&pair);
                Expr::Bool(pair.as_str() == "true", span)
            }
            Rule::ident => Expr::Name(self.ident(pair)),
            Rule::call => {
                let span = self.span(&pair);
                let mut inner = pair.into_inner();
                let func = self.ident(inner.next().expect("call has a name"));
                let args = inner.next().expect("call has arguments").into_inner();
                Expr::Call {
                    func,
                    args: args.map(|a| self.expr(a)).collect(),
                    span,
                }
            }
            Rule::count_expr => {
                let span = self.span(&pair);
                let binder = pair
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::binder)
                    .expect("count has a binder");
                let (first, second, list, filter) = self.binder(binder);
                let (domain, var) = match second {
                    Some(var) => (Some(first), var),
                    None => (None, first),
                };
                Expr::Count {
                    domain,
                    var,
                    list: list.map(Box::new),
                    filter: filter.map(Box::new),
                    span,
                }
            }
            Rule::if_expr => {
                let span = self.span(&pair);
                let mut inner = pair
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::expr)
                    .map(|e| self.expr(e));
                let mut next = || Box::new(inner.next().expect("if has a condition and two values"));
                Expr::If {
                    cond: next(),
                    then: next(),
                    otherwise: next(),
                    span,
                }
            }
            rule => unreachable!("expression {rule:?}"),
        }
    }

    /// `a (op a)*` folded to the left.
    fn binary_chain(&self, pair: Pair<Rule>) -> Expr {
        let mut inner = pair.into_inner();
        let mut lhs = self.expr(inner.next().expect("chain has an operand"));
        while let Some(op) = inner.next() {
            let rhs = self.expr(inner.next().expect("operator has a right operand"));
            lhs = Expr::Binary {
                op: bin_op(op.as_str()),
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
        lhs
    }
}

fn bin_op(text: &str) -> BinOp {
    match text {
        "or" => BinOp::Or,
        "and" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        _ => BinOp::Rem,
    }
}

/// Keyword tokens carry no information once the rule that holds them is known.
fn is_keyword(rule: Rule) -> bool {
    format!("{rule:?}").starts_with("kw_")
}
