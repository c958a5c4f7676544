package bloom

//go:generate go run -C asm . -set hash -out ../hash_amd64.s -stubs ../hash_amd64.go -pkg bloom
//go:generate go run -C asm . -set typed -out ../typed_amd64.s -stubs ../typed_amd64.go -pkg bloom
