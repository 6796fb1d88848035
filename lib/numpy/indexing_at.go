package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// x.at[idx] and its methods, JAX's functional index updates
// (jax/_src/numpy/array_methods.py and jax/_src/ops/scatter.py):
//
//	x.at[idx].set(v)       x with x[idx] = v            scatter
//	x.at[idx].add(v)       x with x[idx] += v           scatter-add
//	x.at[idx].multiply(v)  x with x[idx] *= v           scatter-mul
//	x.at[idx].min(v)       x with x[idx] = minimum(..)  scatter-min
//	x.at[idx].max(v)       x with x[idx] = maximum(..)  scatter-max
//	x.at[idx].get()        x[idx]                       (see indexing_take.go)
//
// All take indices_are_sorted=, unique_indices= and mode= ("clip", "drop",
// "fill", "promise_in_bounds"); get also takes fill_value=. The index is any
// NumPy index (indexing.go). v broadcasts to the shape of x[idx]; x and v
// are promoted together for the update, and the result converted back to
// x's dtype (so x.at[0].add(2.5) on an int32 x adds in float32 and
// truncates, as JAX does; JAX also warns there, jaxsh does not). Repeated
// indices all apply: add accumulates, set keeps one of the values. Updates
// out of range are dropped (JAX's default for scatters), static indices
// included; mode="clip" clamps them instead.

// indexUpdateHelper is the value of x.at.
type indexUpdateHelper struct{ a *jstarlark.Array }

var (
	_ starlark.Mapping   = (*indexUpdateHelper)(nil)
	_ starlark.Sliceable = (*indexUpdateHelper)(nil)
	_ starlark.HasAttrs  = (*indexUpdateRef)(nil)
)

func (h *indexUpdateHelper) String() string       { return "_IndexUpdateHelper(" + h.a.String() + ")" }
func (h *indexUpdateHelper) Type() string         { return "_IndexUpdateHelper" }
func (h *indexUpdateHelper) Freeze()              {}
func (h *indexUpdateHelper) Truth() starlark.Bool { return starlark.True }
func (h *indexUpdateHelper) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: _IndexUpdateHelper")
}

// Get serves x.at[key], multi-dimensional subscripts included.
func (h *indexUpdateHelper) Get(key starlark.Value) (starlark.Value, bool, error) {
	return &indexUpdateRef{a: h.a, key: key}, true, nil
}

// Len, Index and Slice serve Starlark's own x.at[i] and x.at[lo:hi] paths.
func (h *indexUpdateHelper) Len() int { return h.a.Len() }
func (h *indexUpdateHelper) Index(i int) starlark.Value {
	return &indexUpdateRef{a: h.a, key: starlark.MakeInt(i)}
}
func (h *indexUpdateHelper) Slice(start, end, step int) starlark.Value {
	return &indexUpdateRef{a: h.a, key: jstarlark.SliceKey(start, end, step)}
}

// indexUpdateRef is x.at[key]: an array and an index awaiting an update.
type indexUpdateRef struct {
	a   *jstarlark.Array
	key starlark.Value
}

func (r *indexUpdateRef) String() string {
	return fmt.Sprintf("_IndexUpdateRef(%s, %s)", r.a.String(), r.key.String())
}
func (r *indexUpdateRef) Type() string         { return "_IndexUpdateRef" }
func (r *indexUpdateRef) Freeze()              {}
func (r *indexUpdateRef) Truth() starlark.Bool { return starlark.True }
func (r *indexUpdateRef) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: _IndexUpdateRef")
}

// scatterPrims maps the update methods to their primitives.
var scatterPrims = map[string]string{
	"set":      "scatter",
	"add":      "scatter-add",
	"multiply": "scatter-mul",
	"min":      "scatter-min",
	"max":      "scatter-max",
}

func (r *indexUpdateRef) AttrNames() []string {
	return []string{"add", "get", "max", "min", "multiply", "set"}
}

func (r *indexUpdateRef) Attr(name string) (starlark.Value, error) {
	if name == "get" {
		return starlark.NewBuiltin("get", r.get), nil
	}
	prim, ok := scatterPrims[name]
	if !ok {
		return nil, nil
	}
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := "at[]." + name
		var values, mode starlark.Value = nil, starlark.None
		var sorted, unique bool
		if err := starlark.UnpackArgs(fn, args, kwargs, "values", &values, "indices_are_sorted?", &sorted, "unique_indices?", &unique, "mode?", &mode); err != nil {
			return nil, err
		}
		m, err := parseGatherMode(fn, mode)
		if err != nil {
			return nil, err
		}
		return scatterUpdate(fn, prim, r.a, r.key, values, updateOptions{mode: m, indicesAreSorted: sorted, uniqueIndices: unique})
	}), nil
}

