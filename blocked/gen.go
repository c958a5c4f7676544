package blocked

// The amd64 kernels, one file per instruction set (see ../asm/main.go).
//go:generate go run -C ../asm . -set blocked -isa base -out ../blocked/kernels_amd64.s -stubs ../blocked/kernels_amd64.go -pkg blocked
//go:generate go run -C ../asm . -set blocked -isa avx2 -out ../blocked/kernels_avx2_amd64.s -stubs ../blocked/kernels_avx2_amd64.go -pkg blocked
//go:generate go run -C ../asm . -set blocked -isa avx512 -out ../blocked/kernels_avx512_amd64.s -stubs ../blocked/kernels_avx512_amd64.go -pkg blocked
