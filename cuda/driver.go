// Package cuda runs jaxsh Programs on NVIDIA GPUs through the CUDA driver
// API (libcuda.so.1), loaded when the process starts with purego: no cgo,
// no CUDA toolkit at build time, one binary for machines with and without a
// GPU (DESIGN decision 6). Kernels are PTX text generated here for each
// kernel of a Program and loaded with cuModuleLoadDataEx.
//
// Importing the package probes the driver once. When it loads and reports
// at least one device, the "cuda" backend registers with jit; otherwise
// nothing registers and Unavailable says why.
package cuda

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The driver library's soname: the one the driver package installs (the
// unversioned libcuda.so belongs to the toolkit's development files).
const libName = "libcuda.so.1"

// DisableEnv, set to "0", keeps the process off the GPU: the driver is
// not even loaded.
const DisableEnv = "JAXSH_CUDA"

// A Result is a CUresult other than CUDA_SUCCESS.
type Result int32

// Error names the result as the driver does (cuGetErrorName,
// cuGetErrorString) when it can.
func (r Result) Error() string {
	name, desc := resultName(r)
	if desc != "" {
		return fmt.Sprintf("%s: %s", name, desc)
	}
	return name
}

// Results this package tests for.
const (
	errorNotReady     Result = 600 // CUDA_ERROR_NOT_READY
	errorNotSupported Result = 801 // CUDA_ERROR_NOT_SUPPORTED
)

// An Error is a failed driver call: which call, and its result.
type Error struct {
	Call   string
	Result Result
}

func (e *Error) Error() string { return fmt.Sprintf("cuda: %s: %v", e.Call, e.Result) }
func (e *Error) Unwrap() error { return e.Result }

// check turns a CUresult into an error (nil for CUDA_SUCCESS).
func check(call string, r int32) error {
	if r == 0 {
		return nil
	}
	return &Error{Call: call, Result: Result(r)}
}

// driverAPI holds the driver's entry points, bound with purego.RegisterFunc.
// Handles (CUcontext, CUmodule, CUfunction, CUstream, CUevent) are
// uintptr; device addresses (CUdeviceptr) are uint64; CUdevice is int32.
type driverAPI struct {
	cuInit                     func(flags uint32) int32
	cuDriverGetVersion         func(v *int32) int32
	cuDeviceGetCount           func(n *int32) int32
	cuDeviceGet                func(dev *int32, ordinal int32) int32
	cuDeviceGetName            func(name *byte, n int32, dev int32) int32
	cuDeviceGetAttribute       func(v *int32, attr int32, dev int32) int32
	cuDeviceTotalMem           func(bytes *uint64, dev int32) int32
	cuDevicePrimaryCtxRetain   func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease  func(dev int32) int32
	cuCtxSetCurrent            func(ctx uintptr) int32
	cuModuleLoadDataEx         func(mod *uintptr, image *byte, nopts uint32, opts *int32, vals *uintptr) int32
	cuModuleUnload             func(mod uintptr) int32
	cuModuleGetFunction        func(fn *uintptr, mod uintptr, name *byte) int32
	cuFuncSetAttribute         func(fn uintptr, attr int32, v int32) int32
	cuLaunchKernel             func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params *uintptr, extra *uintptr) int32
	cuStreamCreate             func(s *uintptr, flags uint32) int32
	cuStreamSynchronize        func(s uintptr) int32
	cuStreamDestroy            func(s uintptr) int32
	cuStreamWaitEvent          func(s, ev uintptr, flags uint32) int32
	cuEventCreate              func(ev *uintptr, flags uint32) int32
	cuEventRecord              func(ev, s uintptr) int32
	cuEventSynchronize         func(ev uintptr) int32
	cuEventQuery               func(ev uintptr) int32
	cuEventDestroy             func(ev uintptr) int32
	cuEventElapsedTime         func(ms *float32, start, end uintptr) int32
	cuMemAlloc                 func(p *uint64, n uint64) int32
	cuMemFree                  func(p uint64) int32
	cuMemAllocAsync            func(p *uint64, n uint64, s uintptr) int32 // nil before CUDA 11.2
	cuMemFreeAsync             func(p uint64, s uintptr) int32            // nil before CUDA 11.2
	cuMemHostAlloc             func(p *unsafe.Pointer, n uint64, flags uint32) int32
	cuMemFreeHost              func(p unsafe.Pointer) int32
	cuMemcpyHtoDAsync          func(dst uint64, src unsafe.Pointer, n uint64, s uintptr) int32
	cuMemcpyDtoHAsync          func(dst unsafe.Pointer, src uint64, n uint64, s uintptr) int32
	cuMemcpyDtoDAsync          func(dst, src uint64, n uint64, s uintptr) int32
	cuMemsetD8Async            func(dst uint64, v uint8, n uint64, s uintptr) int32
	cuLaunchHostFunc           func(s uintptr, fn uintptr, user uintptr) int32
	cuGetErrorName             func(r int32, s **byte) int32
	cuGetErrorString           func(r int32, s **byte) int32
	cuDeviceGetDefaultMemPool  func(pool *uintptr, dev int32) int32 // optional
	cuMemPoolSetAttribute      func(pool uintptr, attr int32, v *uint64) int32
	cuCtxGetCurrent            func(ctx *uintptr) int32
	cuOccupancyMaxPotentialBSz func(minGrid, block *int32, fn uintptr, cb uintptr, shared uint64, limit int32) int32
}

