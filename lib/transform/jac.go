package transform

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Jacobians as JAX builds them (SPEC §4): jacfwd pushes the standard basis
// of the inputs through jvp under vmap (one batched jvp, not one per
// column); jacrev pulls the standard basis of the outputs back through
// vjp under vmap; hessian is jacfwd of jacrev. The result has the outputs'
// structure with, at each output leaf, the structure of the differentiated
// arguments holding arrays of shape out_shape + in_shape. With
// holomorphic=True inputs and outputs are complex and the basis is complex:
// the blocks are the complex derivatives f'(z), as grad(holomorphic=True)
// gives them (no conjugation).

func jacobianBuiltins() starlark.StringDict {
	return starlark.StringDict{
		"jacfwd":   starlark.NewBuiltin("jacfwd", builtinJacobian(true)),
		"jacrev":   starlark.NewBuiltin("jacrev", builtinJacobian(false)),
		"jacobian": starlark.NewBuiltin("jacobian", builtinJacobian(false)),
		"hessian":  starlark.NewBuiltin("hessian", builtinHessian),
	}
}

// A jacobianFun is what jacfwd and jacrev return.
type jacobianFun struct {
	fun     starlark.Callable
	argnums starlark.Value // an int or a tuple of ints
	hasAux  bool
	forward bool
	// holomorphic: complex inputs and outputs, differentiated as analytic
	// functions.
	holomorphic bool
	// allowInt (jacrev): integer and boolean inputs, whose blocks are
	// float0.
	allowInt bool
}

var _ starlark.Callable = (*jacobianFun)(nil)

func (j *jacobianFun) Name() string {
	if j.forward {
		return "jacfwd(" + j.fun.Name() + ")"
	}
	return "jacrev(" + j.fun.Name() + ")"
}
func (j *jacobianFun) String() string        { return "<function " + j.Name() + ">" }
func (j *jacobianFun) Type() string          { return "function" }
func (j *jacobianFun) Freeze()               { j.fun.Freeze() }
func (j *jacobianFun) Truth() starlark.Bool  { return starlark.True }
func (j *jacobianFun) Hash() (uint32, error) { return starlark.String(j.Name()).Hash() }

// jacfwd(fun, argnums=0, has_aux=False, holomorphic=False) and
// jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False)
func builtinJacobian(forward bool) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		j, err := parseJacobian(b.Name(), args, kwargs, forward)
		if err != nil {
			return nil, err
		}
		return j, nil
	}
}

func parseJacobian(name string, args starlark.Tuple, kwargs []starlark.Tuple, forward bool) (*jacobianFun, error) {
	var fun starlark.Callable
	var argnums starlark.Value = starlark.MakeInt(0)
	hasAux, holomorphic, allowInt := false, false, false
	pairs := []any{"fun", &fun, "argnums?", &argnums, "has_aux?", &hasAux, "holomorphic?", &holomorphic}
	if !forward && name != "hessian" {
		pairs = append(pairs, "allow_int?", &allowInt)
	}
	if err := starlark.UnpackArgs(name, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	switch a := argnums.(type) {
	case starlark.Int:
	case starlark.Tuple:
		for _, x := range a {
			if _, ok := x.(starlark.Int); !ok {
				return nil, fmt.Errorf("%s: argnums must be an int or a tuple of ints, got %s", name, argnums)
			}
		}
	default:
		return nil, fmt.Errorf("%s: argnums must be an int or a tuple of ints, got %s", name, argnums)
	}
	return &jacobianFun{fun: fun, argnums: argnums, hasAux: hasAux, forward: forward, holomorphic: holomorphic, allowInt: allowInt}, nil
}

// hessian(fun, argnums=0, has_aux=False, holomorphic=False)
func builtinHessian(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	inner, err := parseJacobian("hessian", args, kwargs, false)
	if err != nil {
		return nil, err
	}
	return &jacobianFun{fun: inner, argnums: inner.argnums, hasAux: inner.hasAux, forward: true, holomorphic: inner.holomorphic}, nil
}

// positions resolves argnums against n positional arguments; single says
// whether argnums was one int (the result then is not a tuple over them).
func (j *jacobianFun) positions(n int) ([]int, bool, error) {
	var nums []int
	single := false
	switch a := j.argnums.(type) {
	case starlark.Int:
		k, _ := starlark.AsInt32(a)
		nums, single = []int{k}, true
	case starlark.Tuple:
		for _, x := range a {
			k, _ := starlark.AsInt32(x)
			nums = append(nums, k)
		}
	}
	for i, k := range nums {
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			return nil, false, fmt.Errorf("%s: argnums %s out of range for %d positional arguments", j.Name(), j.argnums, n)
		}
		nums[i] = k
	}
	return nums, single, nil
}

