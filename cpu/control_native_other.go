//go:build !amd64

package cpu

// Without a code generator no step is native code and no loop runs in
// generated code: bound loops run their steps from Go.

type boundNative struct{}

func bindNative(fusedRunner, []*Buffer, []*Buffer, func(*Buffer) bool) *boundNative { return nil }

func (*boundNative) refresh()   {}
func (*boundNative) run()       {}
func (*boundNative) recompute() {}
func (*boundNative) work() int  { return 0 }

type nativeLoop struct{}

func nativeLoopOf(*boundBody, *Buffer, *boundBody, func(*Buffer) bool, map[*Buffer]int) *nativeLoop {
	return nil
}

func (*nativeLoop) run(int) (int, int, bool) { return 0, -1, false }
