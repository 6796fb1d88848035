package cpu

import "unsafe"

// A walk whose destination is contiguous along its innermost dimension but
// whose source is contiguous along another dimension k is a transpose of
// those two dimensions (possibly batched over the others). Walking it
// element by element reads the source a whole row apart per element, which
// touches a new cache line (and, for large rows, a new page) every time.
// transposeTiled instead copies square tiles: within a tile the source
// lines it reads stay in cache while the destination is written
// contiguously.

// tileEdge is the tile edge in elements for elements of type E. Measured
// single-threaded on 2-D transposes of 32-64 MB (edges 16, 32, 64, 128):
// 64 is best for 2- to 16-byte elements (float32 4096×4096: 35 ms against
// 45 ms with 32; float64 and complex128 alike), 128 for bytes, where a
// 64-element tile row is only a cache line.
func tileEdge[E any]() int {
	var e E
	if unsafe.Sizeof(e) == 1 {
		return 128
	}
	return 64
}

// minTileExtent is the smallest extent of the two dimensions worth tiling:
// a narrower transpose touches only a few source lines per output row.
const minTileExtent = 8

// transposeTileDim reports the dimension k along which a simplified walk's
// source (vector 1) is contiguous when its destination (vector 0) is
// contiguous along the innermost one instead, and both extents are large
// enough for tiling to pay. (A source stride of 0, broadcasting, reads one
// element per run and needs no tiles.)
func (w *strideWalk) transposeTileDim() (int, bool) {
	last := len(w.shape) - 1
	if s := w.innerStride(1); last < 1 || w.innerStride(0) != 1 || s == 1 || s == 0 || w.shape[last] < minTileExtent {
		return 0, false
	}
	for k := last - 1; k >= 0; k-- {
		if w.stride(1, k) == 1 {
			return k, w.shape[k] >= minTileExtent
		}
	}
	return 0, false
}

// transposeTiled performs the walk w (vector 0 into dst, vector 1 from src)
// tile by tile over dimensions k and the innermost. Work items are one tile
// row (a tile edge of indices of k, every index of the innermost
// dimension) for one index of the remaining outer dimensions.
func transposeTiled[E any](dst, src []E, w *strideWalk, k int) {
	last := len(w.shape) - 1
	var outer strideWalk
	for d := range w.shape {
		if d != k && d != last {
			outer.shape = append(outer.shape, w.shape[d])
			outer.strides[0] = append(outer.strides[0], w.stride(0, d))
			outer.strides[1] = append(outer.strides[1], w.stride(1, d))
		}
	}
	tile := tileEdge[E]()
	nK, nL := w.shape[k], w.shape[last]
	dK, sK, sL := w.stride(0, k), w.stride(1, k), w.stride(1, last)
	kTiles := (nK + tile - 1) / tile
	items := outer.size() * kTiles
	grain := max(1, grainElements/(tile*nL))
	pool.parallelFor(nil, items, grain, func(lo, hi int) {
		for item := lo; item < hi; item++ {
			o, kt := item/kTiles, item%kTiles
			dBase, sBase := w.off[0], w.off[1]
			for d := len(outer.shape) - 1; d >= 0; d-- {
				i := o % outer.shape[d]
				o /= outer.shape[d]
				dBase += i * outer.strides[0][d]
				sBase += i * outer.strides[1][d]
			}
			i0 := kt * tile
			nI := min(tile, nK-i0)
			dBase += i0 * dK
			sBase += i0 * sK
			for j0 := 0; j0 < nL; j0 += tile {
				nJ := min(tile, nL-j0)
				for i := range nI {
					d := dBase + i*dK + j0
					row := dst[d : d+nJ]
					s := sBase + i*sK + j0*sL
					for j := range row {
						row[j] = src[s]
						s += sL
					}
				}
			}
		}
	})
}