func (j *jacobianFun) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := j.Name()
	nums, single, err := j.positions(len(args))
	if err != nil {
		return nil, err
	}
	dyn := make(starlark.Tuple, len(nums))
	for i, k := range nums {
		dyn[i] = args[k]
	}
	// partial: fun of the differentiated arguments only.
	partial := starlark.NewBuiltin(j.fun.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, dargs starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		full := append(starlark.Tuple(nil), args...)
		for i, k := range nums {
			full[k] = dargs[i]
		}
		return starlark.Call(thread, j.fun, full, kwargs)
	})
	inLeaves, inTree, err := jstarlark.FlattenTree(name, dyn)
	if err != nil {
		return nil, err
	}
	dev, err := devicesOf(thread, dyn)()
	if err != nil {
		return nil, err
	}
	inArrays, err := jstarlark.LeafArrays(name, inLeaves, dev)
	if err != nil {
		return nil, err
	}
	for _, a := range inArrays {
		if err := j.checkDType("inputs", a.DType()); err != nil {
			return nil, err
		}
	}
	var outTree *jstarlark.TreeDef
	var blocks []starlark.Value
	var aux starlark.Value
	if j.forward {
		outTree, blocks, aux, err = j.forwardJacobian(thread, partial, inArrays, inTree, dev)
	} else {
		outTree, blocks, aux, err = j.reverseJacobian(thread, partial, inArrays, inTree, dev)
	}
	if err != nil {
		return nil, err
	}
	if single {
		for i, b := range blocks {
			blocks[i] = b.(starlark.Tuple)[0]
		}
	}
	jac, err := outTree.Unflatten(blocks)
	if err != nil {
		return nil, err
	}
	if j.hasAux {
		return starlark.Tuple{jac, aux}, nil
	}
	return jac, nil
}

// checkDType applies JAX's dtype rules to the inputs, or the outputs (of
// jacrev, and of jacfwd with holomorphic=True): complex with holomorphic,
// floating without it.
func (j *jacobianFun) checkDType(what string, dt trace.DType) error {
	switch {
	case j.holomorphic && !dt.IsComplex():
		return fmt.Errorf("%s with holomorphic=True requires %s with complex dtype, but got %s", j.Name(), what, dt)
	case !j.holomorphic && dt.IsComplex():
		return fmt.Errorf("%s requires real-valued %s (a floating dtype), but got %s; for holomorphic differentiation, pass holomorphic=True", j.Name(), what, dt)
	case what == "inputs" && j.allowInt && !dt.IsInexact():
		return nil
	case !j.holomorphic && !dt.IsFloat():
		if what == "inputs" && !j.forward {
			return fmt.Errorf("%s requires real-valued inputs (a floating dtype), but got %s; for integer or boolean inputs, "+
				"use vjp or set allow_int to True", j.Name(), dt)
		}
		return fmt.Errorf("%s requires real-valued %s (a floating dtype), but got %s", j.Name(), what, dt)
	}
	return nil
}

