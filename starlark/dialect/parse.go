// Package dialect parses jaxsh's Starlark dialect: the Starlark grammar of
// go.starlark.net plus array syntax. It builds go.starlark.net syntax trees,
// ready for starlark.FileProgram, in which every extension has become a call
// of a hidden builtin that the runtime predeclares:
//
//	source                    tree
//	a ** b                    __pow__(a, b)
//	a @ b                     __matmul__(a, b)
//	x **= y                   x = __pow__(x, y)
//	x @= y                    x = __matmul__(x, y)
//	a < b (<= > >= == !=)     __lt__(a, b) (__le__ __gt__ __ge__ __eq__ __ne__)
//	a % b                     __mod__(a, b)
//	s.format(args)            __str_format__(s, args)
//	f"x={x:.3f}"              __fstring__("x={:.3f}", x)
//	import jax.numpy as jnp   jnp = __import__("jax.numpy", "jax.numpy")
//	x.load                    x.load (load is a keyword only where a statement starts)
//	...                       __ellipsis__
//	x[1:3, None, ..., ::2]    x[__slice__(1, 3, None), None, __ellipsis__, __slice__(None, None, 2)]
//	@d1                       def f(): ...
//	@d2(arg)                  f = d1(d2(arg)(f))
//	def f(): ...
//
// ** is Python's power operator: right-associative, binding tighter than a
// unary operator on its left (-2 ** 2 is -(2 ** 2)), with a right operand
// that may itself be unary (2 ** -1). @ has the precedence of * / // % and
// associates to the left, so a @ b * c is (a @ b) * c. `in` and `not in`
// stay as they are. ... is a constant: it cannot be assigned to, nor name a
// keyword argument.
//
// A subscript keeps its upstream form (IndexExpr, SliceExpr, or IndexExpr
// of an unparenthesized TupleExpr for x[i, j]) unless it has several
// elements one of which is a slice, or a trailing comma; then it is an
// IndexExpr of a TupleExpr in which each slice is a __slice__ call, with
// None for its missing parts. Upstream reads x[a, b:c] as the slice
// (a, b):c; here it is a two-dimensional subscript.
//
// In x **= y and x @= y the target x is evaluated twice, once to read it and
// once to assign it, unlike in Starlark's own augmented assignments: a
// target with side effects such as a[f()] calls f twice. Tuple and list
// targets are refused, as for Starlark's +=.
//
// A line that starts with @ is a decorator: one expression, then a newline.
// One or more decorators must be followed by a def, at any block level; the
// decorator nearest the def applies first. A decorated def at top level
// rebinds a global, so the runtime needs syntax.FileOptions.GlobalReassign.
//
// f-strings and import statements are described in fstring.go and
// imports.go. Python keywords that Starlark reserves without a meaning
// (class, try, with, yield, global, is, ...) and Python's assert statement
// fail with a line that names the construct and what to write instead
// (python_only.go).
//
// Positions are true to the source. A call that stands for an operator has
// its function name, Lparen and Rparen at the operator (the **, the <, the
// first ':' of a slice, a decorator's @), so that an error raised by the
// hidden builtin points there; the names a decorated def is assigned to and
// passed as are at the def's name. Plain Starlark parses to exactly the tree
// syntax.Parse builds, positions included, and fails with the same error at
// the same position; only the rewrite pass (comparisons, %, .format: see
// rewriteExpr, Parse and ParsePlain) changes the tree.
package dialect

import (
	"fmt"

	"go.starlark.net/syntax"
)

// Parse parses a dialect source file and applies every rewrite, so that the
// result can be given to starlark.FileProgram. src may be nil (read
// filename), a string, a []byte, an io.Reader or a syntax.FilePortion, as
// for syntax.Parse. A nil opts means the zero syntax.FileOptions. Errors
// are syntax.Error values, which print as file:line:col: message.
func Parse(opts *syntax.FileOptions, filename string, src any) (*syntax.File, error) {
	f, _, err := ParsePlain(opts, filename, src, 0)
	if err != nil {
		return nil, err
	}
	rewriteFile(f)
	return f, nil
}

