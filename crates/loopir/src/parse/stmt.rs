//! Statements: one or more whole lines each, nested by indentation.
//!
//! `let`, `allocate` and `prefetch` lines have no braces: their body is the rest of the
//! enclosing block. A block is therefore read as a list of items and folded from the end,
//! each binder wrapping everything after it, which keeps arbitrarily long let chains free
//! of recursion.

use super::{Binding, ParseError, ParseErrorKind, Parser};
use crate::dialect::{self, Dialect};
use crate::expr::{Expr, ExprKind, Name};
use crate::stack::with_stack;
use crate::stmt::{
    DeviceApi, ForType, MemoryType, MinExtent, PartitionPolicy, PrefetchDirective, Stmt, StmtKind,
};
use crate::types::Type;

/// A statement whose body is "whatever follows".
enum Binder {
    Let {
        name: Name,
        value: Expr,
    },
    Allocate {
        name: Name,
        ty: Type,
        memory_type: MemoryType,
        extents: Vec<Expr>,
        condition: Expr,
        new_expr: Option<Expr>,
        free_function: Option<Name>,
        padding: i32,
    },
    Prefetch {
        name: Name,
        bounds: Vec<MinExtent>,
        at: Name,
        from: Name,
        condition: Expr,
    },
}

impl Binder {
    fn wrap(self, body: Stmt) -> Stmt {
        let kind = match self {
            Binder::Let { name, value } => StmtKind::LetStmt { name, value, body },
            Binder::Allocate {
                name,
                ty,
                memory_type,
                extents,
                condition,
                new_expr,
                free_function,
                padding,
            } => StmtKind::Allocate {
                name,
                ty,
                memory_type,
                extents,
                condition,
                new_expr,
                free_function,
                padding,
                body,
            },
            Binder::Prefetch { name, bounds, at, from, condition } => StmtKind::Prefetch {
                name: name.clone(),
                types: Vec::new(),
                bounds,
                prefetch: PrefetchDirective { name, at, from, offset: Expr::i32(0) },
                condition,
                body,
            },
        };
        Stmt::from_kind_unchecked(kind)
    }
}

enum Item {
    Stmt(Stmt),
    /// A binder, with the name it put in scope (if any) and where it started.
    Binder(Binder, Option<Name>, usize),
}

impl<'a> Parser<'a> {
    fn spaces_at(&self, at: usize) -> usize {
        self.src[at..].iter().take_while(|&&b| b == b' ').count()
    }

    /// Reads the statements at indentation `n` up to the end of the enclosing block.
    pub(crate) fn block(&mut self, n: usize) -> Result<Stmt, ParseError> {
        let mut items: Vec<Item> = Vec::new();
        let result = self.block_items(n, &mut items);
        // Names bound by binders of this block go out of scope at its end.
        for item in items.iter().rev() {
            if let Item::Binder(_, Some(name), _) = item {
                self.pop_binding(name);
            }
        }
        result?;
        if items.is_empty() {
            return Err(self.error(ParseErrorKind::UnexpectedText, "a statement"));
        }
        // Fold from the end: each binder's body is everything after it.
        let mut tail: Vec<Stmt> = Vec::new();
        while let Some(item) = items.pop() {
            match item {
                Item::Stmt(s) => tail.push(s),
                Item::Binder(b, _, at) => {
                    if tail.is_empty() {
                        return Err(self.error_at(
                            at,
                            1,
                            ParseErrorKind::InvalidNode,
                            "a statement after this binder (its body)",
                        ));
                    }
                    tail.reverse();
                    let body = Stmt::block(std::mem::take(&mut tail));
                    tail.push(b.wrap(body));
                }
            }
        }
        tail.reverse();
        Ok(Stmt::block(tail))
    }

