package numpy

import (
	"fmt"
	"sort"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.pad with the modes constant, edge, wrap, reflect, symmetric and empty,
// written as JAX writes them (jax/_src/numpy/lax_numpy.py: _pad_*): one
// lax.pad for constant padding, slices and concatenations for the others.

// padPairs reads pad_width-like values in NumPy's accepted forms: n, (n,),
// (before, after), ((before, after),) or one (before, after) per axis.
func padPairs(fn, name string, v starlark.Value, nd int) ([][2]starlark.Value, error) {
	unsupported := func(shape string) error {
		return fmt.Errorf("%s: %s with nd=%d has unsupported shape %s. Valid shapes are (%d, 2), (1, 2), (2,), (1,), or ()", fn, name, nd, shape, nd)
	}
	seq := func(v starlark.Value) ([]starlark.Value, bool) {
		switch x := v.(type) {
		case starlark.Tuple:
			return x, true
		case *starlark.List:
			items := make([]starlark.Value, x.Len())
			for i := range items {
				items[i] = x.Index(i)
			}
			return items, true
		}
		return nil, false
	}
	same := func(v starlark.Value) [2]starlark.Value { return [2]starlark.Value{v, v} }
	repeat := func(p [2]starlark.Value) [][2]starlark.Value {
		out := make([][2]starlark.Value, nd)
		for i := range out {
			out[i] = p
		}
		return out
	}
	outer, ok := seq(v)
	if !ok {
		return repeat(same(v)), nil
	}
	rows := make([][]starlark.Value, len(outer))
	nested := 0
	for i, item := range outer {
		if inner, ok := seq(item); ok {
			rows[i] = inner
			nested++
		}
	}
	switch {
	case nested == 0 && len(outer) == 1:
		return repeat(same(outer[0])), nil
	case nested == 0 && len(outer) == 2:
		return repeat([2]starlark.Value{outer[0], outer[1]}), nil
	case nested == 0:
		return nil, unsupported(fmt.Sprintf("(%d,)", len(outer)))
	case nested != len(outer):
		return nil, fmt.Errorf("%s: `%s` entries must be the same shape: %s", fn, name, v)
	}
	for _, r := range rows {
		if len(r) != 2 {
			if len(r) == len(rows[0]) {
				return nil, unsupported(fmt.Sprintf("(%d, %d)", len(rows), len(r)))
			}
			return nil, fmt.Errorf("%s: `%s` entries must be the same shape: %s", fn, name, v)
		}
	}
	switch len(rows) {
	case nd:
		out := make([][2]starlark.Value, nd)
		for i, r := range rows {
			out[i] = [2]starlark.Value{r[0], r[1]}
		}
		return out, nil
	case 1:
		return repeat([2]starlark.Value{rows[0][0], rows[0][1]}), nil
	}
	return nil, unsupported(fmt.Sprintf("(%d, 2)", len(rows)))
}

// padWidths reads pad_width as non-negative int pairs, one per axis.
func padWidths(fn string, v starlark.Value, nd int) ([][2]int, error) {
	pairs, err := padPairs(fn, "pad_width", v, nd)
	if err != nil {
		return nil, err
	}
	out := make([][2]int, nd)
	for i, p := range pairs {
		for j, x := range p {
			n, ok := x.(starlark.Int)
			if !ok {
				return nil, fmt.Errorf("%s: `pad_width` must be of integral type, got %s", fn, x.Type())
			}
			if out[i][j], err = staticIntArg(fn, "pad_width", n); err != nil {
				return nil, err
			}
			if out[i][j] < 0 {
				return nil, fmt.Errorf("%s: index can't contain negative values, got pad_width %s", fn, v)
			}
		}
	}
	return out, nil
}

// padConstant pads with constant values: one lax.pad when every side uses
// the same value, else one lax.pad per padded side.
func padConstant(fn string, x *jstarlark.Array, widths [][2]int, values starlark.Value) (*jstarlark.Array, error) {
	nd := x.NDim()
	t := trace.Type{DType: x.DType(), Weak: x.AVal().Weak}
	constant := func(v starlark.Value) (*jstarlark.Array, error) {
		if a, ok := v.(*jstarlark.Array); ok {
			if a.NDim() != 0 {
				return nil, fmt.Errorf("%s: constant_values entries must be scalars, got %s", fn, jstarlark.Describe(a))
			}
			return jstarlark.ConvertType(a, t)
		}
		switch v.(type) {
		case starlark.Int, starlark.Float, starlark.Bool:
			return jstarlark.ScalarArray(fn, v, t.DType, t.Weak, x.Device())
		}
		return nil, fmt.Errorf("%s: constant_values must be numbers, got %s", fn, v.Type())
	}
	if a, ok := values.(*jstarlark.Array); ok && a.NDim() > 0 {
		// An array of values: read it as the nested sequence it stands for.
		l, err := a.ToList()
		if err != nil {
			return nil, err
		}
		values = l
	}
	pairs, err := padPairs(fn, "constant_values", values, nd)
	if err != nil {
		return nil, err
	}
	uniform := true
	for _, p := range pairs {
		for _, v := range p {
			eq, err := starlark.Equal(v, pairs[0][0])
			uniform = uniform && err == nil && eq
		}
	}
	if uniform {
		c, err := constant(pairs[0][0])
		if err != nil {
			return nil, err
		}
		config := make(trace.PaddingConfig, nd)
		for i, w := range widths {
			config[i] = trace.PadDim{Lo: w[0], Hi: w[1]}
		}
		return jstarlark.Bind1("pad", trace.Params{"padding_config": config}, x, c)
	}
	for i, w := range widths {
		for side, n := range w {
			if n == 0 {
				continue
			}
			c, err := constant(pairs[i][side])
			if err != nil {
				return nil, err
			}
			config := make(trace.PaddingConfig, nd)
			if side == 0 {
				config[i].Lo = n
			} else {
				config[i].Hi = n
			}
			if x, err = jstarlark.Bind1("pad", trace.Params{"padding_config": config}, x, c); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}

func checkNoPadding(fn, mode string, x *jstarlark.Array, axis int, w [2]int) error {
	if w[0] > 0 || w[1] > 0 {
		return fmt.Errorf("%s: cannot apply '%s' padding to empty axis %d of %s", fn, mode, axis, jstarlark.Describe(x))
	}
	return nil
}

// padEdge repeats each axis's first and last slices.
func padEdge(fn string, x *jstarlark.Array, widths [][2]int) (*jstarlark.Array, error) {
	for i, w := range widths {
		n := x.Shape()[i]
		if n == 0 {
			if err := checkNoPadding(fn, "edge", x, i, w); err != nil {
				return nil, err
			}
			continue
		}
		parts := []*jstarlark.Array{}
		for side, k := range w {
			if k == 0 {
				continue
			}
			start := 0
			if side == 1 {
				start = n - 1
			}
			edge, err := jstarlark.SliceInDim(x, i, start, start+1)
			if err != nil {
				return nil, err
			}
			shape := x.Shape().Clone()
			shape[i] = k
			if edge, err = jstarlark.BroadcastTo(edge, shape); err != nil {
				return nil, err
			}
			if side == 0 {
				parts = append(parts, edge, x)
			} else {
				if len(parts) == 0 {
					parts = append(parts, x)
				}
				parts = append(parts, edge)
			}
		}
		if len(parts) > 0 {
			var err error
			if x, err = jstarlark.JoinAlong(parts, i); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}

// padWrap surrounds each axis with whole copies of itself and the
// remainders from the opposite ends.
func padWrap(fn string, x *jstarlark.Array, widths [][2]int) (*jstarlark.Array, error) {
	for i, w := range widths {
		n := x.Shape()[i]
		if n == 0 {
			if err := checkNoPadding(fn, "wrap", x, i, w); err != nil {
				return nil, err
			}
			continue
		}
		var parts []*jstarlark.Array
		if r := w[0] % n; r > 0 {
			s, err := jstarlark.SliceInDim(x, i, n-r, n)
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		}
		for k := 0; k < w[0]/n+w[1]/n+1; k++ {
			parts = append(parts, x)
		}
		if r := w[1] % n; r > 0 {
			s, err := jstarlark.SliceInDim(x, i, 0, r)
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		}
		var err error
		if x, err = jstarlark.JoinAlong(parts, i); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// padReflect mirrors each axis at its ends, about the edge element
// (reflect) or about the edge itself (symmetric), growing the array one
// reflection at a time so that wide pads reflect the padded array again, as
// NumPy does. reflect_type 'odd' reflects values through the edge value.
func padReflect(fn string, x *jstarlark.Array, widths [][2]int, mode, reflectType string) (*jstarlark.Array, error) {
	for i, w := range widths {
		size := x.Shape()[i]
		if size == 0 {
			if err := checkNoPadding(fn, mode, x, i, w); err != nil {
				return nil, err
			}
			continue
		}
		offset := 0
		if mode == "reflect" && size > 1 {
			offset = 1
		}
		for side, padding := range w {
			before := side == 0
			n := x.Shape()[i]
			edgeAt := 0
			if !before {
				edgeAt = n - 1
			}
			edge, err := jstarlark.SliceInDim(x, i, edgeAt, edgeAt+1)
			if err != nil {
				return nil, err
			}
			for padding > 0 {
				cur := min(padding, size-offset)
				padding -= cur
				n := x.Shape()[i]
				start, stop := offset, offset+cur
				if !before {
					start, stop = n-cur-offset, n-offset
				}
				part, err := jstarlark.SliceInDim(x, i, start, stop)
				if err != nil {
					return nil, err
				}
				if part, err = reverseAxes(part, []int{i}); err != nil {
					return nil, err
				}
				if reflectType == "odd" {
					if part, err = reflectOdd(edge, part); err != nil {
						return nil, err
					}
					if size > 1 {
						at := 0
						if !before {
							at = cur - 1
						}
						if edge, err = jstarlark.SliceInDim(part, i, at, at+1); err != nil {
							return nil, err
						}
					}
				}
				if before {
					x, err = jstarlark.JoinAlong([]*jstarlark.Array{part, x}, i)
				} else {
					x, err = jstarlark.JoinAlong([]*jstarlark.Array{x, part}, i)
				}
				if err != nil {
					return nil, err
				}
			}
		}
	}
	return x, nil
}

// reflectOdd is 2*edge - part, the edge broadcast along the padded axis.
func reflectOdd(edge, part *jstarlark.Array) (*jstarlark.Array, error) {
	e, err := jstarlark.BroadcastTo(edge, part.Shape())
	if err != nil {
		return nil, err
	}
	twice, err := applyBinary("add", e, e)
	if err != nil {
		return nil, err
	}
	return applyBinary("sub", twice, part)
}

// padModeKwargs lists the keyword arguments each mode accepts.
var padModeKwargs = map[string][]string{
	"constant":  {"constant_values"},
	"edge":      nil,
	"wrap":      nil,
	"reflect":   {"reflect_type"},
	"symmetric": {"reflect_type"},
	"empty":     nil,
}

func jnpPad(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var array, padWidth starlark.Value
	mode := "constant"
	var positional []starlark.Tuple
	extra := map[string]starlark.Value{}
	for _, kv := range kwargs {
		switch name := string(kv[0].(starlark.String)); name {
		case "array", "pad_width", "mode":
			positional = append(positional, kv)
		default:
			extra[name] = kv[1]
		}
	}
	if err := starlark.UnpackArgs(fn, args, positional, "array", &array, "pad_width", &padWidth, "mode?", &mode); err != nil {
		return nil, err
	}
	allowed, ok := padModeKwargs[mode]
	if !ok {
		return nil, fmt.Errorf("%s: unimplemented padding mode '%s' (implemented: constant, edge, wrap, reflect, symmetric, empty)", fn, mode)
	}
	var unsupported []string
	for name := range extra {
		if !padModeAllows(allowed, name) {
			unsupported = append(unsupported, name)
		}
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		return nil, fmt.Errorf("%s: unsupported keyword arguments for mode '%s': %s", fn, mode, strings.Join(unsupported, ", "))
	}
	x, err := singleArraylikeArg(fn, array)
	if err != nil {
		return nil, err
	}
	widths, err := padWidths(fn, padWidth, x.NDim())
	if err != nil {
		return nil, err
	}
	if x.NDim() == 0 {
		return x, nil
	}
	switch mode {
	case "constant":
		values, ok := extra["constant_values"]
		if !ok {
			values = starlark.MakeInt(0)
		}
		return padConstant(fn, x, widths, values)
	case "empty":
		// JAX fills "empty" padding with zeros.
		return padConstant(fn, x, widths, starlark.MakeInt(0))
	case "edge":
		return padEdge(fn, x, widths)
	case "wrap":
		return padWrap(fn, x, widths)
	}
	reflectType := "even"
	if v, ok := extra["reflect_type"]; ok {
		s, ok := v.(starlark.String)
		if !ok || (s != "even" && s != "odd") {
			return nil, fmt.Errorf("%s: reflect_type must be 'even' or 'odd', got %s", fn, v)
		}
		reflectType = string(s)
	}
	return padReflect(fn, x, widths, mode, reflectType)
}

func padModeAllows(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func init() {
	jstarlark.Register(Module, "pad", jnpPad)
}
