package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The eager lookup of a primitive with params (a 64x64 matmul's
// dot_general): the hashed table against the key text it replaced, which
// still serves params of other kinds.
func BenchmarkEagerLookupDotGeneral(b *testing.B) {
	dev := fake.devs[0]
	prim := trace.Lookup("dot_general")
	params := trace.Params{
		"dimension_numbers":      trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}, LhsBatch: []int{}, RhsBatch: []int{}},
		"precision":              nil,
		"preferred_element_type": trace.Float32,
	}
	in := []trace.AVal{trace.NewAVal(trace.Float32, 64, 64), trace.NewAVal(trace.Float32, 64, 64)}
	eagerEntryOf(dev, prim, params, in) // (the fake backend compiles only neg; the lookup is what is timed)
	b.Run("hashed", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if eagerEntryOf(dev, prim, params, in) == nil {
				b.Fatal("no entry")
			}
		}
	})
	b.Run("keytext", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			buf := keyBuffers.Get().(*[]byte)
			*buf = appendEagerKey((*buf)[:0], prim, params, in, dev)
			e := eagerEntryFor(*buf)
			keyBuffers.Put(buf)
			if e == nil {
				b.Fatal("no entry")
			}
		}
	})
}
