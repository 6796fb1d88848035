package cpu

import (
	"fmt"
	"math"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// sort: operands of one shape sorted together along `dimension`, ordered
// lexicographically by the first num_keys of them, the rest carried along.
//
// Order. JAX's comparator first canonicalises floats: -0.0 becomes +0.0 and
// every NaN the same positive NaN, then compares in IEEE total order. So
// -0.0 and +0.0 are equal keys (they keep their input order), and every NaN,
// whatever its sign or payload, sorts after +inf. Elements keep their own
// bits in the output: a -0.0 stays -0.0. Bools order False < True.
//
// Stability. Every sort here is stable, so is_stable=False gets a stable
// sort too (which is one of the orders it allows).
//
// Method. Each key becomes an unsigned integer of its width whose order is
// the comparator's (sign bit flipped for signed integers; for floats, after
// canonicalising, negatives inverted and positives given the sign bit),
// packed with a payload into one word: key<<32 | payload for keys of up to
// 32 bits, a {key, payload} pair for 64-bit keys. Words are sorted stably
// by key: LSD radix sort on key bytes, skipping bytes every key shares, or
// insertion sort for short lines. A lone operand of up to 32 bits rides as
// its own payload and is unpacked straight into the result. Otherwise the
// payload is a position: a permutation is sorted by each key from the last
// to the first, which leaves it in lexicographic order of all keys, and
// every operand is gathered through it. Independent lines run in parallel.

func init() { registerKernel("sort", sortKernel) }

// sortShortLine is the longest line sorted by insertion.
const sortShortLine = 48

func sortKernel(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
	s := spanAround(in[0].Shape(), e.Params.Int("dimension"))
	if in[0].Len() == 0 {
		return nil
	}
	if s.n > math.MaxInt32 {
		return fmt.Errorf("cannot sort a dimension of %d elements (at most %d)", s.n, math.MaxInt32)
	}
	keys := in[:e.Params.Int("num_keys")]
	lone := len(in) == 1 && in[0].DType().Size() <= 4
	pool.parallelFor(stop, s.outer*s.inner, max(1, grainElements/s.n), func(lo, hi int) {
		w := sortWorkPool.Get().(*sortWork)
		defer sortWorkPool.Put(w)
		w.stop = stop
		for l := lo; l < hi; l++ {
			ln := sortLine{base: (l/s.inner)*s.n*s.inner + l%s.inner, stride: s.inner, n: s.n}
			if lone {
				if ln.n < sortParallelLine || !w.sortValues32(in[0], out[0], ln) {
					w.sortValues(in[0], out[0], ln)
				}
				continue
			}
			w.perm = sortScratch(&w.perm, s.n)
			for i := range w.perm {
				w.perm[i] = int32(i)
			}
			for j := len(keys) - 1; j >= 0; j-- {
				w.sortPerm(keys[j], ln)
			}
			for o := range in {
				sortGather(out[o], in[o], ln, w.perm)
			}
		}
	})
	return nil
}

// sortLine is one line along the sorted dimension: element i of the line
// is element base + i*stride of the array.
type sortLine struct{ base, stride, n int }

func (l sortLine) at(i int) int { return l.base + i*l.stride }

// sortWork is one worker's scratch, kept between calls by sortWorkPool: a
// long line's scratch is tens of megabytes, not worth zeroing each time.
type sortWork struct {
	perm   []int32
	packed []uint64    // key<<32 | payload, and as much again for radix passes
	keys   []uint32    // keys alone (sortValues32), likewise
	wide   []sortEntry // likewise for 64-bit keys
	stop   stopSignal  // the program's, for the pool work of long lines
}

var sortWorkPool = sync.Pool{New: func() any { return new(sortWork) }}

// sortEntry is a 64-bit key with its payload.
type sortEntry struct {
	key uint64
	pos int32
}

func sortScratch[K any](buf *[]K, n int) []K {
	if cap(*buf) < n {
		*buf = make([]K, n)
	}
	return (*buf)[:n]
}

// sortValues sorts the line of a lone operand of up to 32 bits into out.
func (w *sortWork) sortValues(x, out *Buffer, ln sortLine) {
	key, width := sortKeyOf(x)
	e := sortScratch(&w.packed, 2*ln.n)
	switch x.DType().Size() {
	case 1:
		packValues(w.stop, e, key, view[uint8](x), ln)
		unpackValues(w.stop, view[uint8](out), sortPacked(w.stop, e, ln.n, width), ln)
	case 2:
		packValues(w.stop, e, key, view[uint16](x), ln)
		unpackValues(w.stop, view[uint16](out), sortPacked(w.stop, e, ln.n, width), ln)
	default:
		packValues(w.stop, e, key, view[uint32](x), ln)
		unpackValues(w.stop, view[uint32](out), sortPacked(w.stop, e, ln.n, width), ln)
	}
}

// packValues and unpackValues split long lines across the pool.
func packValues[E uint8 | uint16 | uint32](stop stopSignal, e []uint64, key func(int) uint64, x []E, ln sortLine) {
	pool.parallelFor(stop, ln.n, sortParallelLine/4, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			j := ln.at(i)
			e[i] = key(j)<<32 | uint64(x[j])
		}
	})
}

