package starlark

import (
	"fmt"
	"os"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/starlark/dialect"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Hooks for Go programs that embed jaxsh (the root package jaxsh): arrays
// made from and read back as host bytes, the session's default device, and
// calls of Starlark values from Go on a session's thread.

// NewArrayFromHost returns a concrete array of dtype dt and shape on dev
// holding raw, the elements in row-major order, each in the dtype's
// little-endian layout (bool one byte 0 or 1, float16 and bfloat16 as their
// 16 bits): jit.FromHost's layout. raw must hold exactly the shape's number
// of elements. The array is strongly typed (not weak).
func NewArrayFromHost(dev jit.Device, dt trace.DType, shape []int, raw []byte) (*Array, error) {
	if !dt.IsArray() {
		return nil, fmt.Errorf("no arrays of dtype %s", dt)
	}
	for _, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("negative dimension in shape %v", shape)
		}
	}
	aval := trace.AVal{Shape: append(trace.Shape(nil), shape...), DType: dt}
	if want := aval.Size() * dt.Size(); len(raw) != want {
		return nil, fmt.Errorf("%d bytes for a %s array, want %d", len(raw), aval.LongString(), want)
	}
	buf, err := jit.FromHost(dev, aval, raw)
	if err != nil {
		return nil, err
	}
	return NewArray(buf), nil
}

// HostBytes copies the array's elements to the host in NewArrayFromHost's
// layout. A traced array (inside jit) has no elements yet and a donated one
// has none left: both are errors.
func (a *Array) HostBytes() ([]byte, error) {
	return a.hostBytes("reading an array from Go")
}

// HostBytesFor is HostBytes for library code: what names the need in the
// ConcretizationError a traced array gives ("a boolean mask index").
func (a *Array) HostBytesFor(what string) ([]byte, error) { return a.hostBytes(what) }

// DefaultDevice is the device where the session's threads create arrays
// from host values: the one SetDefaultDevice chose, else the platform's
// default (PlatformDefaultDevice).
func (s *Session) DefaultDevice() (jit.Device, error) {
	if s.defaultDevice != nil {
		return s.defaultDevice, nil
	}
	return PlatformDefaultDevice()
}

// ExecFileWith is ExecFile with extra names predeclared for this module
// only, next to the session's (extra wins on a clash); modules it loads
// see the session's predeclared names alone.
func (s *Session) ExecFileWith(thread *starlark.Thread, filename string, src any, extra starlark.StringDict) (starlark.StringDict, error) {
	if len(extra) == 0 {
		return s.ExecFile(thread, filename, src)
	}
	pre := make(starlark.StringDict, len(s.predeclared)+len(extra))
	for k, v := range s.predeclared {
		pre[k] = v
	}
	for k, v := range extra {
		pre[k] = v
	}
	f, err := dialect.Parse(FileOptions, filename, src)
	if err != nil {
		return nil, err
	}
	if dumpEnabled("syntax") {
		fmt.Fprintf(os.Stderr, "=== syntax of %s (after the dialect's rewrites)\n%s\n", filename, dialect.Format(f))
	}
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return nil, err
	}
	g, err := runThread(thread, func() (starlark.StringDict, error) { return prog.Init(thread, pre) })
	return finishModule(thread, filename, g, err)
}

// Call calls fn (a Starlark function, a jitted function, a builtin) with
// args and kwargs on thread, as a call from Starlark code would: errors the
// array code reports through the running thread (a truth value of a traced
// array, …) come back as *starlark.EvalError, which FormatError renders.
// thread should be one of s's (NewThread) and run one call at a time.
func (s *Session) Call(thread *starlark.Thread, fn starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return runThread(thread, func() (starlark.Value, error) {
		return starlark.Call(thread, fn, args, kwargs)
	})
}

// HostValues copies the array's elements to the host as a Go slice of its
// element type: []float32 for float32, []bool for bool, []uint16 holding
// the bits of float16 and bfloat16.
func (a *Array) HostValues() (any, error) {
	raw, err := a.HostBytes()
	if err != nil {
		return nil, err
	}
	return typedSlice(a.DType(), raw), nil
}
