package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Symbolic shapes (SPEC §7): symbolic_shape("b, 2*h") describes the
// dimensions of an input by expressions over dimension variables, as
// JAX's dimension polynomials do: integers, variables, +, -, *, // and %
// by constants, max and min. A call binds each variable from the
// argument's actual dimensions, checks the constraints ("b >= 2"), and
// runs the program traced for that binding (traced and compiled once per
// binding: jaxsh's shape rules work on concrete dimensions).

// A DimExpr is a dimension expression.
type DimExpr interface {
	// Eval computes the expression; ok is false when a variable it uses is
	// not bound.
	Eval(env map[string]int) (v int, ok bool)
	String() string
	vars(into map[string]bool)
	prec() int
}

type (
	dimConst int
	dimVar   string
	dimBin   struct {
		op   string // "+", "-", "*", "//", "%"
		x, y DimExpr
	}
	dimCall struct {
		fn   string // "max" or "min"
		x, y DimExpr
	}
)

func (c dimConst) Eval(map[string]int) (int, bool) { return int(c), true }
func (c dimConst) String() string                  { return strconv.Itoa(int(c)) }
func (dimConst) vars(map[string]bool)              {}
func (dimConst) prec() int                         { return 3 }

func (v dimVar) Eval(env map[string]int) (int, bool) { n, ok := env[string(v)]; return n, ok }
func (v dimVar) String() string                      { return string(v) }
func (v dimVar) vars(into map[string]bool)           { into[string(v)] = true }
func (dimVar) prec() int                             { return 3 }

func (b dimBin) Eval(env map[string]int) (int, bool) {
	x, ok1 := b.x.Eval(env)
	y, ok2 := b.y.Eval(env)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch b.op {
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	case "*":
		return x * y, true
	case "//":
		if y == 0 {
			return 0, false
		}
		return floorDiv(x, y), true
	}
	if y == 0 {
		return 0, false
	}
	return x - floorDiv(x, y)*y, true
}

func floorDiv(x, y int) int {
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

func (b dimBin) prec() int {
	if b.op == "+" || b.op == "-" {
		return 1
	}
	return 2
}

func (b dimBin) String() string {
	left, right := b.x.String(), b.y.String()
	if b.x.prec() < b.prec() {
		left = "(" + left + ")"
	}
	if b.y.prec() <= b.prec() && !(b.op == "+" || b.op == "*") || b.y.prec() < b.prec() {
		right = "(" + right + ")"
	}
	if b.op == "*" || b.op == "//" || b.op == "%" {
		return left + b.op + right
	}
	return left + " " + b.op + " " + right
}

func (b dimBin) vars(into map[string]bool) { b.x.vars(into); b.y.vars(into) }

func (c dimCall) Eval(env map[string]int) (int, bool) {
	x, ok1 := c.x.Eval(env)
	y, ok2 := c.y.Eval(env)
	if !ok1 || !ok2 {
		return 0, false
	}
	if c.fn == "max" {
		return max(x, y), true
	}
	return min(x, y), true
}
func (c dimCall) String() string            { return c.fn + "(" + c.x.String() + ", " + c.y.String() + ")" }
func (c dimCall) vars(into map[string]bool) { c.x.vars(into); c.y.vars(into) }
func (dimCall) prec() int                   { return 3 }

// Vars lists the dimension variables of expressions, sorted.
func Vars(es ...DimExpr) []string {
	set := map[string]bool{}
	for _, e := range es {
		e.vars(set)
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// A SymbolicShape is one input's shape: a dimension expression per axis.
type SymbolicShape []DimExpr

func (s SymbolicShape) String() string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

// ParseSymbolicShape reads symbolic_shape's text: comma-separated
// dimension expressions ("b, 2*h", "(n,)", "3, k + 1").
func ParseSymbolicShape(text string) (SymbolicShape, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && balanced(s[1:len(s)-1]) {
		s = s[1 : len(s)-1]
	}
	var out SymbolicShape
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for part := range strings.SplitSeq(splitTopCommas(s), "\x00") {
		if strings.TrimSpace(part) == "" {
			continue // a trailing comma: "(n,)"
		}
		e, err := ParseDimExpr(part)
		if err != nil {
			return nil, fmt.Errorf("symbolic_shape(%s): %v", pyStr(text), err)
		}
		out = append(out, e)
	}
	return out, nil
}

func balanced(s string) bool {
	depth := 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// splitTopCommas replaces the commas outside parentheses by NULs.
func splitTopCommas(s string) string {
	b := []byte(s)
	depth := 0
	for i, c := range b {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				b[i] = 0
			}
		}
	}
	return string(b)
}

// ParseDimExpr reads one dimension expression.
func ParseDimExpr(text string) (DimExpr, error) {
	p := &dimParser{src: text}
	p.next()
	e, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.tok != "" {
		return nil, fmt.Errorf("unexpected %q in dimension expression %s", p.tok, pyStr(strings.TrimSpace(text)))
	}
	return e, nil
}

type dimParser struct {
	src string
	pos int
	tok string
}

func (p *dimParser) next() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.tok = ""
		return
	}
	start := p.pos
	c := rune(p.src[p.pos])
	switch {
	case unicode.IsDigit(c):
		for p.pos < len(p.src) && unicode.IsDigit(rune(p.src[p.pos])) {
			p.pos++
		}
	case unicode.IsLetter(c) || c == '_':
		for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '_') {
			p.pos++
		}
	case strings.HasPrefix(p.src[p.pos:], "//"):
		p.pos += 2
	default:
		p.pos++
	}
	p.tok = p.src[start:p.pos]
}

