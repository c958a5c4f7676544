package bloom

// The amd64 kernels, one file per instruction set (see asm/main.go).
//go:generate go run -C asm . -set bloom -isa base -out ../kernels_amd64.s -stubs ../kernels_amd64.go -pkg bloom
//go:generate go run -C asm . -set bloom -isa avx2 -out ../kernels_avx2_amd64.s -stubs ../kernels_avx2_amd64.go -pkg bloom
//go:generate go run -C asm . -set bloom -isa avx512 -out ../kernels_avx512_amd64.s -stubs ../kernels_avx512_amd64.go -pkg bloom
