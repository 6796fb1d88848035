package jit

import "github.com/jaxsh/jaxsh/trace"

// CompileOn compiles a traced function for one device: the compiler
// pipeline, then the device's backend. The executable takes one buffer per
// ConstVar of j (its Consts, which must be Buffers on dev) followed by one
// per InVar.
func CompileOn(dev Device, j *trace.Jaxpr) (*Program, Executable, error) {
	b, err := backendOf(dev)
	if err != nil {
		return nil, nil, err
	}
	p, err := Compile(j)
	if err != nil {
		return nil, nil, err
	}
	exe, err := b.Compile(p, dev)
	if err != nil {
		return nil, nil, err
	}
	return p, exe, nil
}
