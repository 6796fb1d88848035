package jit

import "github.com/jaxsh/jaxsh/trace"

// CompileOn compiles a traced function for one device with OptionsFor(dev)
// (nested jit calls inlined, the compiler pipeline, fusion where the
// device's backend runs fused kernels), then compiles the Program with the
// device's backend. The executable takes one buffer per ConstVar of j (its
// Consts, which must be Buffers on dev) followed by one per InVar.
func CompileOn(dev Device, j *trace.Jaxpr) (*Program, Executable, error) {
	return CompileOnWith(dev, j, OptionsFor(dev))
}

// CompileOnWith is CompileOn with the caller's options (start from
// OptionsFor(dev) and add dumps, logging or donation).
func CompileOnWith(dev Device, j *trace.Jaxpr, opts Options) (*Program, Executable, error) {
	b, err := backendOf(dev)
	if err != nil {
		return nil, nil, err
	}
	p, err := CompileWith(j, opts)
	if err != nil {
		return nil, nil, err
	}
	exe, err := b.Compile(p, dev)
	if err != nil {
		return nil, nil, err
	}
	return p, exe, nil
}
