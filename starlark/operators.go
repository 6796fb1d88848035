package starlark

import (
	"fmt"
	"math"
	"math/big"

	"github.com/jaxsh/jaxsh/internal/pyformat"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The dialect parser (starlark/dialect) rewrites the operators that plain
// Starlark lacks, or whose result it fixes to Bool, into calls of these hidden
// builtins. Each first offers the operation to its operands, as Starlark
// offers + to a HasBinary value: `**` and the comparisons through
// HasBinary.Binary with the tokens STARSTAR, LT, LE, GT, GE, EQL and NEQ, and
// `@` through HasMatmul. A (nil, nil) answer means "not mine", as in Starlark.
// Unclaimed operands keep the exact meaning the operator has in Starlark
// (comparisons) or in Python (`**` on numbers), so a plain Starlark program
// means what it always meant.

// HasMatmul is implemented by values that define the `@` operator. side says
// whether the receiver is the left or the right operand.
type HasMatmul interface {
	starlark.Value
	Matmul(y starlark.Value, side starlark.Side) (starlark.Value, error)
}

// hiddenOperators maps each hidden builtin's name to the operator it spells;
// error reports print the operator, not the hidden name.
var hiddenOperators = map[string]string{
	"__pow__":    "**",
	"__matmul__": "@",
	"__lt__":     "<",
	"__le__":     "<=",
	"__gt__":     ">",
	"__ge__":     ">=",
	"__eq__":     "==",
	"__ne__":     "!=",
	"__slice__":  ":",
	"__lshift__": "<<",
	"__rshift__": ">>",
	"__import__": "import",
}

func init() {
	for name, op := range pyformat.Operators {
		hiddenOperators[name] = op
	}
}

func operatorBuiltins() starlark.StringDict {
	d := starlark.StringDict{
		"__pow__":    starlark.NewBuiltin("__pow__", builtinPow),
		"__matmul__": starlark.NewBuiltin("__matmul__", builtinMatmul),
		"__slice__":  starlark.NewBuiltin("__slice__", builtinSlice),
	}
	for k, v := range pyformat.Builtins() {
		d[k] = v
	}
	for name, op := range map[string]syntax.Token{
		"__lt__": syntax.LT, "__le__": syntax.LE, "__gt__": syntax.GT,
		"__ge__": syntax.GE, "__eq__": syntax.EQL, "__ne__": syntax.NEQ,
	} {
		d[name] = starlark.NewBuiltin(name, comparison(op))
	}
	d["__lshift__"] = starlark.NewBuiltin("__lshift__", shift(syntax.LTLT))
	d["__rshift__"] = starlark.NewBuiltin("__rshift__", shift(syntax.GTGT))
	return d
}

// shift is << or >>: offered to the operands first (Starlark's int shift
// rejects an array on the right before the array could answer), then
// Starlark's own.
func shift(op syntax.Token) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x, y, err := binaryOperands(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		if v, err := offerBinary(op, x, y); v != nil || err != nil {
			return v, err
		}
		return starlark.Binary(op, x, y)
	}
}

func binaryOperands(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (x, y starlark.Value, err error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, nil, fmt.Errorf("%s: internal error: want 2 positional operands", b.Name())
	}
	return args[0], args[1], nil
}

// offerBinary lets either operand claim op, left first.
func offerBinary(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	if b, ok := x.(starlark.HasBinary); ok {
		if v, err := b.Binary(op, y, starlark.Left); v != nil || err != nil {
			return v, err
		}
	}
	if b, ok := y.(starlark.HasBinary); ok {
		if v, err := b.Binary(op, x, starlark.Right); v != nil || err != nil {
			return v, err
		}
	}
	return nil, nil
}

func comparison(op syntax.Token) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x, y, err := binaryOperands(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		if v, err := offerBinary(op, x, y); v != nil || err != nil {
			return v, err
		}
		ok, err := starlark.Compare(op, x, y)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(ok), nil
	}
}

func builtinMatmul(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := binaryOperands(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if m, ok := x.(HasMatmul); ok {
		if v, err := m.Matmul(y, starlark.Left); v != nil || err != nil {
			return v, err
		}
	}
	if m, ok := y.(HasMatmul); ok {
		if v, err := m.Matmul(x, starlark.Right); v != nil || err != nil {
			return v, err
		}
	}
	return nil, fmt.Errorf("unknown binary op: %s @ %s (@ is matrix multiplication of arrays)", x.Type(), y.Type())
}

// maxPowBits bounds the size of an exact integer power. Python would try to
// build any size; a script that asks for a million-bit integer has a bug, and
// a clear error beats minutes of silent work.
const maxPowBits = 1 << 20

// builtinPow implements ** on two Starlark numbers with Python's rules:
// int ** non-negative int is an exact int, int ** negative int is a float,
// and anything with a float is a float.
func builtinPow(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := binaryOperands(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if v, err := offerBinary(syntax.STARSTAR, x, y); v != nil || err != nil {
		return v, err
	}
	xi, xIsInt := x.(starlark.Int)
	yi, yIsInt := y.(starlark.Int)
	if xIsInt && yIsInt && yi.Sign() >= 0 {
		return intPow(xi, yi)
	}
	xf, okx := numberAsFloat(x)
	yf, oky := numberAsFloat(y)
	if !okx || !oky {
		return nil, fmt.Errorf("unknown binary op: %s ** %s", x.Type(), y.Type())
	}
	return floatPow(float64(xf), float64(yf))
}

func numberAsFloat(v starlark.Value) (starlark.Float, bool) {
	switch v := v.(type) {
	case starlark.Int:
		return v.Float(), true
	case starlark.Float:
		return v, true
	}
	return 0, false
}

func intPow(x, y starlark.Int) (starlark.Value, error) {
	if x64, ok := x.Int64(); ok && (x64 == 0 || x64 == 1) {
		if y.Sign() == 0 {
			return starlark.MakeInt(1), nil
		}
		return x, nil
	}
	if x64, ok := x.Int64(); ok && x64 == -1 {
		if y.BigInt().Bit(0) == 0 {
			return starlark.MakeInt(1), nil
		}
		return x, nil
	}
	e, ok := y.Int64()
	bits := int64(x.BigInt().BitLen())
	if !ok || (bits > 0 && e > maxPowBits/bits) {
		return nil, fmt.Errorf("integer power too large: the result would exceed %d bits", maxPowBits)
	}
	return starlark.MakeBigInt(new(big.Int).Exp(x.BigInt(), big.NewInt(e), nil)), nil
}

func floatPow(x, y float64) (starlark.Value, error) {
	switch {
	case x == 0 && y < 0:
		return nil, fmt.Errorf("0.0 cannot be raised to a negative power")
	case x < 0 && !math.IsInf(x, 0) && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y):
		return nil, fmt.Errorf("negative number %v cannot be raised to the fractional power %v", starlark.Float(x), starlark.Float(y))
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, fmt.Errorf("float power overflow: %v ** %v", starlark.Float(x), starlark.Float(y))
	}
	return starlark.Float(r), nil
}
