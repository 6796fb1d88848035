package jit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// String is the kernel program as compile().as_text() shows it: a header
// with the memory figures, the arguments and constants, then one block per
// kernel in execution order — its kind and loop shape, the values it reads
// from memory, its equations (in jaxpr syntax), the values it writes, each
// value with its place in memory (see Slice) and size — and the results:
//
//	program: 1 kernel, 1 arg, 1 result; args 32 B, results 32 B, aliased 0 B, temp 0 B, constants 0 B
//	  arg 0  a:f32[8]  32 B
//	kernel 0: loop f32[8]
//	  in   a:f32[8]  arg 0  32 B
//	  b:f32[8] = sin a
//	  c:f32[8] = mul b 2.0:f32[]
//	  out  c:f32[8]  result 0  32 B
//	results: c
//
// Variables are named a, b, ... in order of first appearance. The text is
// deterministic (golden-tested) and is what generated_code_size_in_bytes
// counts.
func (p *Program) String() string { return p.text(newNamer()) }

// text is String with the names of n (a body printed under its kernel
// continues its program's names).
func (p *Program) text(n *namer) string {
	var b strings.Builder
	m := p.memoryFigures()
	fmt.Fprintf(&b, "program: %s, %s, %s; args %s, results %s, aliased %s, temp %s, constants %s\n",
		plural(len(p.Kernels), "kernel"), plural(len(p.Args), "arg"), plural(len(p.Jaxpr.OutVars), "result"),
		byteSize(m.ArgumentSizeInBytes), byteSize(m.OutputSizeInBytes), byteSize(m.AliasSizeInBytes),
		byteSize(m.TempSizeInBytes), byteSize(m.EmbeddedConstantSizeInBytes))
	for i, v := range p.Args {
		fmt.Fprintf(&b, "  arg %d  %s  %s", i, n.binder(v), byteSize(bytesOf(v.Aval())))
		if p.Donated[i] {
			b.WriteString("  donated")
		}
		b.WriteByte('\n')
	}
	for i, e := range p.Embedded {
		fmt.Fprintf(&b, "  const %d  %s  %s\n", i, n.binder(e.Var), byteSize(len(e.Value.Data)))
	}
	for i, k := range p.Kernels {
		fmt.Fprintf(&b, "kernel %d: %s", i, k.Kind)
		if k.Kind != OpaqueKernel && k.Kind != ControlKernel {
			fmt.Fprintf(&b, " %s[%s]", dtypeOfKernel(k), shapeDims(k.Shape))
		}
		b.WriteByte('\n')
		for _, v := range k.In {
			fmt.Fprintf(&b, "  in   %s%s\n", n.binder(v), p.place(v))
		}
		for _, e := range k.Eqns {
			b.WriteString("  ")
			b.WriteString(n.eqn(e))
			b.WriteByte('\n')
		}
		for _, v := range k.Out {
			fmt.Fprintf(&b, "  out  %s%s\n", n.binder(v), p.place(v))
		}
		if k.Control != nil {
			k.Control.write(&b, n)
		}
	}
	results := make([]string, len(p.Jaxpr.OutVars))
	for i, a := range p.Jaxpr.OutVars {
		results[i] = n.atom(a)
	}
	fmt.Fprintf(&b, "results: %s\n", strings.Join(results, " "))
	return b.String()
}

// place describes where a value lives, when buffers are assigned.
func (p *Program) place(v *trace.Var) string {
	s, ok := p.Slices[v]
	if !ok {
		return ""
	}
	switch s.Kind {
	case TempSlice:
		return fmt.Sprintf("  temp @%d  %s", s.Offset, byteSize(s.Size))
	case OutputSlice:
		return fmt.Sprintf("  result %d  %s", s.Index, byteSize(s.Size))
	}
	return fmt.Sprintf("  %s %d  %s", s.Kind, s.Index, byteSize(s.Size))
}

// dtypeOfKernel names the dtype of a fused kernel's first output, which
// the header shows with the loop shape.
func dtypeOfKernel(k *Kernel) string {
	if len(k.Out) > 0 {
		return k.Out[0].Aval().DType.ShortName()
	}
	return "?"
}

func shapeDims(s trace.Shape) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ",")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// byteSize prints a byte count exactly, with a binary unit when it divides
// evenly: 512 B, 4 KiB, 1 MiB, 1536 B... (1.5 KiB is not exact: 1536 B).
func byteSize(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.Itoa(n>>30) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " B"
}

// A namer names variables a, b, ... in order of first appearance.
type namer struct {
	names map[*trace.Var]string
}

func newNamer() *namer { return &namer{names: map[*trace.Var]string{}} }

func (n *namer) name(v *trace.Var) string {
	if s, ok := n.names[v]; ok {
		return s
	}
	s := alphabeticName(len(n.names))
	n.names[v] = s
	return s
}

// alphabeticName is the jaxpr printer's naming: 0 -> a, 25 -> z, 26 -> ba.
func alphabeticName(i int) string {
	var s []byte
	for len(s) == 0 || i > 0 {
		s = append([]byte{byte('a' + i%26)}, s...)
		i /= 26
	}
	return string(s)
}

func (n *namer) binder(v *trace.Var) string { return n.name(v) + ":" + v.Aval().String() }

func (n *namer) atom(a trace.Atom) string {
	switch x := a.(type) {
	case *trace.Var:
		return n.name(x)
	case *trace.Literal:
		return x.String()
	}
	return "?"
}

// eqn prints an equation as jaxpr text does (without breaking lines);
// nested jaxprs in params show as {...}.
func (n *namer) eqn(e *trace.Eqn) string {
	var b strings.Builder
	in := make([]string, len(e.In))
	for i, a := range e.In {
		in[i] = n.atom(a)
	}
	for i, v := range e.Out {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n.binder(v))
	}
	b.WriteString(" = ")
	b.WriteString(e.Prim.Name)
	b.WriteString(e.Params.String())
	for _, s := range in {
		b.WriteByte(' ')
		b.WriteString(s)
	}
	return b.String()
}
