package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The worker pool is shared by every logical device: parallelFor splits a
// range into chunks that the calling goroutine and idle workers take in turn.
// The caller always works too and only waits for chunks another worker has
// already started, so a kernel that calls parallelFor from inside a worker
// (nested parallelism) can never deadlock waiting for a queued task.
type workerPool struct {
	tasks chan func()
	size  int
}

var pool = newWorkerPool(runtime.GOMAXPROCS(0))

func newWorkerPool(n int) *workerPool {
	p := &workerPool{tasks: make(chan func(), 4*n), size: n}
	for i := 0; i < n; i++ {
		go func() {
			for t := range p.tasks {
				t()
			}
		}()
	}
	return p
}

// grainElements is the smallest number of elements worth a chunk of its
// own: below it, handing work to another core costs more than it saves.
const grainElements = 1 << 14

// parallelFor calls fn on disjoint sub-ranges [lo, hi) covering [0, n), on
// several cores when n is large. grain is the minimum chunk length.
func (p *workerPool) parallelFor(n, grain int, fn func(lo, hi int)) {
	if grain < 1 {
		grain = 1
	}
	chunks := n / grain
	if max := 4 * p.size; chunks > max {
		chunks = max
	}
	if chunks <= 1 || p.size <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var next atomic.Int64
	var done sync.WaitGroup
	done.Add(chunks)
	work := func() {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			fn(c*n/chunks, (c+1)*n/chunks)
			done.Done()
		}
	}
	for i := 0; i < p.size-1 && i < chunks-1; i++ {
		select {
		case p.tasks <- work:
		default: // every worker is busy; the caller does the rest itself
		}
	}
	work()
	done.Wait()
}
