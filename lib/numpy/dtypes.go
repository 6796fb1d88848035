package numpy

import (
	"fmt"
	"math"
	"sort"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// dtype utilities (promote_types, result_type, finfo, iinfo) and jnp's
// numeric constants.

func init() {
	jstarlark.RegisterValue(Module, "pi", starlark.Float(math.Pi))
	jstarlark.RegisterValue(Module, "e", starlark.Float(math.E))
	jstarlark.RegisterValue(Module, "inf", starlark.Float(math.Inf(1)))
	jstarlark.RegisterValue(Module, "nan", starlark.Float(math.NaN()))
	jstarlark.RegisterValue(Module, "newaxis", starlark.None)
	jstarlark.Register(Module, "promote_types", jnpPromoteTypesBuiltin)
	jstarlark.Register(Module, "result_type", jnpResultTypeBuiltin)
	jstarlark.Register(Module, "finfo", jnpFinfoBuiltin)
	jstarlark.Register(Module, "iinfo", jnpIinfoBuiltin)
}

// jnpPromoteTypesBuiltin is promote_types(a, b): the dtype a binary
// operation on arrays of dtypes a and b computes in (JAX's lattice).
func jnpPromoteTypesBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "promote_types"
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	dx, err := jstarlark.DTypeOf(fn, x)
	if err != nil {
		return nil, err
	}
	dy, err := jstarlark.DTypeOf(fn, y)
	if err != nil {
		return nil, err
	}
	t, err := trace.PromoteTypes(trace.Type{DType: dx}, trace.Type{DType: dy})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return jstarlark.DType{DT: t.DType}, nil
}

// jnpResultTypeBuiltin is result_type(*args): the dtype that arrays, Python
// numbers (weakly typed) and dtypes promote to.
func jnpResultTypeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "result_type"
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword arguments", fn)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("%s: at least one array or dtype is required", fn)
	}
	types := make([]trace.Type, len(args))
	for i, v := range args {
		if t, ok := jstarlark.ScalarType(v); ok {
			types[i] = t
			continue
		}
		dt, err := jstarlark.DTypeOf(fn, v)
		if err != nil {
			return nil, err
		}
		types[i] = trace.Type{DType: dt}
		if a, ok := v.(*jstarlark.Array); ok {
			types[i] = a.AVal().Type()
		}
	}
	t, err := trace.ResultType(types...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	return jstarlark.DType{DT: t.DType}, nil
}

// infoValue is the Starlark value of finfo and iinfo: read-only attributes,
// and NumPy's repr as text.
type infoValue struct {
	kind  string // "finfo" or "iinfo"
	attrs starlark.StringDict
	text  string
}

var _ starlark.HasAttrs = (*infoValue)(nil)

func (v *infoValue) Type() string         { return v.kind }
func (v *infoValue) Freeze()              { v.attrs.Freeze() }
func (v *infoValue) Truth() starlark.Bool { return starlark.True }
func (v *infoValue) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: %s", v.kind)
}

func (v *infoValue) String() string { return v.text }

func (v *infoValue) Attr(name string) (starlark.Value, error) { return v.attrs[name], nil }

func (v *infoValue) AttrNames() []string {
	names := make([]string, 0, len(v.attrs))
	for n := range v.attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// jnpFinfoBuiltin is finfo(dtype): the machine limits of a floating dtype.
// The float fields are 0-d arrays of that dtype, as NumPy's are scalars of
// it, so they print and promote as the dtype does.
func jnpFinfoBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "finfo"
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOf(fn, x)
	if err != nil {
		return nil, err
	}
	if !dt.IsFloat() {
		return nil, fmt.Errorf("%s: data type %s is not a floating type", fn, dt)
	}
	dev, err := jstarlark.DefaultDevice()
	if err != nil {
		return nil, err
	}
	info := FinfoOf(dt)
	v := &infoValue{kind: fn, attrs: starlark.StringDict{
		"bits": starlark.MakeInt(info.Bits), "dtype": jstarlark.DType{DT: dt},
		"nmant": starlark.MakeInt(info.Nmant), "nexp": starlark.MakeInt(info.nexp),
		"minexp": starlark.MakeInt(info.minexp), "maxexp": starlark.MakeInt(info.maxexp),
		"precision": starlark.MakeInt(info.precision),
	}}
	// NumPy prints the limits with a fixed number of digits per dtype.
	digits := map[int]int{16: 5, 32: 7, 64: 16}[info.Bits]
	v.text = fmt.Sprintf("finfo(resolution=%g, min=-%.*e, max=%.*e, dtype=%s)", info.res, digits, info.max, digits, info.max, dt)
	for name, f := range map[string]float64{
		"eps": info.eps, "epsneg": info.eps / 2, "max": info.max, "min": -info.max,
		"tiny": info.Tiny, "smallest_normal": info.Tiny, "resolution": info.res,
		"smallest_subnormal": math.Ldexp(info.Tiny, -info.Nmant),
	} {
		a, err := jstarlark.ScalarArray(fn, starlark.Float(f), dt, false, dev)
		if err != nil {
			return nil, err
		}
		v.attrs[name] = a
	}
	return v, nil
}

// jnpIinfoBuiltin is iinfo(dtype): bits, min and max of an integer dtype,
// as Python ints.
func jnpIinfoBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "iinfo"
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOf(fn, x)
	if err != nil {
		return nil, err
	}
	if !dt.IsInteger() {
		return nil, fmt.Errorf("%s: data type %s is not an integer type", fn, dt)
	}
	bits := dt.Bits()
	var lo, hi starlark.Int
	if dt.IsUnsigned() {
		lo, hi = starlark.MakeInt(0), starlark.MakeUint64(1<<bits-1)
	} else {
		lo, hi = starlark.MakeInt64(-1<<(bits-1)), starlark.MakeInt64(1<<(bits-1)-1)
	}
	return &infoValue{kind: fn, attrs: starlark.StringDict{
		"bits": starlark.MakeInt(bits), "min": lo, "max": hi, "dtype": jstarlark.DType{DT: dt},
	}, text: fmt.Sprintf("iinfo(min=%s, max=%s, dtype=%s)", lo, hi, dt)}, nil
}