func (p *dimParser) sum() (DimExpr, error) {
	x, err := p.product()
	for err == nil && (p.tok == "+" || p.tok == "-") {
		op := p.tok
		p.next()
		var y DimExpr
		if y, err = p.product(); err == nil {
			x = dimBin{op: op, x: x, y: y}
		}
	}
	return x, err
}

func (p *dimParser) product() (DimExpr, error) {
	x, err := p.atom()
	for err == nil && (p.tok == "*" || p.tok == "//" || p.tok == "%") {
		op := p.tok
		p.next()
		var y DimExpr
		if y, err = p.atom(); err != nil {
			break
		}
		if op != "*" {
			if _, isConst := y.(dimConst); !isConst {
				return nil, fmt.Errorf("%s must be by a constant, got %s", op, y)
			}
			if y.(dimConst) <= 0 {
				return nil, fmt.Errorf("%s by %s", op, y)
			}
		}
		x = dimBin{op: op, x: x, y: y}
	}
	return x, err
}

func (p *dimParser) atom() (DimExpr, error) {
	tok := p.tok
	switch {
	case tok == "":
		return nil, fmt.Errorf("incomplete dimension expression %s", pyStr(strings.TrimSpace(p.src)))
	case tok == "(":
		p.next()
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, fmt.Errorf("missing ) in %s", pyStr(strings.TrimSpace(p.src)))
		}
		p.next()
		return e, nil
	case tok == "-":
		p.next()
		e, err := p.atom()
		if err != nil {
			return nil, err
		}
		return dimBin{op: "*", x: dimConst(-1), y: e}, nil
	case unicode.IsDigit(rune(tok[0])):
		n, err := strconv.Atoi(tok)
		if err != nil {
			return nil, err
		}
		p.next()
		return dimConst(n), nil
	case tok == "max" || tok == "min":
		p.next()
		if p.tok != "(" {
			return nil, fmt.Errorf("%s needs two arguments", tok)
		}
		p.next()
		x, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != "," {
			return nil, fmt.Errorf("%s needs two arguments", tok)
		}
		p.next()
		y, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, fmt.Errorf("missing ) after %s's arguments", tok)
		}
		p.next()
		return dimCall{fn: tok, x: x, y: y}, nil
	case unicode.IsLetter(rune(tok[0])) || tok[0] == '_':
		p.next()
		return dimVar(tok), nil
	}
	return nil, fmt.Errorf("unexpected %q in dimension expression %s", tok, pyStr(strings.TrimSpace(p.src)))
}

// A Constraint relates two dimension expressions: "b >= 2", "a == 2*b".
type Constraint struct {
	X, Y DimExpr
	Op   string // ">=", "<=" or "=="
}

func (c Constraint) String() string { return c.X.String() + " " + c.Op + " " + c.Y.String() }

// ParseConstraint reads one constraint.
func ParseConstraint(text string) (Constraint, error) {
	for _, op := range []string{">=", "<=", "=="} {
		if l, r, ok := strings.Cut(text, op); ok {
			x, err := ParseDimExpr(l)
			if err != nil {
				return Constraint{}, err
			}
			y, err := ParseDimExpr(r)
			if err != nil {
				return Constraint{}, err
			}
			return Constraint{X: x, Y: y, Op: op}, nil
		}
	}
	return Constraint{}, fmt.Errorf("constraint %s must compare two dimension expressions with >=, <= or ==", pyStr(text))
}

func (c Constraint) holds(env map[string]int) (bool, bool) {
	x, ok1 := c.X.Eval(env)
	y, ok2 := c.Y.Eval(env)
	if !ok1 || !ok2 {
		return false, false
	}
	switch c.Op {
	case ">=":
		return x >= y, true
	case "<=":
		return x <= y, true
	}
	return x == y, true
}

