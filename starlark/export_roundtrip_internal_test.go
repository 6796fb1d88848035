package starlark

import (
	"fmt"
	"sync"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// SetExportRoundTrip makes every top-level call of a jitted function go
// through export, serialize and deserialize (callbacks bound again to the
// functions they were traced with) and call the loaded artifact, traced
// once per signature as jit traces. It returns the function that turns
// it off.
func SetExportRoundTrip() (off func()) {
	var mu sync.Mutex
	cache := map[*Jitted]map[string]*Exported{}
	exportRoundTrip = func(thread *starlark.Thread, j *Jitted, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		call, err := j.split(args, kwargs)
		if err != nil {
			return nil, err
		}
		key := call.sig.Key() + "@" + call.dev.String()
		mu.Lock()
		x := cache[j][key]
		mu.Unlock()
		if x == nil {
			jaxpr, outTree, err := traceFunction(thread, j.fun, call, nil)
			if err != nil {
				return nil, err
			}
			e, err := export.New(j.fun.Name(), jaxpr, nil, exportTree(outTree), call.dev.Platform(), export.Options{})
			if err != nil {
				return nil, err
			}
			data, err := e.Serialize(0)
			if err != nil {
				return nil, err
			}
			binds := map[string]export.BindFunc{}
			collectHostCallbacks(jaxpr, func(c *hostCallback) {
				fn, name := c.fn, c.ExportName()
				if c.print != nil {
					fn = c.print.stream
				}
				if fn != nil {
					binds[name] = func(kind string, spec []byte) (trace.Callback, error) { return decodeCallback(name, fn, kind, spec) }
				}
			})
			loaded, err := export.DeserializeWith(data, export.DeserializeOptions{Callbacks: binds, Builtin: builtinCallback})
			if err != nil {
				return nil, fmt.Errorf("export round trip of %s: %v", j.fun.Name(), err)
			}
			if got, want := loaded.Jaxpr.String(), jaxpr.String(); got != want {
				return nil, fmt.Errorf("export round trip of %s changed the jaxpr:\n%s\nwas:\n%s", j.fun.Name(), got, want)
			}
			x = &Exported{e: loaded}
			mu.Lock()
			if cache[j] == nil {
				cache[j] = map[string]*Exported{}
			}
			cache[j][key] = x
			mu.Unlock()
		}
		leaves := make([]starlark.Value, len(call.leaves))
		for i, a := range call.leaves {
			leaves[i] = a
		}
		return x.callLeaves(thread, leaves)
	}
	return func() { exportRoundTrip = nil }
}

func collectHostCallbacks(j *trace.Jaxpr, f func(*hostCallback)) {
	for _, eqn := range j.Eqns {
		for _, v := range eqn.Params {
			switch x := v.(type) {
			case *hostCallback:
				f(x)
			case *trace.Jaxpr:
				collectHostCallbacks(x, f)
			case []*trace.Jaxpr:
				for _, s := range x {
					collectHostCallbacks(s, f)
				}
			}
		}
	}
}
