package machine

import (
	"testing"
)

// The working sets: 16M float32 (64 MiB) per array, far beyond every cache.
const streamLen = 1 << 24

// BenchmarkPeakFMA reports the fused multiply-add rate of every core
// together, in GFLOP/s: the ceiling for a matmul.
func BenchmarkPeakFMA(b *testing.B) {
	if fmaLoop(1) == 0 {
		b.Skip("no FMA on this machine")
	}
	const iters = 1 << 20
	var perCore float64
	for b.Loop() {
		onEveryCore(func(int, int) { perCore = fmaLoop(iters) })
	}
	b.ReportMetric(perCore*float64(b.N)*float64(cores())/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkReadBandwidth reads 64 MiB with vector loads on every core and
// reports GB/s: the ceiling for a reduction or a search such as argmax.
func BenchmarkReadBandwidth(b *testing.B) {
	x := make([]float32, streamLen)
	for i := range x {
		x[i] = 1
	}
	sums := make([]float32, cores())
	for b.Loop() {
		onEveryCore(func(p, parts int) {
			lo, hi := split(len(x), p, parts)
			sums[p] = readLoop(x[lo:hi])
		})
	}
	if sums[0] == 0 {
		b.Fatal("nothing read")
	}
	b.ReportMetric(4*streamLen*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// BenchmarkTriadBandwidth is STREAM's triad a = b + s·c over 16M float32
// per array on every core, counted as STREAM counts it (three arrays of
// bytes moved, write-allocate traffic not counted): the ceiling for an
// elementwise op with two inputs.
func BenchmarkTriadBandwidth(b *testing.B) {
	a, x, y := make([]float32, streamLen), make([]float32, streamLen), make([]float32, streamLen)
	for i := range x {
		x[i], y[i] = 1, 2
	}
	for b.Loop() {
		onEveryCore(func(p, parts int) {
			lo, hi := split(len(a), p, parts)
			triadLoop(a[lo:hi], x[lo:hi], y[lo:hi], 3)
		})
	}
	if a[0] != 7 {
		b.Fatalf("triad: a[0] = %v, want 7", a[0])
	}
	b.ReportMetric(3*4*streamLen*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// The loops compute what they claim: the read loop's sum and the triad's
// values on a length with a ragged tail.
func TestLoops(t *testing.T) {
	x := make([]float32, 1000)
	for i := range x {
		x[i] = float32(i % 7)
	}
	var want float32
	for _, v := range x {
		want += v
	}
	if got := readLoop(x); got != want {
		t.Errorf("readLoop = %v, want %v", got, want)
	}
	a, c := make([]float32, 1000), make([]float32, 1000)
	for i := range c {
		c[i] = float32(i)
	}
	triadLoop(a, x, c, 2)
	for i := range a {
		if a[i] != x[i]+2*c[i] {
			t.Fatalf("triad a[%d] = %v, want %v", i, a[i], x[i]+2*c[i])
		}
	}
}

func cores() int {
	n := 0
	onEveryCore(func(_, parts int) { n = parts })
	return n
}
