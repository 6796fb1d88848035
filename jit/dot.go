package jit

import (
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// AsDot is compile().as_dot(): the kernel graph in Graphviz DOT. Each
// kernel is a cluster of its equations (edges inside a cluster are values
// that stay in registers); arguments, constants and results are ellipses;
// every value that passes through memory is an edge from the equation that
// writes it (or its argument) to each equation that reads it, labelled with
// the value's name and size — the arrows the study counts. Node names and
// their order are deterministic.
func (p *Program) AsDot() string {
	var b strings.Builder
	n := newNamer()
	b.WriteString("digraph program {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n")
	// source of each value in memory: a node name
	source := map[*trace.Var]string{}
	for i, v := range p.Args {
		id := fmt.Sprintf("arg%d", i)
		source[v] = id
		fmt.Fprintf(&b, "  %s [shape=ellipse, label=%q];\n", id, fmt.Sprintf("arg %d\n%s", i, n.binder(v)))
	}
	for i, e := range p.Embedded {
		id := fmt.Sprintf("const%d", i)
		source[e.Var] = id
		fmt.Fprintf(&b, "  %s [shape=ellipse, label=%q];\n", id, fmt.Sprintf("const %d\n%s", i, n.binder(e.Var)))
	}
	var memEdges []string
	for ki, k := range p.Kernels {
		fmt.Fprintf(&b, "  subgraph cluster_k%d {\n    label=%q;\n    style=filled; color=lightgrey;\n",
			ki, fmt.Sprintf("kernel %d: %s", ki, k.Kind))
		local := map[*trace.Var]string{}
		for ei, e := range k.Eqns {
			id := fmt.Sprintf("k%de%d", ki, ei)
			fmt.Fprintf(&b, "    %s [label=%q];\n", id, n.eqn(e))
			drawn := map[*trace.Var]bool{}
			for _, a := range e.In {
				v, ok := a.(*trace.Var)
				if !ok || drawn[v] {
					continue
				}
				drawn[v] = true
				if from, ok := local[v]; ok {
					fmt.Fprintf(&b, "    %s -> %s;\n", from, id)
				} else if from, ok := source[v]; ok {
					memEdges = append(memEdges, memEdge(from, id, n, v))
				}
			}
			for _, v := range e.Out {
				local[v] = id
			}
		}
		b.WriteString("  }\n")
		for _, v := range k.Out {
			source[v] = local[v]
		}
	}
	for _, e := range memEdges {
		b.WriteString(e)
	}
	for i, a := range p.Jaxpr.OutVars {
		id := fmt.Sprintf("result%d", i)
		fmt.Fprintf(&b, "  %s [shape=ellipse, label=%q];\n", id, fmt.Sprintf("result %d", i))
		if v, ok := a.(*trace.Var); ok {
			b.WriteString(memEdge(source[v], id, n, v))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func memEdge(from, to string, n *namer, v *trace.Var) string {
	return fmt.Sprintf("  %s -> %s [label=%q];\n", from, to, n.name(v)+" "+byteSize(bytesOf(v.Aval())))
}
