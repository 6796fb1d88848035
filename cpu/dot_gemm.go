package cpu

// Blocked matrix multiply C[b] = A[b]·B[b] for dot_general (Goto's scheme,
// in the loop order BLIS uses). For each panel of nc columns of B and each
// block of kc contracting indices, the panel (kc × nc) is packed into
// column slivers nr wide, zero-padded, sized to stay in a core's L2 (a
// small B with contiguous rows is read in place instead). The
// rows of C are then cut into slivers of gemmRows (6) rows, and for each
// row sliver a micro-kernel walks across the panel, one gemmRows × nr tile
// per B sliver, k innermost, the tile held in registers. The sliver's six
// runs of kc values of A stay in L1 while it walks, so A is not packed: it
// is read where it lies when its rows are contiguous in k and evenly
// spaced (the usual case), else from a row-major copy of each block of kc
// columns. The last row sliver, when short, reads its rows from a
// zero-padded copy, and tiles past C's last column are computed into a
// buffer and copied.
//
// Each output's products are added in k order: the first kc block starts
// from +0, later blocks continue from the partial sum stored in C. Float
// products are fused into the sum (acc = fma(a, b, acc), one rounding per
// step, as BLAS does on FMA hardware). So the result is exactly the
// sequential fused sum over k, whatever the blocking, the kernel (assembly
// or Go, of any width) or the number of threads.
//
// Parallel work: with many batch elements, whole matmuls go to workers
// (each one sequential); otherwise each B panel is packed by all workers,
// and the row slivers that use it are then shared out.

import (
	"sync"
	"unsafe"
)

const (
	gemmRows       = 6         // rows of C per micro-kernel tile
	gemmKC         = 256       // contracting indices per packed panel
	gemmPanelBytes = 512 << 10 // a packed B panel: half of a 1 MiB L2
	// A B this small, with contiguous rows, is read in place: packing it
	// would cost a third of a 64×64 matmul's time, and its few rows stay
	// in cache however far apart they are.
	gemmInPlaceBBytes = 128 << 10
	// Below this many multiply-adds (a 100×100×100 matmul: about 4 µs on
	// one core) a matmul runs on one core: handing work over costs more.
	gemmParallelFMAs = 1 << 20
)

// A gemmKernel computes one gemmRows × nr tile:
// c[r*ldc+j] (+)= Σ_p a[r*lda+p]·b[p*ldb+j] for p < kc, from +0 unless
// accumulate. next, when not 0, is the offset in elements from c of the
// tile computed after this one, which a kernel may prefetch. vecBytes is
// the width of its vectors, which weighs kernels against each other.
type gemmKernel[T dotElem] struct {
	nr, vecBytes int
	tile         func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool, next int)
}

// gemmKernelFor picks the kernel for a matmul n columns wide: of the
// assembly kernels this machine runs (float32 and float64), the one with
// the most useful lanes per instruction once n is padded to its width;
// else a portable one (fused for floats, so every machine computes the
// same bits).
func gemmKernelFor[T dotElem](n int) gemmKernel[T] {
	var available []gemmKernel[T]
	switch k := any(&available).(type) {
	case *[]gemmKernel[float32]:
		*k = gemmFloat32Available
		if len(*k) == 0 {
			*k = []gemmKernel[float32]{gemmPortableFloat32}
		}
	case *[]gemmKernel[float64]:
		*k = gemmFloat64Available
		if len(*k) == 0 {
			*k = []gemmKernel[float64]{gemmPortableFloat64}
		}
	default:
		return portableKernel(gemmTile2x4[T])
	}
	best, bestScore := available[0], 0.0
	for _, k := range available {
		if score := float64(k.vecBytes*n) / float64(roundUp(n, k.nr)); score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// portableKernel makes a gemmRows-row kernel of a two-row Go tile.
func portableKernel[T dotElem](tile2x4 func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool)) gemmKernel[T] {
	return gemmKernel[T]{nr: 4, vecBytes: 1, tile: func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool, _ int) {
		for r := 0; r < gemmRows; r += 2 {
			tile2x4(kc, a[r*lda:], lda, b, ldb, c[r*ldc:], ldc, accumulate)
		}
	}}
}

