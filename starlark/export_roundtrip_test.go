package starlark_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/internal/scripttest"
	libexport "github.com/jaxsh/jaxsh/lib/export"
	"github.com/jaxsh/jaxsh/lib/hostcallback"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Every program of the jit and effects script suites runs again with each
// jitted call exported, serialized, deserialized and called: the same
// results (the scripts' asserts) and the same printed effects in the same
// order (the effects scripts' golden output).
func TestScriptSuitesThroughExport(t *testing.T) {
	off := setExportRoundTrip()
	defer off()
	// The effects suite is split between this package (print) and the host
	// callbacks' (lib/hostcallback); each script runs under the name its
	// golden output was written with, testdata/effects/NAME.star.
	effects, err := filepath.Glob("testdata/effects/*.star")
	more, err2 := filepath.Glob("../lib/hostcallback/testdata/effects/*.star")
	if err != nil || err2 != nil || len(effects) == 0 || len(more) == 0 {
		t.Fatalf("no effects scripts: %v %v", err, err2)
	}
	for _, file := range append(effects, more...) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(file, ".star") + ".out")
			if err != nil {
				t.Fatal(err)
			}
			name := "testdata/effects/" + filepath.Base(file)
			if got := scripttest.Output(t, name, src); got != string(want) {
				t.Fatalf("through export, the output differs\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
	for _, file := range []string{"testdata/jit.star", "testdata/decorator.star", "testdata/control_flow.star"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			scripttest.Chunks(t, file, scriptExtras)
		})
	}
}

// setExportRoundTrip makes every top-level call of a jitted function go
// through export, serialize and deserialize (callbacks bound again to the
// functions they were traced with) and call the loaded artifact, traced
// once per signature as jit traces. It returns the function that turns
// it off.
func setExportRoundTrip() (off func()) {
	var mu sync.Mutex
	cache := map[*Jitted]map[string]*libexport.Exported{}
	return SetJitCallHook(func(thread *starlark.Thread, j *Jitted, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		key, leaves, err := j.SplitCall(args, kwargs)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		x := cache[j][key]
		mu.Unlock()
		if x == nil {
			traced, err := j.TraceCall(thread, args, kwargs)
			if err != nil {
				return nil, err
			}
			name := j.Fun().Name()
			e, err := export.New(name, traced.Jaxpr, nil, ExportTree(traced.OutTree), traced.Device.Platform(), export.Options{})
			if err != nil {
				return nil, err
			}
			data, err := e.Serialize(0)
			if err != nil {
				return nil, err
			}
			loaded, err := export.DeserializeWith(data, hostcallback.CallbackBindings(hostcallback.Functions(traced.Jaxpr)))
			if err != nil {
				return nil, fmt.Errorf("export round trip of %s: %v", name, err)
			}
			if got, want := loaded.Jaxpr.String(), traced.Jaxpr.String(); got != want {
				return nil, fmt.Errorf("export round trip of %s changed the jaxpr:\n%s\nwas:\n%s", name, got, want)
			}
			x = libexport.Export(loaded)
			mu.Lock()
			if cache[j] == nil {
				cache[j] = map[string]*libexport.Exported{}
			}
			cache[j][key] = x
			mu.Unlock()
		}
		vals := make([]starlark.Value, len(leaves))
		for i, a := range leaves {
			vals[i] = a
		}
		return x.CallLeaves(thread, vals)
	})
}
