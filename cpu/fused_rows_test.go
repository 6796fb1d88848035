package cpu

import (
	"fmt"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Short rows walk their coordinates without a branch when the row length is
// a power of two: row and column coordinates of every position, with
// blocks that start in the middle of a row (777 rows of odd lengths and of
// powers of two), must match the unfused iotas.
func TestFusedShortRowCoordinates(t *testing.T) {
	for _, w := range []int{1, 2, 3, 4, 8, 16, 5} {
		shape := []int{777, w}
		jb := newJaxprBuilder(t)
		a := jb.bind("iota", trace.Params{"dtype": i32, "shape": shape, "dimension": 0})
		b := jb.bind("iota", trace.Params{"dtype": i32, "shape": shape, "dimension": 1})
		j := jb.build(jb.bind("add", nil, jb.bind("mul", nil, a, jb.lit(1000, i32)), b))
		checkFused(t, fmt.Sprintf("row coordinates %v", shape), j, jit.LoopKernel, shape)
	}
}