// standardBasis is the identity over the leaves: for leaves of sizes
// n_1..n_k (N in all), leaf i's part is [N] + shape_i with ones where the
// row is the element's flat index offset by the sizes before it.
func standardBasis(dev jit.Device, avals []trace.AVal) ([]*jstarlark.Array, int, error) {
	total := 0
	for _, a := range avals {
		total += a.Size()
	}
	out := make([]*jstarlark.Array, len(avals))
	offset := 0
	for i, a := range avals {
		size := a.Size()
		rows, err := jstarlark.IotaOf(dev, trace.Int32, []int{total, size}, 0)
		if err != nil {
			return nil, 0, err
		}
		cols, err := jstarlark.IotaOf(dev, trace.Int32, []int{total, size}, 1)
		if err != nil {
			return nil, 0, err
		}
		off, err := jstarlark.Const(dev, trace.Int32, starlark.MakeInt(offset))
		if err != nil {
			return nil, 0, err
		}
		if cols, err = jstarlark.Bind1("add", nil, cols, off); err != nil {
			return nil, 0, err
		}
		eye, err := jstarlark.Bind1("eq", nil, rows, cols)
		if err != nil {
			return nil, 0, err
		}
		if eye, err = jstarlark.Bind1("convert_element_type", trace.Params{"new_dtype": a.DType, "weak_type": false}, eye); err != nil {
			return nil, 0, err
		}
		if out[i], err = jstarlark.ReshapeTo(eye, append([]int{total}, a.Shape...)); err != nil {
			return nil, 0, err
		}
		offset += size
	}
	return out, total, nil
}

// forwardJacobian: vmap over the input basis of jvp(partial, primals,
// basis), the basis axis of each tangent output last. It returns the
// outputs' structure and, per output leaf, the arguments' structure of its
// Jacobian blocks.
func (j *jacobianFun) forwardJacobian(thread *starlark.Thread, partial starlark.Callable, inArrays []*jstarlark.Array, inTree *jstarlark.TreeDef, dev jit.Device) (*jstarlark.TreeDef, []starlark.Value, starlark.Value, error) {
	basis, _, err := standardBasis(dev, jstarlark.AValsOf(inArrays))
	if err != nil {
		return nil, nil, nil, err
	}
	tangents, err := inTree.Unflatten(jstarlark.ValuesOf(basis))
	if err != nil {
		return nil, nil, nil, err
	}
	primals := make(starlark.Tuple, len(inArrays))
	for i, a := range inArrays {
		primals[i] = a
	}
	primalTree, err := inTree.Unflatten(primals)
	if err != nil {
		return nil, nil, nil, err
	}
	jvpB := starlark.NewBuiltin("jvp", builtinJVP)
	var jvpKw []starlark.Tuple
	if j.hasAux {
		jvpKw = []starlark.Tuple{{starlark.String("has_aux"), starlark.True}}
	}
	pushfwd := starlark.NewBuiltin("pushfwd", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return builtinJVP(thread, jvpB, starlark.Tuple{partial, primalTree, args[0]}, jvpKw)
	})
	outAxes := starlark.Tuple{starlark.None, starlark.MakeInt(-1)}
	if j.hasAux {
		outAxes = append(outAxes, starlark.None)
	}
	res, err := starlark.Call(thread, Vmap(pushfwd, starlark.MakeInt(0), outAxes), starlark.Tuple{tangents}, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	parts := res.(starlark.Tuple)
	jacFlat := parts[1]
	var aux starlark.Value
	if j.hasAux {
		aux = parts[2]
	}
	outLeaves, outTree, err := jstarlark.FlattenTree(j.Name(), jacFlat)
	if err != nil {
		return nil, nil, nil, err
	}
	blocks := make([]starlark.Value, len(outLeaves))
	for o, l := range outLeaves {
		a := l.(*jstarlark.Array)
		if j.holomorphic {
			if err := j.checkDType("outputs", a.DType()); err != nil {
				return nil, nil, nil, err
			}
		}
		last := a.NDim() - 1
		outShape := a.Shape()[:last]
		pieces := make([]starlark.Value, len(inArrays))
		offset := 0
		for i, in := range inArrays {
			p, err := jstarlark.SliceInDim(a, last, offset, offset+in.Size())
			if err != nil {
				return nil, nil, nil, err
			}
			if pieces[i], err = jstarlark.ReshapeTo(p, append(outShape.Clone(), in.Shape()...)); err != nil {
				return nil, nil, nil, err
			}
			offset += in.Size()
		}
		if blocks[o], err = inTree.Unflatten(pieces); err != nil {
			return nil, nil, nil, err
		}
	}
	return outTree, blocks, aux, nil
}

