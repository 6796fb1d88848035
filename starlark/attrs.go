package starlark

import (
	"fmt"
	"sort"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Array attributes (SPEC §3). Methods that mirror a jnp function (x.sum(...)
// is jnp.sum(x, ...)) call that function, so each exists once.
var arrayMethodsFromJnp = []string{
	"reshape", "transpose", "squeeze", "ravel", "sum", "prod", "mean", "max", "min",
	"argmax", "argmin", "all", "any", "cumsum", "clip", "round", "conj", "conjugate",
	"std", "var", "sort", "argsort", "take", "dot", "swapaxes", "cumprod", "diagonal",
	"trace", "repeat", "nonzero", "searchsorted", "compress", "choose", "argpartition",
}

var arrayOwnMethods = map[string]func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error){
	"astype": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var dtype starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dtype", &dtype); err != nil {
			return nil, err
		}
		dt, ok, err := DTypeArg(b.Name(), dtype)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("astype: dtype must not be None")
		}
		return Astype(a, dt)
	},
	"item": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		if a.Size() != 1 {
			return nil, fmt.Errorf("item: can only convert an array of size 1 to a Python scalar, got %s", a.aval.LongString())
		}
		return a.ScalarValue(0)
	},
	"tolist": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		return a.ToList()
	},
	"block_until_ready": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		if a.Traced() {
			return a, nil
		}
		if _, err := a.buffer(); err != nil {
			return nil, err
		}
		return a, nil
	},
	"flatten": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return callJnp("ravel", a, args, kwargs)
	},
	"copy": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		// A new buffer, as JAX's copy: it outlives a donation of a.
		return Bind1("copy", nil, a)
	},
	"view": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var dtype starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dtype?", &dtype); err != nil {
			return nil, err
		}
		return viewAs(a, dtype)
	},
	"to_device": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var device, stream starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "device", &device, "stream?", &stream); err != nil {
			return nil, err
		}
		dev, ok, err := deviceArg("to_device", device)
		if err != nil {
			return nil, err
		}
		if !ok || a.Traced() {
			return a, nil
		}
		return moveArray(a, dev)
	},
	"copy_to_host_async": func(a *Array, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		// Host memory is where results already are; this is a no-op, as
		// JAX's is once the copy has happened.
		return starlark.None, nil
	},
}

// arrayMethods is where the array methods that mirror a jnp function find
// it (SetArrayMethods).
var arrayMethods starlark.HasAttrs

// SetArrayMethods makes the array methods that mirror a jnp function
// (x.sum(...) is jnp.sum(x, ...), x.reshape, x.T, ...) call the members of
// m: lib/numpy passes its module when it initializes, as JAX's numpy
// package installs the methods of its Array. Without it those methods
// report that they are not available.
func SetArrayMethods(m starlark.HasAttrs) { arrayMethods = m }

// jnpHas reports whether jnp has the function a method mirrors: a method
// exists exactly when its function does.
func jnpHas(name string) bool {
	if arrayMethods == nil {
		return false
	}
	f, _ := arrayMethods.Attr(name)
	_, ok := f.(*starlark.Builtin)
	return ok
}

// viewAs is x.view(dtype): the same bits read as dtype, which must have
// the same item size (JAX's view also allows other sizes along the last
// axis; that is not supported yet).
func viewAs(a *Array, dtype starlark.Value) (starlark.Value, error) {
	if dtype == starlark.None {
		return a, nil
	}
	dt, ok, err := DTypeArg("view", dtype)
	if err != nil {
		return nil, err
	}
	if !ok || dt == a.DType() {
		return a, nil
	}
	if dt.Size() != a.DType().Size() {
		return nil, fmt.Errorf("view: changing the item size (%s to %s) is not supported yet", a.DType().Name(), dt.Name())
	}
	if a.DType() == trace.Bool || dt == trace.Bool {
		return nil, fmt.Errorf("view: bool arrays cannot be viewed as %s", dt.Name())
	}
	return Bind1("bitcast_convert_type", trace.Params{"new_dtype": dt}, a)
}