// ParsePlain parses a dialect source file like Parse but leaves comparisons
// as the BinaryExprs Starlark builds, where Parse turns them into calls of
// __lt__ and its kin. mode may hold syntax.RetainComments. extended reports
// whether the source used a construct that plain Starlark lacks (@, **,
// **=, @=, ..., a multi-dimensional or trailing-comma subscript); when it
// is false, the tree or the error is the one syntax.Parse gives. After a
// syntax error, extended tells whether such a construct came before it.
func ParsePlain(opts *syntax.FileOptions, filename string, src any, mode syntax.Mode) (f *syntax.File, extended bool, err error) {
	p, err := newParser(opts, filename, src, mode)
	if err != nil {
		return nil, false, err
	}
	defer p.recover(&err, &extended)
	p.advance()
	f = &syntax.File{Options: p.opts, Path: filename, Stmts: p.fileStmts()}
	p.attachComments(f)
	return f, p.extended(), nil
}

// ParseCompoundStmt parses one unit of REPL input, with the rewrites
// applied and opts as for Parse: a blank line, a def (decorated or not), if, for or while
// statement, or a line of semicolon-separated simple statements. It calls
// readline each time it needs another line and reads no further than the
// unit's end. A blank line ends an indented block. It returns a File whose
// Stmts may be empty.
func ParseCompoundStmt(opts *syntax.FileOptions, filename string, readline func() ([]byte, error)) (*syntax.File, error) {
	f, _, err := parseCompoundStmt(opts, filename, readline)
	if err != nil {
		return nil, err
	}
	rewriteFile(f)
	return f, nil
}

// parseCompoundStmt is ParseCompoundStmt without the comparison rewrite.
func parseCompoundStmt(opts *syntax.FileOptions, filename string, readline func() ([]byte, error)) (f *syntax.File, extended bool, err error) {
	p, err := newParser(opts, filename, readline, 0)
	if err != nil {
		return nil, false, err
	}
	defer p.recover(&err, &extended)
	p.advance()
	var stmts []syntax.Stmt
	switch p.tok {
	case syntax.DEF, syntax.IF, syntax.FOR, syntax.WHILE, tokAt:
		stmts = p.stmt(stmts)
	case syntax.NEWLINE:
		// a blank line
	default:
		stmts = p.simpleStmt(stmts, false)
		// The NEWLINE ends the unit; consuming it would read another line.
		if p.tok != syntax.NEWLINE {
			p.failHere("invalid syntax")
		}
	}
	return &syntax.File{Options: p.opts, Path: filename, Stmts: stmts}, p.extended(), nil
}

// ParseExpr parses an expression of the dialect, with the rewrites applied;
// a comma-separated list is a tuple. opts and src are as for Parse.
func ParseExpr(opts *syntax.FileOptions, filename string, src any) (syntax.Expr, error) {
	x, _, err := parseExpr(opts, filename, src, 0)
	if err != nil {
		return nil, err
	}
	return rewriteExpr(x), nil
}

// parseExpr is ParseExpr without the comparison rewrite; mode may hold
// syntax.RetainComments.
func parseExpr(opts *syntax.FileOptions, filename string, src any, mode syntax.Mode) (x syntax.Expr, extended bool, err error) {
	p, err := newParser(opts, filename, src, mode)
	if err != nil {
		return nil, false, err
	}
	defer p.recover(&err, &extended)
	p.advance()
	x = p.expr(false)
	if p.tok == syntax.NEWLINE {
		p.advance()
	}
	if p.tok != syntax.EOF {
		p.failHere("got %s after expression, want EOF", describe(p.tok))
	}
	p.attachComments(x)
	return x, p.extended(), nil
}

// parser is a recursive-descent parser with one token of lookahead. Its
// productions, and the places where it checks nesting depth, mirror
// upstream's so that errors on plain Starlark come out identical.
type parser struct {
	opts  *syntax.FileOptions
	sc    *scanner
	tok   syntax.Token // lookahead token
	val   tokenValue   // lookahead token's value
	depth int          // recursion depth, bounded to keep deep input from exhausting the stack

	usedExtension bool                   // an extension was parsed (beyond the scanner's tokens)
	ellipses      map[*syntax.Ident]bool // identifiers that stand for `...`
}

func newParser(opts *syntax.FileOptions, filename string, src any, mode syntax.Mode) (*parser, error) {
	sc, err := newScanner(filename, src, mode&syntax.RetainComments != 0)
	if err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &syntax.FileOptions{}
	}
	return &parser{opts: opts, sc: sc}, nil
}

func (p *parser) extended() bool { return p.usedExtension || p.sc.extended }

