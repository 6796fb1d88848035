package starlark

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Python's builtins that NumPy arrays answer (SPEC §2): round, sum, abs,
// min, max and str. On Starlark values they do what Python does (round and
// sum, which Starlark lacks) or what Starlark's own builtin does (abs, min,
// max, str); on arrays what Python does with a NumPy array: round(x, n) is
// jnp.round(x, n), abs(x) is jnp.abs(x), min and max walk the first axis
// as Python's do over any iterable (so a 1-d array gives its smallest
// element), and str(x) is NumPy's str() layout.
func pythonBuiltins() starlark.StringDict {
	b := func(name string, fn BuiltinFunc) *starlark.Builtin {
		return starlark.NewBuiltin(name, recoverPanics(name, fn))
	}
	return starlark.StringDict{
		"round": b("round", builtinRound),
		"sum":   b("sum", builtinSum),
		"abs":   b("abs", builtinAbs),
		"min":   b("min", minMax("min")),
		"max":   b("max", minMax("max")),
		"str":   b("str", builtinStr),
	}
}

// round(number, ndigits=None): Python's round, half to even on the exact
// value; an int without ndigits for a float, the number's type with.
func builtinRound(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, ndigits starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs("round", args, kwargs, "number", &x, "ndigits?", &ndigits); err != nil {
		return nil, err
	}
	if a, ok := x.(*Array); ok {
		n := 0
		if ndigits != starlark.None {
			var err error
			if n, err = starlark.AsInt32(ndigits); err != nil {
				return nil, fmt.Errorf("round: ndigits must be an int, got %s", ndigits.Type())
			}
		}
		return roundArray(thread, a, n)
	}
	if ndigits == starlark.None {
		switch x := x.(type) {
		case starlark.Int:
			return x, nil
		case starlark.Float:
			f := float64(x)
			if math.IsNaN(f) {
				return nil, fmt.Errorf("round: cannot convert float NaN to integer")
			}
			if math.IsInf(f, 0) {
				return nil, fmt.Errorf("round: cannot convert float infinity to integer")
			}
			return starlark.NumberToInt(starlark.Float(math.RoundToEven(f)))
		}
		return nil, fmt.Errorf("round: got %s, want a number or an array", x.Type())
	}
	n, err := starlark.AsInt32(ndigits)
	if err != nil {
		return nil, fmt.Errorf("round: ndigits must be an int, got %s", ndigits.Type())
	}
	switch x := x.(type) {
	case starlark.Int:
		if n >= 0 {
			return x, nil
		}
		return starlark.MakeBigInt(roundRat(new(big.Rat).SetInt(x.BigInt()), n).Num()), nil
	case starlark.Float:
		return starlark.Float(roundFloat(float64(x), n)), nil
	}
	return nil, fmt.Errorf("round: got %s, want a number or an array", x.Type())
}

// roundFloat is Python's float.__round__(n): the float nearest to x
// rounded half to even at the n-th decimal of its exact value.
func roundFloat(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	if n > 330 {
		return x
	}
	if n >= 0 {
		f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
		return math.Copysign(f, x)
	}
	if n < -330 {
		return math.Copysign(0, x)
	}
	r := new(big.Rat).SetFloat64(x)
	f, _ := roundRat(r, n).Float64()
	return math.Copysign(f, x)
}

// roundRat rounds r half to even at the n-th decimal (n < 0: to a
// multiple of 10^-n).
func roundRat(r *big.Rat, n int) *big.Rat {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil)
	q := new(big.Rat).Quo(r, new(big.Rat).SetInt(scale))
	num, den := q.Num(), q.Denom()
	whole, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	// Round half to even: compare 2*|rem| with den.
	twice := new(big.Int).Abs(rem)
	twice.Lsh(twice, 1)
	switch c := twice.Cmp(den); {
	case c > 0, c == 0 && whole.Bit(0) == 1:
		if num.Sign() < 0 {
			whole.Sub(whole, big.NewInt(1))
		} else {
			whole.Add(whole, big.NewInt(1))
		}
	}
	return new(big.Rat).SetInt(whole.Mul(whole, scale))
}

// sum(iterable, start=0): Python's sum, adding with + (so arrays add as
// arrays, and a 1-d array sums its elements).
func builtinSum(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Iterable
	var start starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs("sum", args, kwargs, "iterable", &iterable, "start?", &start); err != nil {
		return nil, err
	}
	if _, ok := start.(starlark.String); ok {
		return nil, fmt.Errorf("sum: can't sum strings (use \"\".join(seq) instead)")
	}
	it := iterable.Iterate()
	defer it.Done()
	acc := start
	var x starlark.Value
	for it.Next(&x) {
		var err error
		if acc, err = starlark.Binary(syntax.PLUS, acc, x); err != nil {
			return nil, fmt.Errorf("sum: %v", err)
		}
	}
	return acc, nil
}

// jnpFunction is the jnp function that an array method mirrors, called on
// args.
func jnpFunction(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if arrayMethods == nil {
		return nil, fmt.Errorf("%s: jnp is not loaded", name)
	}
	f, err := arrayMethods.Attr(name)
	if err != nil || f == nil {
		return nil, fmt.Errorf("%s: jnp.%s is not available", name, name)
	}
	return starlark.Call(thread, f, args, kwargs)
}

func roundArray(thread *starlark.Thread, a *Array, decimals int) (starlark.Value, error) {
	return jnpFunction(thread, "round", starlark.Tuple{a, starlark.MakeInt(decimals)}, nil)
}

// abs(x): jnp.abs for an array, Starlark's abs otherwise.
func builtinAbs(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kwargs) == 0 {
		if a, ok := args[0].(*Array); ok {
			return jnpFunction(thread, "abs", starlark.Tuple{a}, nil)
		}
	}
	return starlark.Call(thread, starlark.Universe["abs"], args, kwargs)
}

// minMax is min or max: over a single array, Python's walk of its first
// axis (a 1-d array gives its extreme element as a 0-d array; a 2-d one
// would compare rows, which has no truth value); Starlark's otherwise.
func minMax(name string) BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 1 && len(kwargs) == 0 {
			if a, ok := args[0].(*Array); ok {
				switch {
				case a.NDim() == 0:
					return nil, fmt.Errorf("%s: iteration over a 0-d array", name)
				case a.NDim() > 1:
					return nil, fmt.Errorf("%s: Python's %s over a %d-d array compares its rows, whose truth value is ambiguous; use jnp.%s(x, axis=0)", name, name, a.NDim(), name)
				case a.Size() == 0:
					return nil, fmt.Errorf("%s: arg is an empty sequence", name)
				}
				return jnpFunction(thread, name, starlark.Tuple{a}, nil)
			}
		}
		return starlark.Call(thread, starlark.Universe[name], args, kwargs)
	}
}

// str(x): NumPy's str() for an array, Starlark's str otherwise.
func builtinStr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kwargs) == 0 {
		if a, ok := args[0].(*Array); ok {
			if !a.Traced() {
				if _, err := a.buffer(); err != nil {
					return nil, err
				}
			}
			return starlark.String(a.Str()), nil
		}
	}
	return starlark.Call(thread, starlark.Universe["str"], args, kwargs)
}