// reverseJacobian: vmap over the output basis of the vjp's pullback; the
// basis axis of each cotangent comes first and is split into the outputs'
// shapes.
func (j *jacobianFun) reverseJacobian(thread *starlark.Thread, partial starlark.Callable, inArrays []*jstarlark.Array, inTree *jstarlark.TreeDef, dev jit.Device) (*jstarlark.TreeDef, []starlark.Value, starlark.Value, error) {
	primals := make(starlark.Tuple, len(inArrays))
	for i, a := range inArrays {
		primals[i] = a
	}
	primalTree, err := inTree.Unflatten(primals)
	if err != nil {
		return nil, nil, nil, err
	}
	vjpArgs := append(starlark.Tuple{partial}, primalTree.(starlark.Tuple)...)
	var vjpKw []starlark.Tuple
	if j.hasAux {
		vjpKw = []starlark.Tuple{{starlark.String("has_aux"), starlark.True}}
	}
	res, err := builtinVJP(thread, starlark.NewBuiltin("vjp", builtinVJP), vjpArgs, vjpKw)
	if err != nil {
		return nil, nil, nil, err
	}
	parts := res.(starlark.Tuple)
	y, pullback := parts[0], parts[1].(starlark.Callable)
	var aux starlark.Value
	if j.hasAux {
		aux = parts[2]
	}
	yLeaves, yTree, err := jstarlark.FlattenTree(j.Name(), y)
	if err != nil {
		return nil, nil, nil, err
	}
	yArrays, err := jstarlark.LeafArrays(j.Name(), yLeaves, dev)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, a := range yArrays {
		if err := j.checkDType("outputs", a.DType()); err != nil {
			return nil, nil, nil, err
		}
	}
	basis, _, err := standardBasis(dev, jstarlark.AValsOf(yArrays))
	if err != nil {
		return nil, nil, nil, err
	}
	cts, err := yTree.Unflatten(jstarlark.ValuesOf(basis))
	if err != nil {
		return nil, nil, nil, err
	}
	pulled, err := starlark.Call(thread, Vmap(pullback, starlark.MakeInt(0), starlark.MakeInt(0)), starlark.Tuple{cts}, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	// pulled: one cotangent per differentiated argument, in inTree's
	// structure, each leaf [M] + in_shape.
	ctLeaves, _, err := jstarlark.FlattenTree(j.Name(), pulled)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(ctLeaves) != len(inArrays) {
		return nil, nil, nil, fmt.Errorf("internal error: %s: %d cotangent leaves for %d inputs", j.Name(), len(ctLeaves), len(inArrays))
	}
	blocks := make([]starlark.Value, len(yArrays))
	offset := 0
	for o, ya := range yArrays {
		pieces := make([]starlark.Value, len(inArrays))
		for i, in := range inArrays {
			ct := ctLeaves[i].(*jstarlark.Array)
			if ct.DType() == trace.Float0 { // an integer input's block (allow_int)
				if pieces[i], err = jstarlark.Float0Array(dev, append(ya.Shape().Clone(), in.Shape()...)); err != nil {
					return nil, nil, nil, err
				}
				continue
			}
			p, err := jstarlark.SliceInDim(ct, 0, offset, offset+ya.Size())
			if err != nil {
				return nil, nil, nil, err
			}
			if pieces[i], err = jstarlark.ReshapeTo(p, append(ya.Shape().Clone(), in.Shape()...)); err != nil {
				return nil, nil, nil, err
			}
		}
		if blocks[o], err = inTree.Unflatten(pieces); err != nil {
			return nil, nil, nil, err
		}
		offset += ya.Size()
	}
	return yTree, blocks, aux, nil
}
