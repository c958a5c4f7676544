package blocked

//go:generate go run -C ../asm . -out ../blocked/kernels_amd64.s -stubs ../blocked/kernels_amd64.go -pkg blocked