// roundUp is a rounded up to a multiple of b (ceilDiv is structural.go's).
func roundUp(a, b int) int { return ceilDiv(a, b) * b }

func gemm[T dotElem](stop stopSignal, g dotGeometry, a, b, c []T) {
	gemmWith(stop, gemmKernelFor[T](g.n), g, a, b, c)
}

func gemmWith[T dotElem](stop stopSignal, kern gemmKernel[T], g dotGeometry, a, b, c []T) {
	kc := min(g.k, gemmKC)
	var t T
	nc := max(kern.nr, gemmPanelBytes/(kc*int(unsafe.Sizeof(t)))/kern.nr*kern.nr)
	nc = min(nc, roundUp(g.n, kern.nr))
	newWork := func() *gemmWork[T] {
		return newGemmWork(stop, kern, &g, a, b, c, kc, nc)
	}
	if g.batch >= 2*pool.size || g.m*g.n*g.k < gemmParallelFMAs {
		// A stoppable program cuts the batch into many chunks: their
		// packing buffers are reused, not made per chunk.
		pool.parallelFor(stop, g.batch, max(1, (1<<18)/max(1, g.m*g.n*g.k)), func(lo, hi int) {
			w := newWork()
			for bi := lo; bi < hi; bi++ {
				w.matmul(bi, false)
			}
			w.release()
		})
		return
	}
	w := newWork()
	for bi := range g.batch {
		w.matmul(bi, true)
	}
	w.release()
}

// gemmWork is one matmul's operands, kernel and packing buffers.
type gemmWork[T dotElem] struct {
	stop    stopSignal
	kern    gemmKernel[T]
	g       *dotGeometry
	a, b, c []T
	kc, nc  int
	direct  bool // A's rows are read in place, lda apart
	directB bool // so are B's, ldb apart, but for a ragged last sliver
	bPack   []T  // a packed panel of B
	aCopy   []T  // a block of A[b]'s columns, row-major, when not direct
	edgeA   []T  // the short last row sliver's rows, zero-padded
}

// Packing buffers outlive a call, so a small matmul does not allocate and
// clear them each time.
var gemmWorks32, gemmWorks64 sync.Pool

func gemmWorkPool[T dotElem]() *sync.Pool {
	switch any(*new(T)).(type) {
	case float32:
		return &gemmWorks32
	case float64:
		return &gemmWorks64
	}
	return nil
}

func newGemmWork[T dotElem](stop stopSignal, kern gemmKernel[T], g *dotGeometry, a, b, c []T, kc, nc int) *gemmWork[T] {
	w := &gemmWork[T]{}
	if p := gemmWorkPool[T](); p != nil {
		if old, ok := p.Get().(*gemmWork[T]); ok {
			w = old
		}
	}
	*w = gemmWork[T]{stop: stop, kern: kern, g: g, a: a, b: b, c: c, kc: kc, nc: nc,
		direct: g.lk.contiguous() && g.lm.table == nil,
		directB: g.rn.table == nil && g.rn.stride == 1 && g.rk.table == nil &&
			g.k*g.n*int(unsafe.Sizeof(*new(T))) <= gemmInPlaceBBytes,
		bPack: grow(w.bPack, nc*kc), aCopy: w.aCopy, edgeA: grow(w.edgeA, gemmRows*kc)}
	if !w.direct {
		w.aCopy = grow(w.aCopy, g.m*kc)
	}
	return w
}

// grow is s resliced to n elements, reallocated when too short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (w *gemmWork[T]) release() {
	if p := gemmWorkPool[T](); p != nil {
		w.a, w.b, w.c, w.g, w.stop = nil, nil, nil, nil, nil
		p.Put(w)
	}
}

