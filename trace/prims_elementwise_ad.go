package trace

import "math"

// Autodiff rules of the elementwise primitives (JAX's lax.py defjvp calls).
// A derivative function gives one operand's contribution to the output
// tangent from that operand's tangent g, the operands and the output.

type derivative func(e *Emitter, g Atom, in []Atom, out Atom, p Params) Atom

// elementwiseJVP binds the primitive, then sums each operand's
// contribution, broadcast to the output's shape.
func elementwiseJVP(name string, derivs ...derivative) JVPRule {
	return func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
		out := e.Bind(name, in, p)
		if !HasTangent(out[0].Aval()) {
			return out, []Atom{nil}
		}
		var t Atom
		for i, g := range tangents {
			if g == nil || i >= len(derivs) || derivs[i] == nil {
				continue
			}
			c := derivs[i](e, g, in, out[0], p)
			if c == nil {
				continue
			}
			c = e.BroadcastTo(c, out[0].Aval().Shape)
			if t == nil {
				t = c
			} else {
				t = e.Add(t, c)
			}
		}
		return out, []Atom{t}
	}
}

// zeroJVP is the rule of a piecewise-constant primitive (floor, sign, ...):
// its derivative is zero wherever it exists.
func zeroJVP(name string) JVPRule {
	return func(e *Emitter, in, _ []Atom, p Params) ([]Atom, []Atom) {
		out := e.Bind(name, in, p)
		return out, make([]Atom, len(out))
	}
}

// realOnly rejects complex operands in rules written for real values.
func realOnly(name string, d derivative) derivative {
	return func(e *Emitter, g Atom, in []Atom, out Atom, p Params) Atom {
		if g.Aval().DType.IsComplex() {
			e.Failf("differentiation of %s is not supported for complex values yet", name)
		}
		return d(e, g, in, out, p)
	}
}

// unaryDerivs are the unary primitives' derivatives, as functions of the
// tangent g, the operand x and the output y.
var unaryDerivs = map[string]func(e *Emitter, g, x, y Atom) Atom{
	"neg":   func(e *Emitter, g, x, y Atom) Atom { return e.Neg(g) },
	"exp":   func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, y) },
	"exp2":  func(e *Emitter, g, x, y Atom) Atom { return e.Mul(e.Scale(g, ln2), y) },
	"log":   func(e *Emitter, g, x, y Atom) Atom { return e.Div(g, x) },
	"log1p": func(e *Emitter, g, x, y Atom) Atom { return e.Div(g, e.Add(x, e.Lit(1, dtypeOf(x)))) },
	"expm1": func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, e.Add(y, e.Lit(1, dtypeOf(y)))) },
	"tanh": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(g, e.Sub(e.Lit(1, dtypeOf(y)), e.Mul(y, y)))
	},
	"logistic": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(g, e.Mul(y, e.Sub(e.Lit(1, dtypeOf(y)), y)))
	},
	"sin": func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, e.Unary("cos", x)) },
	"cos": func(e *Emitter, g, x, y Atom) Atom { return e.Neg(e.Mul(g, e.Unary("sin", x))) },
	"tan": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(g, e.Add(e.Lit(1, dtypeOf(y)), e.Mul(y, y)))
	},
	"asin": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(g, e.Unary("rsqrt", e.Sub(e.Lit(1, dtypeOf(x)), e.Mul(x, x))))
	},
	"acos": func(e *Emitter, g, x, y Atom) Atom {
		return e.Neg(e.Mul(g, e.Unary("rsqrt", e.Sub(e.Lit(1, dtypeOf(x)), e.Mul(x, x)))))
	},
	"atan": func(e *Emitter, g, x, y Atom) Atom {
		return e.Div(g, e.Add(e.Lit(1, dtypeOf(x)), e.Mul(x, x)))
	},
	"sinh": func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, e.Unary("cosh", x)) },
	"cosh": func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, e.Unary("sinh", x)) },
	"asinh": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(g, e.Unary("rsqrt", e.Add(e.Mul(x, x), e.Lit(1, dtypeOf(x)))))
	},
	"acosh": func(e *Emitter, g, x, y Atom) Atom {
		one := e.Lit(1, dtypeOf(x))
		return e.Mul(g, e.Unary("rsqrt", e.Mul(e.Sub(x, one), e.Add(x, one))))
	},
	"atanh": func(e *Emitter, g, x, y Atom) Atom {
		return e.Div(g, e.Sub(e.Lit(1, dtypeOf(x)), e.Mul(x, x)))
	},
	"sqrt": func(e *Emitter, g, x, y Atom) Atom { return e.Div(e.Scale(g, 0.5), y) },
	"rsqrt": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(e.Scale(g, -0.5), e.Div(y, x))
	},
	"cbrt": func(e *Emitter, g, x, y Atom) Atom {
		return e.Div(e.Scale(g, 1.0/3), e.Mul(y, y))
	},
	"erf": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(e.Scale(g, twoOverPi), e.Unary("exp", e.Neg(e.Mul(x, x))))
	},
	"erfc": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(e.Scale(g, -twoOverPi), e.Unary("exp", e.Neg(e.Mul(x, x))))
	},
	"erf_inv": func(e *Emitter, g, x, y Atom) Atom {
		return e.Mul(e.Scale(g, math.Sqrt(math.Pi)/2), e.Unary("exp", e.Mul(y, y)))
	},
	"abs":    func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, e.Unary("sign", x)) },
	"square": func(e *Emitter, g, x, y Atom) Atom { return e.Mul(g, e.Scale(x, 2)) },
}

