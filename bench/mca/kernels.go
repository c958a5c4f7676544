package main

// The kernels modelled, and how many keys one iteration of each loop handles.
//
// Keys per iteration come from each kernel's source: the NEON kernels handle
// one key an iteration (the hash pointer advances 8 bytes), the grouped amd64
// kernels (asm/grouped.go) eight (their key index advances by 8), the amd64
// adds four (index + 4), the pure-Go loops one (index + 1). The program
// checks each figure against the loop it cuts: the loop must advance a
// register by stride, else the table and the code disagree and the program
// fails.

// loop selects one loop of a kernel: the index-th backward branch of the
// function, counted from 0 in address order (negative counts from the last).
type loop struct {
	index  int
	keys   int   // keys handled by one iteration
	stride int64 // an increment the loop must contain (see above)
}

// kernel is one batch kernel: its name as in the assembly (or the Go
// function name), the package and architecture of its binary, and the loops
// whose cycles per key add up to its cost (the pure-Go Counting lookup runs
// two loops over each group of keys).
type kernel struct {
	name  string
	arch  string // "arm64" or "amd64"
	pkg   string // import path below the module, "" for the root
	abi0  bool   // assembly: the symbol ends in .abi0
	loops []loop
	// callees are the functions the loop calls (Go's names, as
	// "countHas7"), whose instructions the model adds at each call,
	// falling through their conditional branches.
	callees []string
}

func (k kernel) pkgPath() string {
	if k.pkg == "" {
		return module
	}
	return module + "/" + k.pkg
}

// binary names the test binary that holds the kernel: "arch/pkg".
func (k kernel) binary() string { return k.arch + "/" + k.pkg }

// symbol is the kernel's symbol in the binary.
func (k kernel) symbol() string {
	s := k.pkgPath() + "." + k.name
	if k.abi0 {
		s += ".abi0"
	}
	return s
}

const module = "github.com/simdbloom/bloom"

