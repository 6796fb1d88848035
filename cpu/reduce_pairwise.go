package cpu

// Pairwise float sums and products of contiguous lines.
//
// A line is cut into leaves of pairwiseLeaf elements (the remainder, if
// any, is a last short leaf). Each leaf is reduced in 4·L interleaved
// partial results, L being the lanes of a 32-byte vector (8 float32, 4
// float64): partial j takes elements j, j+4L, j+8L, ... in order. The
// partials then combine in a fixed tree: lane-wise
// (p[0:L] + p[L:2L]) + (p[2L:3L] + p[3L:4L]), then the L lanes by halves
// (lane j + lane j+L/2, ...). Leaves combine as a balanced binary tree
// (split at the middle leaf), and the short leaf is added last.
//
// Error: a partial sums 256/(4L) elements, the tree adds log2(4L) levels
// and log2(n/256) more, so the bound is (8 + 5 + log2(n/256)) ulp for
// float32 — log n, where a sequential sum grows with n. NumPy's scheme is
// similar (blocks of 128 in 8 partials); the leaf here matches four AVX
// registers, and the assembly leaf (reduce_pairwise_amd64.s) adds in
// exactly this order, so results are bit-identical with or without it.
// Subtrees longer than parallelLine run on the pool; the tree does not
// depend on the schedule, so neither does the result.

const pairwiseLeaf = 256

// sumInexactLine is the pairwise sum, started from +0.0 as XLA's reduce is:
// adding the init value last turns a -0.0 result into +0.0 and changes
// nothing else.
func sumInexactLine[T elemInexact](x []T) T {
	return pairwiseTree(x, sumLeaf[T], func(a, b T) T { return a + b }) + 0
}

func prodInexactLine[T elemInexact](x []T) T {
	return pairwiseTree(x, prodLeaf[T], func(a, b T) T { return a * b })
}

// pairwiseTree reduces x over its leaves as described above.
func pairwiseTree[T any](x []T, leaf func([]T) T, op func(a, b T) T) T {
	full := len(x) / pairwiseLeaf
	rest := x[full*pairwiseLeaf:]
	if full == 0 {
		return leaf(rest)
	}
	s := pairwiseLeaves(x, 0, full, leaf, op)
	if len(rest) > 0 {
		s = op(s, leaf(rest))
	}
	return s
}

// pairwiseLeaves reduces full leaves [lo, hi) of x.
func pairwiseLeaves[T any](x []T, lo, hi int, leaf func([]T) T, op func(a, b T) T) T {
	if hi-lo == 1 {
		return leaf(x[lo*pairwiseLeaf : (lo+1)*pairwiseLeaf])
	}
	mid := lo + (hi-lo)/2
	if (hi-lo)*pairwiseLeaf <= parallelLine {
		return op(pairwiseLeaves(x, lo, mid, leaf, op), pairwiseLeaves(x, mid, hi, leaf, op))
	}
	var parts [2]T
	pool.parallelFor(nil, 2, 1, func(a, b int) {
		for i := a; i < b; i++ {
			if i == 0 {
				parts[0] = pairwiseLeaves(x, lo, mid, leaf, op)
			} else {
				parts[1] = pairwiseLeaves(x, mid, hi, leaf, op)
			}
		}
	})
	return op(parts[0], parts[1])
}

// leafLanes is L, the lanes of T in a 32-byte vector.
func leafLanes[T any]() int { return 32 / sizeOf[T]() }

// sumLeaf sums one leaf (at most pairwiseLeaf elements); full leaves of
// float32 and float64 go to the assembly routine where the CPU has one.
func sumLeaf[T elemInexact](x []T) T {
	if len(x) == pairwiseLeaf {
		if s, ok := sumLeafAsm(x); ok {
			return s
		}
	}
	lanes := leafLanes[T]()
	width := 4 * lanes
	var p [32]T
	n := len(x) / width * width
	if n > 0 {
		copy(p[:width], x)
		for i := width; i < n; i += width {
			row := x[i : i+width]
			for j, v := range row {
				p[j] += v
			}
		}
	}
	for j := range lanes {
		p[j] = (p[j] + p[lanes+j]) + (p[2*lanes+j] + p[3*lanes+j])
	}
	for half := lanes / 2; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	s := p[0]
	for _, v := range x[n:] {
		s += v
	}
	return s
}

// prodLeaf multiplies one leaf in eight interleaved partial products.
func prodLeaf[T elemInexact](x []T) T {
	var p [8]T
	for j := range p {
		p[j] = 1
	}
	n := len(x) / 8 * 8
	for i := 0; i < n; i += 8 {
		v := x[i : i+8 : i+8]
		p[0] *= v[0]
		p[1] *= v[1]
		p[2] *= v[2]
		p[3] *= v[3]
		p[4] *= v[4]
		p[5] *= v[5]
		p[6] *= v[6]
		p[7] *= v[7]
	}
	r := ((p[0] * p[1]) * (p[2] * p[3])) * ((p[4] * p[5]) * (p[6] * p[7]))
	for _, v := range x[n:] {
		r *= v
	}
	return r
}

// addRowsInexact is addRows with the assembly routine for float32 and
// float64 where the CPU has one (the same additions, so the same bits).
func addRowsInexact[T elemInexact](acc, row []T) {
	done := addRowsAsm(acc, row)
	addRows(acc[done:], row[done:len(acc)])
}
