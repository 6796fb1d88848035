package cpu

// Blocked matrix multiply C[b] = A[b]·B[b] for dot_general (Goto's
// scheme). For each block of kc contracting indices, a panel of B
// (kc × nc columns) is packed into column slivers nr wide and a block of A
// (mc rows × kc) into row slivers mr tall, both in the compute type and
// zero-padded to whole slivers; a micro-kernel then computes one mr × nr
// tile of C from one A sliver and one B sliver with k innermost, the tile
// held in registers. The B sliver stays in L1 while the kernel walks down
// the A block, which stays in L2.
//
// Each output's products are added in k order: the first kc block starts
// from +0, later blocks continue from the partial sum stored in C. Float
// products are fused into the sum (acc = fma(a, b, acc), one rounding per
// step, as BLAS does on FMA hardware). So the result is exactly the
// sequential fused sum over k, whatever the blocking, the kernel (assembly
// or Go) or the number of threads.
//
// Parallel work: with many batch elements, whole matmuls go to workers
// (each one sequential); otherwise each B panel is packed once, its slivers
// split across workers, and the row blocks of A that use it are then
// shared out, each worker packing its own A block.

import "sync"

const (
	gemmKC = 256  // contracting indices per packed panel
	gemmMC = 96   // rows of A per packed block, at most
	gemmNC = 2048 // columns of B per packed panel at most
)

// A gemmKernel computes one mr × nr tile: c[r*ldc+j] (+)= Σ_p a[p*mr+r]·b[p*nr+j]
// for p < kc, from +0 unless accumulate. next, when not 0, is the offset
// in elements from c of the tile computed after this one, which a kernel
// may prefetch.
type gemmKernel[T dotElem] struct {
	mr, nr int
	tile   func(kc int, a, b, c []T, ldc int, accumulate bool, next int)
}

// gemmKernelFor picks the fastest kernel for T on this machine: assembly
// for float32 and float64 where the CPU has it, else a portable one (fused
// for floats, so every machine computes the same bits).
func gemmKernelFor[T dotElem]() gemmKernel[T] {
	var best any
	switch any(*new(T)).(type) {
	case float32:
		best = gemmPortableFloat32
		if len(gemmFloat32Available) > 0 {
			best = gemmFloat32Available[0]
		}
	case float64:
		best = gemmPortableFloat64
		if len(gemmFloat64Available) > 0 {
			best = gemmFloat64Available[0]
		}
	}
	if k, ok := best.(gemmKernel[T]); ok {
		return k
	}
	return gemmKernel[T]{mr: 2, nr: 4, tile: gemmTile2x4[T]}
}

// roundUp is a rounded up to a multiple of b (ceilDiv is structural.go's).
func roundUp(a, b int) int { return ceilDiv(a, b) * b }

func gemm[T dotElem](stop stopSignal, g dotGeometry, a, b, c []T) {
	gemmWith(stop, gemmKernelFor[T](), g, a, b, c)
}

func gemmWith[T dotElem](stop stopSignal, kern gemmKernel[T], g dotGeometry, a, b, c []T) {
	flops := g.m * g.n * g.k
	kc, nc := min(g.k, gemmKC), min(roundUp(g.n, kern.nr), gemmNC)
	mc := gemmMC
	if !(g.batch >= 2*pool.size || flops < 1<<16) {
		// Row blocks shared out: make their number a multiple of twice the
		// workers, so they come out even.
		blocks := min(roundUp(ceilDiv(g.m, gemmMC), 2*pool.size), ceilDiv(g.m, kern.mr))
		mc = roundUp(ceilDiv(g.m, blocks), kern.mr)
	}
	newWork := func(packsB bool) *gemmWork[T] {
		w := &gemmWork[T]{stop: stop, kern: kern, g: &g, a: a, b: b, c: c, mc: mc,
			aPack: make([]T, roundUp(min(g.m, mc), kern.mr)*kc),
			edge:  make([]T, kern.mr*kern.nr)}
		if packsB {
			w.bPack = make([]T, nc*kc)
		}
		return w
	}
	if g.batch >= 2*pool.size || flops < 1<<16 {
		// A stoppable program cuts the batch into many chunks: their
		// packing buffers are reused, not made per chunk.
		var works sync.Pool
		pool.parallelFor(stop, g.batch, max(1, (1<<18)/max(1, flops)), func(lo, hi int) {
			w, _ := works.Get().(*gemmWork[T])
			if w == nil {
				w = newWork(true)
			}
			for bi := lo; bi < hi; bi++ {
				w.matmul(bi, nil)
			}
			works.Put(w)
		})
		return
	}
	w := newWork(true)
	for bi := range g.batch {
		w.matmul(bi, func() *gemmWork[T] { return newWork(false) })
	}
}

