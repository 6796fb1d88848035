package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// NumPy's print options as jax.numpy re-exports them: set_printoptions,
// get_printoptions, and array_str/array_repr with per-call overrides. The
// options are the process's (see jstarlark.PrintOptions); the ones jaxsh
// fixes (sign '-', floatmode 'maxprec', 'nan'/'inf', no formatter, no
// legacy mode) are accepted only at those values.

func init() {
	jstarlark.Register(Module, "set_printoptions", jnpSetPrintoptions)
	jstarlark.Register(Module, "get_printoptions", jnpGetPrintoptions)
	jstarlark.Register(Module, "array_str", arrayTextBuiltin("array_str", false))
	jstarlark.Register(Module, "array_repr", arrayTextBuiltin("array_repr", true))
}

// fixedPrintOptions are the options jaxsh does not vary, with the only
// value each may be given.
var fixedPrintOptions = []struct {
	name  string
	value starlark.Value
}{
	{"nanstr", starlark.String("nan")},
	{"infstr", starlark.String("inf")},
	{"sign", starlark.String("-")},
	{"floatmode", starlark.String("maxprec")},
	{"formatter", starlark.None},
	{"legacy", starlark.False},
}

// intOption reads an integer option; NumPy's common threshold=sys.maxsize
// (a number beyond int) means no limit.
func intOption(fn, name string, v starlark.Value, dst *int) error {
	if v == nil || v == starlark.None {
		return nil
	}
	i, ok := v.(starlark.Int)
	if !ok {
		return fmt.Errorf("%s: %s must be an int, got %s", fn, name, v.Type())
	}
	n, ok := i.Int64()
	if !ok || n > math.MaxInt32 {
		n = math.MaxInt32
	}
	if n < math.MinInt32 {
		n = math.MinInt32
	}
	*dst = int(n)
	return nil
}

func boolOption(fn, name string, v starlark.Value, dst *bool) error {
	if v == nil || v == starlark.None {
		return nil
	}
	b, ok := v.(starlark.Bool)
	if !ok {
		return fmt.Errorf("%s: %s must be a bool, got %s", fn, name, v.Type())
	}
	*dst = bool(b)
	return nil
}

// jnp.set_printoptions(precision=None, threshold=None, edgeitems=None,
// linewidth=None, suppress=None, ...): change how every array prints.
func jnpSetPrintoptions(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "set_printoptions"
	var precision, threshold, edgeitems, linewidth, suppress starlark.Value
	fixed := make([]starlark.Value, len(fixedPrintOptions))
	pairs := []any{"precision?", &precision, "threshold?", &threshold, "edgeitems?", &edgeitems,
		"linewidth?", &linewidth, "suppress?", &suppress}
	for i, f := range fixedPrintOptions {
		pairs = append(pairs, f.name+"?", &fixed[i])
	}
	if err := starlark.UnpackArgs(fn, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	for i, f := range fixedPrintOptions {
		if v := fixed[i]; v != nil && v != starlark.None {
			if eq, err := starlark.Equal(v, f.value); err != nil || !eq {
				return nil, fmt.Errorf("%s: %s=%s is not supported (jaxsh prints with %s=%s)", fn, f.name, v.String(), f.name, f.value.String())
			}
		}
	}
	o := jstarlark.PrintOptions()
	if err := intOption(fn, "precision", precision, &o.Precision); err != nil {
		return nil, err
	}
	if err := intOption(fn, "threshold", threshold, &o.Threshold); err != nil {
		return nil, err
	}
	if err := intOption(fn, "edgeitems", edgeitems, &o.EdgeItems); err != nil {
		return nil, err
	}
	if err := intOption(fn, "linewidth", linewidth, &o.LineWidth); err != nil {
		return nil, err
	}
	if err := boolOption(fn, "suppress", suppress, &o.SuppressSmall); err != nil {
		return nil, err
	}
	if err := jstarlark.SetPrintOptions(o); err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return starlark.None, nil
}

// jnp.get_printoptions(): the current options as NumPy's dict.
func jnpGetPrintoptions(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	o := jstarlark.PrintOptions()
	d := starlark.NewDict(11)
	set := func(k string, v starlark.Value) { _ = d.SetKey(starlark.String(k), v) }
	set("edgeitems", starlark.MakeInt(o.EdgeItems))
	set("threshold", starlark.MakeInt(o.Threshold))
	set("floatmode", starlark.String("maxprec"))
	set("precision", starlark.MakeInt(o.Precision))
	set("suppress", starlark.Bool(o.SuppressSmall))
	set("linewidth", starlark.MakeInt(o.LineWidth))
	for _, f := range fixedPrintOptions {
		if f.name != "floatmode" {
			set(f.name, f.value)
		}
	}
	return d, nil
}

// arrayTextBuiltin is array_str(a, max_line_width=None, precision=None,
// suppress_small=None) or array_repr: the text under the current options
// with these overridden for this call.
func arrayTextBuiltin(fn string, repr bool) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, width, precision, suppress starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "max_line_width?", &width, "precision?", &precision, "suppress_small?", &suppress); err != nil {
			return nil, err
		}
		a, err := jstarlark.AsarrayValue(fn, x, trace.InvalidDType)
		if err != nil {
			return nil, err
		}
		o := jstarlark.PrintOptions()
		if err := intOption(fn, "max_line_width", width, &o.LineWidth); err != nil {
			return nil, err
		}
		if err := intOption(fn, "precision", precision, &o.Precision); err != nil {
			return nil, err
		}
		if err := boolOption(fn, "suppress_small", suppress, &o.SuppressSmall); err != nil {
			return nil, err
		}
		text, err := a.Text(o, repr)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		return starlark.String(text), nil
	}
}
