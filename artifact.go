package jaxsh

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/internal/npy"
	"github.com/jaxsh/jaxsh/jit"
	libexport "github.com/jaxsh/jaxsh/lib/export"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Exported artifacts (SPEC §7) from Go and from the command line.

// LoadExported loads a serialized artifact (Exported.serialize's bytes).
// callbacks binds the host callbacks it stores, by name: Starlark
// functions, or Go functions made with Func. Call it with Thread.Call on
// its "call" attribute.
func (in *Interpreter) LoadExported(data []byte, callbacks map[string]starlark.Callable) (*libexport.Exported, error) {
	return libexport.Deserialize(data, callbacks)
}

// InspectArtifact describes a serialized artifact as `jaxsh inspect` does:
// its metadata, then its program as jaxpr text.
func InspectArtifact(data []byte) (string, error) {
	e, err := export.Inspect(data)
	if err != nil {
		return "", err
	}
	return e.String() + e.Jaxpr.String() + "\n", nil
}

// maxInputBytes bounds what RunArtifact reads from one .npy file.
const maxInputBytes = 1 << 34

// RunArtifact runs `jaxsh run`: it loads the artifact at path, calls it on
// the arrays of the .npy files inputs, and writes its outputs: to out as
// .npy (one output) or .npz (several, named out_0, out_1, ...), or to the
// interpreter's stdout as NumPy prints them when out is "". Host
// callbacks cannot be bound from the command line (id_print binds
// itself); an artifact that calls others is an error naming them.
func (in *Interpreter) RunArtifact(ctx context.Context, path string, inputs []string, out string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	x, err := libexport.Deserialize(data, nil)
	if err != nil {
		if strings.Contains(err.Error(), "not bound") {
			return fmt.Errorf("%s: %v\n(jaxsh run binds no host callbacks; load the artifact in a script with deserialize(data, callbacks={...}))", path, err)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	dev, err := in.defaultDevice()
	if err != nil {
		return err
	}
	args := make([]starlark.Value, len(inputs))
	for i, p := range inputs {
		a, err := readNPY(p)
		if err != nil {
			return err
		}
		dt, err := trace.ParseDType(a.DType)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		if args[i], err = jstarlark.NewArrayFromHost(dev, dt, a.Shape, a.Data); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
	}
	th, err := in.NewThread("run", nil)
	if err != nil {
		return err
	}
	call, err := x.Attr("call")
	if err != nil {
		return err
	}
	res, err := th.Call(ctx, call, args...)
	if err != nil {
		th.Close()
		return err
	}
	leaves, _, err := jstarlark.FlattenTree("run", res)
	if err != nil {
		th.Close()
		return err
	}
	var arrays []*npy.Array
	var text strings.Builder
	for _, l := range leaves {
		a, ok := l.(*jstarlark.Array)
		if !ok {
			continue
		}
		buf, err := a.Buffer()
		if err != nil {
			th.Close()
			return err
		}
		raw, err := jit.ToHost(buf)
		if err != nil {
			th.Close()
			return err
		}
		arrays = append(arrays, &npy.Array{DType: a.AVal().DType.Name(), Shape: a.AVal().Shape, Data: raw})
		text.WriteString(a.Str() + "\n")
	}
	if err := th.Close(); err != nil {
		return err
	}
	if out == "" {
		_, err := io.WriteString(in.opts.Stdout, text.String())
		return err
	}
	return writeOutputs(arrays, out)
}

func readNPY(path string) (*npy.Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := npy.Read(f, maxInputBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return a, nil
}

func writeOutputs(arrays []*npy.Array, out string) error {
	switch {
	case strings.HasSuffix(out, ".npz"):
		named := make([]npy.Named, len(arrays))
		for i, a := range arrays {
			named[i] = npy.Named{Name: fmt.Sprintf("out_%d", i), Array: a}
		}
		var b bytes.Buffer
		if err := npy.WriteNPZ(&b, named, false); err != nil {
			return err
		}
		return os.WriteFile(out, b.Bytes(), 0o644)
	case len(arrays) != 1:
		return fmt.Errorf("the artifact has %d outputs: write them to a .npz file (-o %s.npz)", len(arrays), strings.TrimSuffix(out, ".npy"))
	}
	var b bytes.Buffer
	if err := npy.Write(&b, arrays[0]); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
