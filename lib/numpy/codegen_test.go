package numpy_test

import "testing"

// Jitted functions compile their fused kernels to native code where the
// CPU allows; these run the NumPy comparisons again on the portable block
// machine (JAXSH_CPU_CODEGEN=0), so both paths meet the same values.

func TestGoldenUnderJitPortable(t *testing.T) {
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	TestGoldenUnderJit(t)
}

func TestComposedAgainstNumPyPortable(t *testing.T) {
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	TestComposedAgainstNumPy(t)
}
