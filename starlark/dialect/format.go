package dialect

import (
	"fmt"
	"strings"

	"go.starlark.net/syntax"
)

// The compact text form of trees, used by the table tests and by
// JAXSH_DUMP=syntax: calls as f(a, b) (so every rewrite shows as the hidden
// builtin it calls), every binary operation in parentheses, a ParenExpr as
// its own parentheses, an unparenthesized tuple without any (a one-element
// one with its trailing comma), and one statement per line, indented two
// spaces per block.

// Format renders a file's statements in the compact text form: what the
// program means after the dialect's rewrites, one statement per line.
func Format(f *syntax.File) string { return stmtsString(f.Stmts) }

func exprString(x syntax.Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func stmtsString(stmts []syntax.Stmt) string {
	var b strings.Builder
	writeStmts(&b, stmts, 0)
	return strings.TrimSuffix(b.String(), "\n")
}

func writeStmts(b *strings.Builder, stmts []syntax.Stmt, depth int) {
	for _, s := range stmts {
		writeStmt(b, s, depth)
	}
}

func writeStmt(b *strings.Builder, stmt syntax.Stmt, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	switch s := stmt.(type) {
	case *syntax.ExprStmt:
		writeExpr(b, s.X)
	case *syntax.AssignStmt:
		writeExpr(b, s.LHS)
		b.WriteString(" " + s.Op.String() + " ")
		writeExpr(b, s.RHS)
	case *syntax.BranchStmt:
		b.WriteString(s.Token.String())
	case *syntax.ReturnStmt:
		b.WriteString("return")
		if s.Result != nil {
			b.WriteString(" ")
			writeExpr(b, s.Result)
		}
	case *syntax.DefStmt:
		b.WriteString("def " + s.Name.Name + "(")
		writeList(b, s.Params)
		b.WriteString("):\n")
		writeStmts(b, s.Body, depth+1)
		return
	case *syntax.IfStmt:
		b.WriteString("if ")
		writeExpr(b, s.Cond)
		b.WriteString(":\n")
		writeStmts(b, s.True, depth+1)
		if s.False != nil {
			b.WriteString(strings.Repeat("  ", depth) + "else:\n")
			writeStmts(b, s.False, depth+1)
		}
		return
	case *syntax.ForStmt:
		b.WriteString("for ")
		writeExpr(b, s.Vars)
		b.WriteString(" in ")
		writeExpr(b, s.X)
		b.WriteString(":\n")
		writeStmts(b, s.Body, depth+1)
		return
	case *syntax.WhileStmt:
		b.WriteString("while ")
		writeExpr(b, s.Cond)
		b.WriteString(":\n")
		writeStmts(b, s.Body, depth+1)
		return
	case *syntax.LoadStmt:
		b.WriteString("load(" + s.Module.Raw)
		for i := range s.To {
			fmt.Fprintf(b, ", %s=%q", s.To[i].Name, s.From[i].Name)
		}
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "<%T>", s)
	}
	b.WriteString("\n")
}

func writeList(b *strings.Builder, list []syntax.Expr) {
	for i, x := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x)
	}
}

func writeExpr(b *strings.Builder, expr syntax.Expr) {
	switch x := expr.(type) {
	case nil:
	case *syntax.Ident:
		b.WriteString(x.Name)
	case *syntax.Literal:
		b.WriteString(x.Raw)
	case *syntax.BinaryExpr:
		if x.Op == syntax.EQ { // keyword argument or parameter default
			writeExpr(b, x.X)
			b.WriteString("=")
			writeExpr(b, x.Y)
			return
		}
		b.WriteString("(")
		writeExpr(b, x.X)
		b.WriteString(" " + x.Op.String() + " ")
		writeExpr(b, x.Y)
		b.WriteString(")")
	case *syntax.UnaryExpr:
		b.WriteString(x.Op.String())
		if x.Op == syntax.NOT {
			b.WriteString(" ")
		}
		writeExpr(b, x.X)
	case *syntax.CallExpr:
		writeExpr(b, x.Fn)
		b.WriteString("(")
		writeList(b, x.Args)
		b.WriteString(")")
	case *syntax.ParenExpr:
		b.WriteString("(")
		writeExpr(b, x.X)
		b.WriteString(")")
	case *syntax.TupleExpr:
		if x.Lparen.IsValid() {
			b.WriteString("(")
		}
		writeList(b, x.List)
		if len(x.List) == 1 {
			b.WriteString(",")
		}
		if x.Lparen.IsValid() {
			b.WriteString(")")
		}
	case *syntax.IndexExpr:
		writeExpr(b, x.X)
		b.WriteString("[")
		writeExpr(b, x.Y)
		b.WriteString("]")
	case *syntax.SliceExpr:
		writeExpr(b, x.X)
		b.WriteString("[")
		writeExpr(b, x.Lo)
		b.WriteString(":")
		writeExpr(b, x.Hi)
		if x.Step != nil {
			b.WriteString(":")
			writeExpr(b, x.Step)
		}
		b.WriteString("]")
	case *syntax.DotExpr:
		writeExpr(b, x.X)
		b.WriteString("." + x.Name.Name)
	case *syntax.ListExpr:
		b.WriteString("[")
		writeList(b, x.List)
		b.WriteString("]")
	case *syntax.DictExpr:
		b.WriteString("{")
		writeList(b, x.List)
		b.WriteString("}")
	case *syntax.DictEntry:
		writeExpr(b, x.Key)
		b.WriteString(": ")
		writeExpr(b, x.Value)
	case *syntax.CondExpr:
		b.WriteString("(")
		writeExpr(b, x.True)
		b.WriteString(" if ")
		writeExpr(b, x.Cond)
		b.WriteString(" else ")
		writeExpr(b, x.False)
		b.WriteString(")")
	case *syntax.LambdaExpr:
		b.WriteString("(lambda")
		if len(x.Params) > 0 {
			b.WriteString(" ")
			writeList(b, x.Params)
		}
		b.WriteString(": ")
		writeExpr(b, x.Body)
		b.WriteString(")")
	case *syntax.Comprehension:
		open, close := "[", "]"
		if x.Curly {
			open, close = "{", "}"
		}
		b.WriteString(open)
		writeExpr(b, x.Body)
		for _, clause := range x.Clauses {
			switch c := clause.(type) {
			case *syntax.ForClause:
				b.WriteString(" for ")
				writeExpr(b, c.Vars)
				b.WriteString(" in ")
				writeExpr(b, c.X)
			case *syntax.IfClause:
				b.WriteString(" if ")
				writeExpr(b, c.Cond)
			}
		}
		b.WriteString(close)
	default:
		fmt.Fprintf(b, "<%T>", x)
	}
}
