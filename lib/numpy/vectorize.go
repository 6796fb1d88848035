package numpy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/jaxsh/jaxsh/lib/transform"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.vectorize as JAX builds it: the function is mapped with vmap once per
// broadcast (loop) dimension, innermost first; an argument whose loop
// dimension has size 1 is squeezed and not mapped there (in_axes None)
// rather than broadcast. With a signature such as "(m,n),(n)->(m)" the
// trailing core dimensions are the function's own, and their sizes must
// agree across arguments and results.

func init() { jstarlark.Register(Module, "vectorize", jnpVectorize) }

// A gufuncSignature lists the core dimension names of each input and output.
type gufuncSignature struct {
	in, out  [][]string
	multiOut bool // the outputs are a tuple (more than one, or a trailing comma)
}

var (
	sigArgList = `\((?:\w+(?:,\w+)*)?\)`
	sigRe      = regexp.MustCompile(`^` + sigArgList + `(?:,` + sigArgList + `)*->` + sigArgList + `(?:,` + sigArgList + `)*$`)
	sigArgRe   = regexp.MustCompile(sigArgList)
)

// parseSignature reads NumPy's generalized ufunc signature.
func parseSignature(s string) (*gufuncSignature, error) {
	compact := strings.Join(strings.Fields(s), "")
	if !sigRe.MatchString(compact) {
		return nil, fmt.Errorf("vectorize: not a valid gufunc signature: %s", s)
	}
	sides := strings.SplitN(compact, "->", 2)
	parse := func(side string) [][]string {
		var out [][]string
		for _, arg := range sigArgRe.FindAllString(side, -1) {
			inner := strings.Trim(arg, "()")
			if inner == "" {
				out = append(out, nil)
			} else {
				out = append(out, strings.Split(inner, ","))
			}
		}
		return out
	}
	sig := &gufuncSignature{in: parse(sides[0]), out: parse(sides[1])}
	sig.multiOut = len(sig.out) > 1
	return sig, nil
}

// vectorize(pyfunc, *, excluded=None, signature=None)
func jnpVectorize(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var excludedArg, sigArg starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs("vectorize", args, kwargs, "pyfunc", &fn, "excluded?", &excludedArg, "signature?", &sigArg); err != nil {
		return nil, err
	}
	var sig *gufuncSignature
	if s, ok := sigArg.(starlark.String); ok {
		var err error
		if sig, err = parseSignature(string(s)); err != nil {
			return nil, err
		}
	} else if sigArg != starlark.None {
		return nil, fmt.Errorf("vectorize: signature must be a string or None, got %s", sigArg.Type())
	}
	var excluded []int
	if excludedArg != starlark.None {
		it, ok := excludedArg.(starlark.Iterable)
		if !ok {
			return nil, fmt.Errorf("vectorize: excluded must be a set, list or tuple of argument positions, got %s", excludedArg.Type())
		}
		iter := it.Iterate()
		defer iter.Done()
		var x starlark.Value
		for iter.Next(&x) {
			n, err := starlark.AsInt32(x)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("vectorize: excluded holds argument positions (non-negative ints), got %s", x)
			}
			excluded = append(excluded, n)
		}
	}
	v := &vectorized{fn: fn, sig: sig, excluded: excluded}
	return starlark.NewBuiltin("vectorize("+fn.Name()+")", v.call), nil
}

type vectorized struct {
	fn       starlark.Callable
	sig      *gufuncSignature
	excluded []int
}