func dtypeOf(a Atom) DType { return a.Aval().DType }

// analytic are the unary primitives whose derivative formula above is
// also the complex derivative (they are holomorphic where defined), so
// their rules take complex operands, as JAX's do: jvp gives f'(z)·t and
// grad(holomorphic=True) f'(z). abs and the real-only functions are not.
var analytic = map[string]bool{
	"neg": true, "exp": true, "exp2": true, "log": true, "log1p": true, "expm1": true,
	"tanh": true, "logistic": true, "sin": true, "cos": true, "tan": true, "asin": true,
	"acos": true, "atan": true, "sinh": true, "cosh": true, "asinh": true, "acosh": true,
	"atanh": true, "sqrt": true, "rsqrt": true, "square": true,
}

func unaryDeriv(name string) derivative {
	f := unaryDerivs[name]
	d := func(e *Emitter, g Atom, in []Atom, out Atom, _ Params) Atom { return f(e, g, in[0], out) }
	if analytic[name] {
		return d
	}
	return realOnly(name, d)
}

func elementwiseAD() map[string]adRules {
	rules := map[string]adRules{}
	for name := range unaryDerivs {
		rules[name] = adRules{jvp: elementwiseJVP(name, unaryDeriv(name))}
	}
	for _, name := range []string{"sign", "floor", "ceil", "round"} {
		rules[name] = adRules{jvp: zeroJVP(name)}
	}
	for _, name := range []string{"is_finite", "not", "population_count", "and", "or", "xor",
		"shift_left", "shift_right_logical", "shift_right_arithmetic",
		"eq", "ne", "lt", "le", "gt", "ge", "bitcast_convert_type", "threefry2x32"} {
		rules[name] = adRules{nonDiff: true}
	}
	rules["neg"] = adRules{jvp: rules["neg"].jvp, transpose: func(e *Emitter, cts, _ []Atom, _ []bool, _ Params) []Atom {
		return []Atom{negOrNil(e, cts[0])}
	}}
	rules["integer_pow"] = adRules{jvp: elementwiseJVP("integer_pow", integerPowDeriv)}
	rules["reduce_precision"] = adRules{
		jvp: linearJVP("reduce_precision"), transpose: linearTranspose("reduce_precision"),
	}
	rules["copy"] = adRules{jvp: linearJVP("copy"), transpose: identityTranspose}
	rules["add"] = adRules{
		jvp: elementwiseJVP("add", passTangent, passTangent),
		transpose: func(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
			return []Atom{unbroadcastIf(e, linear[0], cts[0], in[0]), unbroadcastIf(e, linear[1], cts[0], in[1])}
		},
	}
	rules["sub"] = adRules{
		jvp: elementwiseJVP("sub", passTangent, func(e *Emitter, g Atom, _ []Atom, _ Atom, _ Params) Atom { return e.Neg(g) }),
		transpose: func(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
			return []Atom{unbroadcastIf(e, linear[0], cts[0], in[0]), negOrNil(e, unbroadcastIf(e, linear[1], cts[0], in[1]))}
		},
	}
	rules["mul"] = adRules{
		jvp: elementwiseJVP("mul",
			func(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom { return e.Mul(g, in[1]) },
			func(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom { return e.Mul(in[0], g) }),
		transpose: mulTranspose,
	}
	rules["div"] = adRules{
		jvp: elementwiseJVP("div",
			func(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom { return e.Div(g, in[1]) },
			func(e *Emitter, g Atom, in []Atom, out Atom, _ Params) Atom {
				return e.Neg(e.Mul(g, e.Div(out, in[1])))
			}),
		transpose: func(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
			if linear[1] {
				e.Failf("div is not linear in its divisor")
			}
			if cts[0] == nil {
				return []Atom{nil, nil}
			}
			return []Atom{e.Unbroadcast(e.Div(cts[0], in[1]), in[0].Aval()), nil}
		},
	}
	rules["rem"] = adRules{jvp: elementwiseJVP("rem", passTangent,
		realOnly("rem", func(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom {
			q := e.Div(in[0], in[1])
			return e.Neg(e.Mul(g, e.Mul(e.Unary("sign", q), e.Unary("floor", e.Unary("abs", q)))))
		}))}
	// nextafter(x, y) is x moved by one ulp: derivative 1 in x, 0 in y.
	rules["nextafter"] = adRules{jvp: elementwiseJVP("nextafter", passTangent, nil)}
	rules["max"] = adRules{jvp: elementwiseJVP("max", balancedDeriv(0), balancedDeriv(1))}
	rules["min"] = adRules{jvp: elementwiseJVP("min", balancedDeriv(0), balancedDeriv(1))}
	rules["atan2"] = adRules{jvp: elementwiseJVP("atan2",
		realOnly("atan2", func(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom {
			return e.Mul(g, e.Div(in[1], sumSquares(e, in[0], in[1])))
		}),
		realOnly("atan2", func(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom {
			return e.Neg(e.Mul(g, e.Div(in[0], sumSquares(e, in[0], in[1]))))
		}))}
	rules["pow"] = adRules{jvp: elementwiseJVP("pow", realOnly("pow", powBaseDeriv), realOnly("pow", powExponentDeriv))}
	rules["select_n"] = adRules{jvp: selectJVP, transpose: selectTranspose}
	rules["clamp"] = adRules{jvp: elementwiseJVP("clamp", clampDeriv(0), clampDeriv(1), clampDeriv(2))}
	rules["convert_element_type"] = adRules{jvp: convertJVP, transpose: convertTranspose}
	return rules
}

func passTangent(_ *Emitter, g Atom, _ []Atom, _ Atom, _ Params) Atom { return g }

func negOrNil(e *Emitter, x Atom) Atom {
	if x == nil {
		return nil
	}
	return e.Neg(x)
}

func unbroadcastIf(e *Emitter, linear bool, ct, like Atom) Atom {
	if !linear || ct == nil {
		return nil
	}
	return e.Unbroadcast(ct, like.Aval())
}

func sumSquares(e *Emitter, x, y Atom) Atom { return e.Add(e.Mul(x, x), e.Mul(y, y)) }

func mulTranspose(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
	if linear[0] && linear[1] {
		e.Failf("mul is not linear in both operands at once")
	}
	out := make([]Atom, 2)
	if cts[0] == nil {
		return out
	}
	for i := range 2 {
		if linear[i] {
			out[i] = e.Unbroadcast(e.Mul(cts[0], in[1-i]), in[i].Aval())
		}
	}
	return out
}

func integerPowDeriv(e *Emitter, g Atom, in []Atom, _ Atom, p Params) Atom {
	y := p.Int("y")
	switch y {
	case 0:
		return nil
	case 1:
		return g
	}
	x := in[0]
	var pow Atom = x
	if y != 2 {
		pow = e.Bind1("integer_pow", Params{"y": y - 1}, x)
	}
	return e.Mul(g, e.Scale(pow, float64(y)))
}

// balancedDeriv is JAX's tie rule for max and min: an operand equal to the
// output gets the whole tangent, or half of it when both are equal.
func balancedDeriv(i int) derivative {
	return func(e *Emitter, g Atom, in []Atom, out Atom, _ Params) Atom {
		if !HasTangent(g.Aval()) {
			return nil
		}
		dt := dtypeOf(g)
		mine := e.AsFloat(e.Compare("eq", in[i], out), dt)
		other := e.AsFloat(e.Compare("eq", in[1-i], out), dt)
		// 1 when only this operand is the result, 0.5 when both are.
		weight := e.Mul(mine, e.Sub(e.Lit(1, dt), e.Scale(other, 0.5)))
		return e.Mul(g, weight)
	}
}

func powBaseDeriv(e *Emitter, g Atom, in []Atom, _ Atom, _ Params) Atom {
	x, y := in[0], in[1]
	dt := dtypeOf(x)
	yf := e.Convert(y, dt)
	jac := e.Mul(yf, e.Bind1("pow", nil, x, e.Sub(y, e.Lit(1, dtypeOf(y)))))
	// y == 0 gives 0 (not 0 * inf at x == 0).
	jac = e.Select(e.Compare("eq", yf, e.Lit(0, dt)), jac, e.Zeros(jac.Aval()))
	return e.Mul(g, jac)
}

func powExponentDeriv(e *Emitter, g Atom, in []Atom, out Atom, _ Params) Atom {
	x := in[0]
	dt := dtypeOf(x)
	// log(x) with x == 0 replaced by 1, so that 0 ** y has derivative 0 in y.
	safe := e.Select(e.Compare("eq", x, e.Lit(0, dt)), x, e.Full(1, x.Aval()))
	return e.Mul(g, e.Mul(e.Unary("log", safe), out))
}

// clampDeriv: clamp(lo, x, hi) passes x's tangent where lo < x < hi, lo's
// where x < lo (below hi), hi's where x > hi.
func clampDeriv(i int) derivative {
	return func(e *Emitter, g Atom, in []Atom, out Atom, _ Params) Atom {
		lo, x, hi := in[0], in[1], in[2]
		var pick Atom
		switch i {
		case 0:
			pick = e.Bind1("and", nil, e.Compare("gt", lo, x), e.Compare("lt", lo, hi))
		case 1:
			pick = e.Bind1("and", nil, e.Compare("gt", x, lo), e.Compare("lt", x, hi))
		default:
			pick = e.Compare("lt", hi, x)
		}
		shape := out.Aval().Shape
		pick = e.BroadcastTo(pick, shape)
		g = e.BroadcastTo(g, shape)
		return e.Select(pick, e.Zeros(g.Aval()), g)
	}
}

func selectJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("select_n", in, p)
	if !HasTangent(out[0].Aval()) {
		return out, []Atom{nil}
	}
	cases := make([]Atom, len(in)-1)
	any := false
	for i := range cases {
		cases[i] = tangents[i+1]
		any = any || cases[i] != nil
	}
	if !any {
		return out, []Atom{nil}
	}
	for i, c := range cases {
		cases[i] = e.Instantiate(c, out[0].Aval())
	}
	return out, []Atom{e.Bind1("select_n", nil, append([]Atom{in[0]}, cases...)...)}
}

func selectTranspose(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
	if linear[0] {
		e.Failf("select_n is not linear in its predicate")
	}
	out := make([]Atom, len(in))
	if cts[0] == nil {
		return out
	}
	zeros := e.Zeros(cts[0].Aval())
	for i := 1; i < len(in); i++ {
		if !linear[i] {
			continue
		}
		cases := make([]Atom, len(in)-1)
		for k := range cases {
			cases[k] = zeros
		}
		cases[i-1] = cts[0]
		out[i] = e.Bind1("select_n", nil, append([]Atom{in[0]}, cases...)...)
	}
	return out
}

func convertJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("convert_element_type", in, p)
	if tangents[0] == nil || !HasTangent(out[0].Aval()) || !HasTangent(in[0].Aval()) {
		return out, []Atom{nil}
	}
	return out, []Atom{e.Bind1("convert_element_type", p, tangents[0])}
}

func convertTranspose(e *Emitter, cts, in []Atom, _ []bool, _ Params) []Atom {
	if cts[0] == nil {
		return []Atom{nil}
	}
	a := in[0].Aval()
	return []Atom{e.Bind1("convert_element_type", Params{"new_dtype": a.DType, "weak_type": a.Weak}, cts[0])}
}

// linearJVP is the rule of a primitive linear in its first operand, whose
// other operands (indices, sizes) carry no tangent: the tangent goes
// through the same primitive.
func linearJVP(name string) JVPRule {
	return func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
		out := e.Bind(name, in, p)
		if tangents[0] == nil {
			return out, []Atom{nil}
		}
		args := append([]Atom{tangents[0]}, in[1:]...)
		return out, []Atom{e.Bind1(name, p, args...)}
	}
}

// linearTranspose transposes a primitive that is its own transpose
// (reduce_precision, optimization barriers).
func linearTranspose(name string) TransposeRule {
	return func(e *Emitter, cts, _ []Atom, _ []bool, p Params) []Atom {
		if cts[0] == nil {
			return []Atom{nil}
		}
		return []Atom{e.Bind1(name, p, cts[0])}
	}
}

func identityTranspose(_ *Emitter, cts, _ []Atom, _ []bool, _ Params) []Atom {
	return []Atom{cts[0]}
}