// gemmWork is one matmul's operands, kernel and packing buffers.
type gemmWork[T dotElem] struct {
	stop         stopSignal
	kern         gemmKernel[T]
	g            *dotGeometry
	a, b, c      []T
	aPack, bPack []T
	edge         []T // a tile for C's ragged edges
	mc           int // rows per block of A
}

// matmul computes C[bi]. With helpers (a constructor of per-worker
// state), the packing of B and the row blocks run on the pool.
func (w *gemmWork[T]) matmul(bi int, helpers func() *gemmWork[T]) {
	g, nr := w.g, w.kern.nr
	mBlocks := ceilDiv(g.m, w.mc)
	var workers []*gemmWork[T]
	if helpers != nil {
		workers = make([]*gemmWork[T], mBlocks)
	}
	for j0 := 0; j0 < g.n; j0 += gemmNC {
		j1 := min(j0+gemmNC, g.n)
		for p0 := 0; p0 < g.k; p0 += gemmKC {
			kc := min(gemmKC, g.k-p0)
			rk, rn := g.rk.window(p0, p0+kc), g.rn.window(j0, j1)
			if helpers == nil {
				packColumns(w.bPack, w.b, g.rb.at(bi), rk, rn, 0, rn.n, nr)
				for ib := 0; ib < g.m; ib += w.mc {
					if w.stop.requested() {
						panic(errStopped)
					}
					w.rowBlock(bi, ib, min(ib+w.mc, g.m), j0, j1, p0, kc)
				}
				continue
			}
			slivers := ceilDiv(rn.n, nr)
			pool.parallelFor(w.stop, slivers, max(1, 1<<14/(kc*nr)), func(lo, hi int) {
				packColumns(w.bPack, w.b, g.rb.at(bi), rk, rn, lo*nr, min(hi*nr, rn.n), nr)
			})
			pool.parallelFor(w.stop, mBlocks, 1, func(lo, hi int) {
				for blk := lo; blk < hi; blk++ {
					if workers[blk] == nil {
						workers[blk] = helpers()
					}
					h := workers[blk]
					h.bPack = w.bPack
					ib := blk * w.mc
					h.rowBlock(bi, ib, min(ib+w.mc, g.m), j0, j1, p0, kc)
				}
			})
		}
	}
}

// rowBlock computes rows [ib, ie) × columns [j0, j1) of C[bi] for the kc
// contracting indices from p0, with B's panel already packed in w.bPack.
func (w *gemmWork[T]) rowBlock(bi, ib, ie, j0, j1, p0, kc int) {
	g, mr, nr := w.g, w.kern.mr, w.kern.nr
	cb := w.c[bi*g.m*g.n:]
	mc, nc := ie-ib, j1-j0
	packRows(w.aPack, w.a, g.lb.at(bi), g.lm.window(ib, ie), g.lk.window(p0, p0+kc), mr)
	for jr := 0; jr < nc; jr += nr {
		bs := w.bPack[jr*kc : (jr+nr)*kc]
		for ir := 0; ir < mc; ir += mr {
			as := w.aPack[ir*kc : (ir+mr)*kc]
			ct := cb[(ib+ir)*g.n+j0+jr:]
			if ir+mr <= mc && jr+nr <= nc {
				// The next tile is the one below, or at the end of the
				// block the top of the next column of tiles.
				next := mr * g.n
				if ir+mr >= mc {
					next = nr - ir*g.n
				}
				w.kern.tile(kc, as, bs, ct, g.n, p0 > 0, next)
				continue
			}
			w.edgeTile(kc, as, bs, ct, min(mr, mc-ir), min(nr, nc-jr), p0 > 0)
		}
	}
}

// edgeTile runs the kernel on a full tile buffer and copies the rows × cols
// that exist in C.
func (w *gemmWork[T]) edgeTile(kc int, as, bs, ct []T, rows, cols int, accumulate bool) {
	nr, n := w.kern.nr, w.g.n
	if accumulate {
		for r := range rows {
			copy(w.edge[r*nr:r*nr+cols], ct[r*n:r*n+cols])
		}
	}
	w.kern.tile(kc, as, bs, w.edge, nr, accumulate, 0)
	for r := range rows {
		copy(ct[r*n:r*n+cols], w.edge[r*nr:r*nr+cols])
	}
}

