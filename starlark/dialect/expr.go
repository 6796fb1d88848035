package dialect

import "go.starlark.net/syntax"

// Binary operator precedence, loosest first. Comparisons do not associate;
// the other operators associate to the left.
const (
	precOr = iota
	precAnd
	precNot // unary not
	precCompare
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precAdd
	precMul     // * / // % and the dialect's @
	precOperand // unary - + ~, the dialect's **, and primaries
)

func precedence(t syntax.Token) int {
	switch t {
	case syntax.OR:
		return precOr
	case syntax.AND:
		return precAnd
	case syntax.NOT:
		return precNot
	case syntax.EQL, syntax.NEQ, syntax.LT, syntax.GT, syntax.LE, syntax.GE, syntax.IN, syntax.NOT_IN:
		return precCompare
	case syntax.PIPE:
		return precBitOr
	case syntax.CIRCUMFLEX:
		return precBitXor
	case syntax.AMP:
		return precBitAnd
	case syntax.LTLT, syntax.GTGT:
		return precShift
	case syntax.MINUS, syntax.PLUS:
		return precAdd
	case syntax.STAR, syntax.PERCENT, syntax.SLASH, syntax.SLASHSLASH, tokAt:
		return precMul
	}
	return -1
}

// expr parses one test, or several separated by commas as a TupleExpr
// without parentheses. A trailing comma is allowed only inside parentheses.
func (p *parser) expr(inParens bool) syntax.Expr {
	x := p.test()
	if p.tok != syntax.COMMA {
		return x
	}
	return &syntax.TupleExpr{List: p.exprList([]syntax.Expr{x}, inParens)}
}

// exprList parses the rest of a comma-separated list, from its first comma.
func (p *parser) exprList(list []syntax.Expr, allowTrailingComma bool) []syntax.Expr {
	for p.tok == syntax.COMMA {
		comma := p.advance()
		if endsExprList(p.tok) {
			if !allowTrailingComma {
				p.sc.fail(comma, "unparenthesized tuple with trailing comma")
			}
			break
		}
		list = append(list, p.test())
	}
	return list
}

func endsExprList(t syntax.Token) bool {
	switch t {
	case syntax.EOF, syntax.NEWLINE, syntax.EQ, syntax.RBRACE, syntax.RBRACK, syntax.RPAREN, syntax.SEMI:
		return true
	}
	return false
}

// test parses a single expression, including lambda and x if c else y.
func (p *parser) test() syntax.Expr {
	p.enter()
	defer p.leave()
	if p.tok == syntax.LAMBDA {
		return p.lambda(true)
	}
	x := p.testPrec(0)
	if p.tok != syntax.IF {
		return x
	}
	ifPos := p.advance()
	cond := p.testPrec(0)
	if p.tok != syntax.ELSE {
		p.sc.fail(ifPos, "conditional expression without else clause")
	}
	elsePos := p.advance()
	return &syntax.CondExpr{If: ifPos, Cond: cond, True: x, ElsePos: elsePos, False: p.test()}
}

// testNoCond is test without a trailing `if c else y`, for the places
// where `if` belongs to an enclosing comprehension.
func (p *parser) testNoCond() syntax.Expr {
	if p.tok == syntax.LAMBDA {
		return p.lambda(false)
	}
	return p.testPrec(0)
}

func (p *parser) lambda(allowCond bool) syntax.Expr {
	p.enter()
	defer p.leave()
	lambda := p.advance()
	var params []syntax.Expr
	if p.tok != syntax.COLON {
		params = p.params()
	}
	p.expect(syntax.COLON)
	var body syntax.Expr
	if allowCond {
		body = p.test()
	} else {
		body = p.testNoCond()
	}
	return &syntax.LambdaExpr{Lambda: lambda, Params: params, Body: body}
}

// testPrec parses an expression whose operators bind at least as tightly
// as prec, by precedence climbing.
func (p *parser) testPrec(prec int) syntax.Expr {
	p.enter()
	defer p.leave()
	if prec >= precOperand {
		return p.operand()
	}
	if prec == precNot && p.tok == syntax.NOT {
		not := p.advance()
		return &syntax.UnaryExpr{OpPos: not, Op: syntax.NOT, X: p.testPrec(prec)}
	}
	return p.binary(prec)
}

