package numpy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// NumPy indexing, parsed as JAX parses it (jax/_src/numpy/indexing.py,
// NDIndexer): every element of a subscript is classified, the axes it
// consumes are found, and the index is then lowered by one of three
// strategies (indexing_take.go) or turned into a scatter (at.go).
//
// Out-of-range behaviour, decided once for eager and staged code alike:
//
//   - A static index (a Python int) out of range is an IndexError for x[i]
//     and x.at[i].get() (SPEC §3; JAX with jax_check_static_indices). With
//     get(mode="clip") it is clamped, with mode="fill" it reads fill_value.
//   - An array index (any rank, 0-d included) is a traced value in JAX's
//     terms: out of range it is clamped by x[idx] and get() (JAX's default
//     mode, promise_in_bounds), and dropped by .set/.add/... (JAX's default
//     for scatters, fill_or_drop). Negative array indices count from the end.
//   - .set/.add/... never fail on out-of-range static indices either: the
//     update is dropped, as in JAX (mode="clip" clamps instead).
//   - A boolean mask is read on the host and becomes integer indices, as JAX
//     does for concrete masks (inside jit a mask is not concrete, and JAX
//     rejects it).

// indexKind classifies one element of a subscript (JAX's IndexType).
type indexKind uint8

const (
	idxNone     indexKind = iota // None: a new axis
	idxEllipsis                  // ...: all the axes not named
	idxSlice                     // lo:hi:step
	idxInt                       // a Python int: a static index
	idxBool                      // a scalar bool: a new axis of length 1 or 0
	idxMask                      // a bool array of rank >= 1, before expansion
	idxArray                     // an integer array, any rank
)

// parsedIndex is one element of a subscript with the axes of the indexed
// array it consumes.
type parsedIndex struct {
	kind  indexKind
	n     int64           // idxInt
	b     bool            // idxBool
	slice jstarlark.Slice // idxSlice
	arr   *jstarlark.Array
	axes  []int
	// nonNegative marks index arrays made on the host from masks and
	// scalar bools, which need no wrapping of negative values.
	nonNegative bool
}

// ndIndexer is a parsed subscript of an array of the given shape.
type ndIndexer struct {
	shape trace.Shape
	items []parsedIndex
	dev   jit.Device
}

var fullSlice = jstarlark.Slice{Lo: starlark.None, Hi: starlark.None, Step: starlark.None}

// parseIndex classifies the elements of key and assigns their axes. It
// converts sequences inside a tuple key to arrays, and rejects a bare list
// key as JAX does (NumPy's old list-as-tuple reading is ambiguous).
func parseIndex(key starlark.Value, shape trace.Shape, dev jit.Device) (*ndIndexer, error) {
	var raw []starlark.Value
	switch k := key.(type) {
	case starlark.Tuple:
		raw = k
	case *starlark.List:
		hint := "arr[array(seq)]"
		for i := 0; i < k.Len(); i++ {
			switch e := k.Index(i).(type) {
			case jstarlark.Slice, jstarlark.EllipsisType, starlark.NoneType, starlark.Tuple, *starlark.List:
				hint = "arr[tuple(seq)]"
			case *jstarlark.Array:
				if e.NDim() != 0 {
					hint = "arr[tuple(seq)]"
				}
			}
		}
		return nil, fmt.Errorf("using a non-tuple sequence for multidimensional indexing is not allowed; use `%s` instead of `arr[seq]`", hint)
	default:
		raw = starlark.Tuple{key}
	}
	ix := &ndIndexer{shape: shape, dev: dev}
	consumed := make([]int, len(raw))
	ellipsis := -1
	total := 0
	for i, v := range raw {
		p, err := classifyIndex(v, dev)
		if err != nil {
			return nil, err
		}
		switch p.kind {
		case idxNone, idxBool:
		case idxEllipsis:
			if ellipsis >= 0 {
				return nil, fmt.Errorf("an index can only have a single ellipsis ('...')")
			}
			ellipsis = i
		case idxMask:
			consumed[i] = p.arr.NDim()
		default:
			consumed[i] = 1
		}
		total += consumed[i]
		ix.items = append(ix.items, p)
	}
	if total > len(shape) {
		return nil, fmt.Errorf("too many indices for array: array is %d-dimensional, but %d were indexed", len(shape), total)
	}
	if ellipsis >= 0 {
		consumed[ellipsis] = len(shape) - total
	}
	axis := 0
	for i := range ix.items {
		for k := 0; k < consumed[i]; k++ {
			ix.items[i].axes = append(ix.items[i].axes, axis)
			axis++
		}
	}
	return ix, nil
}

