package cuckoo

//go:generate go run -C ../asm . -set cuckoo -out ../cuckoo/kernels_amd64.s -stubs ../cuckoo/kernels_amd64.go -pkg cuckoo
