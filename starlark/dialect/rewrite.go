package dialect

import (
	"slices"

	"go.starlark.net/syntax"
)

var comparisonBuiltins = map[syntax.Token]string{
	syntax.LT: "__lt__", syntax.LE: "__le__", syntax.GT: "__gt__",
	syntax.GE: "__ge__", syntax.EQL: "__eq__", syntax.NEQ: "__ne__",
}

var shiftBuiltins = map[syntax.Token]string{syntax.LTLT: "__lshift__", syntax.GTGT: "__rshift__"}

// augmentedShifts maps <<= and >>= to the shift they apply.
var augmentedShifts = map[syntax.Token]syntax.Token{syntax.LTLT_EQ: syntax.LTLT, syntax.GTGT_EQ: syntax.GTGT}

// rewriteFile applies rewriteExpr to every expression of f. It is the
// step from ParsePlain's tree to Parse's, kept apart from parsing so that
// plain Starlark can be checked against upstream's tree before it.
func rewriteFile(f *syntax.File) {
	for _, stmt := range f.Stmts {
		mapStmt(stmt, rewriteExpr)
		rewriteAugmentedShifts(stmt)
	}
}

// rewriteAugmentedShifts turns x <<= y and x >>= y, in stmt and the
// statements of its bodies, into x = __lshift__(x, y) (__rshift__), so that
// an int x with an array y shifts as x << y does. Only targets whose
// evaluation has no effects are rewritten (a name, or a name indexed by or
// selected with names and literals): the rewrite evaluates the target
// twice. Any other target keeps Starlark's augmented assignment.
func rewriteAugmentedShifts(stmt syntax.Stmt) {
	body := func(stmts []syntax.Stmt) {
		for _, s := range stmts {
			rewriteAugmentedShifts(s)
		}
	}
	switch s := stmt.(type) {
	case *syntax.AssignStmt:
		op, ok := augmentedShifts[s.Op]
		if !ok {
			return
		}
		target, ok := copyOfPureTarget(s.LHS)
		if !ok {
			return
		}
		s.Op = syntax.EQ
		s.RHS = hiddenCall(shiftBuiltins[op], s.OpPos, target, s.RHS)
	case *syntax.DefStmt:
		body(s.Body)
	case *syntax.ForStmt:
		body(s.Body)
	case *syntax.WhileStmt:
		body(s.Body)
	case *syntax.IfStmt:
		body(s.True)
		body(s.False)
	}
}

// copyOfPureTarget returns a copy of an assignment target that can be
// evaluated twice with the same result and no effects, or false.
func copyOfPureTarget(x syntax.Expr) (syntax.Expr, bool) {
	switch x := x.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: x.NamePos, Name: x.Name}, true
	case *syntax.IndexExpr:
		obj, ok1 := copyOfPureTarget(x.X)
		key, ok2 := copyOfPureOperand(x.Y)
		if !ok1 || !ok2 {
			return nil, false
		}
		return &syntax.IndexExpr{X: obj, Lbrack: x.Lbrack, Y: key, Rbrack: x.Rbrack}, true
	case *syntax.DotExpr:
		obj, ok := copyOfPureTarget(x.X)
		if !ok {
			return nil, false
		}
		return &syntax.DotExpr{X: obj, Dot: x.Dot, NamePos: x.NamePos, Name: &syntax.Ident{NamePos: x.Name.NamePos, Name: x.Name.Name}}, true
	}
	return nil, false
}

func copyOfPureOperand(x syntax.Expr) (syntax.Expr, bool) {
	if lit, ok := x.(*syntax.Literal); ok {
		c := *lit
		return &c, true
	}
	return copyOfPureTarget(x)
}

// rewriteExpr replaces, in x and below, the plain Starlark operations that
// the dialect extends by calls of hidden builtins placed at the operator,
// each of which keeps Starlark's meaning for what Starlark could already do:
//
//	a < b (<= > >= == !=)   __lt__(a, b) (__le__ ...): arrays compare elementwise
//	a % b                   __mod__(a, b): Python's printf formatting for a string a
//	s.format(args)          __str_format__(s, args): Python's str.format for a string s
//	a << b, a >> b          __lshift__(a, b), __rshift__(a, b): an int on the left
//	                        offers the shift to an array on the right, which
//	                        Starlark's int shift refuses outright
//
// `in`, `not in` and `%=` are left alone (`x %= y` would have to evaluate
// its target twice).
func rewriteExpr(x syntax.Expr) syntax.Expr {
	mapChildren(x, rewriteExpr)
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		if name, ok := comparisonBuiltins[x.Op]; ok {
			return hiddenCall(name, x.OpPos, x.X, x.Y)
		}
		if x.Op == syntax.PERCENT {
			return hiddenCall("__mod__", x.OpPos, x.X, x.Y)
		}
		if name, ok := shiftBuiltins[x.Op]; ok {
			return hiddenCall(name, x.OpPos, x.X, x.Y)
		}
	case *syntax.CallExpr:
		if dot, ok := x.Fn.(*syntax.DotExpr); ok && dot.Name.Name == "format" {
			call := hiddenCall("__str_format__", x.Lparen, append([]syntax.Expr{dot.X}, x.Args...)...)
			call.Rparen = x.Rparen
			return call
		}
	}
	return x
}