// recover turns the panic of a syntax error into an error result. Any
// other panic is a bug of this package; it is reported as an internal error
// rather than crashing the program that parses.
func (p *parser) recover(err *error, extended *bool) {
	switch e := recover().(type) {
	case nil:
		return
	case syntax.Error:
		*err = e
	default:
		*err = syntax.Error{Pos: p.sc.pos, Msg: fmt.Sprintf("internal error: %v", e)}
	}
	*extended = p.extended()
}

// advance reads the next token and returns the position of the one it
// replaces.
func (p *parser) advance() syntax.Position {
	pos := p.val.pos
	p.tok = p.sc.next(&p.val)
	return pos
}

// failHere reports an error at the scanner's position, the end of the
// lookahead token, as upstream does for most errors.
func (p *parser) failHere(format string, args ...any) {
	p.sc.fail(p.sc.pos, format, args...)
}

// expect consumes a token of kind t and returns its position.
func (p *parser) expect(t syntax.Token) syntax.Position {
	if p.tok != t {
		p.failHere("got %s, want %s", describe(p.tok), describe(t))
	}
	return p.advance()
}

func (p *parser) enter() {
	p.depth++
	if p.depth > 1000 {
		p.failHere("excessive nesting")
	}
}

func (p *parser) leave() { p.depth-- }

// fileStmts parses statements up to the end of input.
func (p *parser) fileStmts() []syntax.Stmt {
	var stmts []syntax.Stmt
	for p.tok != syntax.EOF {
		if p.tok == syntax.NEWLINE {
			p.advance()
			continue
		}
		stmts = p.stmt(stmts)
	}
	return stmts
}

// stmt appends the statements one source statement stands for: one, or
// for a decorated def two.
func (p *parser) stmt(stmts []syntax.Stmt) []syntax.Stmt {
	switch p.tok {
	case syntax.DEF:
		return append(stmts, p.defStmt())
	case syntax.IF:
		return append(stmts, p.ifStmt())
	case syntax.FOR:
		return append(stmts, p.forStmt())
	case syntax.WHILE:
		return append(stmts, p.whileStmt())
	case tokAt:
		return p.decoratedDef(stmts)
	}
	return p.simpleStmt(stmts, true)
}

func (p *parser) defStmt() *syntax.DefStmt {
	def := p.advance()
	name := p.ident()
	lparen := p.expect(syntax.LPAREN)
	params := p.params()
	rparen := p.expect(syntax.RPAREN)
	p.expect(syntax.COLON)
	return &syntax.DefStmt{Def: def, Name: name, Lparen: lparen, Params: params, Rparen: rparen, Body: p.suite()}
}

// decoratedDef parses decorator lines and the def they decorate, and
// appends the def and the assignment f = d1(d2(...(f))).
func (p *parser) decoratedDef(stmts []syntax.Stmt) []syntax.Stmt {
	type decorator struct {
		at syntax.Position
		fn syntax.Expr
	}
	var decorators []decorator
	for p.tok == tokAt {
		at := p.advance()
		fn := p.test()
		p.expect(syntax.NEWLINE)
		decorators = append(decorators, decorator{at, fn})
	}
	if p.tok != syntax.DEF {
		p.sc.fail(p.val.pos, "decorator must be followed by def, got %s", describe(p.tok))
	}
	def := p.defStmt()
	nameAt := func() *syntax.Ident { return &syntax.Ident{NamePos: def.Name.NamePos, Name: def.Name.Name} }
	var value syntax.Expr = nameAt()
	for i := len(decorators) - 1; i >= 0; i-- {
		d := decorators[i]
		value = &syntax.CallExpr{Fn: d.fn, Lparen: d.at, Args: []syntax.Expr{value}, Rparen: d.at}
	}
	assign := &syntax.AssignStmt{OpPos: decorators[0].at, Op: syntax.EQ, LHS: nameAt(), RHS: value}
	return append(stmts, def, assign)
}

func (p *parser) ifStmt() *syntax.IfStmt {
	first := &syntax.IfStmt{If: p.advance()}
	first.Cond = p.test()
	p.expect(syntax.COLON)
	first.True = p.suite()
	last := first
	for p.tok == syntax.ELIF {
		elif := &syntax.IfStmt{If: p.advance()}
		elif.Cond = p.test()
		p.expect(syntax.COLON)
		elif.True = p.suite()
		last.ElsePos, last.False = elif.If, []syntax.Stmt{elif}
		last = elif
	}
	if p.tok == syntax.ELSE {
		last.ElsePos = p.advance()
		p.expect(syntax.COLON)
		last.False = p.suite()
	}
	return first
}