// kernels is every modelled loop. The NEON kernels have one loop with
// prefetch and one without (the last backward branch); the model takes the
// loop without, as it does for the amd64 ones (the prefetch is one more load
// an iteration in filters past the L2, where memory is the bound anyway).
// The grouped amd64 kernels' loops are, in order: two ring fills and the
// main loop with prefetch, the same three without, and the one-key tail; the
// main loop without prefetch is the second-to-last backward branch. Its body
// includes the ring refill, which runs every iteration.
var kernels = []kernel{
	// arm64: hand-written NEON and the pure-Go loops they replace.
	{name: "filterHas8NEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "filterHas16NEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "splitHasNEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "countingHasNEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	// The pure-Go Filter and SplitBlock loops (batch_generic.go): one loop
	// over a group of keys each, the probe spelled out inline.
	{name: "has8Go", arch: "arm64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	{name: "has16Go", arch: "arm64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	{name: "splitHasGo", arch: "arm64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	// The pure-Go Counting lookup runs two loops over each group of 16 keys
	// (the outer loop, once a group, is left out); the second calls countHas7.
	{name: "countingHasHashesGeneric", arch: "arm64", pkg: "blocked", loops: []loop{{0, 1, 1}, {1, 1, 1}},
		callees: []string{"countHas7"}},

	// The batch adds: one key an iteration, each key's block stored back
	// before the next key's is loaded. The pure-Go Counting add runs two
	// loops over each group of 16 keys, as its lookup does, the second
	// calling countInc7.
	{name: "filterAdd8NEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "filterAdd16NEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "splitAddNEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "countingAddNEON", arch: "arm64", pkg: "blocked", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "add8Go", arch: "arm64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	{name: "add16Go", arch: "arm64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	{name: "splitAddGo", arch: "arm64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	{name: "countingAddHashesGeneric", arch: "arm64", pkg: "blocked", loops: []loop{{0, 1, 1}, {1, 1, 1}},
		callees: []string{"countInc7"}},

	// The cuckoo filter's grouped Go lookup (fingerprints of at most 16
	// bits): two loops over each group of 8 keys, the first computing both
	// bucket offsets of every key, the second unpacking and comparing both
	// buckets (its lanes closure inlined). Semi-sorted and plain tables run
	// the same instructions (a plain table masks the code to 0), so one
	// entry models both layouts.
	{name: "(*Filter).hasHashes16", arch: "arm64", pkg: "cuckoo", loops: []loop{{0, 1, 1}, {1, 1, 1}}},
	// The cuckoo NEON lookups: one key an iteration (software-pipelined, so
	// the loop fetches the next key and compares the current one), a single
	// loop without prefetch; the wide ones serve the widths whose slots can
	// straddle 3 bytes.
	{name: "cuckooHasSemiNEON", arch: "arm64", pkg: "cuckoo", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "cuckooHasSemiWideNEON", arch: "arm64", pkg: "cuckoo", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "cuckooHasPlainNEON", arch: "arm64", pkg: "cuckoo", abi0: true, loops: []loop{{-1, 1, 8}}},
	{name: "cuckooHasPlainWideNEON", arch: "arm64", pkg: "cuckoo", abi0: true, loops: []loop{{-1, 1, 8}}},

	// amd64: the kernels the dispatch runs on AVX2 and AVX-512 processors.
	{name: "filterHas8AVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "filterHas16AVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "filterHas8AVX512", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "filterHas8BITALG", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "filterHas16BITALG", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "splitHasAVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "countingHasAVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "countingHasAVX512", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "splitHasRingAVX512", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "has8Go", arch: "amd64", pkg: "blocked", loops: []loop{{-1, 1, 1}}},
	// The amd64 batch adds (generated, asm/): four keys an iteration (the
	// key index advances by 4), then one at a time; the model takes the
	// four-key loop without prefetch, the second-to-last backward branch.
	// There is no amd64 Counting add kernel.
	{name: "filterAdd8AVX2", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 4, 4}}},
	{name: "filterAdd16AVX2", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 4, 4}}},
	{name: "filterAdd8AVX512", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 4, 4}}},
	{name: "filterAdd16AVX512", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 4, 4}}},
	{name: "splitAddAVX2", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 4, 4}}},
	// The AVX2 ring adds (asm/grouped.go): eight keys an iteration, loops
	// laid out as the grouped lookups'.
	{name: "filterAdd8AVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "filterAdd16AVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	{name: "splitAddAVX2Ring", arch: "amd64", pkg: "blocked", abi0: true, loops: []loop{{-2, 8, 8}}},
	// The string-hashing kernels of the root package (asm/hashstr.go): one
	// loop each, eight keys an iteration (AVX-512) or four (AVX2).
	{name: "hashStr9AVX512", arch: "amd64", abi0: true, loops: []loop{{-1, 8, 8}}},
	{name: "hashStr17AVX512", arch: "amd64", abi0: true, loops: []loop{{-1, 8, 8}}},
	{name: "hashStr33AVX512", arch: "amd64", abi0: true, loops: []loop{{-1, 8, 8}}},
	{name: "hashStr9IFMA", arch: "amd64", abi0: true, loops: []loop{{-1, 8, 8}}},
	{name: "hashStr17IFMA", arch: "amd64", abi0: true, loops: []loop{{-1, 8, 8}}},
	{name: "hashStr33IFMA", arch: "amd64", abi0: true, loops: []loop{{-1, 8, 8}}},
	{name: "hashStr9AVX2", arch: "amd64", abi0: true, loops: []loop{{-1, 4, 4}}},
	{name: "hashStr33AVX2", arch: "amd64", abi0: true, loops: []loop{{-1, 4, 4}}},
	// The cuckoo filter's batch lookups (asm/cuckoo.go) run a pipeline:
	// its main loop (every stage busy) is the first backward branch, the
	// drain the second; the key index advances by a group (eight keys for
	// AVX-512, four for AVX2).
	{name: "cuckooHasSemiAVX512", arch: "amd64", pkg: "cuckoo", abi0: true, loops: []loop{{0, 8, 8}}},
	{name: "cuckooHasPlainAVX512", arch: "amd64", pkg: "cuckoo", abi0: true, loops: []loop{{0, 8, 8}}},
	{name: "cuckooHasSemiAVX2", arch: "amd64", pkg: "cuckoo", abi0: true, loops: []loop{{0, 4, 4}}},
	{name: "cuckooHasPlainAVX2", arch: "amd64", pkg: "cuckoo", abi0: true, loops: []loop{{0, 4, 4}}},
}

// cpus are the llvm-mca processor models per architecture: each slot takes
// the first of its names the installed llvm-mca knows (LLVM models every
// Apple core with Cyclone's scheduling; apple-a14 is the M1's core), and a
// slot none of whose names it knows is skipped. Neoverse N1 is Ampere
// Altra and Graviton2, V1 Graviton3, V2 Graviton4 and Grace.
var cpus = map[string][][]string{
	"arm64": {{"neoverse-n1"}, {"neoverse-v1"}, {"neoverse-v2"}, {"apple-m1", "apple-a14", "cyclone"}},
	"amd64": {{"znver3"}, {"znver4"}, {"icelake-server", "skylake-avx512"}},
}

var triples = map[string]string{"arm64": "aarch64", "amd64": "x86_64"}