// classifyIndex is JAX's IndexType.from_index for one element.
func classifyIndex(v starlark.Value, dev jit.Device) (parsedIndex, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return parsedIndex{kind: idxNone}, nil
	case jstarlark.EllipsisType:
		return parsedIndex{kind: idxEllipsis}, nil
	case jstarlark.Slice:
		return parsedIndex{kind: idxSlice, slice: x}, nil
	case starlark.Bool:
		return parsedIndex{kind: idxBool, b: bool(x)}, nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return parsedIndex{}, fmt.Errorf("index %s is out of bounds: it does not fit in 64 bits", x)
		}
		return parsedIndex{kind: idxInt, n: n}, nil
	case *jstarlark.Array:
		return classifyArrayIndex(x)
	case starlark.Tuple, *starlark.List:
		if seq, ok := x.(starlark.Sequence); ok && seq.Len() == 0 {
			// An empty sequence has no elements to infer an integer dtype
			// from: it is an empty index array.
			a, err := jstarlark.EmptyArray(dev, trace.NewAVal(trace.Int32, 0))
			if err != nil {
				return parsedIndex{}, err
			}
			return parsedIndex{kind: idxArray, arr: a}, nil
		}
		t, err := jstarlark.TypeOf("index", x)
		if err != nil {
			return parsedIndex{}, err
		}
		if !t.DType.IsInteger() && t.DType != trace.Bool {
			return parsedIndex{}, fmt.Errorf("indexer must have integer or boolean type, got a sequence of type %s", t.DType)
		}
		a, err := jstarlark.ArrayFromValue("index", x, t, dev)
		if err != nil {
			return parsedIndex{}, err
		}
		return classifyArrayIndex(a)
	case starlark.Float:
		return parsedIndex{}, fmt.Errorf("indexer must have integer or boolean type, got indexer %s of type float", x)
	case starlark.String:
		return parsedIndex{}, fmt.Errorf("string indices are not supported, got %s", x)
	}
	return parsedIndex{}, fmt.Errorf("only integers, slices (`:`), ellipsis (`...`), newaxis (`None`) and integer or boolean arrays are valid indices, got %s", v.Type())
}

func classifyArrayIndex(a *jstarlark.Array) (parsedIndex, error) {
	switch {
	case a.DType() == trace.Bool:
		return parsedIndex{kind: idxMask, arr: a}, nil
	case a.DType().IsInteger():
		return parsedIndex{kind: idxArray, arr: a}, nil
	}
	return parsedIndex{}, fmt.Errorf("indexer must have integer or boolean type, got indexer of type %s", a.DType())
}

// validateStaticIndices rejects static indices out of range (SPEC §3).
func (ix *ndIndexer) validateStaticIndices() error {
	for _, p := range ix.items {
		if p.kind != idxInt {
			continue
		}
		size := int64(ix.shape[p.axes[0]])
		if n := p.n; (n < 0 && n+size < 0) || n >= size {
			return fmt.Errorf("index %d is out of bounds for axis %d with size %d", p.n, p.axes[0], size)
		}
	}
	return nil
}

// expandBoolIndices replaces each boolean mask by the integer indices of its
// True elements, one index array per mask axis (np.nonzero on the host: the
// mask is concrete). A 0-d mask becomes a scalar bool.
func (ix *ndIndexer) expandBoolIndices() (*ndIndexer, error) {
	out := &ndIndexer{shape: ix.shape, dev: ix.dev}
	for pos, p := range ix.items {
		if p.kind != idxMask {
			out.items = append(out.items, p)
			continue
		}
		if p.arr.NDim() == 0 {
			v, err := p.arr.ScalarValue(0)
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, parsedIndex{kind: idxBool, b: bool(v.Truth())})
			continue
		}
		expected := make([]int, len(p.axes))
		for i, ax := range p.axes {
			expected[i] = ix.shape[ax]
		}
		for i, d := range p.arr.Shape() {
			if d != 0 && d != expected[i] {
				return nil, fmt.Errorf("boolean index did not match shape of indexed array in index %d: got %s, expected %s",
					pos, p.arr.Shape(), trace.Shape(expected))
			}
		}
		coords, err := maskNonzero(p.arr)
		if err != nil {
			return nil, err
		}
		dt := jstarlark.IndexDType(ix.shape)
		for i, ax := range p.axes {
			a, err := hostIndexArray(ix.dev, dt, []int{len(coords[i])}, coords[i])
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, parsedIndex{kind: idxArray, arr: a, axes: []int{ax}, nonNegative: true})
		}
	}
	return out, nil
}

// maskNonzero returns, per axis of the mask, the coordinates of its True
// elements in row-major order (NumPy's nonzero).
func maskNonzero(mask *jstarlark.Array) ([][]int64, error) {
	raw, err := mask.HostBytesFor("a boolean mask index")
	if err != nil {
		return nil, err
	}
	shape := mask.Shape()
	coords := make([][]int64, len(shape))
	idx := make([]int64, len(shape))
	for _, b := range raw {
		if b != 0 {
			for d := range shape {
				coords[d] = append(coords[d], idx[d])
			}
		}
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < int64(shape[d]) {
				break
			}
			idx[d] = 0
		}
	}
	return coords, nil
}