func (p *parser) binary(prec int) syntax.Expr {
	x := p.testPrec(prec + 1)
	for first := true; ; first = false {
		if p.tok == syntax.NOT {
			// Between operands, not can only start `not in`.
			p.advance()
			if p.tok != syntax.IN {
				p.failHere("got %s, want in", describe(p.tok))
			}
			p.tok = syntax.NOT_IN
		}
		if p.tok == syntax.IS {
			p.failPythonOnly()
		}
		opPrec := precedence(p.tok)
		if opPrec < prec {
			return x
		}
		if !first && opPrec == precCompare {
			p.failHere("%s does not associate with %s (use parens)", x.(*syntax.BinaryExpr).Op, p.tok)
		}
		op := p.tok
		opPos := p.advance()
		y := p.testPrec(opPrec + 1)
		if op == tokAt {
			x = hiddenCall("__matmul__", opPos, x, y)
		} else {
			x = &syntax.BinaryExpr{X: x, OpPos: opPos, Op: op, Y: y}
		}
	}
}

// operand parses Python's u_expr: ('-' | '+' | '~') operand, or a power.
// So -x ** y is -(x ** y), while upstream, lacking **, has
// unary = op primary_with_suffix; both give the same tree without **.
func (p *parser) operand() syntax.Expr {
	switch p.tok {
	case syntax.MINUS, syntax.PLUS, syntax.TILDE:
		p.enter()
		defer p.leave()
		op := p.tok
		opPos := p.advance()
		return &syntax.UnaryExpr{OpPos: opPos, Op: op, X: p.operand()}
	}
	return p.power()
}

// power parses primary_with_suffix ['**' operand], right-associative
// through operand.
func (p *parser) power() syntax.Expr {
	x := p.primaryWithSuffix()
	if p.tok != syntax.STARSTAR {
		return x
	}
	p.usedExtension = true
	p.enter()
	defer p.leave()
	opPos := p.advance()
	return hiddenCall("__pow__", opPos, x, p.operand())
}

// loopVars parses the variables of a for loop or clause: one target or a
// tuple of them. It stops before `in`, which an expression would consume.
func (p *parser) loopVars() syntax.Expr {
	v := p.loopVar()
	if p.tok == syntax.COMMA {
		list := []syntax.Expr{v}
		for p.tok == syntax.COMMA {
			p.advance()
			if endsExprList(p.tok) {
				break
			}
			list = append(list, p.loopVar())
		}
		v = &syntax.TupleExpr{List: list}
	}
	p.checkAssignable(v)
	return v
}

// loopVar parses a loop target as upstream does: unary operators are
// accepted here (the resolver rejects them), ** is not.
func (p *parser) loopVar() syntax.Expr {
	switch p.tok {
	case syntax.MINUS, syntax.PLUS, syntax.TILDE:
		p.enter()
		defer p.leave()
		op := p.tok
		opPos := p.advance()
		return &syntax.UnaryExpr{OpPos: opPos, Op: op, X: p.loopVar()}
	}
	return p.primaryWithSuffix()
}

// primaryWithSuffix parses a primary followed by any .name, [subscript]
// and (arguments) suffixes.
func (p *parser) primaryWithSuffix() syntax.Expr {
	x := p.primary()
	for {
		switch p.tok {
		case syntax.DOT:
			dot := p.advance()
			// Upstream leaves DotExpr.NamePos unset; so do we.
			x = &syntax.DotExpr{X: x, Dot: dot, Name: p.attrName()}
		case syntax.LBRACK:
			x = p.subscript(x)
		case syntax.LPAREN:
			x = p.callSuffix(x)
		default:
			return x
		}
	}
}

// A subscriptElem is one comma-separated element of a subscript: an index
// expression x, or a slice.
type subscriptElem struct {
	x     syntax.Expr
	slice *sliceParts
}

type sliceParts struct {
	lo, hi, step  syntax.Expr     // nil where omitted
	colon, colon2 syntax.Position // colon2 is invalid without a second ':'
}

// call returns the __slice__(lo, hi, step) call that stands for the slice
// in a multi-dimensional subscript, with None for omitted parts.
func (s *sliceParts) call() *syntax.CallExpr {
	orNone := func(x syntax.Expr, at syntax.Position) syntax.Expr {
		if x != nil {
			return x
		}
		return &syntax.Ident{NamePos: at, Name: "None"}
	}
	stepAt := s.colon
	if s.colon2.IsValid() {
		stepAt = s.colon2
	}
	return hiddenCall("__slice__", s.colon, orNone(s.lo, s.colon), orNone(s.hi, s.colon), orNone(s.step, stepAt))
}

