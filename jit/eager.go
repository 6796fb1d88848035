package jit

import (
	"fmt"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// eagerCache holds the executables of single primitives, keyed by
// eagerKey. Entries are never evicted: a program uses a bounded set of
// (primitive, params, types) combinations, and JAX caches the same way.
var eagerCache sync.Map // string -> *eagerEntry

type eagerEntry struct {
	once sync.Once
	exe  Executable
	out  []trace.AVal
	err  error
}

// eagerKey identifies what a compiled single-primitive program depends on.
func eagerKey(prim *trace.Primitive, params trace.Params, in []trace.AVal, dev Device) string {
	var b strings.Builder
	b.WriteString(prim.Name)
	b.WriteByte('[')
	b.WriteString(params.String())
	b.WriteString("](")
	for i, a := range in {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(a.String())
		if a.Weak {
			b.WriteByte('~')
		}
	}
	b.WriteString(")@")
	b.WriteString(dev.String())
	return b.String()
}

// ApplyPrimitive runs one primitive on buffers that live on dev and returns
// its results: the eager path. Shape and dtype errors are *trace.TypeError.
func ApplyPrimitive(dev Device, prim *trace.Primitive, params trace.Params, args []Buffer) ([]Buffer, error) {
	in := make([]trace.AVal, len(args))
	for i, a := range args {
		if a.Device() != dev {
			return nil, fmt.Errorf("%s: operand %d is on %s, not %s", prim.Name, i, a.Device(), dev)
		}
		in[i] = a.AVal()
	}
	key := eagerKey(prim, params, in, dev)
	v, _ := eagerCache.LoadOrStore(key, &eagerEntry{})
	e := v.(*eagerEntry)
	e.once.Do(func() { e.exe, e.out, e.err = compileSingle(dev, prim, params, in) })
	if e.err != nil {
		return nil, e.err
	}
	return e.exe.Execute(args)
}

// InferPrimitive returns the output avals of applying prim, without running
// it; errors are those ApplyPrimitive would report.
func InferPrimitive(prim *trace.Primitive, params trace.Params, in []trace.AVal) ([]trace.AVal, error) {
	out, _, err := prim.Infer(in, params)
	return out, err
}

func compileSingle(dev Device, prim *trace.Primitive, params trace.Params, in []trace.AVal) (Executable, []trace.AVal, error) {
	out, effects, err := prim.Infer(in, params)
	if err != nil {
		return nil, nil, err
	}
	j := &trace.Jaxpr{Effects: effects}
	eqn := &trace.Eqn{Prim: prim, Params: params, Effects: effects}
	for _, a := range in {
		v := trace.NewVar(a)
		j.InVars = append(j.InVars, v)
		eqn.In = append(eqn.In, v)
	}
	for _, a := range out {
		v := trace.NewVar(a)
		eqn.Out = append(eqn.Out, v)
		j.OutVars = append(j.OutVars, v)
	}
	j.Eqns = []*trace.Eqn{eqn}
	// One equation has nothing to optimise or fuse: lower it only, so the
	// eager path stays one OpaqueKernel and cheap to compile.
	p, err := CompileWith(j, Options{})
	if err != nil {
		return nil, nil, err
	}
	b, err := backendOf(dev)
	if err != nil {
		return nil, nil, err
	}
	exe, err := b.Compile(p, dev)
	return exe, out, err
}
