// Command asm generates simdbloom's amd64 kernels with avo: with -set
// blocked (the default), blocked/kernels_amd64.s and its Go declarations;
// with -set hash, the root package's key-hashing kernels; with -set cuckoo,
// cuckoo/kernels_amd64.s.
//
// Run it through go generate (see blocked/gen.go and the root gen.go):
//
//	go run -C ../asm . -out ../blocked/kernels_amd64.s -stubs ../blocked/kernels_amd64.go -pkg blocked
//
// The kernels loop over a whole batch inside the assembly. The Go callers
// check every length first: the assembly trusts that out has len(hs)
// elements, that the filter has nblocks > 0 blocks, and that hs[i+pf] exists
// for every i < npf (the keys whose successor pf places ahead is prefetched).
package main

import (
	"flag"
	"log"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

var set = flag.String("set", "blocked", "which kernels to generate: blocked (package blocked), hash or typed (package bloom), or cuckoo (package cuckoo)")

func main() {
	flag.Parse() // avo's -out, -stubs and -pkg are on the same flag set
	ConstraintExpr("!purego")
	switch *set {
	case "blocked":
		filterKernels()
		splitKernels()
		singleKernels()
		countingKernels()
	case "hash":
		hashKernels()
	case "typed":
		typedKernels()
	case "cuckoo":
		cuckooKernels()
	default:
		log.Fatalf("asm: unknown -set %q (want blocked, hash, typed or cuckoo)", *set)
	}
	Generate()
}

// qwordTable emits a read-only table of 64-bit words and returns it.
func qwordTable(name string, words []uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, w := range words {
		DATA(8*i, U64(w))
	}
	return m
}