// subscript parses the [...] suffix of x. A single index or slice keeps
// Starlark's form; see the package documentation for the rest. Wherever
// the input leaves what Starlark accepts, usedExtension is set before
// anything is consumed that Starlark would read differently, so that
// errors on plain Starlark stay the upstream ones.
func (p *parser) subscript(x syntax.Expr) syntax.Expr {
	lbrack := p.advance()
	var elems []subscriptElem
	trailingComma := false
	for {
		elem := p.subscriptElem(len(elems) > 0)
		elems = append(elems, elem)
		if p.tok != syntax.COMMA {
			break
		}
		if elem.slice != nil {
			p.usedExtension = true
		}
		comma := p.advance()
		if p.tok == syntax.RBRACK {
			p.usedExtension = true
			trailingComma = true
			break
		}
		if endsExprList(p.tok) {
			p.sc.fail(comma, "unparenthesized tuple with trailing comma")
		}
	}
	rbrack := p.expect(syntax.RBRACK)

	if len(elems) == 1 && !trailingComma {
		if s := elems[0].slice; s != nil {
			return &syntax.SliceExpr{X: x, Lbrack: lbrack, Lo: s.lo, Hi: s.hi, Step: s.step, Rbrack: rbrack}
		}
		return &syntax.IndexExpr{X: x, Lbrack: lbrack, Y: elems[0].x, Rbrack: rbrack}
	}
	list := make([]syntax.Expr, len(elems))
	for i, elem := range elems {
		if elem.slice != nil {
			list[i] = elem.slice.call()
		} else {
			list[i] = elem.x
		}
	}
	return &syntax.IndexExpr{X: x, Lbrack: lbrack, Y: &syntax.TupleExpr{List: list}, Rbrack: rbrack}
}

// subscriptElem parses an index expression or a slice lo:hi:step with any
// part omitted.
func (p *parser) subscriptElem(afterComma bool) subscriptElem {
	var lo syntax.Expr
	if p.tok != syntax.COLON {
		lo = p.test()
		if p.tok != syntax.COLON {
			return subscriptElem{x: lo}
		}
	}
	if afterComma {
		p.usedExtension = true
	}
	s := &sliceParts{lo: lo, colon: p.advance()}
	switch p.tok {
	case syntax.COLON, syntax.RBRACK:
	case syntax.COMMA:
		p.usedExtension = true
	default:
		s.hi = p.test()
	}
	if p.tok == syntax.COLON {
		s.colon2 = p.advance()
		switch p.tok {
		case syntax.RBRACK:
		case syntax.COMMA:
			p.usedExtension = true
		default:
			s.step = p.test()
		}
	}
	return subscriptElem{slice: s}
}

func (p *parser) callSuffix(fn syntax.Expr) syntax.Expr {
	call := &syntax.CallExpr{Fn: fn, Lparen: p.advance()}
	if p.tok == syntax.RPAREN {
		call.Rparen = p.advance()
		return call
	}
	call.Args = p.args()
	call.Rparen = p.expect(syntax.RPAREN)
	return call
}

// args parses call arguments: x, name=x, *x, **x.
func (p *parser) args() []syntax.Expr {
	var args []syntax.Expr
	for p.tok != syntax.RPAREN && p.tok != syntax.EOF {
		if len(args) > 0 {
			p.expect(syntax.COMMA)
		}
		if p.tok == syntax.RPAREN {
			break
		}
		if p.tok == syntax.STAR || p.tok == syntax.STARSTAR {
			op := p.tok
			opPos := p.advance()
			args = append(args, &syntax.UnaryExpr{OpPos: opPos, Op: op, X: p.test()})
			continue
		}
		// name=x is parsed as x=x and then checked, to stay LL(1).
		x := p.test()
		if p.tok == syntax.EQ {
			if id, ok := x.(*syntax.Ident); !ok || p.ellipses[id] {
				p.failHere("keyword argument must have form name=expr")
			}
			eq := p.advance()
			x = &syntax.BinaryExpr{X: x, OpPos: eq, Op: syntax.EQ, Y: p.test()}
		}
		args = append(args, x)
	}
	return args
}