// symbols lists the entry points: the field each binds and whether a
// driver may lack it. The _v2 name is tried first where the driver has
// one (the plain names of those are the 32-bit-pointer originals).
var symbols = []struct {
	name     string
	v2       bool
	optional bool
	fn       func(d *driverAPI) any
}{
	{"cuInit", false, false, func(d *driverAPI) any { return &d.cuInit }},
	{"cuDriverGetVersion", false, false, func(d *driverAPI) any { return &d.cuDriverGetVersion }},
	{"cuDeviceGetCount", false, false, func(d *driverAPI) any { return &d.cuDeviceGetCount }},
	{"cuDeviceGet", false, false, func(d *driverAPI) any { return &d.cuDeviceGet }},
	{"cuDeviceGetName", false, false, func(d *driverAPI) any { return &d.cuDeviceGetName }},
	{"cuDeviceGetAttribute", false, false, func(d *driverAPI) any { return &d.cuDeviceGetAttribute }},
	{"cuDeviceTotalMem", true, false, func(d *driverAPI) any { return &d.cuDeviceTotalMem }},
	{"cuDevicePrimaryCtxRetain", false, false, func(d *driverAPI) any { return &d.cuDevicePrimaryCtxRetain }},
	{"cuDevicePrimaryCtxRelease", true, false, func(d *driverAPI) any { return &d.cuDevicePrimaryCtxRelease }},
	{"cuCtxSetCurrent", false, false, func(d *driverAPI) any { return &d.cuCtxSetCurrent }},
	{"cuCtxGetCurrent", false, false, func(d *driverAPI) any { return &d.cuCtxGetCurrent }},
	{"cuModuleLoadDataEx", false, false, func(d *driverAPI) any { return &d.cuModuleLoadDataEx }},
	{"cuModuleUnload", false, false, func(d *driverAPI) any { return &d.cuModuleUnload }},
	{"cuModuleGetFunction", false, false, func(d *driverAPI) any { return &d.cuModuleGetFunction }},
	{"cuFuncSetAttribute", false, false, func(d *driverAPI) any { return &d.cuFuncSetAttribute }},
	{"cuLaunchKernel", false, false, func(d *driverAPI) any { return &d.cuLaunchKernel }},
	{"cuStreamCreate", false, false, func(d *driverAPI) any { return &d.cuStreamCreate }},
	{"cuStreamSynchronize", false, false, func(d *driverAPI) any { return &d.cuStreamSynchronize }},
	{"cuStreamDestroy", true, false, func(d *driverAPI) any { return &d.cuStreamDestroy }},
	{"cuStreamWaitEvent", false, false, func(d *driverAPI) any { return &d.cuStreamWaitEvent }},
	{"cuEventCreate", false, false, func(d *driverAPI) any { return &d.cuEventCreate }},
	{"cuEventRecord", false, false, func(d *driverAPI) any { return &d.cuEventRecord }},
	{"cuEventSynchronize", false, false, func(d *driverAPI) any { return &d.cuEventSynchronize }},
	{"cuEventQuery", false, false, func(d *driverAPI) any { return &d.cuEventQuery }},
	{"cuEventDestroy", true, false, func(d *driverAPI) any { return &d.cuEventDestroy }},
	{"cuEventElapsedTime", false, false, func(d *driverAPI) any { return &d.cuEventElapsedTime }},
	{"cuMemAlloc", true, false, func(d *driverAPI) any { return &d.cuMemAlloc }},
	{"cuMemFree", true, false, func(d *driverAPI) any { return &d.cuMemFree }},
	{"cuMemAllocAsync", false, true, func(d *driverAPI) any { return &d.cuMemAllocAsync }},
	{"cuMemFreeAsync", false, true, func(d *driverAPI) any { return &d.cuMemFreeAsync }},
	{"cuMemHostAlloc", false, false, func(d *driverAPI) any { return &d.cuMemHostAlloc }},
	{"cuMemFreeHost", false, false, func(d *driverAPI) any { return &d.cuMemFreeHost }},
	{"cuMemcpyHtoDAsync", true, false, func(d *driverAPI) any { return &d.cuMemcpyHtoDAsync }},
	{"cuMemcpyDtoHAsync", true, false, func(d *driverAPI) any { return &d.cuMemcpyDtoHAsync }},
	{"cuMemcpyDtoDAsync", true, false, func(d *driverAPI) any { return &d.cuMemcpyDtoDAsync }},
	{"cuMemsetD8Async", false, false, func(d *driverAPI) any { return &d.cuMemsetD8Async }},
	{"cuLaunchHostFunc", false, false, func(d *driverAPI) any { return &d.cuLaunchHostFunc }},
	{"cuGetErrorName", false, false, func(d *driverAPI) any { return &d.cuGetErrorName }},
	{"cuGetErrorString", false, false, func(d *driverAPI) any { return &d.cuGetErrorString }},
	{"cuDeviceGetDefaultMemPool", false, true, func(d *driverAPI) any { return &d.cuDeviceGetDefaultMemPool }},
	{"cuMemPoolSetAttribute", false, true, func(d *driverAPI) any { return &d.cuMemPoolSetAttribute }},
	{"cuOccupancyMaxPotentialBlockSize", false, true, func(d *driverAPI) any { return &d.cuOccupancyMaxPotentialBSz }},
}

