package numpy

import (
	"fmt"
	"slices"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// gatherIndexer is a subscript lowered to gather's terms (JAX's
// _GatherIndexer). The same indexer, transposed, drives the scatters of
// .at[] (at.go).
type gatherIndexer struct {
	// sliceShape is the shape of x[idx]; gatherSliceShape the slice_sizes
	// of the gather.
	sliceShape       []int
	gatherSliceShape []int
	// indices holds one index vector per gathered window, along its last
	// axis; it has shape (0,) when nothing is indexed by position.
	indices *jstarlark.Array
	dnums   trace.GatherDimensionNumbers
	// Without advanced indices every window is read once, in order.
	uniqueIndices, indicesAreSorted bool
	// reversedYDims are the result axes of negative-step slices, gathered
	// in increasing order and reversed afterwards.
	reversedYDims []int
	// newaxisDims are the result axes of None; scalarBoolDims the operand
	// axes inserted for scalar bool indices (length 1 for True, 0 for False).
	newaxisDims    []int
	scalarBoolDims []int
}

// indexToGather is JAX's _index_to_gather for a subscript whose masks are
// already expanded.
func indexToGather(ix *ndIndexer) (*gatherIndexer, error) {
	// NumPy puts the advanced-index axes first when the advanced indices
	// (integer arrays and ints) are not adjacent in the subscript as
	// written, before the ellipsis is expanded.
	var advancedPositions []int
	for i, p := range ix.items {
		if p.kind == idxArray || p.kind == idxInt {
			advancedPositions = append(advancedPositions, i)
		}
	}
	contiguous := true
	for i := 1; i < len(advancedPositions); i++ {
		contiguous = contiguous && advancedPositions[i] == advancedPositions[i-1]+1
	}
	ix = ix.expandEllipses()

	// A scalar bool inserts an operand axis of length 1 and indexes it with
	// arange(1) (True) or arange(0) (False). The axis goes where the bool
	// stands among the operand's axes (JAX counts None elements too, which
	// misplaces it after a None; NumPy does not).
	g := &gatherIndexer{}
	shape := slices.Clone([]int(ix.shape))
	items := make([]parsedIndex, len(ix.items))
	axis := 0
	for i, p := range ix.items {
		if p.kind == idxBool {
			shape = slices.Insert(shape, axis, 1)
			g.scalarBoolDims = append(g.scalarBoolDims, axis)
			n := 0
			if p.b {
				n = 1
			}
			arr, err := hostIndexArray(ix.dev, jstarlark.IndexDType(shape), []int{n}, make([]int64, n))
			if err != nil {
				return nil, err
			}
			p = parsedIndex{kind: idxArray, arr: arr, nonNegative: true}
		}
		p.axes = nil
		if p.kind != idxNone {
			p.axes = []int{axis}
			axis++
		}
		items[i] = p
	}
	indexDT := jstarlark.IndexDType(shape)

	// Normalize negative indices, and convert ints to index constants.
	advanced := false
	for i, p := range items {
		switch p.kind {
		case idxInt:
			n := p.n
			if n < 0 {
				n += int64(shape[p.axes[0]])
			}
			c, err := jstarlark.Const(ix.dev, indexDT, starlark.MakeInt64(n))
			if err != nil {
				return nil, err
			}
			items[i].arr = c
		case idxArray:
			advanced = advanced || p.arr.NDim() > 0
			if !p.nonNegative {
				norm, err := jstarlark.WrapNegative(p.arr, shape[p.axes[0]])
				if err != nil {
					return nil, err
				}
				items[i].arr = norm
			}
		}
	}

	var advancedArrs []*jstarlark.Array
	var advancedItems, advancedAxes []int
	if advanced {
		for i, p := range items {
			if p.kind == idxArray || p.kind == idxInt {
				advancedArrs = append(advancedArrs, p.arr)
				advancedItems = append(advancedItems, i)
				advancedAxes = append(advancedAxes, p.axes[0])
			}
		}
	}

	type component struct {
		arr      *jstarlark.Array
		startDim int
	}
	var components []component
	var indicesShape []int
	var offsetDims, collapsed, startIndexMap []int
	yAxis, collapsedYAxis := 0, 0
	for pos, p := range items {
		if len(advancedArrs) > 0 && ((contiguous && pos == advancedItems[0]) || (!contiguous && pos == 0)) {
			arrs, err := broadcastIndexArrays(advancedArrs)
			if err != nil {
				return nil, err
			}
			bshape := arrs[0].Shape()
			start := len(indicesShape)
			for _, a := range arrs {
				c, err := jstarlark.Astype(a, indexDT)
				if err != nil {
					return nil, err
				}
				components = append(components, component{c, start})
			}
			indicesShape = append(indicesShape, bshape...)
			startIndexMap = append(startIndexMap, advancedAxes...)
			collapsed = append(collapsed, advancedAxes...)
			g.sliceShape = append(g.sliceShape, bshape...)
			yAxis += len(bshape)
			collapsedYAxis += len(bshape)
		}
		if slices.Contains(advancedItems, pos) {
			g.gatherSliceShape = append(g.gatherSliceShape, 1)
			continue
		}
		switch p.kind {
		case idxInt, idxArray: // a scalar index, outside advanced indexing
			ax := p.axes[0]
			if shape[ax] == 0 {
				return nil, fmt.Errorf("index is out of bounds for axis %d with size 0", ax)
			}
			c, err := jstarlark.Astype(p.arr, indexDT)
			if err != nil {
				return nil, err
			}
			components = append(components, component{c, len(indicesShape)})
			collapsed = append(collapsed, ax)
			g.gatherSliceShape = append(g.gatherSliceShape, 1)
			startIndexMap = append(startIndexMap, ax)
		case idxNone:
			g.sliceShape = append(g.sliceShape, 1)
			g.newaxisDims = append(g.newaxisDims, yAxis)
			yAxis++
		case idxSlice:
			ax := p.axes[0]
			lo, hi, step, err := sliceIndices(p.slice, shape[ax])
			if err != nil {
				return nil, err
			}
			n := sliceLen(lo, hi, step)
			g.sliceShape = append(g.sliceShape, n)
			if step == 1 {
				// A window of the slice's length; no index when it is the
				// whole axis.
				if n != shape[ax] {
					c, err := jstarlark.Const(ix.dev, indexDT, starlark.MakeInt(lo))
					if err != nil {
						return nil, err
					}
					components = append(components, component{c, len(indicesShape)})
					startIndexMap = append(startIndexMap, ax)
				}
				g.gatherSliceShape = append(g.gatherSliceShape, n)
				offsetDims = append(offsetDims, collapsedYAxis)
			} else {
				// One index per element, in increasing order.
				vals := make([]int64, n)
				for k := range vals {
					vals[k] = int64(lo + step*k)
				}
				if step < 0 {
					slices.Reverse(vals)
					g.reversedYDims = append(g.reversedYDims, collapsedYAxis)
				}
				c, err := hostIndexArray(ix.dev, indexDT, []int{n}, vals)
				if err != nil {
					return nil, err
				}
				components = append(components, component{c, len(indicesShape)})
				g.gatherSliceShape = append(g.gatherSliceShape, 1)
				startIndexMap = append(startIndexMap, ax)
				indicesShape = append(indicesShape, n)
				collapsed = append(collapsed, ax)
			}
			collapsedYAxis++
			yAxis++
		}
	}

	var err error
	switch len(components) {
	case 0:
		g.indices, err = jstarlark.EmptyArray(ix.dev, trace.NewAVal(indexDT, 0))
	case 1:
		c := components[0].arr
		g.indices, err = jstarlark.ExpandDims(c, []int{c.NDim()})
	default:
		full := append(slices.Clone(indicesShape), 1)
		parts := make([]*jstarlark.Array, len(components))
		for i, c := range components {
			dims := make([]int, c.arr.NDim())
			for k := range dims {
				dims[k] = c.startDim + k
			}
			if parts[i], err = jstarlark.BroadcastInDim(c.arr, full, dims); err != nil {
				return nil, err
			}
		}
		g.indices, err = jstarlark.Bind1("concatenate", trace.Params{"dimension": len(indicesShape)}, parts...)
	}
	if err != nil {
		return nil, err
	}
	sortedCollapsed := slices.Clone(collapsed)
	slices.Sort(sortedCollapsed)
	g.dnums = trace.GatherDimensionNumbers{
		OffsetDims:               jstarlark.IntsOrEmpty(offsetDims),
		CollapsedSliceDims:       jstarlark.IntsOrEmpty(sortedCollapsed),
		StartIndexMap:            jstarlark.IntsOrEmpty(startIndexMap),
		OperandBatchingDims:      []int{},
		StartIndicesBatchingDims: []int{},
	}
	g.uniqueIndices = len(advancedArrs) == 0
	g.indicesAreSorted = len(advancedArrs) == 0
	if g.sliceShape == nil {
		g.sliceShape = []int{}
	}
	return g, nil
}

// IntsOrEmpty is xs, or an empty non-nil slice for nil (parameters print
// broadcastIndexArrays broadcasts the advanced indices together (NumPy's
// rule), with NumPy's message when they do not fit.
func broadcastIndexArrays(arrs []*jstarlark.Array) ([]*jstarlark.Array, error) {
	shapes := make([]trace.Shape, len(arrs))
	for i, a := range arrs {
		shapes[i] = a.Shape()
	}
	shape, err := trace.BroadcastShapes(shapes...)
	if err != nil {
		parts := make([]string, len(shapes))
		for i, s := range shapes {
			parts[i] = s.String()
		}
		return nil, fmt.Errorf("shape mismatch: indexing arrays could not be broadcast together with shapes %s", strings.Join(parts, " "))
	}
	out := make([]*jstarlark.Array, len(arrs))
	for i, a := range arrs {
		if out[i], err = jstarlark.BroadcastTo(a, shape); err != nil {
			return nil, err
		}
	}
	return out, nil
}
