package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// NumPy's index tricks as jax.numpy has them: objects subscripted rather
// than called. mgrid[0:3, 0:4] and ogrid[...] build dense or open grids,
// r_[...] and c_[...] join slices, scalars and arrays along rows or
// columns, s_[...] and index_exp[...] give the subscript itself.
//
// The dialect's multi-element subscripts pass their slices as values
// (x[a:b, c:d] is a tuple of slices), but a lone x[a:b:c] is Starlark's
// own slice operation, which resolves the bounds against Len before the
// object sees them. An index trick reports a huge length so that the
// resolution is undone exactly: a resolved bound at or beyond half of it
// was a negative bound, the length itself an omitted stop, -1 an omitted
// stop of a negative step. Only when Starlark has moved one bound onto the
// other (a range it finds empty, such as -3:3 resolved against the huge
// length) is the stop lost; that is an error saying how to write it.

const trickLen = 1 << 62

type indexTrick struct {
	name string
	// get answers t[items...]; tuple says whether the subscript was a tuple
	// (x[a:b,] is, x[a:b] is not), which changes mgrid's and s_'s result.
	get func(fn string, items []starlark.Value, tuple bool) (starlark.Value, error)
}

var (
	_ starlark.Mapping   = (*indexTrick)(nil)
	_ starlark.Sliceable = (*indexTrick)(nil)
)

func (t *indexTrick) String() string        { return "<jax.numpy." + t.name + ">" }
func (t *indexTrick) Type() string          { return "index trick" }
func (t *indexTrick) Freeze()               {}
func (t *indexTrick) Truth() starlark.Bool  { return starlark.True }
func (t *indexTrick) Hash() (uint32, error) { return starlark.String(t.name).Hash() }
func (t *indexTrick) Len() int              { return trickLen }

// Index serves Starlark's x[i] for non-Mapping paths; Get has it first.
func (t *indexTrick) Index(i int) starlark.Value {
	v, _, err := t.Get(starlark.MakeInt(i))
	if err != nil {
		jstarlark.FailThread(err)
		return starlark.None
	}
	return v
}

func (t *indexTrick) Slice(start, end, step int) starlark.Value {
	if start == end && (step > 0 && start >= trickLen/2 || step < 0 && start >= trickLen/2 && start != trickLen-1) {
		jstarlark.FailThread(fmt.Errorf("%s: a lone slice whose start and stop have different signs cannot be read (Starlark resolves it first); use jnp.arange(start, stop, step) or a subscript of several slices", t.name))
		return starlark.None
	}
	bound := func(v int) starlark.Value {
		switch {
		case v >= trickLen/2 && v != trickLen:
			return starlark.MakeInt(v - trickLen)
		case v == trickLen || v == -1:
			return starlark.None
		}
		return starlark.MakeInt(v)
	}
	lo := bound(start)
	if step > 0 && start == 0 {
		lo = starlark.None
	}
	v, _, err := t.Get(jstarlark.Slice{Lo: lo, Hi: bound(end), Step: starlark.MakeInt(step)})
	if err != nil {
		jstarlark.FailThread(err)
		return starlark.None
	}
	return v
}

