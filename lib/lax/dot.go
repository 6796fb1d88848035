package lax

import (
	"fmt"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// DotOptions are the keyword arguments every product takes.
type DotOptions struct {
	Precision any         // nil or trace.PrecisionConfig
	Preferred trace.DType // InvalidDType: JAX's result type of the operands
}

// ReadDotOptions reads precision= and preferred_element_type=.
func ReadDotOptions(fn string, precision, preferred starlark.Value) (DotOptions, error) {
	var opts DotOptions
	var err error
	if opts.Precision, err = precisionArg(fn, precision); err != nil {
		return opts, err
	}
	dt, ok, err := jstarlark.DTypeArg(fn, preferred)
	if err != nil {
		return opts, err
	}
	if ok {
		opts.Preferred = dt
	}
	return opts, nil
}

// precisionArg reads lax's precision: None, a name ("default", "high",
// "highest", or the aliases "bfloat16", "tensorfloat32", "float32"), or a
// pair of names for the two operands.
func precisionArg(fn string, v starlark.Value) (any, error) {
	one := func(v starlark.Value) (trace.Precision, error) {
		s, ok := v.(starlark.String)
		if !ok {
			return 0, fmt.Errorf("%s: precision must be None, a string such as 'highest', or a pair of them, got %s", fn, v.Type())
		}
		switch strings.ToLower(string(s)) {
		case "default", "bfloat16", "fastest":
			return trace.PrecisionDefault, nil
		case "high", "tensorfloat32", "bfloat16_3x":
			return trace.PrecisionHigh, nil
		case "highest", "float32":
			return trace.PrecisionHighest, nil
		}
		return 0, fmt.Errorf("%s: unknown precision %q (want 'default', 'high' or 'highest')", fn, string(s))
	}
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return nil, nil
	case starlark.Tuple:
		if len(x) != 2 {
			return nil, fmt.Errorf("%s: precision must be one value or a pair, got %d values", fn, len(x))
		}
		p0, err := one(x[0])
		if err != nil {
			return nil, err
		}
		p1, err := one(x[1])
		if err != nil {
			return nil, err
		}
		return trace.PrecisionConfig{p0, p1}, nil
	}
	p, err := one(v)
	if err != nil {
		return nil, err
	}
	return trace.PrecisionConfig{p, p}, nil
}

// DotDims is dot_general's dimension numbers from the contracting and
// batch axes of each side (empty, never nil, when there are none).
func DotDims(lc, rc, lb, rb []int) trace.DotDimensionNumbers {
	return trace.DotDimensionNumbers{LhsContracting: jstarlark.IntsOrEmpty(lc), RhsContracting: jstarlark.IntsOrEmpty(rc), LhsBatch: jstarlark.IntsOrEmpty(lb), RhsBatch: jstarlark.IntsOrEmpty(rb)}
}

// laxDotGeneralBuiltin is lax.dot_general(lhs, rhs, dimension_numbers,
// precision=None, preferred_element_type=None) with dimension_numbers
// nested as in JAX: ((lhs_contracting, rhs_contracting), (lhs_batch,
// rhs_batch)). Operand dtypes are not promoted; dot_general's own rule
// picks the wider of two dtypes where one exists.
func laxDotGeneralBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.dot_general"
	var lhs, rhs, dims starlark.Value
	var precision, preferred starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "lhs", &lhs, "rhs", &rhs, "dimension_numbers", &dims, "precision?", &precision, "preferred_element_type?", &preferred); err != nil {
		return nil, err
	}
	l, err := OperandArg(fn, "lhs", lhs, nil)
	if err != nil {
		return nil, err
	}
	r, err := OperandArg(fn, "rhs", rhs, l.Device())
	if err != nil {
		return nil, err
	}
	opts, err := ReadDotOptions(fn, precision, preferred)
	if err != nil {
		return nil, err
	}
	bad := fmt.Errorf("%s: dimension_numbers must be ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)), got %s", fn, dims)
	outer, err := ItemsArg(fn, "dimension_numbers", dims)
	if err != nil || len(outer) != 2 {
		return nil, bad
	}
	var parts [4][]int
	for i, group := range outer {
		pair, err := ItemsArg(fn, "dimension_numbers", group)
		if err != nil || len(pair) != 2 {
			return nil, bad
		}
		for j, v := range pair {
			if parts[2*i+j], err = IntsArg(fn, "dimension_numbers", v); err != nil {
				return nil, err
			}
		}
	}
	var pref any
	if opts.Preferred != trace.InvalidDType {
		pref = opts.Preferred
	}
	out, err := jstarlark.Bind1("dot_general", trace.Params{
		"dimension_numbers":      DotDims(parts[0], parts[1], parts[2], parts[3]),
		"precision":              opts.Precision,
		"preferred_element_type": pref,
	}, l, r)
	return Result(fn, out, err)
}