    fn block_items(&mut self, n: usize, items: &mut Vec<Item>) -> Result<(), ParseError> {
        loop {
            // Leniently, a block runs to its closing brace; blank lines and indentation
            // say nothing. Strictly, a block is its lines at indentation `n`.
            if self.lenient {
                self.skip_blank();
                if self.pos >= self.src.len() || self.peek() == Some(b'}') {
                    return Ok(());
                }
            } else {
                if self.pos >= self.src.len() {
                    return Ok(());
                }
                let ind = self.spaces_at(self.pos);
                let first = self.src.get(self.pos + ind).copied();
                if ind < n || (ind == n && first == Some(b'}')) {
                    return Ok(());
                }
                if ind > n {
                    return Err(self.error_at(
                        self.pos,
                        ind,
                        ParseErrorKind::Indentation,
                        &format!("{n} spaces of indentation (found {ind})"),
                    ));
                }
                if first == Some(b'\n') || first.is_none() {
                    return Err(self.error_at(
                        self.pos + ind,
                        1,
                        ParseErrorKind::UnexpectedText,
                        "a statement, not an empty line",
                    ));
                }
                self.pos += n;
            }
            let item = with_stack(|| self.statement(n))?;
            if let Item::Binder(_, Some(name), _) = &item {
                let b = match &item {
                    Item::Binder(Binder::Let { value, .. }, ..) => Binding::Value(value.ty(), true),
                    Item::Binder(Binder::Allocate { ty, .. }, ..) => Binding::Buffer(*ty),
                    _ => Binding::Loop,
                };
                let name = name.clone();
                self.push_binding(&name, b);
            }
            items.push(item);
        }
    }

    fn newline(&mut self) -> Result<(), ParseError> {
        // Leniently, trailing spaces and a missing final newline are fine.
        if self.eat("\n") || (self.lenient && self.pos >= self.src.len()) {
            Ok(())
        } else {
            Err(self.error(ParseErrorKind::UnexpectedText, "the end of the line"))
        }
    }

    /// Reads `}` + newline at indentation `n` closing a braced body.
    fn close_brace(&mut self, n: usize) -> Result<(), ParseError> {
        self.expect_indent(n)?;
        self.expect("}")?;
        self.newline()
    }

    fn expect_indent(&mut self, n: usize) -> Result<(), ParseError> {
        if self.lenient {
            self.skip_blank();
            return Ok(());
        }
        let ind = self.spaces_at(self.pos);
        if ind != n {
            if self.pos >= self.src.len() {
                return Err(self.error(ParseErrorKind::UnexpectedEof, &format!("`}}` at indentation {n}")));
            }
            return Err(self.error_at(
                self.pos,
                ind.max(1),
                ParseErrorKind::Indentation,
                &format!("{n} spaces of indentation (found {ind})"),
            ));
        }
        self.pos += n;
        Ok(())
    }

    /// A braced body at indentation `inner`, closed at indentation `n`.
    fn braced_body(&mut self, n: usize, inner: usize) -> Result<Stmt, ParseError> {
        self.newline()?;
        let body = self.block(inner)?;
        self.close_brace(n)?;
        Ok(body)
    }

    fn statement(&mut self, n: usize) -> Result<Item, ParseError> {
        let start = self.pos;
        let s = |k| Ok(Item::Stmt(Stmt::from_kind_unchecked(k)));
        if self.at("let ") {
            return self.let_line(start);
        }
        if self.eat("assert(") {
            let c = self.expr_implicit()?;
            self.expect(", ")?;
            let m = self.expr_implicit()?;
            self.expect(")")?;
            self.newline()?;
            return s(StmtKind::AssertStmt { condition: c.e, message: m.e });
        }
        for (kw, is_producer) in [("produce ", true), ("consume ", false)] {
            if self.at(kw) && self.token_len() + 1 == kw.len() {
                self.expect(kw)?;
                let name = self.name()?;
                self.expect(" {")?;
                let body = self.braced_body(n, n + 1)?;
                return s(StmtKind::ProducerConsumer { name, is_producer, body });
            }
        }
        if let Some(item) = self.for_loop(n)? {
            return Ok(item);
        }
        if self.eat("acquire (") {
            let sem = self.expr_implicit()?;
            self.expect(", ")?;
            let count = self.expr_implicit()?;
            self.expect(") {")?;
            let body = self.braced_body(n, n + 1)?;
            return s(StmtKind::Acquire { semaphore: sem.e, count: count.e, body });
        }
        if self.eat("predicate (") {
            let pred = self.expr_implicit()?;
            self.expect(")")?;
            self.newline()?;
            self.expect_indent(n + 1)?;
            return self.store_or_provide(n + 1, Some(pred.e), start).map(Item::Stmt);
        }
        if self.at("allocate ") && self.token_len() == "allocate".len() {
            return self.allocate(n, start);
        }
        if self.at("free ") && self.token_len() == "free".len() {
            self.expect("free ")?;
            let name = self.name()?;
            self.newline()?;
            return s(StmtKind::Free { name });
        }
        if self.at("realize ") && self.token_len() == "realize".len() {
            return self.realize(n);
        }
        if self.at("prefetch ") && self.token_len() == "prefetch".len() {
            let b = self.prefetch_line(Expr::const_true())?;
            self.newline()?;
            return Ok(Item::Binder(b, None, start));
        }
        if self.at("if (") {
            return self.if_or_conditional_prefetch(n, start);
        }
        if self.at("fork {") {
            return self.fork(n);
        }
        if self.eat("atomic (") {
            let producer_name = self.name()?;
            let mutex_name = if self.eat(", ") { Some(self.name()?) } else { None };
            self.expect(") {")?;
            let body = self.braced_body(n, n + 2)?;
            return s(StmtKind::Atomic { producer_name, mutex_name, body });
        }
        if self.eat("hoisted_storage ") {
            let name = if self.eat("(") {
                let nm = self.name()?;
                self.expect(") ")?;
                Some(nm)
            } else {
                None
            };
            self.expect("{")?;
            let body = self.braced_body(n, n + 2)?;
            return s(StmtKind::HoistedStorage { name, body });
        }
        self.store_or_provide(n, None, start).map(Item::Stmt)
    }