func (p *parser) forStmt() *syntax.ForStmt {
	forPos := p.advance()
	vars := p.loopVars()
	p.expect(syntax.IN)
	x := p.expr(false)
	p.expect(syntax.COLON)
	return &syntax.ForStmt{For: forPos, Vars: vars, X: x, Body: p.suite()}
}

func (p *parser) whileStmt() *syntax.WhileStmt {
	while := p.advance()
	cond := p.test()
	p.expect(syntax.COLON)
	return &syntax.WhileStmt{While: while, Cond: cond, Body: p.suite()}
}

// suite parses the body after a ':': an indented block, or simple
// statements on the same line.
func (p *parser) suite() []syntax.Stmt {
	p.enter()
	defer p.leave()
	if p.tok != syntax.NEWLINE {
		return p.simpleStmt(nil, true)
	}
	p.advance()
	p.expect(syntax.INDENT)
	var stmts []syntax.Stmt
	for p.tok != syntax.OUTDENT && p.tok != syntax.EOF {
		stmts = p.stmt(stmts)
	}
	p.expect(syntax.OUTDENT)
	return stmts
}

// simpleStmt parses small statements separated by ';' and the NEWLINE that
// ends them, which the REPL leaves unread (consumeNewline false). The
// NEWLINE may be missing at the end of input.
func (p *parser) simpleStmt(stmts []syntax.Stmt, consumeNewline bool) []syntax.Stmt {
	for {
		if p.tok == syntax.IMPORT || p.tok == syntax.FROM {
			stmts = p.importStmt(stmts)
		} else {
			stmts = append(stmts, p.smallStmt())
		}
		if p.tok != syntax.SEMI {
			break
		}
		p.advance()
		if p.tok == syntax.NEWLINE || p.tok == syntax.EOF {
			break
		}
	}
	if consumeNewline && p.tok != syntax.EOF {
		p.expect(syntax.NEWLINE)
	}
	return stmts
}

var hiddenAugmented = map[syntax.Token]string{tokStarStarEq: "__pow__", tokAtEq: "__matmul__"}

func (p *parser) smallStmt() syntax.Stmt {
	switch p.tok {
	case syntax.RETURN:
		ret := &syntax.ReturnStmt{Return: p.advance()}
		if p.tok != syntax.EOF && p.tok != syntax.NEWLINE && p.tok != syntax.SEMI {
			ret.Result = p.expr(false)
		}
		return ret
	case syntax.BREAK, syntax.CONTINUE, syntax.PASS:
		tok := p.tok
		return &syntax.BranchStmt{Token: tok, TokenPos: p.advance()}
	case syntax.LOAD:
		return p.loadStmt()
	}

	x := p.expr(false)
	p.failAssert(x)
	switch p.tok {
	case syntax.EQ, syntax.PLUS_EQ, syntax.MINUS_EQ, syntax.STAR_EQ, syntax.SLASH_EQ,
		syntax.SLASHSLASH_EQ, syntax.PERCENT_EQ, syntax.AMP_EQ, syntax.PIPE_EQ,
		syntax.CIRCUMFLEX_EQ, syntax.LTLT_EQ, syntax.GTGT_EQ:
		op := p.tok
		opPos := p.advance()
		p.checkAssignable(x)
		return &syntax.AssignStmt{OpPos: opPos, Op: op, LHS: x, RHS: p.expr(false)}
	case tokStarStarEq, tokAtEq:
		name := hiddenAugmented[p.tok]
		opPos := p.advance()
		p.checkAugmentedTarget(x)
		rhs := p.expr(false)
		return &syntax.AssignStmt{OpPos: opPos, Op: syntax.EQ, LHS: x, RHS: hiddenCall(name, opPos, cloneExpr(x), rhs)}
	}
	return &syntax.ExprStmt{X: x}
}

// checkAugmentedTarget refuses the targets Starlark refuses for its own
// augmented assignments; once rewritten to a plain '=' the resolver would
// accept them.
func (p *parser) checkAugmentedTarget(x syntax.Expr) {
	p.checkAssignable(x)
	for {
		paren, ok := x.(*syntax.ParenExpr)
		if !ok {
			break
		}
		x = paren.X
	}
	switch x.(type) {
	case *syntax.TupleExpr:
		p.sc.fail(syntax.Start(x), "can't use tuple expression in augmented assignment")
	case *syntax.ListExpr:
		p.sc.fail(syntax.Start(x), "can't use list expression in augmented assignment")
	}
}