// matmul computes C[bi]; parallel shares the work out on the pool.
func (w *gemmWork[T]) matmul(bi int, parallel bool) {
	g, nr := w.g, w.kern.nr
	run := func(n, grain int, fn func(lo, hi int)) {
		if parallel {
			pool.parallelFor(w.stop, n, grain, fn)
			return
		}
		if w.stop.requested() {
			panic(errStopped)
		}
		fn(0, n)
	}
	slivers := ceilDiv(g.m, gemmRows)
	// panel computes columns [j0, j0+nc) of C[bi] for contracting indices
	// [p0, p0+kc).
	panel := func(j0, p0 int) {
		nc, kc := min(w.nc, g.n-j0), min(w.kc, g.k-p0)
		rk, rn := g.rk.window(p0, p0+kc), g.rn.window(j0, j0+nc)
		if w.directB {
			if whole := nc / nr * nr; whole < nc {
				packColumns(w.bPack, w.b, g.rb.at(bi), rk, rn, whole, nc, nr)
			}
		} else {
			run(ceilDiv(nc, nr), max(1, grainElements/(kc*nr)), func(lo, hi int) {
				packColumns(w.bPack, w.b, g.rb.at(bi), rk, rn, lo*nr, min(hi*nr, nc), nr)
			})
		}
		run(slivers, max(1, grainElements/(gemmRows*nc*kc)), func(lo, hi int) {
			w.rowSlivers(bi, lo, hi, j0, nc, p0, kc)
		})
	}
	if w.direct {
		// Column panels outermost: C's panel stays in the last-level cache
		// while every block of k updates it.
		for j0 := 0; j0 < g.n; j0 += w.nc {
			for p0 := 0; p0 < g.k; p0 += w.kc {
				panel(j0, p0)
			}
		}
		return
	}
	// Blocks of k outermost: each block of A's columns is copied once.
	for p0 := 0; p0 < g.k; p0 += w.kc {
		kc := min(w.kc, g.k-p0)
		run(g.m, max(1, grainElements/kc), func(lo, hi int) { w.copyRows(bi, lo, hi, p0, kc) })
		for j0 := 0; j0 < g.n; j0 += w.nc {
			panel(j0, p0)
		}
	}
}

// copyRows copies rows [lo, hi) of A[bi] at contracting indices
// [p0, p0+kc) into aCopy, row-major.
func (w *gemmWork[T]) copyRows(bi, lo, hi, p0, kc int) {
	g := w.g
	for i0 := lo; i0 < hi; i0 += 64 {
		i1 := min(i0+64, hi)
		// 64 rows at a time, k outer: a transposed A is read along its rows.
		for p := range kc {
			src := g.lb.at(bi) + g.lk.at(p0+p)
			for i := i0; i < i1; i++ {
				w.aCopy[i*kc+p] = w.a[src+g.lm.at(i)]
			}
		}
	}
}

// rowSlivers computes row slivers [s0, s1) × columns [j0, j0+nc) of C[bi]
// for the kc contracting indices from p0, with B's panel packed in bPack.
func (w *gemmWork[T]) rowSlivers(bi, s0, s1, j0, nc, p0, kc int) {
	g, nr := w.g, w.kern.nr
	cb := w.c[bi*g.m*g.n:]
	var edge []T // a tile for C's ragged edges
	for s := s0; s < s1; s++ {
		i := s * gemmRows
		rows := min(gemmRows, g.m-i)
		a, lda := w.aRows(bi, i, rows, p0, kc)
		for jr := 0; jr < nc; jr += nr {
			ct := cb[i*g.n+j0+jr:]
			cols := min(nr, nc-jr)
			bs, ldb := w.bPack[jr*kc:(jr+nr)*kc], nr
			if w.directB && cols == nr {
				bs, ldb = w.b[g.rb.at(bi)+g.rk.at(p0)+g.rn.at(j0+jr):], g.rk.stride
			}
			if rows == gemmRows && cols == nr {
				// The next tile is to the right, or at the end of the
				// panel the first of the next row sliver.
				next := nr
				if jr+nr >= nc {
					next = gemmRows*g.n - jr
					if i+2*gemmRows > g.m {
						next = 0
					}
				}
				w.kern.tile(kc, a, lda, bs, ldb, ct, g.n, p0 > 0, next)
				continue
			}
			if edge == nil {
				edge = make([]T, gemmRows*nr)
			}
			if p0 > 0 {
				for r := range rows {
					copy(edge[r*nr:r*nr+cols], ct[r*g.n:r*g.n+cols])
				}
			}
			w.kern.tile(kc, a, lda, bs, ldb, edge, nr, p0 > 0, 0)
			for r := range rows {
				copy(ct[r*g.n:r*g.n+cols], edge[r*nr:r*nr+cols])
			}
		}
	}
}

