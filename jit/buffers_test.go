package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func TestBufferAssignment(t *testing.T) {
	tests := []struct {
		name   string
		build  func(b *jb) *trace.Jaxpr
		donate []bool
		// expected figures
		temp, alias int
		aliases     []int
	}{{
		name: "a donated input holds the result of an elementwise loop",
		build: func(b *jb) *trace.Jaxpr {
			return b.build(b.op("mul", nil, b.in(f32, 256), lit(t, 2.0, f32, true)))
		},
		donate: []bool{true}, alias: 1024, aliases: []int{0},
	}, {
		name: "without donation the input is never written",
		build: func(b *jb) *trace.Jaxpr {
			return b.build(b.op("mul", nil, b.in(f32, 256), lit(t, 2.0, f32, true)))
		},
		donate: []bool{false}, aliases: []int{-1},
	}, {
		name: "a donated input read through a transpose cannot be overwritten",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 16, 16)
			return b.build(b.op("add", nil, x, b.op("transpose", trace.Params{"permutation": []int{1, 0}}, x)))
		},
		donate: []bool{true}, aliases: []int{-1},
	}, {
		name: "a donated input of another size cannot hold the result",
		build: func(b *jb) *trace.Jaxpr {
			return b.build(b.op("convert_element_type", convertP(trace.Float64), b.in(f32, 256)))
		},
		donate: []bool{true}, aliases: []int{-1},
	}, {
		name: "an input returned as it is aliases its argument",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 256)
			return b.build(x, b.op("sin", nil, x))
		},
		alias: 1024, aliases: []int{0, -1},
	}, {
		name: "a temporary dying in an elementwise loop is overwritten in place",
		build: func(b *jb) *trace.Jaxpr {
			x, w := b.in(f32, 64, 64), b.in(f32, 64, 64)
			d := b.op("dot_general", dotParams, x, w)
			e := b.op("exp", nil, d)
			return b.build(b.op("dot_general", dotParams, e, w))
		},
		// d and exp(d) share one 16 KiB slot.
		temp: 16 << 10, aliases: []int{-1},
	}, {
		name: "a temporary whose last reader writes a result lives in the result's buffer",
		build: func(b *jb) *trace.Jaxpr {
			x, w := b.in(f32, 64, 64), b.in(f32, 64, 64)
			return b.build(b.op("exp", nil, b.op("dot_general", dotParams, x, w)))
		},
		aliases: []int{-1},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := compileFused(t, tc.build(newJB(t)), Options{Donate: tc.donate})
			m := p.MemoryAnalysis()
			if m.TempSizeInBytes != tc.temp || m.AliasSizeInBytes != tc.alias || !equalInts(p.OutAliases, tc.aliases) {
				t.Errorf("temp %d, alias %d, aliases %v; want %d, %d, %v\n%s",
					m.TempSizeInBytes, m.AliasSizeInBytes, p.OutAliases, tc.temp, tc.alias, tc.aliases, p)
			}
			if want := m.ArgumentSizeInBytes + m.OutputSizeInBytes - m.AliasSizeInBytes + m.TempSizeInBytes; m.PeakMemoryInBytes != want {
				t.Errorf("peak %d, want %d", m.PeakMemoryInBytes, want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Temporaries whose lifetimes do not overlap share the arena; those that
// do never overlap in it.
func TestArenaPacking(t *testing.T) {
	b := newJB(t)
	x, w := b.in(f32, 32, 32), b.in(f32, 32, 32)
	d1 := b.op("dot_general", dotParams, x, w) // 4 KiB, live until d3
	d2 := b.op("dot_general", dotParams, d1, w)
	d3 := b.op("dot_general", dotParams, d2, d1)
	d4 := b.op("dot_general", dotParams, d3, w)
	p := compileFused(t, b.build(b.op("dot_general", dotParams, d4, w)), Options{})
	s := func(v *trace.Var) Slice { return p.Slices[v] }
	if s(d1).Offset == s(d2).Offset || s(d2).Offset == s(d3).Offset || s(d1).Offset == s(d3).Offset {
		t.Errorf("live temporaries overlap: %+v %+v %+v", s(d1), s(d2), s(d3))
	}
	if p.TempSize != 3*4096 {
		t.Errorf("arena %d bytes, want 3 × 4 KiB (d1, d2, d3 live together; d4 reuses d1's or d2's slot)\n%s", p.TempSize, p)
	}
}