// checkAssignable refuses `...` where a name would be bound: it is a
// constant, though it parses to an identifier.
func (p *parser) checkAssignable(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.Ident:
		if p.ellipses[x] {
			p.sc.fail(x.NamePos, "cannot assign to ...")
		}
	case *syntax.ParenExpr:
		p.checkAssignable(x.X)
	case *syntax.TupleExpr:
		for _, elem := range x.List {
			p.checkAssignable(elem)
		}
	case *syntax.ListExpr:
		for _, elem := range x.List {
			p.checkAssignable(elem)
		}
	}
}

// loadStmt parses load("module", "name", local="name", ...). Each name
// becomes an identifier placed just inside the quote of its string.
func (p *parser) loadStmt() *syntax.LoadStmt {
	load := p.advance()
	lparen := p.expect(syntax.LPAREN)
	if p.tok != syntax.STRING {
		p.failHere("first operand of load statement must be a string literal")
	}
	module := p.loadString()
	var from, to []*syntax.Ident
	nameIn := func(lit *syntax.Literal) *syntax.Ident {
		pos := lit.TokenPos
		pos.Col++
		return &syntax.Ident{NamePos: pos, Name: lit.Value.(string)}
	}
	for p.tok != syntax.RPAREN && p.tok != syntax.EOF {
		p.expect(syntax.COMMA)
		if p.tok == syntax.RPAREN { // trailing comma
			break
		}
		switch p.tok {
		case syntax.STRING:
			id := nameIn(p.loadString())
			to = append(to, id)
			from = append(from, id)
		case syntax.IDENT:
			local := p.ident()
			to = append(to, local)
			if p.tok != syntax.EQ {
				p.failHere(`load operand must be "%[1]s" or %[1]s="originalname" (want '=' after %[1]s)`, local.Name)
			}
			p.advance()
			if p.tok != syntax.STRING {
				p.failHere(`original name of loaded symbol must be quoted: %s="originalname"`, local.Name)
			}
			from = append(from, nameIn(p.loadString()))
		default:
			p.failHere(`load operand must be "name" or localname="name" (got %s)`, describe(p.tok))
		}
	}
	rparen := p.expect(syntax.RPAREN)
	if len(to) == 0 {
		p.sc.fail(lparen, "load statement must import at least 1 symbol")
	}
	return &syntax.LoadStmt{Load: load, Module: module, From: from, To: to, Rparen: rparen}
}

// params parses the parameters of a def or lambda:
// x, x=default, *, *args, **kwargs.
func (p *parser) params() []syntax.Expr {
	var params []syntax.Expr
	for p.tok != syntax.RPAREN && p.tok != syntax.COLON && p.tok != syntax.EOF {
		if len(params) > 0 {
			p.expect(syntax.COMMA)
		}
		if p.tok == syntax.RPAREN {
			break
		}
		if p.tok == syntax.STAR || p.tok == syntax.STARSTAR {
			op := p.tok
			star := &syntax.UnaryExpr{Op: op, OpPos: p.advance()}
			if op == syntax.STARSTAR || p.tok == syntax.IDENT {
				star.X = p.ident()
			}
			params = append(params, star)
			continue
		}
		name := p.ident()
		if p.tok == syntax.EQ {
			eq := p.advance()
			params = append(params, &syntax.BinaryExpr{X: name, OpPos: eq, Op: syntax.EQ, Y: p.test()})
			continue
		}
		params = append(params, name)
	}
	return params
}

// loadString parses a string operand of load. It counts as a level of
// nesting, as upstream, where it goes through the primary-expression rule.
func (p *parser) loadString() *syntax.Literal {
	p.enter()
	defer p.leave()
	return p.literal()
}

func (p *parser) ident() *syntax.Ident {
	if p.tok != syntax.IDENT {
		p.failHere("not an identifier")
	}
	id := &syntax.Ident{NamePos: p.val.pos, Name: p.val.raw}
	p.advance()
	return id
}

// hiddenCall builds the call of a hidden builtin that an operator stands
// for, placed at the operator.
func hiddenCall(name string, at syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: at, Name: name}, Lparen: at, Args: args, Rparen: at}
}
