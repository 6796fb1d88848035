package cpu

// dotOuter computes a dot_general whose inner dimension is 1 (it contracts
// nothing, or one element): c(b, i, j) = A(b, i) · B(b, j), a batch of
// outer products, which is what vmap(grad) makes of a dense layer's weight
// gradient. Each output row is one row of B scaled by one element of A,
// added to +0 as the contract above asks: the result is written once, at
// memory speed, without clearing it first, by an assembly loop over the
// rows of one batch element when A's elements for them lie at one stride.
// The matmul would pack panels for an inner dimension of 1, and a fused
// broadcast multiplication computes an index per element.
func dotOuter[T dotElem](stop stopSignal, g dotGeometry, a, b, c []T) {
	lk, rk, n := g.lk.at(0), g.rk.at(0), g.n
	pool.parallelFor(stop, g.batch*g.m, max(1, grainElements/n), func(lo, hi int) {
		var gathered []T // B(b, :) when its elements are not contiguous
		for r := lo; r < hi; {
			bi, i0 := r/g.m, r%g.m
			rows := min(g.m-i0, hi-r) // of batch element bi, in this chunk
			base := g.rb.at(bi) + rk
			var y []T
			if g.rn.contiguous() {
				y = b[base+g.rn.at(0):][:n]
			} else {
				if gathered == nil {
					gathered = make([]T, n)
				}
				for j := range gathered {
					gathered[j] = b[base+g.rn.at(j)]
				}
				y = gathered
			}
			out := c[r*n:][:rows*n]
			aBase := g.lb.at(bi) + lk
			if g.lm.table == nil {
				start := aBase + g.lm.at(i0)
				done := outerRowsAsm(out, y, a[start:], g.lm.stride, rows)
				for i := range rows {
					outerRowTail(out[i*n:][:n], y, a[start+i*g.lm.stride], done)
				}
			} else {
				for i := range rows {
					s := a[aBase+g.lm.at(i0+i)]
					row := out[i*n:][:n]
					one := [1]T{s}
					done := outerRowsAsm(row, y, one[:], 0, 1)
					outerRowTail(row, y, s, done)
				}
			}
			r += rows
		}
	})
}

// outerRowTail writes row[j] = T(s*y[j]) + 0 for j from done on.
func outerRowTail[T dotElem](row, y []T, s T, done int) {
	var zero T
	for j := done; j < len(row); j++ {
		row[j] = T(s*y[j]) + zero
	}
}
