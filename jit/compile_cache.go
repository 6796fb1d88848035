package jit

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// CompileCached's cache. Outside jit, each control-flow call traces its
// bodies again (they are Starlark functions that may close over anything)
// but need not compile again: the compiled program is cached by the jaxpr's
// text, the weak types the text does not show, the identity of the
// callbacks it calls, and the device. A loop in Starlark around
// lax.fori_loop compiles once.

type controlCacheEntry struct {
	program *Program
	exe     Executable
}

var controlCache = struct {
	sync.Mutex
	m map[string]controlCacheEntry
}{m: map[string]controlCacheEntry{}}

// maxControlCache bounds the cache; when full it starts afresh (programs in
// use stay alive through their callers).
const maxControlCache = 512

// CompileCached compiles j on d, or returns the program compiled for the
// same jaxpr before: for jaxprs traced anew at every call whose text
// repeats (control flow outside jit).
func CompileCached(d Device, j *trace.Jaxpr) (*Program, Executable, error) {
	key := controlKey(d, j)
	controlCache.Lock()
	e, ok := controlCache.m[key]
	controlCache.Unlock()
	if ok {
		return e.program, e.exe, nil
	}
	opts := OptionsFor(d)
	opts.ShuffleSeed = ShuffleSeed()
	program, exe, err := CompileOnWith(d, j, opts)
	if err != nil {
		return nil, nil, err
	}
	controlCache.Lock()
	if len(controlCache.m) >= maxControlCache {
		clear(controlCache.m)
	}
	controlCache.m[key] = controlCacheEntry{program, exe}
	controlCache.Unlock()
	return program, exe, nil
}

// controlKey is what a compiled program of j on d depends on.
func controlKey(d Device, j *trace.Jaxpr) string {
	var b strings.Builder
	b.WriteString(d.String())
	b.WriteByte('|')
	b.WriteString(j.String())
	writeHidden(&b, j)
	return b.String()
}

// writeHidden appends what j's text leaves out: weak types of its
// variables, and the identity of callbacks (two lambdas print alike).
func writeHidden(b *strings.Builder, j *trace.Jaxpr) {
	weak := func(vs []*trace.Var) {
		for _, v := range vs {
			if v.Aval().Weak {
				b.WriteByte('w')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('|')
	}
	weak(j.ConstVars)
	weak(j.InVars)
	for _, a := range j.OutVars {
		if a.Aval().Weak {
			b.WriteByte('w')
		} else {
			b.WriteByte('.')
		}
	}
	for _, e := range j.Eqns {
		weak(e.Out)
		for _, name := range slices.Sorted(maps.Keys(e.Params)) {
			switch v := e.Params[name].(type) {
			case trace.Callback:
				fmt.Fprintf(b, "cb%p|", v)
			case *trace.Jaxpr:
				writeHidden(b, v)
			case []*trace.Jaxpr:
				for _, sub := range v {
					writeHidden(b, sub)
				}
			}
		}
	}
}
