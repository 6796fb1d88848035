package starlark

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/jaxsh/jaxsh/internal/files"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// File access and host values for library code: the file functions of the
// libraries (jnp.save, image.save, plot.line, ...) reach files only through
// these, so the thread's file policy (FilesOf) decides every access.

// callerFile is the policy name of the file whose code called the running
// builtin: a relative name is relative to its directory.
func callerFile(thread *starlark.Thread, policy *files.Policy) string {
	if thread.CallStackDepth() < 2 {
		return ""
	}
	return policy.NameOf(thread.CallFrame(1).Pos.Filename())
}

// ReadFile reads the file name (as the script wrote it) through the
// thread's file policy; a file of more than limit bytes is an error.
func ReadFile(thread *starlark.Thread, name string, limit int64) ([]byte, error) {
	policy := FilesOf(thread)
	full, err := policy.Resolve("read", callerFile(thread, policy), name)
	if err != nil {
		return nil, err
	}
	f, err := policy.Open(full, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &files.Error{Op: "read", Name: name, Why: err.Error()}
	}
	if int64(len(data)) > limit {
		return nil, &files.Error{Op: "read", Name: name, Why: fmt.Sprintf("the file is larger than %d bytes", limit)}
	}
	return data, nil
}

// WriteFile creates or replaces the file name through the thread's file
// policy with data.
func WriteFile(thread *starlark.Thread, name string, data []byte) error {
	policy := FilesOf(thread)
	full, err := policy.Resolve("write", callerFile(thread, policy), name)
	if err != nil {
		return err
	}
	w, err := policy.Create(full, name)
	if err != nil {
		return err
	}
	_, werr := w.Write(data)
	if cerr := w.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return &files.Error{Op: "write", Name: name, Why: werr.Error()}
	}
	return nil
}

// Float64s reads a concrete real array's elements as float64 values in
// row-major order (exact for every dtype but integers beyond 2^53). fn
// names the caller in errors.
func (a *Array) Float64s(fn string) ([]float64, error) {
	if a.DType().IsComplex() {
		return nil, fmt.Errorf("%s: complex values are not supported here (got %s)", fn, a.DType())
	}
	w, err := Astype(a, trace.Float64)
	if err != nil {
		return nil, err
	}
	raw, err := w.hostBytes(fn)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(raw)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return out, nil
}
