package starlark

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Elementwise functions of one and two operands ("ufuncs") are registered
// by name in these tables; the jnp module exposes each as a builtin, and
// Starlark operators on arrays call them directly.
type (
	UnaryFunc  func(x starlark.Value) (*Array, error)
	BinaryFunc func(x, y starlark.Value) (*Array, error)
)

var (
	unaryUfuncs  = map[string]UnaryFunc{}
	binaryUfuncs = map[string]BinaryFunc{}
)

// RegisterUnaryUfunc makes f the ufunc name that the array operators of
// that name (unary -, +, ~, abs) and UnaryUfunc find. lib/numpy registers
// them when it initializes.
func RegisterUnaryUfunc(name string, f UnaryFunc) {
	if _, dup := unaryUfuncs[name]; dup {
		panic("unary ufunc registered twice: " + name)
	}
	unaryUfuncs[name] = f
}

// RegisterBinaryUfunc makes f the ufunc name that the array operators of
// that name (+, *, **, <, @, ...) and BinaryUfunc find. lib/numpy registers
// them when it initializes.
func RegisterBinaryUfunc(name string, f BinaryFunc) {
	if _, dup := binaryUfuncs[name]; dup {
		panic("binary ufunc registered twice: " + name)
	}
	binaryUfuncs[name] = f
	for op, n := range operatorUfuncs {
		if n == name {
			operatorFuncs[op] = f
		}
	}
}

// operatorFuncs is operatorUfuncs resolved, indexed by token: an operator
// on arrays finds its ufunc without two map lookups.
var operatorFuncs [128]BinaryFunc

// operatorUfuncs maps Starlark's binary operator tokens (and the dialect's
// ** and comparisons, offered through the same interface) to ufunc names.
var operatorUfuncs = map[syntax.Token]string{
	syntax.PLUS:       "add",
	syntax.MINUS:      "subtract",
	syntax.STAR:       "multiply",
	syntax.SLASH:      "true_divide",
	syntax.SLASHSLASH: "floor_divide",
	syntax.PERCENT:    "remainder",
	syntax.AMP:        "bitwise_and",
	syntax.PIPE:       "bitwise_or",
	syntax.CIRCUMFLEX: "bitwise_xor",
	syntax.LTLT:       "left_shift",
	syntax.GTGT:       "right_shift",
	syntax.STARSTAR:   "power",
	syntax.LT:         "less",
	syntax.LE:         "less_equal",
	syntax.GT:         "greater",
	syntax.GE:         "greater_equal",
	syntax.EQL:        "equal",
	syntax.NEQ:        "not_equal",
}

// isOperand reports whether v may meet an array in an operator: arrays and
// Python numbers. Lists are not (as in JAX, unlike NumPy).
func isOperand(v starlark.Value) bool {
	switch v.(type) {
	case *Array, starlark.Int, starlark.Float, starlark.Bool:
		return true
	}
	return false
}

// Binary implements the arithmetic, bitwise, power and comparison operators
// on arrays. It declines (nil, nil) operands that are not arrays or numbers,
// so Starlark reports "unknown binary op".
func (a *Array) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op < 0 || !isOperand(y) {
		return nil, nil
	}
	f := operatorFuncs[op]
	if f == nil {
		return nil, nil
	}
	if side == starlark.Left {
		return f(a, y)
	}
	return f(y, a)
}

// Unary implements -x, +x and ~x.
func (a *Array) Unary(op syntax.Token) (starlark.Value, error) {
	name := map[syntax.Token]string{syntax.MINUS: "negative", syntax.PLUS: "positive", syntax.TILDE: "invert"}[op]
	f, ok := unaryUfuncs[name]
	if !ok {
		return nil, nil
	}
	return f(a)
}

// Matmul implements a @ b.
func (a *Array) Matmul(y starlark.Value, side starlark.Side) (starlark.Value, error) {
	f, ok := binaryUfuncs["matmul"]
	if !ok || !isOperand(y) {
		return nil, nil
	}
	if side == starlark.Left {
		return f(a, y)
	}
	return f(y, a)
}

// UnaryUfunc looks up a registered ufunc by name (after init).
func UnaryUfunc(name string) UnaryFunc { return unaryUfuncs[name] }

// BinaryUfunc is the registered binary ufunc name, or nil.
func BinaryUfunc(name string) BinaryFunc { return binaryUfuncs[name] }