// aRows returns where the kernel reads rows [i, i+rows) of A[bi] at
// contracting indices [p0, p0+kc), and their stride: A itself, its copy,
// or for a short sliver edgeA, zero past the last row. Only the last
// sliver is short, so one worker at a time uses edgeA.
func (w *gemmWork[T]) aRows(bi, i, rows, p0, kc int) ([]T, int) {
	g := w.g
	switch {
	case rows == gemmRows && w.direct:
		return w.a[g.lb.at(bi)+g.lm.at(i)+g.lk.at(p0):], g.lm.stride
	case rows == gemmRows:
		return w.aCopy[i*kc:], kc
	}
	for r := range gemmRows {
		dst := w.edgeA[r*kc : (r+1)*kc]
		switch {
		case r >= rows:
			clear(dst)
		case w.direct:
			copy(dst, w.a[g.lb.at(bi)+g.lm.at(i+r)+g.lk.at(p0):])
		default:
			copy(dst, w.aCopy[(i+r)*kc:])
		}
	}
	return w.edgeA, kc
}

// packColumns packs contracting indices (kOff) × columns [c0, c1) of
// colOff (c0 a multiple of nr) into slivers of nr columns:
// dst[s*nr*kc + p*nr + j] = column s*nr+j at p, zero past the last column.
func packColumns[T dotElem](dst, x []T, base int, kOff, colOff dotOffsets, c0, c1, nr int) {
	kc := kOff.n
	contiguous := colOff.contiguous()
	// A transposed B (contracted along its rows) is read along its rows
	// and written down the sliver's columns: reading it across, one
	// element per row for each p, cost a sixth of a matrix product's time.
	alongK := !contiguous && colOff.table == nil && kOff.table == nil && kOff.stride == 1
	for s := c0; s < c1; s += nr {
		sliver := dst[s*kc : (s+nr)*kc]
		cols := min(nr, c1-s)
		if alongK {
			for j := range cols {
				for p, v := range x[base+kOff.at(0)+colOff.at(s+j):][:kc] {
					sliver[p*nr+j] = v
				}
			}
			for p := range kc {
				clear(sliver[p*nr+cols : (p+1)*nr])
			}
			continue
		}
		for p := range kc {
			out := sliver[p*nr : (p+1)*nr]
			start := base + kOff.at(p)
			if contiguous {
				copy(out[:cols], x[start+colOff.at(s):])
			} else {
				for j := range cols {
					out[j] = x[start+colOff.at(s+j)]
				}
			}
			clear(out[cols:])
		}
	}
}

// gemmTile2x4 is the portable two-row tile: a 2×4 tile in eight local
// accumulators, which with the four B values and one A value fits amd64's
// registers (a 4×4 tile spills and runs three times slower). T(a*b) keeps
// Go from fusing the multiply-add.
func gemmTile2x4[T dotElem](kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, accumulate bool) {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	if accumulate {
		r0, r1 := c[:4:4], c[ldc:ldc+4:ldc+4]
		c00, c01, c02, c03 = r0[0], r0[1], r0[2], r0[3]
		c10, c11, c12, c13 = r1[0], r1[1], r1[2], r1[3]
	}
	a0s, a1s := a[:kc], a[lda:lda+kc]
	for p := range kc {
		bv := b[p*ldb : p*ldb+4 : p*ldb+4]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		a0, a1 := a0s[p], a1s[p]
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
