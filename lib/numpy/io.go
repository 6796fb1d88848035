package numpy

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/internal/npy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Files of arrays (SPEC §9): jnp.save, load, savez, savez_compressed in
// NumPy's .npy/.npz formats (internal/npy), and loadtxt/savetxt for numeric
// text. Every file goes through the thread's file policy: for the command
// line, the tree below the script's directory.

func init() {
	jstarlark.Register(Module, "save", jnpSave)
	jstarlark.Register(Module, "load", jnpLoad)
	jstarlark.Register(Module, "savez", jnpSavez(false))
	jstarlark.Register(Module, "savez_compressed", jnpSavez(true))
}

// maxFileBytes bounds what one file function reads into memory.
const maxFileBytes = 1 << 34

// toNPY reads an array's elements to the host as a .npy array.
func toNPY(fn string, v starlark.Value) (*npy.Array, error) {
	a, err := jstarlark.EnsureArray(fn, v)
	if err != nil {
		return nil, err
	}
	raw, err := a.HostBytes()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	return &npy.Array{DType: a.DType().Name(), Shape: append([]int(nil), a.Shape()...), Data: raw}, nil
}

// fromNPY makes an array on the thread's default device.
func fromNPY(thread *starlark.Thread, fn, name string, n *npy.Array) (*jstarlark.Array, error) {
	dt, err := trace.ParseDType(n.DType)
	if err != nil || !dt.IsArray() {
		return nil, fmt.Errorf("%s: %s holds %s elements, which jaxsh has no dtype for", fn, name, n.DType)
	}
	dev, err := jstarlark.DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	return jstarlark.NewArrayFromHost(dev, dt, n.Shape, n.Data)
}

// withSuffix adds ext to a name that lacks it, as np.save and np.savez do.
func withSuffix(name, ext string) string {
	if strings.HasSuffix(name, ext) {
		return name
	}
	return name + ext
}

// jnp.save(file, arr): NumPy's .npy format; ".npy" is appended when
// missing.
func jnpSave(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var arr starlark.Value
	allowPickle := true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "file", &name, "arr", &arr, "allow_pickle?", &allowPickle); err != nil {
		return nil, err
	}
	n, err := toNPY("save", arr)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := npy.Write(&buf, n); err != nil {
		return nil, fmt.Errorf("save: %w", err)
	}
	return starlark.None, jstarlark.WriteFile(thread, withSuffix(name, ".npy"), buf.Bytes())
}

// jnp.load(file): an array from a .npy file, or from an .npz archive a dict
// of its arrays by name (in the archive's order), as np.load's NpzFile
// answers them.
func jnpLoad(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var mmap starlark.Value = starlark.None
	allowPickle := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "file", &name, "mmap_mode?", &mmap, "allow_pickle?", &allowPickle); err != nil {
		return nil, err
	}
	if mmap != starlark.None {
		return nil, fmt.Errorf("load: mmap_mode is not supported (arrays live on a device)")
	}
	data, err := jstarlark.ReadFile(thread, name, maxFileBytes)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")) {
		members, err := npy.ReadNPZ(bytes.NewReader(data), int64(len(data)), maxFileBytes)
		if err != nil {
			return nil, fmt.Errorf("load: %s: %w", name, err)
		}
		d := starlark.NewDict(len(members))
		for _, m := range members {
			a, err := fromNPY(thread, "load", name+"["+m.Name+"]", m.Array)
			if err != nil {
				return nil, err
			}
			d.SetKey(starlark.String(m.Name), a)
		}
		d.Freeze()
		return d, nil
	}
	n, err := npy.Read(bytes.NewReader(data), maxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("load: %s: %w", name, err)
	}
	return fromNPY(thread, "load", name, n)
}

// jnp.savez(file, *arrays, **named) and savez_compressed: positional
// arrays are named arr_0, arr_1, ... as NumPy names them.
func jnpSavez(compress bool) jstarlark.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		if len(args) < 1 {
			return nil, fmt.Errorf("%s: missing argument file", fn)
		}
		name, ok := starlark.AsString(args[0])
		if !ok {
			return nil, fmt.Errorf("%s: file must be a string, got %s", fn, args[0].Type())
		}
		var members []npy.Named
		for i, v := range args[1:] {
			n, err := toNPY(fn, v)
			if err != nil {
				return nil, err
			}
			members = append(members, npy.Named{Name: fmt.Sprintf("arr_%d", i), Array: n})
		}
		for _, kv := range kwargs {
			key := string(kv[0].(starlark.String))
			n, err := toNPY(fn, kv[1])
			if err != nil {
				return nil, err
			}
			members = append(members, npy.Named{Name: key, Array: n})
		}
		var buf bytes.Buffer
		if err := npy.WriteNPZ(&buf, members, compress); err != nil {
			return nil, fmt.Errorf("%s: %w", fn, err)
		}
		return starlark.None, jstarlark.WriteFile(thread, withSuffix(name, ".npz"), buf.Bytes())
	}
}