// packRows packs rows (rowOff) × contracting indices (kOff) of x into
// slivers of mr rows: dst[s*mr*kc + p*mr + r] = row s*mr+r at p, zero past
// the last row.
func packRows[T dotElem](dst, x []T, base int, rowOff, kOff dotOffsets, mr int) {
	kc := kOff.n
	var rows [16][]T // the sliver's rows, when contiguous in k
	for s := 0; s < rowOff.n; s += mr {
		sliver := dst[s*kc : (s+mr)*kc]
		if kOff.contiguous() && mr <= len(rows) && s+mr <= rowOff.n {
			// Whole sliver, rows contiguous in k: read mr rows side by side
			// and write the sliver in order, one contiguous stream.
			for r := range mr {
				rows[r] = x[base+rowOff.at(s+r)+kOff.at(0):][:kc]
			}
			packRowsContiguous(sliver, rows[:mr], kc)
			continue
		}
		for r := range mr {
			if s+r >= rowOff.n {
				for p := range kc {
					sliver[p*mr+r] = 0
				}
				continue
			}
			start := base + rowOff.at(s+r)
			switch {
			case kOff.contiguous():
				for p, v := range x[start+kOff.at(0):][:kc] {
					sliver[p*mr+r] = v
				}
			case kOff.table == nil:
				start += kOff.base
				for p := range kc {
					sliver[p*mr+r] = x[start+p*kOff.stride]
				}
			default:
				for p, o := range kOff.table {
					sliver[p*mr+r] = x[start+o]
				}
			}
		}
	}
}

// packRowsContiguous interleaves rows (each kc long) into sliver:
// sliver[p*len(rows)+r] = rows[r][p].
func packRowsContiguous[T dotElem](sliver []T, rows [][]T, kc int) {
	mr := len(rows)
	for p0 := 0; p0 < kc; p0 += 8 {
		p1 := min(p0+8, kc)
		for r, row := range rows {
			src := row[p0:p1]
			for i, v := range src {
				sliver[(p0+i)*mr+r] = v
			}
		}
	}
}

// packColumns packs contracting indices (kOff) × columns [c0, c1) of
// colOff (c0 a multiple of nr) into slivers of nr columns:
// dst[s*nr*kc + p*nr + j] = column s*nr+j at p, zero past the last column.
func packColumns[T dotElem](dst, x []T, base int, kOff, colOff dotOffsets, c0, c1, nr int) {
	kc := kOff.n
	contiguous := colOff.contiguous()
	for s := c0; s < c1; s += nr {
		sliver := dst[s*kc : (s+nr)*kc]
		cols := min(nr, c1-s)
		for p := range kc {
			out := sliver[p*nr : (p+1)*nr]
			start := base + kOff.at(p)
			if contiguous {
				for j, v := range x[start+colOff.at(s):][:cols] {
					out[j] = v
				}
			} else {
				for j := range cols {
					out[j] = x[start+colOff.at(s+j)]
				}
			}
			clear(out[cols:])
		}
	}
}

// gemmTile2x4 is the portable micro-kernel: a 2×4 tile in eight local
// accumulators, which with the four B values and one A value fits amd64's
// registers (a 4×4 tile spills and runs three times slower). T(a*b) keeps
// Go from fusing the multiply-add.
func gemmTile2x4[T dotElem](kc int, a, b, c []T, ldc int, accumulate bool, _ int) {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	if accumulate {
		r0, r1 := c[:4:4], c[ldc:ldc+4:ldc+4]
		c00, c01, c02, c03 = r0[0], r0[1], r0[2], r0[3]
		c10, c11, c12, c13 = r1[0], r1[1], r1[2], r1[3]
	}
	a, b = a[:2*kc], b[:4*kc]
	for p := range kc {
		av, bv := a[2*p:2*p+2:2*p+2], b[4*p:4*p+4:4*p+4]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		a0, a1 := av[0], av[1]
		c00 += T(a0 * b0)
		c01 += T(a0 * b1)
		c02 += T(a0 * b2)
		c03 += T(a0 * b3)
		c10 += T(a1 * b0)
		c11 += T(a1 * b1)
		c12 += T(a1 * b2)
		c13 += T(a1 * b3)
	}
	r0, r1 := c[:4:4], c[ldc:ldc+4:ldc+4]
	r0[0], r0[1], r0[2], r0[3] = c00, c01, c02, c03
	r1[0], r1[1], r1[2], r1[3] = c10, c11, c12, c13
}