// callJnp calls the jnp function name with a prepended to the arguments.
// jnp functions do not use their thread, so methods and attributes (which
// have none) can call them.
func callJnp(name string, a *Array, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Value
	if arrayMethods != nil {
		f, _ = arrayMethods.Attr(name)
	}
	fn, ok := f.(*starlark.Builtin)
	if !ok {
		return nil, fmt.Errorf("array method %s is not available yet", name)
	}
	all := append(starlark.Tuple{a}, args...)
	return fn.CallInternal(nil, all, kwargs)
}

func (a *Array) Attr(name string) (starlark.Value, error) {
	switch name {
	case "shape":
		t := make(starlark.Tuple, a.NDim())
		for i, d := range a.Shape() {
			t[i] = starlark.MakeInt(d)
		}
		return t, nil
	case "dtype":
		return DType{a.DType()}, nil
	case "ndim":
		return starlark.MakeInt(a.NDim()), nil
	case "size":
		return starlark.MakeInt(a.Size()), nil
	case "itemsize":
		return starlark.MakeInt(a.DType().Size()), nil
	case "nbytes":
		return starlark.MakeInt(a.Size() * a.DType().Size()), nil
	case "mT":
		if a.NDim() < 2 {
			return nil, fmt.Errorf("mT: array must have at least 2 dimensions, got %s", a.aval.LongString())
		}
		return callJnp("swapaxes", a, starlark.Tuple{starlark.MakeInt(-1), starlark.MakeInt(-2)}, nil)
	case "device":
		return Device{a.Device()}, nil
	case "T":
		return callJnp("transpose", a, nil, nil)
	case "real", "imag":
		return callJnp(name, a, nil, nil)
	case "at":
		if atOf == nil {
			return nil, fmt.Errorf("x.at is not available: the jnp library (lib/numpy) is not loaded")
		}
		return atOf(a), nil
	}
	if m, ok := arrayOwnMethods[name]; ok {
		return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return m(a, b, args, kwargs)
		}), nil
	}
	for _, m := range arrayMethodsFromJnp {
		if m == name && jnpHas(name) {
			return starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if (name == "reshape" || name == "transpose") && len(args) > 1 {
					args = starlark.Tuple{args} // x.reshape(2, 3) as x.reshape((2, 3)); x.transpose(1, 0) likewise
				}
				return callJnp(name, a, args, kwargs)
			}), nil
		}
	}
	return nil, nil
}

func (a *Array) AttrNames() []string {
	names := []string{"shape", "dtype", "ndim", "size", "device", "T", "mT", "at", "real", "imag", "itemsize", "nbytes"}
	for m := range arrayOwnMethods {
		names = append(names, m)
	}
	for _, m := range arrayMethodsFromJnp {
		if jnpHas(m) {
			names = append(names, m)
		}
	}
	sort.Strings(names)
	return names
}

// Device is the Starlark value of a device: str(d) == "cpu:0", with .id,
// .platform and .kind.
type Device struct{ D jit.Device }

var _ starlark.HasAttrs = Device{}

func (d Device) String() string        { return d.D.String() }
func (d Device) Type() string          { return "Device" }
func (d Device) Freeze()               {}
func (d Device) Truth() starlark.Bool  { return starlark.True }
func (d Device) Hash() (uint32, error) { return starlark.String(d.D.String()).Hash() }

func (d Device) Attr(name string) (starlark.Value, error) {
	switch name {
	case "id":
		return starlark.MakeInt(d.D.ID()), nil
	case "platform":
		return starlark.String(d.D.Platform()), nil
	case "kind":
		return starlark.String(d.D.Kind()), nil
	}
	return nil, nil
}

func (d Device) AttrNames() []string { return []string{"id", "kind", "platform"} }
