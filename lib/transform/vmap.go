package transform

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/batching"
	"go.starlark.net/starlark"
)

// vmap (SPEC §4): a call traces fun on one element of the batch (its mapped
// arguments without their batch axis) into a body jaxpr, as control flow
// traces its bodies; trace/batching turns that jaxpr into one for the whole
// batch, and its equations are recorded in the enclosing trace. Outside any
// trace the result is compiled and run like a control-flow construct, so an
// eager vmap is one program, not a loop. As in JAX, arguments with in_axes
// None are passed to fun as they are: a number stays a number.

// Vmapped is what vmap returns: a callable that maps fun over a batch.
type Vmapped struct {
	fun      starlark.Callable
	inAxes   starlark.Value // an int, None, or a tuple prefix of the positional arguments
	outAxes  starlark.Value
	axisSize int // -1: from the arguments
}

var _ starlark.Callable = (*Vmapped)(nil)

func (v *Vmapped) Name() string          { return "vmap(" + v.fun.Name() + ")" }
func (v *Vmapped) String() string        { return "<vmapped function " + v.fun.Name() + ">" }
func (v *Vmapped) Type() string          { return "function" }
func (v *Vmapped) Freeze()               { v.fun.Freeze() }
func (v *Vmapped) Truth() starlark.Bool  { return starlark.True }
func (v *Vmapped) Hash() (uint32, error) { return starlark.String(v.Name()).Hash() }

// Vmap is vmap(fun, in_axes, out_axes) for library code (jnp.vectorize):
// inAxes is an int, None or a tuple with one entry per positional argument,
// outAxes an int, None or a prefix of the result.
func Vmap(fun starlark.Callable, inAxes, outAxes starlark.Value) *Vmapped {
	return &Vmapped{fun: fun, inAxes: inAxes, outAxes: outAxes, axisSize: -1}
}

// vmap(fun, in_axes=0, out_axes=0, axis_size=None)
func builtinVmap(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fun starlark.Callable
	var inAxes, outAxes starlark.Value = starlark.MakeInt(0), starlark.MakeInt(0)
	var axisSize starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fun", &fun, "in_axes?", &inAxes, "out_axes?", &outAxes, "axis_size?", &axisSize); err != nil {
		return nil, err
	}
	if l, ok := inAxes.(*starlark.List); ok {
		// A top-level list means the positional arguments, as a tuple does
		// (JAX canonicalises it the same way).
		items := make(starlark.Tuple, l.Len())
		for i := range items {
			items[i] = l.Index(i)
		}
		inAxes = items
	}
	switch inAxes.(type) {
	case starlark.Int, starlark.NoneType, starlark.Tuple:
	default:
		return nil, fmt.Errorf("vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments passed to the function, but got %s", inAxes)
	}
	for _, spec := range []struct {
		name string
		v    starlark.Value
	}{{"in_axes", inAxes}, {"out_axes", outAxes}} {
		if err := checkAxisSpec(spec.v); err != nil {
			return nil, fmt.Errorf("vmap %s must be an int, None, or (nested) container with those types as leaves, but got %s", spec.name, spec.v)
		}
	}
	size := -1
	if axisSize != starlark.None {
		n, err := starlark.AsInt32(axisSize)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("vmap: axis_size must be a non-negative int or None, got %s", axisSize)
		}
		size = n
	}
	return &Vmapped{fun: fun, inAxes: inAxes, outAxes: outAxes, axisSize: size}, nil
}