func (v *vectorized) call(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("vectorize(%s): keyword arguments are not vectorized; pass them with partial", v.fn.Name())
	}
	// Excluded arguments are bound as they are; the others are vectorized.
	var mapped []starlark.Value
	for i, a := range args {
		if !slices.Contains(v.excluded, i) {
			mapped = append(mapped, a)
		}
	}
	inner := starlark.Callable(v.fn)
	if len(v.excluded) > 0 {
		inner = starlark.NewBuiltin(v.fn.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, margs starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			full := make(starlark.Tuple, len(args))
			k := 0
			for i := range args {
				if slices.Contains(v.excluded, i) {
					full[i] = args[i]
				} else {
					full[i], k = margs[k], k+1
				}
			}
			return starlark.Call(thread, v.fn, full, nil)
		})
	}
	name := "vectorize(" + v.fn.Name() + ")"
	arrays := make([]*jstarlark.Array, len(mapped))
	for i, a := range mapped {
		var err error
		if arrays[i], err = jstarlark.EnsureArray(name, a); err != nil {
			return nil, err
		}
	}
	core := make([][]string, len(arrays))
	if v.sig != nil {
		if len(v.sig.in) != len(arrays) {
			return nil, fmt.Errorf("%s: wrong number of positional arguments: expected %d, got %d", name, len(v.sig.in), len(arrays))
		}
		core = v.sig.in
	}
	// Core dimension sizes, and the loop (broadcast) shape.
	sizes := map[string]int{}
	var loops []trace.Shape
	for i, a := range arrays {
		dims := core[i]
		if a.NDim() < len(dims) {
			return nil, fmt.Errorf("%s: input with shape %s does not have enough dimensions for all core dimensions (%s)", name, a.Shape(), strings.Join(dims, ", "))
		}
		coreShape := a.Shape()[a.NDim()-len(dims):]
		for k, d := range dims {
			if n, seen := sizes[d]; seen && n != coreShape[k] {
				return nil, fmt.Errorf("%s: inconsistent size for core dimension %q: %d vs %d", name, d, n, coreShape[k])
			}
			sizes[d] = coreShape[k]
		}
		loops = append(loops, a.Shape()[:a.NDim()-len(dims)])
	}
	loop, err := trace.BroadcastShapes(loops...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	// Squeeze size-1 loop dimensions; an argument is then mapped along a
	// loop dimension only where it has it with the full size.
	squeezed := make([]starlark.Value, len(arrays))
	filled := make([][]int, len(arrays))
	for i, a := range arrays {
		own := loops[i]
		var ones []int
		for k, n := range own {
			if n == 1 {
				ones = append(ones, k)
			}
		}
		s, err := jstarlark.Squeeze(a, ones)
		if err != nil {
			return nil, err
		}
		squeezed[i] = s
		filled[i] = append(slices.Repeat([]int{1}, len(loop)-len(own)), own...)
	}
	f := starlark.Callable(inner)
	if v.sig != nil {
		f = v.checkedOutputs(name, inner, sizes)
	}
	var expand []int
	for d := len(loop) - 1; d >= 0; d-- {
		axes := make(starlark.Tuple, len(arrays))
		anyMapped := false
		for i := range arrays {
			axes[i] = starlark.None
			if filled[i][d] != 1 {
				axes[i], anyMapped = starlark.MakeInt(0), true
			}
		}
		if !anyMapped {
			expand = append(expand, d)
			continue
		}
		f = transform.Vmap(f, axes, starlark.MakeInt(0))
	}
	result, err := starlark.Call(thread, f, starlark.Tuple(squeezed), nil)
	if err != nil || len(expand) == 0 {
		return result, err
	}
	slices.Sort(expand)
	if t, ok := result.(starlark.Tuple); ok {
		out := make(starlark.Tuple, len(t))
		for i, r := range t {
			a, err := jstarlark.EnsureArray(name, r)
			if err != nil {
				return nil, err
			}
			if out[i], err = jstarlark.ExpandDims(a, expand); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	a, err := jstarlark.EnsureArray(name, result)
	if err != nil {
		return nil, err
	}
	return jstarlark.ExpandDims(a, expand)
}

// checkedOutputs wraps fn to check its results against the signature's
// output core dimensions (per element, inside the vmaps).
func (v *vectorized) checkedOutputs(name string, fn starlark.Callable, sizes map[string]int) starlark.Callable {
	return starlark.NewBuiltin(fn.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		res, err := starlark.Call(thread, fn, args, nil)
		if err != nil {
			return nil, err
		}
		outs := starlark.Tuple{res}
		if v.sig.multiOut {
			t, ok := res.(starlark.Tuple)
			if !ok || len(t) != len(v.sig.out) {
				got := 1
				if ok {
					got = len(t)
				}
				return nil, fmt.Errorf("%s: wrong number of output arguments: expected %d, got %d", name, len(v.sig.out), got)
			}
			outs = t
		}
		for i, o := range outs {
			a, err := jstarlark.EnsureArray(name, o)
			if err != nil {
				return nil, err
			}
			dims := v.sig.out[i]
			if a.NDim() != len(dims) {
				return nil, fmt.Errorf("%s: output shape %s does not match core dimensions (%s)", name, a.Shape(), strings.Join(dims, ", "))
			}
			for k, d := range dims {
				if n, seen := sizes[d]; seen && n != a.Shape()[k] {
					return nil, fmt.Errorf("%s: output shape %s does not match core dimensions (%s): %s has size %d", name, a.Shape(), strings.Join(dims, ", "), d, n)
				}
			}
		}
		return res, nil
	})
}