func unpackValues[E uint8 | uint16 | uint32](stop stopSignal, out []E, e []uint64, ln sortLine) {
	pool.parallelFor(stop, ln.n, sortParallelLine/4, func(lo, hi int) {
		for i, v := range e[lo:hi] {
			out[ln.at(lo+i)] = E(v)
		}
	})
}

// sortPerm stably sorts w.perm by x's keys: element perm[i] of the line
// has key key(at(perm[i])).
func (w *sortWork) sortPerm(x *Buffer, ln sortLine) {
	key, width := sortKeyOf(x)
	perm := w.perm
	if width == 8 {
		e := sortScratch(&w.wide, 2*ln.n)
		for i, p := range perm {
			e[i] = sortEntry{key(ln.at(int(p))), p}
		}
		for i, v := range sortWide(e, ln.n) {
			perm[i] = v.pos
		}
		return
	}
	e := sortScratch(&w.packed, 2*ln.n)
	for i, p := range perm {
		e[i] = key(ln.at(int(p)))<<32 | uint64(uint32(p))
	}
	for i, v := range sortPacked(w.stop, e, ln.n, width) {
		perm[i] = int32(uint32(v))
	}
}

// sortKeyOf returns the order key of element j of x (see the file comment)
// and its width in bytes.
func sortKeyOf(x *Buffer) (key func(j int) uint64, width int) {
	switch dt := x.DType(); dt {
	case trace.Bool, trace.Uint8:
		v := view[uint8](x)
		return func(j int) uint64 { return uint64(v[j]) }, 1
	case trace.Uint16:
		v := view[uint16](x)
		return func(j int) uint64 { return uint64(v[j]) }, 2
	case trace.Uint32:
		v := view[uint32](x)
		return func(j int) uint64 { return uint64(v[j]) }, 4
	case trace.Int8:
		v := view[uint8](x)
		return func(j int) uint64 { return uint64(v[j] ^ 0x80) }, 1
	case trace.Int16:
		v := view[uint16](x)
		return func(j int) uint64 { return uint64(v[j] ^ 0x8000) }, 2
	case trace.Int32:
		v := view[uint32](x)
		return func(j int) uint64 { return uint64(v[j] ^ 1<<31) }, 4
	case trace.Int64:
		v := view[uint64](x)
		return func(j int) uint64 { return v[j] ^ 1<<63 }, 8
	case trace.Float16, trace.BFloat16:
		v := view[uint16](x)
		expMask, nan := uint16(0x7c00), uint16(0x7e00)
		if dt == trace.BFloat16 {
			expMask, nan = 0x7f80, 0x7fc0
		}
		return func(j int) uint64 {
			h := v[j]
			switch {
			case h&expMask == expMask && h&^(expMask|0x8000) != 0:
				h = nan
			case h == 0x8000:
				h = 0
			}
			return uint64(floatKey(h, 0x8000))
		}, 2
	case trace.Float32:
		v := view[float32](x)
		nan := math.Float32bits(float32(math.NaN()))
		return func(j int) uint64 {
			f := v[j]
			bits := math.Float32bits(f)
			switch {
			case f != f:
				bits = nan
			case f == 0:
				bits = 0
			}
			return uint64(floatKey(bits, 1<<31))
		}, 4
	case trace.Float64:
		v := view[float64](x)
		nan := math.Float64bits(math.NaN())
		return func(j int) uint64 {
			f := v[j]
			bits := math.Float64bits(f)
			switch {
			case f != f:
				bits = nan
			case f == 0:
				bits = 0
			}
			return floatKey(bits, 1<<63)
		}, 8
	}
	panic("cpu: sort by " + x.DType().String())
}

// floatKey maps canonicalised float bits (sign bit top) to an unsigned key
// in the float order: negatives inverted, positives above them.
func floatKey[K uint16 | uint32 | uint64](bits, top K) K {
	if bits&top != 0 {
		return ^bits
	}
	return bits | top
}