func (t *indexTrick) Get(key starlark.Value) (starlark.Value, bool, error) {
	items := []starlark.Value{key}
	tup, tuple := key.(starlark.Tuple)
	if tuple {
		items = tup
	}
	v, err := t.get(t.name, items, tuple)
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

func init() {
	jstarlark.RegisterValue(Module, "mgrid", &indexTrick{"mgrid", grid(false)})
	jstarlark.RegisterValue(Module, "ogrid", &indexTrick{"ogrid", grid(true)})
	jstarlark.RegisterValue(Module, "r_", &indexTrick{"r_", join(false)})
	jstarlark.RegisterValue(Module, "c_", &indexTrick{"c_", join(true)})
	jstarlark.RegisterValue(Module, "s_", &indexTrick{"s_", func(_ string, items []starlark.Value, tuple bool) (starlark.Value, error) {
		if !tuple {
			return items[0], nil
		}
		return starlark.Tuple(items), nil
	}})
	jstarlark.RegisterValue(Module, "index_exp", &indexTrick{"index_exp", func(_ string, items []starlark.Value, _ bool) (starlark.Value, error) {
		return starlark.Tuple(items), nil
	}})
}

// call calls the jnp function name.
func call(name string, args starlark.Tuple, kwargs ...starlark.Tuple) (starlark.Value, error) {
	return Module.Members[name].(*starlark.Builtin).CallInternal(nil, args, kwargs)
}

// sliceRange is arange(start, stop, step) for one slice of a subscript.
func sliceRange(fn string, s jstarlark.Slice) (starlark.Value, error) {
	if s.Hi == starlark.None {
		return nil, fmt.Errorf("%s: every slice needs a stop, got %s", fn, s)
	}
	lo, step := s.Lo, s.Step
	if lo == starlark.None {
		lo = starlark.MakeInt(0)
	}
	if step == starlark.None {
		step = starlark.MakeInt(1)
	}
	return call("arange", starlark.Tuple{lo, s.Hi, step})
}

// grid is mgrid (dense: one array of shape (n, d1, ..., dn)) or ogrid
// (open: n arrays, each varying along its own axis).
func grid(open bool) func(string, []starlark.Value, bool) (starlark.Value, error) {
	return func(fn string, items []starlark.Value, tuple bool) (starlark.Value, error) {
		ranges := make(starlark.Tuple, len(items))
		for i, it := range items {
			s, ok := it.(jstarlark.Slice)
			if !ok {
				return nil, fmt.Errorf("%s: subscripts must be slices such as 0:5, got %s", fn, it.Type())
			}
			r, err := sliceRange(fn, s)
			if err != nil {
				return nil, err
			}
			ranges[i] = r
		}
		if !tuple {
			return ranges[0], nil
		}
		if open {
			out := make([]starlark.Value, len(ranges))
			for i, r := range ranges {
				shape := make(starlark.Tuple, len(ranges))
				for j := range shape {
					shape[j] = starlark.MakeInt(1)
				}
				shape[i] = starlark.MakeInt(-1)
				v, err := call("reshape", starlark.Tuple{r, shape})
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
			return starlark.NewList(out), nil
		}
		mesh, err := call("meshgrid", ranges, starlark.Tuple{starlark.String("indexing"), starlark.String("ij")})
		if err != nil {
			return nil, err
		}
		return call("stack", starlark.Tuple{mesh})
	}
}

// join is r_ (pieces joined along axis 0) or c_ (1-D pieces as columns,
// joined along the last axis).
func join(columns bool) func(string, []starlark.Value, bool) (starlark.Value, error) {
	return func(fn string, items []starlark.Value, _ bool) (starlark.Value, error) {
		var parts []starlark.Value
		for _, it := range items {
			var piece starlark.Value
			switch x := it.(type) {
			case starlark.String:
				return nil, fmt.Errorf("%s: string directives such as %s are not supported in jaxsh", fn, x)
			case jstarlark.Slice:
				r, err := sliceRange(fn, x)
				if err != nil {
					return nil, err
				}
				piece = r
			default:
				a, err := jstarlark.AsarrayValue(fn, it, 0)
				if err != nil {
					return nil, err
				}
				piece = a
			}
			a := piece.(*jstarlark.Array)
			var err error
			switch {
			case columns && a.NDim() < 2:
				piece, err = call("reshape", starlark.Tuple{a, starlark.Tuple{starlark.MakeInt(-1), starlark.MakeInt(1)}})
			case a.NDim() == 0:
				piece, err = call("reshape", starlark.Tuple{a, starlark.Tuple{starlark.MakeInt(1)}})
			}
			if err != nil {
				return nil, err
			}
			parts = append(parts, piece)
		}
		if len(parts) == 0 {
			return call("zeros", starlark.Tuple{starlark.Tuple{starlark.MakeInt(0)}})
		}
		axis := 0
		if columns {
			axis = -1
		}
		return call("concatenate", starlark.Tuple{starlark.NewList(parts)}, starlark.Tuple{starlark.String("axis"), starlark.MakeInt(axis)})
	}
}