func (r *indexUpdateRef) get(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "at[].get"
	var mode, fill starlark.Value = starlark.None, starlark.None
	var sorted, unique bool
	if err := starlark.UnpackArgs(fn, args, kwargs, "indices_are_sorted?", &sorted, "unique_indices?", &unique, "mode?", &mode, "fill_value?", &fill); err != nil {
		return nil, err
	}
	m, err := parseGatherMode(fn, mode)
	if err != nil {
		return nil, err
	}
	return take(r.a, r.key, takeOptions{mode: m, fillValue: fill, indicesAreSorted: sorted, uniqueIndices: unique})
}

type updateOptions struct {
	mode                            gatherMode
	indicesAreSorted, uniqueIndices bool
}

// scatterUpdate is JAX's _scatter_update: the gather that x[key] would be,
// transposed into a scatter of values.
func scatterUpdate(fn, prim string, x *jstarlark.Array, key, values starlark.Value, opts updateOptions) (*jstarlark.Array, error) {
	y, err := updateValues(fn, x, values)
	if err != nil {
		return nil, err
	}
	ix, err := parseIndex(key, x.Shape(), x.Device())
	if err != nil {
		return nil, err
	}
	if ix, err = ix.expandBoolIndices(); err != nil {
		return nil, err
	}
	g, err := indexToGather(ix)
	if err != nil {
		return nil, err
	}
	if trace.Shape(g.sliceShape).Size() == 0 {
		return x, nil
	}
	promoted, err := jstarlark.Promote(fn, x, y)
	if err != nil {
		return nil, err
	}
	xp, yp := promoted[0], promoted[1]
	if !broadcastsTo(yp.Shape(), g.sliceShape) {
		return nil, fmt.Errorf("%s: values of shape %s do not broadcast to the indexed shape %s", fn, yp.Shape(), trace.Shape(g.sliceShape))
	}
	if yp, err = jstarlark.BroadcastTo(yp, g.sliceShape); err != nil {
		return nil, err
	}
	if yp, err = jstarlark.Squeeze(yp, g.newaxisDims); err != nil {
		return nil, err
	}
	if yp, err = jstarlark.Rev(yp, g.reversedYDims); err != nil {
		return nil, err
	}
	if xp, err = jstarlark.ExpandDims(xp, g.scalarBoolDims); err != nil {
		return nil, err
	}
	out, err := jstarlark.Bind1(prim, trace.Params{
		"dimension_numbers": trace.ScatterDimensionNumbers{
			UpdateWindowDims:           g.dnums.OffsetDims,
			InsertedWindowDims:         g.dnums.CollapsedSliceDims,
			ScatterDimsToOperandDims:   g.dnums.StartIndexMap,
			OperandBatchingDims:        []int{},
			ScatterIndicesBatchingDims: []int{},
		},
		"indices_are_sorted": opts.indicesAreSorted || g.indicesAreSorted,
		"unique_indices":     opts.uniqueIndices || g.uniqueIndices,
		"mode":               opts.mode.updateMode(),
	}, xp, g.indices, yp)
	if err != nil {
		return nil, err
	}
	if out, err = jstarlark.Squeeze(out, g.scalarBoolDims); err != nil {
		return nil, err
	}
	return jstarlark.ConvertType(out, x.AVal().Type())
}

// updateValues is jnp.asarray of the update values, except that a Python
// int that fits x's integer dtype takes that dtype (as JAX does, so a large
// int updates an int64 array exactly).
func updateValues(fn string, x *jstarlark.Array, v starlark.Value) (*jstarlark.Array, error) {
	if n, ok := v.(starlark.Int); ok && x.DType().IsInteger() {
		if i, ok := n.Int64(); ok && jstarlark.FitsInt(i, x.DType()) {
			return jstarlark.ScalarArray(fn, n, x.DType(), false, x.Device())
		}
	}
	switch v.(type) {
	case *jstarlark.Array, starlark.Int, starlark.Float, starlark.Bool, *starlark.List, starlark.Tuple:
		return jstarlark.AsArray(fn, v, x.Device())
	}
	return nil, fmt.Errorf("%s: values must be an array, a number or a sequence of numbers, got %s", fn, v.Type())
}

// broadcastsTo reports whether shape broadcasts to target (NumPy's rule,
// without adding axes to the target).
func broadcastsTo(shape trace.Shape, target []int) bool {
	if len(shape) > len(target) {
		return false
	}
	lead := len(target) - len(shape)
	for i, d := range shape {
		if d != 1 && d != target[lead+i] {
			return false
		}
	}
	return true
}

func init() {
	jstarlark.SetIndexing(func(a *jstarlark.Array, key starlark.Value) (*jstarlark.Array, error) {
		return take(a, key, takeOptions{})
	},
		func(a *jstarlark.Array) starlark.Value { return &indexUpdateHelper{a} })
}
