package cpu

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
)

// Large result buffers are recycled. A program called in a loop that
// returns a large array (vmap(grad(f)) returns one gradient per example)
// otherwise has Go allocate and zero that array on every call, and with a
// small live heap the collector runs every few calls: per-example
// gradients of a small MLP (2 MiB per call) spent more of their time in
// the allocator and the collector than in the program. A result buffer
// nobody refers to any more is found by the collector anyway; a finalizer
// on its storage hands it back here instead of to Go, and the next
// Execute wanting that size takes it, already in memory and without
// clearing it: it is not marked zeroed, so the executor clears it for the
// kernels that need zeros and the others overwrite it.
//
// The finalizer is on the storage itself, not on a Buffer, because views
// and slices of the storage can outlive the Buffer that made them: the
// storage is unreachable only when every one of them is, which is when the
// collector runs its finalizer. A recycled block is never in use twice.
//
// The memory this takes is bounded: at most maxBytes of storage
// carries a finalizer or waits in the pool at once; a result beyond that
// is plain Go memory, collected as any other (a finalized block survives
// one collection more than plain memory, so finalizers on every result
// would inflate the heap). And since blocks come back only after a
// collection, whose pace is set by new allocations, which recycled blocks
// are not, the pool starts a collection in the background whenever half
// of maxBytes has been handed out since the last one it started:
// one collection per that many bytes of results instead of one every few
// calls, and the pool does not run dry.

// recycledMinBytes is the smallest result buffer recycled: below it Go's
// allocator is cheap next to the kernels that fill the buffer.
const recycledMinBytes = 256 << 10

// blockPool holds result storage whose last user is gone, oldest first.
type blockPool struct {
	mu sync.Mutex
	// maxBytes bounds the storage handed out with a finalizer and not yet
	// back, plus the storage waiting in the pool.
	maxBytes int64
	blocks   [][]uint64
	bytes    int64 // in blocks
	// outstanding is the bytes handed out with a finalizer and not yet
	// back; sinceCollect those handed out since the last collection the
	// pool started; collecting is set while one runs.
	outstanding, sinceCollect int64
	collecting                bool
}

var recycled = blockPool{maxBytes: min(64<<20, jit.Machine.Limit()/32)}

// take returns a block of exactly words words from the pool (its contents
// are stale), or nil.
func (p *blockPool) take(words int) []uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.blocks) - 1; i >= 0; i-- {
		if b := p.blocks[i]; len(b) == words {
			last := len(p.blocks) - 1
			copy(p.blocks[i:], p.blocks[i+1:])
			p.blocks[last] = nil // else the array would keep b reachable
			p.blocks = p.blocks[:last]
			p.bytes -= int64(words) * 8
			return b
		}
	}
	return nil
}

// give puts a block handed out earlier back.
func (p *blockPool) give(b []uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := int64(len(b)) * 8
	p.outstanding -= n
	p.blocks = append(p.blocks, b)
	p.bytes += n
	p.evict(0)
}

// evict pushes the oldest blocks out of the pool (to Go) until n more
// bytes fit in p.maxBytes, or the pool is empty. p.mu is held.
func (p *blockPool) evict(n int64) {
	for p.outstanding+p.bytes+n > p.maxBytes && len(p.blocks) > 0 {
		p.bytes -= int64(len(p.blocks[0])) * 8
		p.blocks[0] = nil
		p.blocks = p.blocks[1:]
	}
}

// admit reports whether n more bytes may be handed out with a finalizer,
// counting them if so (blocks of other sizes waiting in the pool make room
// for them), and starts a collection in the background when enough have
// been since the last one.
func (p *blockPool) admit(n int64) bool {
	p.mu.Lock()
	p.evict(n)
	if p.outstanding+n > p.maxBytes {
		p.mu.Unlock()
		return false
	}
	p.outstanding += n
	p.sinceCollect += n
	collect := p.sinceCollect >= p.maxBytes/2 && !p.collecting
	if collect {
		p.sinceCollect, p.collecting = 0, true
	}
	p.mu.Unlock()
	if collect {
		go func() {
			runtime.GC()
			p.mu.Lock()
			p.collecting = false
			p.mu.Unlock()
		}()
	}
	return true
}

// newRecyclableStorage returns storage of words words for a result
// buffer and whether it is zeroed: a recycled block when one of that size
// is waiting, else a new one.
func newRecyclableStorage(words int) ([]uint64, bool) {
	if b := recycled.take(words); b != nil {
		return b, false
	}
	return make([]uint64, words), true
}

// recycleWhenUnreachable arranges for data's storage, which
// newRecyclableStorage made, to come back to the pool once nothing refers
// to it, calling release first (the memory charge the result held). It
// reports false, arranging nothing, when the pool's bound leaves no room.
func recycleWhenUnreachable(data []byte, release func()) bool {
	words := (cap(data) + 7) / 8
	if !recycled.admit(int64(words) * 8) {
		return false
	}
	first := (*uint64)(unsafe.Pointer(unsafe.SliceData(data)))
	runtime.SetFinalizer(first, func(p *uint64) {
		release()
		recycled.give(unsafe.Slice(p, words))
	})
	return true
}