    /// `let name = value` (a LetStmt) or a statement-level `let ... in ...` (an Evaluate).
    fn let_line(&mut self, start: usize) -> Result<Item, ParseError> {
        self.expect("let ")?;
        let name = self.name()?;
        self.expect(" = ")?;
        let value = self.expr_implicit()?;
        if self.eat(" in ") {
            self.push_binding(&name, Binding::Value(value.e.ty(), value.sure));
            let body = self.unary();
            self.pop_binding(&name);
            let body = body?;
            self.newline()?;
            let e =
                Expr::from_node_unchecked(body.e.ty(), ExprKind::Let { name, value: value.e, body: body.e });
            return Ok(Item::Stmt(Stmt::evaluate(e)));
        }
        self.newline()?;
        Ok(Item::Binder(Binder::Let { name: name.clone(), value: value.e }, Some(name), start))
    }

    fn for_loop(&mut self, n: usize) -> Result<Option<Item>, ParseError> {
        let len =
            self.src[self.pos..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        let kw = std::str::from_utf8(&self.src[self.pos..self.pos + len]).unwrap_or("");
        let Some(for_type) = ForType::from_keyword(kw) else { return Ok(None) };
        // A loop keyword is followed by ` (` or `<DEVICE>` (leniently, also by `(` after
        // any spaces); otherwise the word is a name (a call `for(x)`, a store `for[x]`).
        let rest = &self.src[self.pos + len..];
        let is_loop = if self.lenient {
            let gap = rest.iter().take_while(|b| **b == b' ' || **b == b'\t').count();
            matches!(rest.get(gap), Some(b'(')) || rest.first() == Some(&b'<')
        } else {
            rest.starts_with(b" (") || rest.first() == Some(&b'<')
        };
        if !is_loop {
            return Ok(None);
        }
        self.pos += len;
        let mut device_api = DeviceApi::None;
        if self.eat("<") {
            let at = self.pos;
            let l =
                self.src[self.pos..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
            let api = std::str::from_utf8(&self.src[self.pos..self.pos + l]).unwrap_or("");
            device_api = DeviceApi::from_name(api).ok_or_else(|| {
                self.error_at(at, l.max(1), ParseErrorKind::UnexpectedText, "a device API such as `CUDA`")
            })?;
            self.pos += l;
            self.expect(">")?;
        }
        self.expect(" (")?;
        let name = self.name()?;
        self.expect(", ")?;
        self.push_binding(&name, Binding::Loop);
        let rest = (|| {
            let min = self.expr_implicit()?;
            self.expect(", ")?;
            let max = self.expr_implicit()?;
            self.expect(") {")?;
            let body = self.braced_body(n, n + 1)?;
            Ok::<_, ParseError>((min, max, body))
        })();
        self.pop_binding(&name);
        let (min, bound, body) = rest?;
        // Halide 21.0.0's loops give the extent, the reference's (and the IR) the max.
        let max = match self.dialect {
            Dialect::Reference => bound.e,
            Dialect::Halide21 => dialect::loop_max_from_extent(&min.e, &bound.e),
        };
        Ok(Some(Item::Stmt(Stmt::from_kind_unchecked(StmtKind::For {
            name,
            min: min.e,
            max,
            for_type,
            device_api,
            partition_policy: PartitionPolicy::Auto,
            body,
        }))))
    }

    /// A Store (`name[index] = value`), a Provide (`name(args) = values`) or, failing both,
    /// an Evaluate.
    fn store_or_provide(
        &mut self,
        n: usize,
        predicate: Option<Expr>,
        start: usize,
    ) -> Result<Stmt, ParseError> {
        let line_start = self.pos;
        let len = self.token_len();
        if len > 0 && !self.src[self.pos].is_ascii_digit() {
            let next = self.src.get(self.pos + len).copied();
            if next == Some(b'[') {
                if let Some(s) = self.try_store(n, predicate.clone())? {
                    return Ok(s);
                }
            } else if next == Some(b'(')
                && let Some(s) = self.try_provide(predicate.clone())?
            {
                return Ok(s);
            }
        }
        if predicate.is_some() {
            self.pos = line_start;
            return Err(self.error(
                ParseErrorKind::UnexpectedText,
                "a store `name[index] = value` or provide `name(args) = value` under `predicate`",
            ));
        }
        self.pos = start;
        let e = self.expr_implicit()?;
        self.newline()?;
        Ok(Stmt::evaluate(e.e))
    }

    fn try_store(&mut self, n: usize, predicate: Option<Expr>) -> Result<Option<Stmt>, ParseError> {
        let save = self.pos;
        let name = self.name()?;
        self.pos += 1;
        let Ok(index) = self.expr_implicit() else {
            self.pos = save;
            return Ok(None);
        };
        let alignment = self.alignment_suffix()?;
        if !self.eat("] = ") {
            self.pos = save;
            return Ok(None);
        }
        let value = if self.eat("\n") {
            // A let chain, one binding per line at two more spaces, then an empty line
            // (leniently: at any indentation, the empty line optional).
            let k = n + 2;
            let mut links = Vec::new();
            let body = loop {
                self.expect_indent(k)?;
                if self.eat("let ") {
                    let name = self.name()?;
                    self.expect(" = ")?;
                    let v = self.expr_implicit()?;
                    if self.eat(" in\n") {
                        self.push_binding(&name, Binding::Value(v.e.ty(), v.sure));
                        links.push((name, v.e));
                        continue;
                    }
                    return Err(self.error(ParseErrorKind::UnexpectedText, "` in` at the end of a let line"));
                }
                let b = self.expr_implicit();
                break b;
            };
            for (name, _) in links.iter().rev() {
                self.pop_binding(name);
            }
            let mut e = body?.e;
            self.newline()?;
            while let Some((name, v)) = links.pop() {
                e = Expr::from_node_unchecked(e.ty(), ExprKind::Let { name, value: v, body: e });
            }
            if !self.lenient {
                self.newline()?;
            }
            e
        } else {
            let e = self.expr_implicit()?.e;
            self.newline()?;
            e
        };
        let lanes = value.ty().lanes();
        let predicate = match predicate {
            Some(p) => p,
            None => self.all_lanes_true(lanes),
        };
        Ok(Some(Stmt::from_kind_unchecked(StmtKind::Store {
            name,
            value,
            index: index.e,
            predicate,
            alignment,
        })))
    }

    fn try_provide(&mut self, predicate: Option<Expr>) -> Result<Option<Stmt>, ParseError> {
        let save = self.pos;
        let name = self.name()?;
        self.pos += 1;
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                let Ok(a) = self.expr_implicit() else {
                    self.pos = save;
                    return Ok(None);
                };
                args.push(a.e);
                if self.eat(", ") {
                    continue;
                }
                if self.eat(")") {
                    break;
                }
                self.pos = save;
                return Ok(None);
            }
        }
        if !self.eat(" = ") {
            self.pos = save;
            return Ok(None);
        }
        let mut values = Vec::new();
        if self.eat("{") {
            loop {
                values.push(self.expr_implicit()?.e);
                if self.eat(", ") {
                    continue;
                }
                self.expect("}")?;
                break;
            }
        } else {
            values.push(self.expr_implicit()?.e);
        }
        self.newline()?;
        self.provided_types.entry(name.clone()).or_insert_with(|| values.iter().map(|v| v.ty()).collect());
        let predicate = predicate.unwrap_or_else(Expr::const_true);
        Ok(Some(Stmt::from_kind_unchecked(StmtKind::Provide { name, values, args, predicate })))
    }