// hostIndexArray makes an integer array from static index values known on
// the host (expanded masks, the positions of a strided slice): constants,
// as JAX makes them with NumPy.
func hostIndexArray(dev jit.Device, dt trace.DType, shape []int, vals []int64) (*jstarlark.Array, error) {
	raw := make([]byte, len(vals)*dt.Size())
	for i, v := range vals {
		jstarlark.EncodeInt(raw[i*dt.Size():(i+1)*dt.Size()], dt, v)
	}
	buf, err := jit.FromHost(dev, trace.AVal{Shape: slices.Clone(shape), DType: dt}, raw)
	if err != nil {
		return nil, err
	}
	return jstarlark.NewArray(buf), nil
}

// expandEllipses replaces the ellipsis and the implicit trailing axes by
// full slices.
func (ix *ndIndexer) expandEllipses() *ndIndexer {
	out := &ndIndexer{shape: ix.shape, dev: ix.dev}
	consumed := 0
	for _, p := range ix.items {
		consumed += len(p.axes)
		if p.kind == idxEllipsis {
			for _, ax := range p.axes {
				out.items = append(out.items, parsedIndex{kind: idxSlice, slice: fullSlice, axes: []int{ax}})
			}
			continue
		}
		out.items = append(out.items, p)
	}
	for ax := consumed; ax < len(ix.shape); ax++ {
		out.items = append(out.items, parsedIndex{kind: idxSlice, slice: fullSlice, axes: []int{ax}})
	}
	return out
}

// gatherMode is a parsed mode= argument: JAX's GatherScatterMode, or unset
// (the default of the operation: promise_in_bounds for reads, fill_or_drop
// for updates).
type gatherMode struct {
	set  bool
	mode trace.GatherScatterMode
}

func parseGatherMode(fn string, v starlark.Value) (gatherMode, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return gatherMode{}, nil
	case starlark.String:
		switch strings.ToLower(string(x)) {
		case "clip":
			return gatherMode{true, trace.GatherClip}, nil
		case "fill", "drop":
			return gatherMode{true, trace.GatherFillOrDrop}, nil
		case "promise_in_bounds":
			return gatherMode{true, trace.GatherPromiseInBounds}, nil
		}
		return gatherMode{}, fmt.Errorf("%s: unknown gather mode %q (want \"promise_in_bounds\", \"clip\", \"drop\" or \"fill\")", fn, string(x))
	}
	return gatherMode{}, fmt.Errorf("%s: mode must be a string, got %s", fn, v.Type())
}

// readMode is the mode of a gather: promise_in_bounds unless set.
func (m gatherMode) readMode() trace.GatherScatterMode {
	if !m.set {
		return trace.GatherPromiseInBounds
	}
	return m.mode
}

// updateMode is the mode of a scatter: fill_or_drop unless set.
func (m gatherMode) updateMode() trace.GatherScatterMode {
	if !m.set {
		return trace.GatherFillOrDrop
	}
	return m.mode
}

// checksStaticIndices: reads in the default mode reject out-of-range static
// indices (SPEC §3); clip and fill say what to do with them instead.
func (m gatherMode) checksStaticIndices() bool {
	return m.readMode() == trace.GatherPromiseInBounds
}

// sliceIndices resolves a slice against an axis of length n, as Python's
// slice.indices does.
func sliceIndices(s jstarlark.Slice, n int) (lo, hi, step int, err error) {
	step = 1
	if s.Step != starlark.None {
		if err := starlark.AsInt(s.Step, &step); err != nil {
			return 0, 0, 0, fmt.Errorf("slice step: %v", err)
		}
		if step == 0 {
			return 0, 0, 0, fmt.Errorf("slice step cannot be zero")
		}
	}
	bound := func(v starlark.Value, dflt int) (int, error) {
		if v == starlark.None {
			return dflt, nil
		}
		var i int
		if err := starlark.AsInt(v, &i); err != nil {
			return 0, err
		}
		lower, upper := 0, n
		if step < 0 {
			lower, upper = -1, n-1
		}
		if i < 0 {
			i += n
			if i < lower {
				i = lower
			}
		} else if i > upper {
			i = upper
		}
		return i, nil
	}
	if step > 0 {
		lo, err = bound(s.Lo, 0)
		if err == nil {
			hi, err = bound(s.Hi, n)
		}
	} else {
		lo, err = bound(s.Lo, n-1)
		if err == nil {
			hi, err = bound(s.Hi, -1)
		}
	}
	return lo, hi, step, err
}

func sliceLen(lo, hi, step int) int {
	if step > 0 && lo < hi {
		return (hi - lo + step - 1) / step
	}
	if step < 0 && lo > hi {
		return (lo - hi - step - 1) / -step
	}
	return 0
}