// BindDims finds the values of the dimension variables from the actual
// shapes of the arguments, as JAX does: a dimension that is a variable, or
// k*v + c with only v unknown, determines v; every other dimension is then
// checked. Every variable must be >= 1 and every constraint must hold.
// Errors name the argument, the axis and the variable.
func BindDims(specs []SymbolicShape, actual [][]int, constraints []Constraint) (map[string]int, error) {
	env := map[string]int{}
	for i, spec := range specs {
		if spec == nil {
			continue
		}
		if len(actual[i]) != len(spec) {
			return nil, fmt.Errorf("Rank mismatch for args[%d]: the specification (%s) has rank %d, the argument's shape %s rank %d",
				i, spec, len(spec), shapeText(actual[i]), len(actual[i]))
		}
	}
	where := map[string]string{}
	for progress := true; progress; {
		progress = false
		for i, spec := range specs {
			for k, d := range spec {
				v, coef, c, ok := linearInOneUnknown(d, env)
				if !ok {
					continue
				}
				n := actual[i][k] - c
				if n%coef != 0 {
					return nil, fmt.Errorf("Division had remainder %d when computing the value of %s from args[%d].shape[%d] (= %d) and the specification %s",
						((n%coef)+coef)%coef, pyStr(v), i, k, actual[i][k], pyStr(d.String()))
				}
				env[v] = n / coef
				where[v] = fmt.Sprintf("args[%d].shape[%d] (= %d)", i, k, actual[i][k])
				if env[v] < 1 {
					return nil, fmt.Errorf("Dimension variable %s must have integer value >= 1. Found %d when solving %s = %s",
						pyStr(v), env[v], pyStr(d.String()), where[v])
				}
				progress = true
			}
		}
	}
	for i, spec := range specs {
		for k, d := range spec {
			got, ok := d.Eval(env)
			if !ok {
				return nil, fmt.Errorf("Cannot solve for the values of the dimension variables %s of args[%d].shape[%d]: the specification %s is not linear in one unknown variable",
					strings.Join(unbound(d, env), ", "), i, k, pyStr(d.String()))
			}
			if got != actual[i][k] {
				return nil, fmt.Errorf("Found inconsistency between dimension size args[%d].shape[%d] (= %d) and the specification %s (= %d)%s",
					i, k, actual[i][k], pyStr(d.String()), got, bindingNote(d, env, where))
			}
		}
	}
	for _, c := range constraints {
		ok, known := c.holds(env)
		if !known {
			return nil, fmt.Errorf("the constraint %s uses dimension variables %s that no input shape has", pyStr(c.String()), strings.Join(unbound(dimBin{op: "+", x: c.X, y: c.Y}, env), ", "))
		}
		if !ok {
			return nil, fmt.Errorf("Input shapes do not match the constraint %s: %s", pyStr(c.String()),
				strings.TrimPrefix(bindingNote(dimBin{op: "+", x: c.X, y: c.Y}, env, where), ", with "))
		}
	}
	return env, nil
}

func unbound(d DimExpr, env map[string]int) []string {
	var out []string
	for _, v := range Vars(d) {
		if _, ok := env[v]; !ok {
			out = append(out, pyStr(v))
		}
	}
	return out
}

func bindingNote(d DimExpr, env map[string]int, where map[string]string) string {
	var parts []string
	for _, v := range Vars(d) {
		parts = append(parts, fmt.Sprintf("%s = %d from %s", pyStr(v), env[v], where[v]))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", with " + strings.Join(parts, " and ")
}

func shapeText(s []int) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// linearInOneUnknown reports whether d is coef*v + c with exactly one
// unbound variable v (coef > 0) given env.
func linearInOneUnknown(d DimExpr, env map[string]int) (v string, coef, c int, ok bool) {
	free := unboundNames(d, env)
	if len(free) != 1 {
		return "", 0, 0, false
	}
	v = free[0]
	// d is linear in v when d(v=0), d(v=1), d(v=2) are in arithmetic
	// progression and no floor division, modulus, max or min involves v.
	if !linearIn(d, v) {
		return "", 0, 0, false
	}
	at := func(x int) int {
		env2 := make(map[string]int, len(env)+1)
		for k, n := range env {
			env2[k] = n
		}
		env2[v] = x
		r, _ := d.Eval(env2)
		return r
	}
	c0, c1 := at(0), at(1)
	coef = c1 - c0
	if coef <= 0 {
		return "", 0, 0, false
	}
	return v, coef, c0, true
}

func unboundNames(d DimExpr, env map[string]int) []string {
	var out []string
	for _, v := range Vars(d) {
		if _, ok := env[v]; !ok {
			out = append(out, v)
		}
	}
	return out
}

// linearIn reports whether v appears in d only under + - and * by
// expressions free of v.
func linearIn(d DimExpr, v string) bool {
	has := func(e DimExpr) bool { return slices.Contains(Vars(e), v) }
	switch e := d.(type) {
	case dimConst, dimVar:
		return true
	case dimBin:
		switch e.op {
		case "+", "-":
			return linearIn(e.x, v) && linearIn(e.y, v)
		case "*":
			return (!has(e.x) && linearIn(e.y, v)) || (!has(e.y) && linearIn(e.x, v))
		}
		return !has(e)
	case dimCall:
		return !has(e)
	}
	return false
}