// checkAxisSpec requires ints and None at the leaves of an axes spec.
func checkAxisSpec(v starlark.Value) error {
	switch x := v.(type) {
	case starlark.Int, starlark.NoneType:
		return nil
	case starlark.Tuple:
		for _, e := range x {
			if err := checkAxisSpec(e); err != nil {
				return err
			}
		}
		return nil
	case *starlark.List:
		for i := 0; i < x.Len(); i++ {
			if err := checkAxisSpec(x.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case *starlark.Dict:
		for _, kv := range x.Items() {
			if err := checkAxisSpec(kv[1]); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("not an axis")
}

// A vmapLeaf is one leaf of the arguments and the axis it is mapped along.
type vmapLeaf struct {
	value  starlark.Value
	path   string // argument x['a'][0]
	mapped bool
	axis   int // canonical, when mapped
}

// axesOf pairs the leaves of v (in flattenTree's order) with the axes that
// spec, a prefix of v's structure, gives them.
func axesOf(spec, v starlark.Value, path string, out *[]vmapLeaf) error {
	switch s := spec.(type) {
	case starlark.Int, starlark.NoneType:
		leaves, tree, err := jstarlark.FlattenTree("vmap", v)
		if err != nil {
			return err
		}
		paths := vmapLeafPaths(path, tree)
		for i, l := range leaves {
			leaf := vmapLeaf{value: l, path: paths[i]}
			if s != starlark.None {
				ax, _ := starlark.AsInt32(s)
				leaf.mapped, leaf.axis = true, ax
			}
			*out = append(*out, leaf)
		}
		return nil
	case starlark.Tuple, *starlark.List:
		specs := sequenceItems(spec)
		items, sameKind := []starlark.Value(nil), false
		switch x := v.(type) {
		case starlark.Tuple:
			items, sameKind = x, spec.Type() == "tuple"
		case *starlark.List:
			items, sameKind = sequenceItems(x), spec.Type() == "list"
		}
		if !sameKind || len(items) != len(specs) {
			return fmt.Errorf("vmap in_axes specification must be a tree prefix of the corresponding value, got specification %s for value tree %s", spec, jstarlark.ShortRepr(v))
		}
		for i := range items {
			if err := axesOf(specs[i], items[i], path+"["+strconv.Itoa(i)+"]", out); err != nil {
				return err
			}
		}
		return nil
	case *starlark.Dict:
		d, ok := v.(*starlark.Dict)
		if !ok || d.Len() != s.Len() {
			return fmt.Errorf("vmap in_axes specification must be a tree prefix of the corresponding value, got specification %s for value tree %s", spec, jstarlark.ShortRepr(v))
		}
		_, tree, err := jstarlark.FlattenTree("vmap", v)
		if err != nil {
			return err
		}
		for _, k := range tree.Keys {
			sub, found, _ := s.Get(starlark.String(k))
			if !found {
				return fmt.Errorf("vmap in_axes specification must be a tree prefix of the corresponding value, got specification %s for value tree %s", spec, jstarlark.ShortRepr(v))
			}
			child, _, _ := d.Get(starlark.String(k))
			if err := axesOf(sub, child, path+"["+strconv.Quote(k)+"]", out); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("vmap: bad axis specification %s", spec)
}

func sequenceItems(v starlark.Value) []starlark.Value {
	switch x := v.(type) {
	case starlark.Tuple:
		return x
	case *starlark.List:
		out := make([]starlark.Value, x.Len())
		for i := range out {
			out[i] = x.Index(i)
		}
		return out
	}
	return nil
}

// argName names positional argument i of fun as JAX's messages do: by its
// parameter name when fun has one.
func argName(fun starlark.Callable, i int) string {
	if f, ok := fun.(*starlark.Function); ok && i < f.NumParams() {
		name, _ := f.Param(i)
		return name
	}
	return "args[" + strconv.Itoa(i) + "]"
}

func (v *Vmapped) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := v.Name()
	var leaves []vmapLeaf
	if specs, ok := v.inAxes.(starlark.Tuple); ok {
		if len(specs) != len(args) {
			return nil, fmt.Errorf("vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments passed to the function, but got len(in_axes)=%d, len(args)=%d", len(specs), len(args))
		}
		for i, a := range args {
			if err := axesOf(specs[i], a, argName(v.fun, i), &leaves); err != nil {
				return nil, err
			}
		}
	} else {
		for i, a := range args {
			if err := axesOf(v.inAxes, a, argName(v.fun, i), &leaves); err != nil {
				return nil, err
			}
		}
	}
	nPositional := len(leaves)
	for _, kv := range kwargs {
		// Keyword arguments are always mapped along their axis 0 (JAX's rule).
		if err := axesOf(starlark.MakeInt(0), kv[1], string(kv[0].(starlark.String)), &leaves); err != nil {
			return nil, err
		}
	}
	size, mapped, err := v.mappedLeaves(leaves)
	if err != nil {
		return nil, err
	}
	return jstarlark.ControlFlow(thread, name, vmapDevice(thread, mapped), func(ts *jstarlark.Trace) (starlark.Value, error) {
		avals := make([]trace.AVal, 0, len(mapped))
		var inDims []int
		for _, l := range leaves {
			if l.mapped {
				a := l.value.(*jstarlark.Array).AVal()
				avals = append(avals, unbatchedAval(a, l.axis))
				inDims = append(inDims, l.axis)
			}
		}
		body, err := jstarlark.TraceBody(ts, v.fun.Name(), avals, func(tracers []*jstarlark.Array) (starlark.Value, error) {
			values := make([]starlark.Value, len(leaves))
			k := 0
			for i, l := range leaves {
				values[i] = l.value
				if l.mapped {
					values[i], k = tracers[k], k+1
				}
			}
			callArgs, callKwargs, err := rebuildCall(args, kwargs, values[:nPositional], values[nPositional:])
			if err != nil {
				return nil, err
			}
			return starlark.Call(thread, v.fun, callArgs, callKwargs)
		})
		if err != nil {
			return nil, err
		}
		outDims, err := v.outDims(body)
		if err != nil {
			return nil, err
		}
		// A float0 output (an integer's tangent) carries no data: it is
		// left unbatched and made again with the batch axis inserted.
		float0Axis := map[int]int{}
		for i, a := range body.OutAvals {
			if a.DType == trace.Float0 && outDims[i] != trace.NotBatched {
				float0Axis[i], outDims[i] = outDims[i], trace.NotBatched
			}
		}
		dims := append(slices.Repeat([]int{trace.NotBatched}, len(body.Consts)), inDims...)
		batched, err := batching.Jaxpr(body.Jaxpr, size, dims, outDims)
		if err != nil {
			return nil, err
		}
		outs, err := inlineJaxpr(ts, batched, append(slices.Clone(body.Consts), mapped...))
		if err != nil {
			return nil, err
		}
		for i, ax := range float0Axis {
			if outs[i], err = jstarlark.Float0Array(ts.Device, slices.Insert(slices.Clone(body.OutAvals[i].Shape), ax, size)); err != nil {
				return nil, err
			}
		}
		return body.OutTree.Unflatten(jstarlark.ValuesOf(outs))
	})
}

func unbatchedAval(a trace.AVal, axis int) trace.AVal {
	return a.WithShape(slices.Delete(slices.Clone(a.Shape), axis, axis+1))
}

// mappedLeaves checks the mapped leaves (arrays with the axis in range)
// and their sizes, canonicalising their axes; it returns the batch size
// and the mapped arrays.
func (v *Vmapped) mappedLeaves(leaves []vmapLeaf) (int, []*jstarlark.Array, error) {
	var mapped []*jstarlark.Array
	var sized []vmapLeaf
	for i := range leaves {
		l := &leaves[i]
		if !l.mapped {
			continue
		}
		a, ok := l.value.(*jstarlark.Array)
		if !ok {
			if _, num := jstarlark.ScalarType(l.value); !num {
				return 0, nil, fmt.Errorf("vmap: argument %s is a %s; mapped arguments must be arrays (use in_axes=None for other values)", l.path, l.value.Type())
			}
			return 0, nil, fmt.Errorf("vmap was requested to map its argument along axis %d, which implies that its rank should be at least %d, but is only 0 (its shape is ())", l.axis, axisRankNeeded(l.axis))
		}
		rank := a.AVal().Rank()
		ax := l.axis
		if ax < 0 {
			ax += rank
		}
		if ax < 0 || ax >= rank {
			return 0, nil, fmt.Errorf("vmap was requested to map its argument along axis %d, which implies that its rank should be at least %d, but is only %d (its shape is %s)",
				l.axis, axisRankNeeded(l.axis), rank, trace.Shape(a.AVal().Shape))
		}
		l.axis = ax
		mapped = append(mapped, a)
		sized = append(sized, *l)
	}
	if len(sized) == 0 {
		if v.axisSize < 0 {
			return 0, nil, fmt.Errorf("vmap must have at least one non-None value in in_axes (or be given axis_size)")
		}
		return v.axisSize, nil, nil
	}
	size := sized[0].value.(*jstarlark.Array).AVal().Shape[sized[0].axis]
	consistent := v.axisSize < 0 || v.axisSize == size
	for _, l := range sized {
		consistent = consistent && l.value.(*jstarlark.Array).AVal().Shape[l.axis] == size
	}
	if !consistent {
		return 0, nil, inconsistentSizes(sized, v.axisSize)
	}
	return size, mapped, nil
}

func axisRankNeeded(axis int) int {
	if axis < 0 {
		return -axis
	}
	return axis + 1
}

// inconsistentSizes is JAX's message for mapped axes of different sizes:
// the sizes, most common first, each with the arguments that have it.
func inconsistentSizes(sized []vmapLeaf, axisSize int) error {
	type group struct {
		size  int
		first vmapLeaf
		count int
	}
	var groups []*group
	for _, l := range sized {
		n := l.value.(*jstarlark.Array).AVal().Shape[l.axis]
		i := slices.IndexFunc(groups, func(g *group) bool { return g.size == n })
		if i < 0 {
			groups = append(groups, &group{size: n, first: l})
			i = len(groups) - 1
		}
		groups[i].count++
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return b.count - a.count })
	describe := func(l vmapLeaf) string {
		return fmt.Sprintf("axis %d of argument %s of type %s", l.axis, l.path, l.value.(*jstarlark.Array).AVal().LongString())
	}
	var lines []string
	if axisSize >= 0 {
		lines = append(lines, fmt.Sprintf("  * axis_size was given as %d", axisSize))
	}
	for i, g := range groups {
		switch {
		case g.count == 1:
			lines = append(lines, fmt.Sprintf("  * one axis had size %d: %s", g.size, describe(g.first)))
		case i == 0 && len(groups) > 1 && g.count > groups[1].count:
			lines = append(lines, fmt.Sprintf("  * most axes (%d of them) had size %d, e.g. %s", g.count, g.size, describe(g.first)))
		default:
			lines = append(lines, fmt.Sprintf("  * %d axes had size %d, e.g. %s", g.count, g.size, describe(g.first)))
		}
	}
	return fmt.Errorf("vmap got inconsistent sizes for array axes to be mapped:\n%s", strings.Join(lines, ";\n"))
}

// outDims resolves out_axes against the body's result structure.
func (v *Vmapped) outDims(body *jstarlark.BodyTrace) ([]int, error) {
	placeholders := make([]starlark.Value, len(body.OutAvals))
	for i := range placeholders {
		placeholders[i] = starlark.MakeInt(i)
	}
	result, err := body.OutTree.Unflatten(placeholders)
	if err != nil {
		return nil, err
	}
	var leaves []vmapLeaf
	if err := axesOf(v.outAxes, result, "output", &leaves); err != nil {
		return nil, fmt.Errorf("vmap out_axes: %v", strings.TrimPrefix(err.Error(), "vmap "))
	}
	dims := make([]int, len(leaves))
	for i, l := range leaves {
		dims[i] = trace.NotBatched
		if !l.mapped {
			continue
		}
		rank := body.OutAvals[i].Rank()
		ax := l.axis
		if ax < 0 {
			ax += rank + 1
		}
		if ax < 0 || ax > rank {
			return nil, fmt.Errorf("vmap out_axes %d is out of range for output %s of rank %d (its batched rank is %d)", l.axis, l.path, rank, rank+1)
		}
		dims[i] = ax
	}
	return dims, nil
}

// rebuildCall puts new leaves into the call's arguments, keeping their
// structure.
func rebuildCall(args starlark.Tuple, kwargs []starlark.Tuple, posLeaves, kwLeaves []starlark.Value) (starlark.Tuple, []starlark.Tuple, error) {
	rebuilt := make(starlark.Tuple, len(args))
	for i, a := range args {
		_, tree, err := jstarlark.FlattenTree("vmap", a)
		if err != nil {
			return nil, nil, err
		}
		n := tree.NumLeaves()
		if rebuilt[i], err = tree.Unflatten(posLeaves[:n]); err != nil {
			return nil, nil, err
		}
		posLeaves = posLeaves[n:]
	}
	kw := make([]starlark.Tuple, len(kwargs))
	for i, p := range kwargs {
		_, tree, err := jstarlark.FlattenTree("vmap", p[1])
		if err != nil {
			return nil, nil, err
		}
		n := tree.NumLeaves()
		v, err := tree.Unflatten(kwLeaves[:n])
		if err != nil {
			return nil, nil, err
		}
		kw[i] = starlark.Tuple{p[0], v}
		kwLeaves = kwLeaves[n:]
	}
	return rebuilt, kw, nil
}

// inlineJaxpr records the equations of j, which has no constvars, in ts,
// applied to args.
func inlineJaxpr(ts *jstarlark.Trace, j *trace.Jaxpr, args []*jstarlark.Array) ([]*jstarlark.Array, error) {
	atoms := make([]trace.Atom, len(args))
	for i, a := range args {
		var err error
		if atoms[i], err = ts.AtomOf(a); err != nil {
			return nil, err
		}
	}
	outs, err := trace.InlineJaxpr(ts.Builder(), j, atoms)
	if err != nil {
		return nil, err
	}
	res := make([]*jstarlark.Array, len(outs))
	for i, o := range outs {
		res[i] = jstarlark.NewTracedArray(ts, o)
	}
	return res, nil
}

// vmapLeafPaths names each leaf of a tree as Python indexes it from root:
// x[0]['a'].
func vmapLeafPaths(root string, d *jstarlark.TreeDef) []string {
	var out []string
	var walk func(path string, d *jstarlark.TreeDef)
	walk = func(path string, d *jstarlark.TreeDef) {
		switch d.Kind {
		case jstarlark.TreeLeaf:
			out = append(out, path)
		case jstarlark.TreeDict:
			for i, k := range d.Keys {
				walk(path+"["+strconv.Quote(k)+"]", d.Children[i])
			}
		case jstarlark.TreeTuple, jstarlark.TreeList:
			for i, c := range d.Children {
				walk(path+"["+strconv.Itoa(i)+"]", c)
			}
		}
	}
	walk(root, d)
	return out
}

// vmapDevice finds the device of the mapped arrays (the thread's default
// when nothing is mapped).
func vmapDevice(thread *starlark.Thread, mapped []*jstarlark.Array) func() (jit.Device, error) {
	return func() (jit.Device, error) {
		if len(mapped) > 0 {
			return mapped[0].Device(), nil
		}
		return jstarlark.DefaultDeviceOf(thread)
	}
}