    fn memory_type(&mut self) -> Result<MemoryType, ParseError> {
        let at = self.pos;
        let l = self.src[self.pos..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        let text = std::str::from_utf8(&self.src[self.pos..self.pos + l]).unwrap_or("");
        let m = MemoryType::from_name(text).ok_or_else(|| {
            self.error_at(
                at,
                l.max(1),
                ParseErrorKind::UnexpectedText,
                "a memory type such as `Heap` or `Stack`",
            )
        })?;
        self.pos += l;
        Ok(m)
    }

    fn allocate(&mut self, n: usize, start: usize) -> Result<Item, ParseError> {
        self.expect("allocate ")?;
        let name = self.name()?;
        self.expect("[")?;
        let ty = self.type_spelling(true)?;
        self.push_binding(&name, Binding::Buffer(ty));
        let r = self.allocate_rest(n, &name, ty, start);
        self.pop_binding(&name);
        r
    }

    fn allocate_rest(&mut self, n: usize, name: &Name, ty: Type, start: usize) -> Result<Item, ParseError> {
        let after_type = self.pos;
        let mut extents = Vec::new();
        let mut padding = 0i32;
        let plain = (|| {
            while self.eat(" * ") {
                extents.push(self.unary()?.e);
            }
            self.expect("]")
        })();
        if plain.is_err() {
            // The padded form: `[type * (e1 * e2 + padding)]`.
            self.pos = after_type;
            extents.clear();
            self.expect(" * (")?;
            loop {
                extents.push(self.unary()?.e);
                if self.eat(" * ") {
                    continue;
                }
                self.expect(" + ")?;
                let at = self.pos;
                let p = self.int()?;
                padding = i32::try_from(p).map_err(|_| {
                    self.error_at(at, self.pos - at, ParseErrorKind::InvalidLiteral, "a 32-bit padding")
                })?;
                self.expect(")]")?;
                break;
            }
        }
        let memory_type = if self.eat(" in ") { self.memory_type()? } else { MemoryType::Auto };
        let condition = if self.eat(" if ") { self.unary()?.e } else { Expr::const_true() };
        let mut new_expr = None;
        let mut free_function = None;
        if self.eat_next_line(n, " custom_new { ") {
            new_expr = Some(self.expr_implicit()?.e);
            self.expect(" }")?;
        }
        if self.eat_next_line(n, " custom_delete { ") {
            free_function = Some(self.name()?);
            self.expect("(")?;
            let at = self.pos;
            let freed = self.name()?;
            if freed != *name {
                return Err(self.error_at(
                    at,
                    freed.len(),
                    ParseErrorKind::InvalidNode,
                    &format!("the allocation's own name `{name}`"),
                ));
            }
            self.expect("); }")?;
        }
        self.newline()?;
        Ok(Item::Binder(
            Binder::Allocate {
                name: name.clone(),
                ty,
                memory_type,
                extents,
                condition,
                new_expr,
                free_function,
                padding,
            },
            Some(name.clone()),
            start,
        ))
    }

    fn bounds_list(&mut self) -> Result<Vec<MinExtent>, ParseError> {
        let mut bounds = Vec::new();
        if self.peek() == Some(b')') {
            return Ok(bounds);
        }
        loop {
            self.expect("[")?;
            let min = self.expr_implicit()?.e;
            self.expect(", ")?;
            let extent = self.expr_implicit()?.e;
            self.expect("]")?;
            bounds.push(MinExtent { min, extent });
            if !self.eat(", ") {
                return Ok(bounds);
            }
        }
    }

    fn realize(&mut self, n: usize) -> Result<Item, ParseError> {
        self.expect("realize ")?;
        let name = self.name()?;
        self.expect("(")?;
        self.push_binding(&name, Binding::Func);
        let r = (|| {
            let bounds = self.bounds_list()?;
            self.expect(")")?;
            let memory_type = if self.eat(" in ") { self.memory_type()? } else { MemoryType::Auto };
            let condition = if self.eat(" if ") { self.unary()?.e } else { Expr::const_true() };
            self.expect(" {")?;
            let body = self.braced_body(n, n + 2)?;
            Ok::<_, ParseError>((bounds, memory_type, condition, body))
        })();
        self.pop_binding(&name);
        let (bounds, memory_type, condition, body) = r?;
        let types = self
            .provided_types
            .get(&name)
            .cloned()
            .or_else(|| self.env.funcs.get(name.as_ref()).cloned())
            .unwrap_or_default();
        Ok(Item::Stmt(Stmt::from_kind_unchecked(StmtKind::Realize {
            name,
            types,
            memory_type,
            bounds,
            condition,
            body,
        })))
    }

    /// `prefetch name, at, from, (bounds)` (without the newline).
    fn prefetch_line(&mut self, condition: Expr) -> Result<Binder, ParseError> {
        self.expect("prefetch ")?;
        let name = self.name()?;
        self.expect(", ")?;
        let at = self.name()?;
        self.expect(", ")?;
        let from = self.name()?;
        self.expect(", (")?;
        let bounds = self.bounds_list()?;
        self.expect(")")?;
        Ok(Binder::Prefetch { name, bounds, at, from, condition })
    }

    fn if_or_conditional_prefetch(&mut self, n: usize, start: usize) -> Result<Item, ParseError> {
        self.expect("if (")?;
        let cond = self.expr_implicit()?.e;
        self.expect(") {")?;
        self.newline()?;
        // A conditional prefetch is an `if` whose braces hold exactly one prefetch line: a
        // Prefetch inside a real `if` would print its body inside the braces too.
        let save = self.pos;
        let inner = format!("{}prefetch ", " ".repeat(n + 1));
        if self.lenient {
            self.skip_blank();
        } else if self.at(&inner) {
            self.pos += n + 1;
        }
        if self.pos != save || self.lenient {
            if self.at("prefetch ") {
                let b = self.prefetch_line(cond.clone())?;
                let closed = if self.lenient {
                    self.newline().is_ok() && {
                        self.skip_blank();
                        self.eat("}") && self.newline().is_ok()
                    }
                } else {
                    self.eat(&format!("\n{}}}\n", " ".repeat(n)))
                };
                if closed {
                    return Ok(Item::Binder(b, None, start));
                }
            }
            self.pos = save;
        }
        let mut branches = vec![(cond, self.block(n + 1)?)];
        let mut else_case = None;
        loop {
            self.expect_indent(n)?;
            if self.eat("} else if (") {
                let c = self.expr_implicit()?.e;
                self.expect(") {")?;
                self.newline()?;
                branches.push((c, self.block(n + 1)?));
            } else if self.eat("} else {") {
                self.newline()?;
                else_case = Some(self.block(n + 1)?);
                self.expect_indent(n)?;
                self.expect("}")?;
                self.newline()?;
                break;
            } else {
                self.expect("}")?;
                self.newline()?;
                break;
            }
        }
        let mut result = else_case;
        while let Some((condition, then_case)) = branches.pop() {
            result = Some(Stmt::from_kind_unchecked(StmtKind::IfThenElse {
                condition,
                then_case,
                else_case: result,
            }));
        }
        match result {
            Some(s) => Ok(Item::Stmt(s)),
            None => Err(self.error(ParseErrorKind::InvalidNode, "an if statement")),
        }
    }

    fn fork(&mut self, n: usize) -> Result<Item, ParseError> {
        let start = self.pos;
        self.expect("fork ")?;
        let mut tasks = Vec::new();
        while self.eat("{") {
            tasks.push(self.braced_body_no_close(n)?);
            self.expect_indent(n)?;
            self.expect("}")?;
            // The printer leaves a space after each closing brace.
            self.eat(" ");
        }
        self.newline()?;
        if tasks.len() < 2 {
            return Err(self.error_at(start, 4, ParseErrorKind::InvalidNode, "a fork of at least two tasks"));
        }
        // Fork(t1, Fork(t2, ... Fork(tk-1, tk))), as Halide builds it.
        let mut tasks = tasks.into_iter().rev();
        let Some(mut rest) = tasks.next() else {
            return Err(self.error(ParseErrorKind::InvalidNode, "a fork"));
        };
        for first in tasks {
            rest = Stmt::from_kind_unchecked(StmtKind::Fork { first, rest });
        }
        Ok(Item::Stmt(rest))
    }

    fn braced_body_no_close(&mut self, n: usize) -> Result<Stmt, ParseError> {
        self.newline()?;
        self.block(n + 1)
    }
}
