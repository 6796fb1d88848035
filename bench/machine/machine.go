// Package machine measures the limits of the machine it runs on, for
// bench/compare.py to hold every benchmark against: the peak rate of fused
// multiply-adds on the widest vectors, and memory bandwidth for reading and
// for STREAM's triad, each on every core at once. Only its benchmarks use
// it.
package machine

import (
	"runtime"
	"sync"
)

func readLoopGo(x []float32) float32 {
	var s0, s1, s2, s3 float32
	for ; len(x) >= 4; x = x[4:] {
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
	}
	for _, v := range x {
		s0 += v
	}
	return s0 + s1 + s2 + s3
}

func triadLoopGo(a, b, c []float32, s float32) {
	for i := range a {
		a[i] = b[i] + s*c[i]
	}
}

// onEveryCore runs fn(part, parts) on GOMAXPROCS goroutines at once.
func onEveryCore(fn func(part, parts int)) {
	parts := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(p, parts)
		}()
	}
	wg.Wait()
}

// split is part p of parts of [0, n), in whole 64-element blocks.
func split(n, p, parts int) (lo, hi int) {
	blocks := n / 64
	return blocks * p / parts * 64, blocks * (p + 1) / parts * 64
}
