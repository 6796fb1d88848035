package cpu

// dotOuter computes a dot_general whose inner dimension is 1 (it contracts
// nothing, or one element): c(b, i, j) = A(b, i) · B(b, j), a batch of
// outer products, which is what vmap(grad) makes of a dense layer's weight
// gradient. Each output row is one row of B scaled by one element of A,
// added to +0 as the contract above asks, by the axpy kernel while the row
// is in cache: the result is written once, at memory speed. The matmul
// would pack panels for an inner dimension of 1, and a fused broadcast
// multiplication computes an index per element.
func dotOuter[T dotElem](stop stopSignal, g dotGeometry, a, b, c []T) {
	lk, rk, n := g.lk.at(0), g.rk.at(0), g.n
	pool.parallelFor(stop, g.batch*g.m, max(1, grainElements/n), func(lo, hi int) {
		var gathered []T // B(b, :) when its elements are not contiguous
		for r := lo; r < hi; r++ {
			bi, i := r/g.m, r%g.m
			s := a[g.lb.at(bi)+g.lm.at(i)+lk]
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
			out := c[r*n:][:n]
			clear(out)
			done := axpyAsm(out, y, s)
			for j, v := range y[done:] {
				out[done+j] += T(s * v)
			}
		}
	})
}