// mapStmt replaces each expression held by stmt, and by the statements in
// its bodies, with f of it.
func mapStmt(stmt syntax.Stmt, f func(syntax.Expr) syntax.Expr) {
	body := func(stmts []syntax.Stmt) {
		for _, s := range stmts {
			mapStmt(s, f)
		}
	}
	switch s := stmt.(type) {
	case *syntax.AssignStmt:
		s.LHS, s.RHS = f(s.LHS), f(s.RHS)
	case *syntax.DefStmt:
		mapList(s.Params, f)
		body(s.Body)
	case *syntax.ExprStmt:
		s.X = f(s.X)
	case *syntax.ForStmt:
		s.Vars, s.X = f(s.Vars), f(s.X)
		body(s.Body)
	case *syntax.WhileStmt:
		s.Cond = f(s.Cond)
		body(s.Body)
	case *syntax.IfStmt:
		s.Cond = f(s.Cond)
		body(s.True)
		body(s.False)
	case *syntax.ReturnStmt:
		s.Result = mapOptional(s.Result, f)
	case *syntax.BranchStmt, *syntax.LoadStmt:
		// no expressions beyond literal names
	}
}

// mapChildren replaces each direct subexpression of x with f of it. A
// DotExpr's Name is a field name, not an expression, and stays.
func mapChildren(x syntax.Expr, f func(syntax.Expr) syntax.Expr) {
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		x.X, x.Y = f(x.X), f(x.Y)
	case *syntax.CallExpr:
		x.Fn = f(x.Fn)
		mapList(x.Args, f)
	case *syntax.Comprehension:
		x.Body = f(x.Body)
		for _, clause := range x.Clauses {
			switch c := clause.(type) {
			case *syntax.ForClause:
				c.Vars, c.X = f(c.Vars), f(c.X)
			case *syntax.IfClause:
				c.Cond = f(c.Cond)
			}
		}
	case *syntax.CondExpr:
		x.Cond, x.True, x.False = f(x.Cond), f(x.True), f(x.False)
	case *syntax.DictEntry:
		x.Key, x.Value = f(x.Key), f(x.Value)
	case *syntax.DictExpr:
		mapList(x.List, f)
	case *syntax.DotExpr:
		x.X = f(x.X)
	case *syntax.IndexExpr:
		x.X, x.Y = f(x.X), f(x.Y)
	case *syntax.LambdaExpr:
		mapList(x.Params, f)
		x.Body = f(x.Body)
	case *syntax.ListExpr:
		mapList(x.List, f)
	case *syntax.ParenExpr:
		x.X = f(x.X)
	case *syntax.SliceExpr:
		x.X = f(x.X)
		x.Lo, x.Hi, x.Step = mapOptional(x.Lo, f), mapOptional(x.Hi, f), mapOptional(x.Step, f)
	case *syntax.TupleExpr:
		mapList(x.List, f)
	case *syntax.UnaryExpr:
		x.X = mapOptional(x.X, f)
	case *syntax.Ident, *syntax.Literal:
	}
}

func mapList(list []syntax.Expr, f func(syntax.Expr) syntax.Expr) {
	for i, x := range list {
		list[i] = f(x)
	}
}

func mapOptional(x syntax.Expr, f func(syntax.Expr) syntax.Expr) syntax.Expr {
	if x == nil {
		return nil
	}
	return f(x)
}

// cloneExpr returns a deep copy of x, so that the target of x **= y can
// appear both as the assignment's target and as the call's argument
// without two places in the tree sharing a node.
func cloneExpr(x syntax.Expr) syntax.Expr {
	c := shallowCopy(x)
	mapChildren(c, cloneExpr)
	return c
}

// shallowCopy copies x's node, and the lists and comprehension clauses it
// holds, so that mapChildren on the copy leaves x untouched.
func shallowCopy(x syntax.Expr) syntax.Expr {
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		c := *x
		return &c
	case *syntax.CallExpr:
		c := *x
		c.Args = slices.Clone(x.Args)
		return &c
	case *syntax.Comprehension:
		c := *x
		c.Clauses = make([]syntax.Node, len(x.Clauses))
		for i, clause := range x.Clauses {
			switch clause := clause.(type) {
			case *syntax.ForClause:
				cc := *clause
				c.Clauses[i] = &cc
			case *syntax.IfClause:
				cc := *clause
				c.Clauses[i] = &cc
			}
		}
		return &c
	case *syntax.CondExpr:
		c := *x
		return &c
	case *syntax.DictEntry:
		c := *x
		return &c
	case *syntax.DictExpr:
		c := *x
		c.List = slices.Clone(x.List)
		return &c
	case *syntax.DotExpr:
		c := *x
		name := *x.Name
		c.Name = &name
		return &c
	case *syntax.Ident:
		c := *x
		return &c
	case *syntax.IndexExpr:
		c := *x
		return &c
	case *syntax.LambdaExpr:
		c := *x
		c.Params = slices.Clone(x.Params)
		return &c
	case *syntax.ListExpr:
		c := *x
		c.List = slices.Clone(x.List)
		return &c
	case *syntax.Literal:
		c := *x
		return &c
	case *syntax.ParenExpr:
		c := *x
		return &c
	case *syntax.SliceExpr:
		c := *x
		return &c
	case *syntax.TupleExpr:
		c := *x
		c.List = slices.Clone(x.List)
		return &c
	case *syntax.UnaryExpr:
		c := *x
		return &c
	}
	panic("dialect: unknown expression type")
}