// sortPacked stably sorts e[:n] by the top keyBytes bytes above bit 32,
// using e[n:2n] as scratch, and returns the sorted words (in either half).
// Short lines go by insertion; longer ones by LSD radix passes, one per key
// byte from the lowest, skipping bytes every key shares.
func sortPacked(stop stopSignal, e []uint64, n, keyBytes int) []uint64 {
	src, dst := e[:n], e[n:2*n]
	if n >= sortParallelLine && pool.size > 1 {
		return sortPackedParallel(stop, src, dst, keyBytes)
	}
	if n <= sortShortLine {
		for i := 1; i < n; i++ {
			v := src[i]
			j := i
			for ; j > 0 && src[j-1]>>32 > v>>32; j-- {
				src[j] = src[j-1]
			}
			src[j] = v
		}
		return src
	}
	var counts [4][256]int
	for _, v := range src {
		k := uint32(v >> 32)
		counts[0][uint8(k)]++
		counts[1][uint8(k>>8)]++
		counts[2][uint8(k>>16)]++
		counts[3][uint8(k>>24)]++
	}
	for b := range keyBytes {
		c := &counts[b]
		shift := 32 + 8*b
		if c[uint8(src[0]>>shift)] == n {
			continue
		}
		sum := 0
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		for _, v := range src {
			d := uint8(v >> shift)
			dst[c[d]] = v
			c[d]++
		}
		src, dst = dst, src
	}
	return src
}

// sortParallelLine is the shortest line whose radix passes are split
// across the pool.
const sortParallelLine = 1 << 16

// sortPackedParallel is sortPacked's radix sort with each pass split
// across the pool: the line is cut into parts, each part counts its own
// digits, and the offsets are laid out digit by digit and, within a digit,
// part by part, so every part scatters its elements to their places
// independently and the order of equal keys is kept.
func sortPackedParallel(stop stopSignal, src, dst []uint64, keyBytes int) []uint64 {
	n, parts := len(src), 4*pool.size
	bound := func(p int) int { return p * n / parts }
	// Which key bytes vary: bits where some key differs from the first.
	varies := make([]uint32, parts)
	first := uint32(src[0] >> 32)
	pool.parallelFor(stop, parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			var d uint32
			for _, v := range src[bound(p):bound(p+1)] {
				d |= uint32(v>>32) ^ first
			}
			varies[p] = d
		}
	})
	var diff uint32
	for _, d := range varies {
		diff |= d
	}
	counts := make([][256]int, parts)
	for b := range keyBytes {
		if uint8(diff>>(8*b)) == 0 {
			continue
		}
		shift := 32 + 8*b
		pool.parallelFor(stop, parts, 1, func(lo, hi int) {
			for p := lo; p < hi; p++ {
				c := &counts[p]
				clear(c[:])
				for _, v := range src[bound(p):bound(p+1)] {
					c[uint8(v>>shift)]++
				}
			}
		})
		sum := 0
		for d := range 256 {
			for p := range counts {
				counts[p][d], sum = sum, sum+counts[p][d]
			}
		}
		pool.parallelFor(stop, parts, 1, func(lo, hi int) {
			for p := lo; p < hi; p++ {
				c := &counts[p]
				for _, v := range src[bound(p):bound(p+1)] {
					d := uint8(v >> shift)
					dst[c[d]] = v
					c[d]++
				}
			}
		})
		src, dst = dst, src
	}
	return src
}

// sortWide is sortPacked for 64-bit keys.
func sortWide(e []sortEntry, n int) []sortEntry {
	src, dst := e[:n], e[n:2*n]
	if n <= sortShortLine {
		for i := 1; i < n; i++ {
			v := src[i]
			j := i
			for ; j > 0 && src[j-1].key > v.key; j-- {
				src[j] = src[j-1]
			}
			src[j] = v
		}
		return src
	}
	var counts [8][256]int
	for _, v := range src {
		for b := range 8 {
			counts[b][uint8(v.key>>(8*b))]++
		}
	}
	for b := range 8 {
		c := &counts[b]
		shift := 8 * b
		if c[uint8(src[0].key>>shift)] == n {
			continue
		}
		sum := 0
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		for _, v := range src {
			d := uint8(v.key >> shift)
			dst[c[d]] = v
			c[d]++
		}
		src, dst = dst, src
	}
	return src
}

// sortGather sets dst's line to src's line permuted: element i of the line
// becomes element perm[i].
func sortGather(dst, src *Buffer, ln sortLine, perm []int32) {
	switch src.DType().Size() {
	case 1:
		sortGatherLine(view[uint8](dst), view[uint8](src), ln, perm)
	case 2:
		sortGatherLine(view[uint16](dst), view[uint16](src), ln, perm)
	case 4:
		sortGatherLine(view[uint32](dst), view[uint32](src), ln, perm)
	default:
		sortGatherLine(view[uint64](dst), view[uint64](src), ln, perm)
	}
}

func sortGatherLine[E any](dst, src []E, ln sortLine, perm []int32) {
	if ln.stride == 1 {
		d, s := dst[ln.base:ln.base+ln.n], src[ln.base:ln.base+ln.n]
		for i, p := range perm {
			d[i] = s[p]
		}
		return
	}
	for i, p := range perm {
		dst[ln.at(i)] = src[ln.at(int(p))]
	}
}
