package cpu

import "sync"

// The trailing updates of the blocked factorizations (linalg_blocked.go):
// C -= A·B on row-major submatrices of one matrix, through dot_general's
// float64 micro-kernel (dot_gemm.go) with packing of our own, because
// these operands are windows with a leading dimension (the kernel's
// dotGeometry wants whole row-major arrays) and the result is
// accumulated into C rather than overwriting it. A is packed negated, so
// the kernel's fused c + (-a)·b rounds exactly like c - a·b.

// productUpdate describes C (m×n, ldc) -= A (m×k, lda) · B: B is k×n
// (ldb), or n×k when bTransposed (then the product is A·Bᵀ); A is stored
// k×m when aTransposed (the product is Aᵀ·B). With
// lowerOnly (m = n, C square on the diagonal), row i needs only columns
// ≤ i: tiles wholly above the diagonal are skipped; the rest of a tile
// that straddles it is updated too, which the callers allow.
type productUpdate struct {
	m, n, k     int
	a           []float64
	lda         int
	aTransposed bool
	b           []float64
	ldb         int
	bTransposed bool
	c           []float64
	ldc         int
	lowerOnly   bool
}

// The blocking of the updates: row blocks of A at most updateMC rows,
// panels of B at most updateNC columns (the matmul's own blocking is
// dot_gemm.go's).
const (
	updateMC = 96
	updateNC = 2048
)

// updatePacks holds a worker's packing buffers between calls.
var updatePacks sync.Pool

type updatePack struct{ a, edge []float64 }

// run performs the update, sharing row blocks over the pool when parallel
// and the product is large enough to pay for it.
func (u productUpdate) run(parallel bool) {
	if u.m == 0 || u.n == 0 || u.k == 0 {
		return
	}
	kern := gemmKernelFor[float64](u.n)
	mr, nr := gemmRows, kern.nr
	nc := min(roundUp(u.n, nr), updateNC)
	bPack := make([]float64, nc*min(u.k, gemmKC))
	mc := updateMC
	blocks := ceilDiv(u.m, mc)
	if parallel && u.m*u.n*u.k >= 1<<17 {
		// Enough blocks to come out even on the workers, most of them
		// whole kernel tiles tall.
		blocks = min(max(blocks, 4*pool.size), ceilDiv(u.m, mr))
		mc = roundUp(ceilDiv(u.m, blocks), mr)
		blocks = ceilDiv(u.m, mc)
	} else {
		parallel = false
	}
	for j0 := 0; j0 < u.n; j0 += updateNC {
		j1 := min(j0+updateNC, u.n)
		if u.lowerOnly && j0 >= u.m {
			break
		}
		for p0 := 0; p0 < u.k; p0 += gemmKC {
			kc := min(gemmKC, u.k-p0)
			u.packB(bPack, nr, p0, kc, j0, j1)
			rowBlocks := func(lo, hi int) {
				pk, _ := updatePacks.Get().(*updatePack)
				if pk == nil || len(pk.a) < roundUp(mc, mr)*kc || len(pk.edge) < mr*nr {
					pk = &updatePack{a: make([]float64, roundUp(max(mc, updateMC), mr)*gemmKC), edge: make([]float64, mr*nr)}
				}
				for blk := lo; blk < hi; blk++ {
					ib := blk * mc
					u.rowBlock(kern, pk, bPack, ib, min(ib+mc, u.m), j0, j1, p0, kc)
				}
				updatePacks.Put(pk)
			}
			if parallel {
				pool.parallelFor(nil, blocks, 1, rowBlocks)
			} else {
				rowBlocks(0, blocks)
			}
		}
	}
}

// packB packs B's rows [p0, p0+kc) × columns [j0, j1) into slivers of nr
// columns, zero past j1: dst[s*nr*kc + p*nr + j].
func (u productUpdate) packB(dst []float64, nr, p0, kc, j0, j1 int) {
	for s := j0; s < j1; s += nr {
		sliver := dst[(s-j0)*kc : (s-j0+nr)*kc]
		cols := min(nr, j1-s)
		if u.bTransposed {
			for j := range nr {
				if j >= cols {
					for p := range kc {
						sliver[p*nr+j] = 0
					}
					continue
				}
				for p, v := range u.b[(s+j)*u.ldb+p0:][:kc] {
					sliver[p*nr+j] = v
				}
			}
			continue
		}
		for p := range kc {
			out := sliver[p*nr : (p+1)*nr]
			copy(out, u.b[(p0+p)*u.ldb+s:][:cols])
			clear(out[cols:])
		}
	}
}

// rowBlock updates C's rows [ib, ie) × columns [j0, j1) with the kc
// products from p0, B's panel already packed.
func (u productUpdate) rowBlock(kern gemmKernel[float64], pk *updatePack, bPack []float64, ib, ie, j0, j1, p0, kc int) {
	mr, nr := gemmRows, kern.nr
	rows := ie - ib
	aPack := pk.a[:roundUp(rows, mr)*kc]
	for s := 0; s < rows; s += mr {
		sliver := aPack[s*kc : (s+mr)*kc]
		for r := range mr {
			row := sliver[r*kc : (r+1)*kc]
			switch {
			case s+r >= rows:
				clear(row)
			case u.aTransposed:
				for p := range row {
					row[p] = -u.a[(p0+p)*u.lda+ib+s+r]
				}
			default:
				for p, v := range u.a[(ib+s+r)*u.lda+p0:][:kc] {
					row[p] = -v
				}
			}
		}
	}
	end := j1
	if u.lowerOnly {
		end = min(j1, ie)
	}
	for jr := 0; j0+jr < end; jr += nr {
		bs := bPack[jr*kc : (jr+nr)*kc]
		cols := min(nr, j1-j0-jr)
		for ir := 0; ir < rows; ir += mr {
			if u.lowerOnly && j0+jr > ib+ir+mr-1 {
				continue // wholly above the diagonal: no row reaches column j0+jr
			}
			as := aPack[ir*kc : (ir+mr)*kc]
			ct := u.c[(ib+ir)*u.ldc+j0+jr:]
			if ir+mr <= rows && cols == nr {
				next := mr * u.ldc
				if ir+mr >= rows {
					next = nr - ir*u.ldc
				}
				kern.tile(kc, as, kc, bs, nr, ct, u.ldc, true, next)
				continue
			}
			tileRows := min(mr, rows-ir)
			for r := range tileRows {
				copy(pk.edge[r*nr:r*nr+cols], ct[r*u.ldc:r*u.ldc+cols])
			}
			kern.tile(kc, as, kc, bs, nr, pk.edge, nr, true, 0)
			for r := range tileRows {
				copy(ct[r*u.ldc:r*u.ldc+cols], pk.edge[r*nr:r*nr+cols])
			}
		}
	}
}
