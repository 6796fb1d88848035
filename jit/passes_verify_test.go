package jit

import (
	"maps"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Each case breaks one invariant of a valid program; the verifier must
// name it.
func TestVerifyProgramCatches(t *testing.T) {
	// x → loop (sin, c) → dot (d) → reduction (sum) ; two prints.
	build := func() *Program {
		b := newJB(t)
		x, w := b.in(f32, 32, 32), b.in(f32, 32, 32)
		c := b.op("cos", nil, x)
		b.op("debug_print", trace.Params{"fmt": "a{}", "ordered": false}, x)
		b.op("debug_print", trace.Params{"fmt": "b{}", "ordered": false}, w)
		d := b.op("dot_general", dotParams, c, w)
		return compileFused(t, b.build(b.op("reduce_sum", axesP(0, 1), b.op("exp", nil, d))), Options{})
	}
	find := func(p *Program, prim string) int {
		for i, k := range p.Kernels {
			for _, e := range k.Eqns {
				if e.Prim.Name == prim {
					return i
				}
			}
		}
		t.Fatalf("no %s kernel in\n%s", prim, p)
		return -1
	}
	copyProgram := func(p *Program) *Program {
		q := *p
		q.Kernels = make([]*Kernel, len(p.Kernels))
		copies := map[*Kernel]*Kernel{}
		for i, k := range p.Kernels {
			kc := *k
			kc.Eqns, kc.In, kc.Out = append([]*trace.Eqn(nil), k.Eqns...), append([]*trace.Var(nil), k.In...), append([]*trace.Var(nil), k.Out...)
			q.Kernels[i], copies[k] = &kc, &kc
		}
		q.orderEdges = nil
		for _, e := range p.orderEdges {
			q.orderEdges = append(q.orderEdges, [2]*Kernel{copies[e[0]], copies[e[1]]})
		}
		q.Slices = maps.Clone(p.Slices)
		return &q
	}
	tests := []struct {
		name   string
		break_ func(p *Program)
		want   string
	}{{
		name: "a kernel runs before what it reads is written",
		break_: func(p *Program) {
			i, j := find(p, "cos"), find(p, "dot_general")
			p.Kernels[i], p.Kernels[j] = p.Kernels[j], p.Kernels[i]
		},
		want: "before any kernel writes it",
	}, {
		name: "an opaque primitive inside a loop",
		break_: func(p *Program) {
			dot := p.Kernels[find(p, "dot_general")]
			k := p.Kernels[find(p, "cos")]
			k.Eqns = append(k.Eqns, dot.Eqns[0])
			k.In = append(k.In, dot.In[1])
		},
		want: "dot_general cannot be fused",
	}, {
		name: "equations out of dependency order inside a kernel",
		break_: func(p *Program) {
			k := p.Kernels[find(p, "reduce_sum")]
			k.Eqns[0], k.Eqns[1] = k.Eqns[1], k.Eqns[0]
		},
		want: "neither an input nor computed before it",
	}, {
		name: "a reduction kernel whose last equation is not its reduction",
		break_: func(p *Program) {
			loop := p.Kernels[find(p, "cos")]
			k := p.Kernels[find(p, "reduce_sum")]
			k.Eqns = append(k.Eqns, loop.Eqns[0])
			k.In = append(k.In, loop.In[0])
		},
		want: "its last 1 equations must be the reductions it writes",
	}, {
		name: "an input listed but not read",
		break_: func(p *Program) {
			k := p.Kernels[find(p, "reduce_sum")]
			k.In = append(k.In, p.Args[0])
		},
		want: "is not read from memory",
	}, {
		name: "effects out of order",
		break_: func(p *Program) {
			var prints []int
			for i, k := range p.Kernels {
				if k.Eqns[0].Prim.Name == "debug_print" {
					prints = append(prints, i)
				}
			}
			p.Kernels[prints[0]], p.Kernels[prints[1]] = p.Kernels[prints[1]], p.Kernels[prints[0]]
		},
		want: "before an earlier effect's kernel",
	}, {
		name: "a kernel writes into an argument that is not donated",
		break_: func(p *Program) {
			v := p.Kernels[find(p, "cos")].Out[0]
			p.Slices[v] = Slice{Kind: ArgSlice, Index: 0, Size: p.Slices[v].Size}
		},
		want: "which is not donated",
	}, {
		name: "two live temporaries share memory",
		break_: func(p *Program) {
			c := p.Kernels[find(p, "cos")].Out[0]
			d := p.Kernels[find(p, "dot_general")].Out[0]
			s := p.Slices[d]
			s.Offset = p.Slices[c].Offset
			p.Slices[d] = s
		},
		want: "share memory while both live",
	}, {
		name: "a value with a slice of the wrong size",
		break_: func(p *Program) {
			d := p.Kernels[find(p, "dot_general")].Out[0]
			s := p.Slices[d]
			s.Size--
			p.Slices[d] = s
		},
		want: "but its slice has",
	}}
	valid := build()
	if err := VerifyProgram(valid); err != nil {
		t.Fatalf("the valid program fails: %v\n%s", err, valid)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := copyProgram(valid)
			tc.break_(p)
			err := VerifyProgram(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
