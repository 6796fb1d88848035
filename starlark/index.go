package starlark

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Get implements x[key] (Starlark's Mapping interface, which the dialect's
// multi-dimensional subscripts reach as a tuple key).
func (a *Array) Get(key starlark.Value) (starlark.Value, bool, error) {
	v, err := a.GetItem(key)
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// Index and Slice serve Starlark's own x[i] and x[a:b:c] paths (x[i] goes
// through Get; a plain slice comes here). They cannot return errors, so a
// failure cancels the thread with its message (see failThread).
func (a *Array) Index(i int) starlark.Value {
	return a.mustIndex(starlark.MakeInt(i))
}

func (a *Array) Slice(start, end, step int) starlark.Value {
	if a.NDim() == 0 {
		return a.mustIndex(Slice{Lo: starlark.None, Hi: starlark.None, Step: starlark.None})
	}
	return a.mustIndex(SliceKey(start, end, step))
}

func (a *Array) mustIndex(key starlark.Value) starlark.Value {
	v, err := a.GetItem(key)
	if err != nil {
		failThread(err.Error())
		return starlark.None
	}
	return v
}

// GetItem implements x[key]: NumPy indexing with JAX's semantics, which
// lib/numpy installs (SetIndexing; its indexing.go has the forms and the
// out-of-range rules).
func (a *Array) GetItem(key starlark.Value) (*Array, error) {
	if getItem == nil {
		return nil, fmt.Errorf("array indexing is not available: the jnp library (lib/numpy) is not loaded")
	}
	return getItem(a, key)
}

var (
	getItem func(a *Array, key starlark.Value) (*Array, error)
	atOf    func(a *Array) starlark.Value
)

// SetIndexing installs x[key] and x.at[key]: lib/numpy passes its indexing
// when it initializes, as JAX's numpy package installs Array.__getitem__
// and Array.at (indexing is a composition of gather, scatter and slices,
// written with jnp's helpers). Without it both report that they are not
// available.
func SetIndexing(get func(a *Array, key starlark.Value) (*Array, error), at func(a *Array) starlark.Value) {
	getItem, atOf = get, at
}

// SliceKey is the subscript of Starlark's own slice path x[a:b:c],
// whose bounds Starlark has already resolved against the length n of the
// first axis.
func SliceKey(start, end, step int) Slice {
	// An end of -1 with a negative step means "through the first element".
	hi := starlark.Value(starlark.MakeInt(end))
	if end < 0 {
		hi = starlark.None
	}
	return Slice{Lo: starlark.MakeInt(start), Hi: hi, Step: starlark.MakeInt(step)}
}
