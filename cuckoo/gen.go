package cuckoo

// The amd64 kernels, one file per instruction set (see ../asm/main.go).
//go:generate go run -C ../asm . -set cuckoo -isa avx2 -out ../cuckoo/kernels_avx2_amd64.s -stubs ../cuckoo/kernels_avx2_amd64.go -pkg cuckoo
//go:generate go run -C ../asm . -set cuckoo -isa avx512 -out ../cuckoo/kernels_avx512_amd64.s -stubs ../cuckoo/kernels_avx512_amd64.go -pkg cuckoo
