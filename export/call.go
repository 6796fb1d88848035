package export

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A Compiled is an artifact compiled for one device, with its constants
// on that device.
type Compiled struct {
	Program    *jit.Program
	Executable jit.Executable
	// Consts are the buffers for the jaxpr's ConstVars, in order.
	Consts []jit.Buffer
}

// CompileFor compiles the artifact for dev (once per device; later calls
// reuse it) after the platform safety check. The artifact stores a jaxpr,
// not kernels, so any backend can run it.
func (e *Exported) CompileFor(dev jit.Device) (*Compiled, error) {
	if err := e.CheckPlatform(dev.Platform()); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c := e.compiled[dev.String()]; c != nil {
		return c, nil
	}
	program, exe, err := jit.CompileOn(dev, e.Jaxpr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.FunName, err)
	}
	consts, err := ConstBuffers(e.Jaxpr, dev)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.FunName, err)
	}
	c := &Compiled{Program: program, Executable: exe, Consts: consts}
	if e.compiled == nil {
		e.compiled = map[string]*Compiled{}
	}
	e.compiled[dev.String()] = c
	return c, nil
}

// ConstBuffers puts the constants of an artifact's jaxpr on dev: stored
// values are copied there; buffers of a function exported in this process
// are used where they are, or copied when they live elsewhere.
func ConstBuffers(j *trace.Jaxpr, dev jit.Device) ([]jit.Buffer, error) {
	out := make([]jit.Buffer, len(j.Consts))
	for i, c := range j.Consts {
		var err error
		switch c := c.(type) {
		case *Constant:
			out[i], err = jit.FromHost(dev, c.AVal, c.Data)
		case jit.Buffer:
			if c.Device() == dev {
				out[i] = c
				continue
			}
			var data []byte
			if data, err = jit.ToHost(c); err == nil {
				out[i], err = jit.FromHost(dev, c.AVal(), data)
			}
		default:
			err = fmt.Errorf("a constant of type %T", c)
		}
		if err != nil {
			return nil, fmt.Errorf("constant %d: %w", i, err)
		}
	}
	return out, nil
}

// CheckArgs requires args to match the artifact's inputs: as many, each of
// the input's shape and dtype (weak types may differ, as at a jit
// boundary).
func (e *Exported) CheckArgs(args []trace.AVal) error {
	if len(args) != len(e.InAvals) {
		return fmt.Errorf("Function %s was exported for %d array arguments and is called with %d", pyStr(e.FunName), len(e.InAvals), len(args))
	}
	for i, a := range args {
		if !a.SameType(e.InAvals[i]) {
			return fmt.Errorf("Function %s was exported for argument %d of type %s and is called with %s",
				pyStr(e.FunName), i, e.InAvals[i].LongString(), a.LongString())
		}
	}
	return nil
}

// Run calls the artifact synchronously on dev: checks, compiles (once per
// device) and executes it with host running its host operations. The
// dialect dispatches artifacts asynchronously with runtime tokens instead,
// through its own path; Run serves Go callers and tests.
func (e *Exported) Run(dev jit.Device, args []jit.Buffer, host jit.Host) ([]jit.Buffer, error) {
	avals := make([]trace.AVal, len(args))
	for i, a := range args {
		avals[i] = a.AVal()
	}
	if err := e.CheckArgs(avals); err != nil {
		return nil, err
	}
	c, err := e.CompileFor(dev)
	if err != nil {
		return nil, err
	}
	return c.Executable.Execute(append(append([]jit.Buffer(nil), c.Consts...), args...), host)
}