var (
	loadOnce sync.Once
	drv      *driverAPI // nil when the driver did not load
	loadErr  error
)

// dlopen and dlsym are variables so that tests can exercise loading
// against a library that is not there.
var (
	dlopen = purego.Dlopen
	dlsym  = purego.Dlsym
)

// load opens the driver and binds its entry points, once. It never panics
// and never exits: a machine without the driver gets an error saying so.
func load() (*driverAPI, error) {
	loadOnce.Do(func() { drv, loadErr = loadFrom(libName) })
	return drv, loadErr
}

// loadFrom binds the driver API from the library at path.
func loadFrom(path string) (d *driverAPI, err error) {
	defer func() {
		// purego panics on a signature it cannot call; that is a bug
		// here, but it must not take the process down with it.
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("no CUDA driver: binding %s: %v", path, r)
		}
	}()
	if os.Getenv(DisableEnv) == "0" {
		return nil, fmt.Errorf("no CUDA driver: disabled by %s=0", DisableEnv)
	}
	h, err := dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		if strings.HasPrefix(err.Error(), path+":") { // dlerror names the library already
			return nil, fmt.Errorf("no CUDA driver: %v", err)
		}
		return nil, fmt.Errorf("no CUDA driver: %s: %v", path, err)
	}
	d = &driverAPI{}
	for _, s := range symbols {
		var addr uintptr
		var serr error
		if s.v2 {
			addr, serr = dlsym(h, s.name+"_v2")
		}
		if !s.v2 || serr != nil {
			addr, serr = dlsym(h, s.name)
		}
		if serr != nil || addr == 0 {
			if s.optional {
				continue
			}
			return nil, fmt.Errorf("no CUDA driver: %s lacks %s (driver too old?)", path, s.name)
		}
		purego.RegisterFunc(s.fn(d), addr)
	}
	return d, nil
}

// resultName asks the driver for a result's name and description.
func resultName(r Result) (name, desc string) {
	name = fmt.Sprintf("CUresult(%d)", int32(r))
	d := drv
	if d == nil {
		return name, ""
	}
	var p *byte
	if d.cuGetErrorName(int32(r), &p) == 0 && p != nil {
		name = goString(p)
	}
	if d.cuGetErrorString(int32(r), &p) == 0 && p != nil {
		desc = goString(p)
	}
	return name, desc
}

// errNoDriver is returned by operations that need the driver when it did
// not load.
var errNoDriver = errors.New("cuda: no CUDA driver")
