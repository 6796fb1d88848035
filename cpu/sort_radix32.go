package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/trace"
)

// A long line of a lone 32-bit operand whose order key is a bijection of
// its value sorts the keys alone, 4 bytes an element instead of sortPacked's
// 8 (key and payload), by a parallel radix sort (sortKeys32); the values
// are then recovered
// from the keys. Integers always qualify; a float32 line does when it holds
// no NaN and no -0.0, the values the comparator's canonicalisation would
// merge with others (their lines take the general path).

// sortRadixBits is the width of sortKeys32's most significant digit:
// 2048 buckets, about 512 keys each in a line of a million.
const sortRadixBits = 11

// sortValues32 sorts ln of x into out when x's keys are a bijection of its
// values there; it reports whether it did.
func (w *sortWork) sortValues32(x, out *Buffer, ln sortLine) bool {
	var flip uint32
	isFloat := false
	switch x.DType() {
	case trace.Uint32:
	case trace.Int32:
		flip = 1 << 31
	case trace.Float32:
		isFloat = true
	default:
		return false
	}
	src, dst := view[uint32](x), view[uint32](out)
	keys := sortScratch(&w.keys, 2*ln.n)
	parts := 4 * pool.size
	bound := func(p int) int { return p * ln.n / parts }
	merged := make([]bool, parts) // a part holds a NaN or a -0.0
	pool.parallelFor(w.stop, parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			for i := bound(p); i < bound(p+1); i++ {
				v := src[ln.at(i)]
				if isFloat {
					f := math.Float32frombits(v)
					if f != f || v == 1<<31 {
						merged[p] = true
						return
					}
					keys[i] = floatKey(v, 1<<31)
				} else {
					keys[i] = v ^ flip
				}
			}
		}
	})
	for _, m := range merged {
		if m {
			return false
		}
	}
	sorted := sortKeys32(w.stop, keys[:ln.n], keys[ln.n:2*ln.n])
	pool.parallelFor(w.stop, parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			for i := bound(p); i < bound(p+1); i++ {
				k := sorted[i]
				switch {
				case !isFloat:
					dst[ln.at(i)] = k ^ flip
				case k&(1<<31) != 0:
					dst[ln.at(i)] = k &^ (1 << 31)
				default:
					dst[ln.at(i)] = ^k
				}
			}
		}
	})
	return true
}

// sortKeys32 sorts src, with dst as scratch, and returns the sorted keys
// (in either slice). One most-significant-digit pass of sortRadixBits
// scatters the keys into buckets by their top bits, split across the pool
// as sortPackedParallel's passes are; the buckets, most of them small
// enough to stay in cache, are then sorted on their low bits, shared out
// across the pool in runs of about equal length.
func sortKeys32(stop stopSignal, src, dst []uint32) []uint32 {
	const buckets, shift = 1 << sortRadixBits, 32 - sortRadixBits
	n, parts := len(src), 4*pool.size
	bound := func(p int) int { return p * n / parts }
	counts := make([][buckets]int32, parts)
	pool.parallelFor(stop, parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			c := &counts[p]
			for _, v := range src[bound(p):bound(p+1)] {
				c[v>>shift]++
			}
		}
	})
	var starts [buckets + 1]int32
	var sum int32
	for d := range buckets {
		starts[d] = sum
		for p := range counts {
			counts[p][d], sum = sum, sum+counts[p][d]
		}
	}
	starts[buckets] = sum
	pool.parallelFor(stop, parts, 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			c := &counts[p]
			for _, v := range src[bound(p):bound(p+1)] {
				d := v >> shift
				dst[c[d]] = v
				c[d]++
			}
		}
	})
	// Runs of buckets holding about n/parts keys each.
	runs := make([]int, 0, parts+1)
	runs = append(runs, 0)
	for d := 1; d < buckets; d++ {
		if int(starts[d]) >= len(runs)*n/parts {
			runs = append(runs, d)
		}
	}
	runs = append(runs, buckets)
	pool.parallelFor(stop, len(runs)-1, 1, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			for d := runs[r]; d < runs[r+1]; d++ {
				a, b := starts[d], starts[d+1]
				sortLowBits(dst[a:b], src[a:b], shift)
			}
		}
	})
	return dst
}

// sortLowBits sorts keys that share their bits from `bits` (at most 24)
// up, by LSD passes of 8 bits over the low ones (skipping digits they
// share), with scratch as room; the result is left in keys.
func sortLowBits(keys, scratch []uint32, bits int) {
	n := len(keys)
	if n <= sortShortLine {
		for i := 1; i < n; i++ {
			v := keys[i]
			j := i
			for ; j > 0 && keys[j-1] > v; j-- {
				keys[j] = keys[j-1]
			}
			keys[j] = v
		}
		return
	}
	// One read counts every digit; digits all keys share are skipped.
	var c [3][256]int32
	for _, v := range keys {
		c[0][uint8(v)]++
		c[1][uint8(v>>8)]++
		c[2][uint8(v>>16)]++
	}
	src, dst := keys, scratch
	for pass, shift := 0, 0; shift < bits; pass, shift = pass+1, shift+8 {
		cp := &c[pass]
		if cp[uint8(src[0]>>shift)] == int32(n) {
			continue
		}
		var sum int32
		for d := range cp {
			cp[d], sum = sum, sum+cp[d]
		}
		for _, v := range src {
			d := uint8(v >> shift)
			dst[cp[d]] = v
			cp[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