func (p *parser) primary() syntax.Expr {
	p.enter()
	defer p.leave()
	switch p.tok {
	case syntax.IDENT:
		return p.ident()
	case syntax.INT, syntax.FLOAT, syntax.STRING, syntax.BYTES:
		return p.literal()
	case syntax.LBRACK:
		return p.list()
	case syntax.LBRACE:
		return p.dict()
	case syntax.LPAREN:
		lparen := p.advance()
		if p.tok == syntax.RPAREN {
			return &syntax.TupleExpr{Lparen: lparen, Rparen: p.advance()}
		}
		x := p.expr(true)
		return &syntax.ParenExpr{Lparen: lparen, X: x, Rparen: p.expect(syntax.RPAREN)}
	case tokFString:
		return p.fstring()
	case tokEllipsis:
		id := &syntax.Ident{NamePos: p.advance(), Name: "__ellipsis__"}
		if p.ellipses == nil {
			p.ellipses = make(map[*syntax.Ident]bool)
		}
		p.ellipses[id] = true
		return id
	}
	p.failPythonOnly()
	// The token's start, not the scanner's position: it may be a NEWLINE.
	p.sc.fail(p.val.pos, "got %s, want primary expression", describe(p.tok))
	panic("unreachable")
}

func (p *parser) literal() *syntax.Literal {
	lit := &syntax.Literal{Token: p.tok, TokenPos: p.val.pos, Raw: p.val.raw}
	switch p.tok {
	case syntax.INT:
		if p.val.bigInt != nil {
			lit.Value = p.val.bigInt
		} else {
			lit.Value = p.val.int
		}
	case syntax.FLOAT:
		lit.Value = p.val.float
	default:
		lit.Value = p.val.string
	}
	p.advance()
	return lit
}

// list parses a list literal or comprehension.
func (p *parser) list() syntax.Expr {
	lbrack := p.advance()
	if p.tok == syntax.RBRACK {
		return &syntax.ListExpr{Lbrack: lbrack, Rbrack: p.advance()}
	}
	x := p.test()
	if p.tok == syntax.FOR {
		return p.comprehension(lbrack, x, syntax.RBRACK)
	}
	list := []syntax.Expr{x}
	if p.tok == syntax.COMMA {
		list = p.exprList(list, true)
	}
	return &syntax.ListExpr{Lbrack: lbrack, List: list, Rbrack: p.expect(syntax.RBRACK)}
}

// dict parses a dict literal or comprehension.
func (p *parser) dict() syntax.Expr {
	lbrace := p.advance()
	if p.tok == syntax.RBRACE {
		return &syntax.DictExpr{Lbrace: lbrace, Rbrace: p.advance()}
	}
	entry := p.dictEntry()
	if p.tok == syntax.FOR {
		return p.comprehension(lbrace, entry, syntax.RBRACE)
	}
	entries := []syntax.Expr{entry}
	for p.tok == syntax.COMMA {
		p.advance()
		if p.tok == syntax.RBRACE {
			break
		}
		entries = append(entries, p.dictEntry())
	}
	return &syntax.DictExpr{Lbrace: lbrace, List: entries, Rbrace: p.expect(syntax.RBRACE)}
}

func (p *parser) dictEntry() *syntax.DictEntry {
	key := p.test()
	colon := p.expect(syntax.COLON)
	return &syntax.DictEntry{Key: key, Colon: colon, Value: p.test()}
}

// comprehension parses the for and if clauses after a comprehension's body,
// up to the closing bracket.
func (p *parser) comprehension(open syntax.Position, body syntax.Expr, closing syntax.Token) syntax.Expr {
	var clauses []syntax.Node
	for p.tok != closing {
		switch p.tok {
		case syntax.FOR:
			forPos := p.advance()
			vars := p.loopVars()
			in := p.expect(syntax.IN)
			// As in Python 3, the iterable is neither a conditional, a
			// lambda, nor an unparenthesized tuple.
			x := p.testPrec(0)
			clauses = append(clauses, &syntax.ForClause{For: forPos, Vars: vars, In: in, X: x})
		case syntax.IF:
			ifPos := p.advance()
			clauses = append(clauses, &syntax.IfClause{If: ifPos, Cond: p.testNoCond()})
		default:
			p.failHere("got %s, want '%s', for, or if", describe(p.tok), closing)
		}
	}
	return &syntax.Comprehension{Curly: closing == syntax.RBRACE, Lbrack: open, Body: body, Clauses: clauses, Rbrack: p.advance()}
}
