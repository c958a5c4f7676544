// Command asm generates simdbloom's amd64 kernels with avo, one assembly
// file (and its Go declarations) per package and instruction set. -set names
// the package (blocked, bloom for the root package, or cuckoo) and -isa the
// level:
//
//	-isa base    kernels_amd64.s: code every amd64 processor runs (the
//	             one-key kernels' entry points, which jump to the version of
//	             cpu.Active's level, and their scalar versions);
//	-isa avx2    kernels_avx2_amd64.s: kernels of the AVX2 level only;
//	-isa avx512  kernels_avx512_amd64.s: kernels of the AVX-512 level only.
//
// So an AVX-512 instruction in an AVX2 file stands out in review (and
// internal/kernelcheck fails on it). Each (set, isa) pair has its own
// generator file here, <set>_<isa>.go (<set>.go for base), which lists the
// kernels of that file; the emitters they share stay in the other files.
//
// The per-architecture files of the root, blocked and cuckoo follow one
// naming scheme:
//
//	dispatch_amd64.go, dispatch_arm64.go  which kernel runs, by cpu.Active
//	dispatch_other.go                     the same for purego and other GOARCHes
//	kernels_amd64.{s,go}                  generated: the amd64 baseline
//	kernels_<isa>_amd64.{s,go}            generated: one per instruction set
//	kernels_arm64.{s,go}                  hand-written NEON
//	*_generic.go                          pure Go only (the reference loops)
//
// Run it through go generate (see blocked/gen.go, cuckoo/gen.go and the
// root gen.go; main_test.go checks that every (set, isa) has its
// //go:generate line, that two runs write the same bytes and those are the
// committed files, and that every kernel it emits is in its package's
// kernels table), for example:
//
//	go run -C ../asm . -set blocked -isa avx2 -out ../blocked/kernels_avx2_amd64.s -stubs ../blocked/kernels_avx2_amd64.go -pkg blocked
//
// Adding a kernel takes seven steps, in two modules (this one and the
// library) and four to six files. The tests named enforce steps 1 to 3 and
// 6 (that a test reaches the kernel; what it compares is review's);
// steps 4, 5 and 7 rest on review:
//
//  1. Emit it from the generator file of its package and level,
//     <set>_<isa>.go here (a new level: a new file, a generators entry and
//     a //go:generate line in the package's gen.go; TestEveryGeneratorRuns).
//     Values it shares with Go code (salts, layouts, offsets) come from the
//     package's declarations (source.go), never copied.
//  2. Run go generate ./... in the library and commit the .s and .go files
//     it writes (.ci/run and TestGenerateDeterministicAndCommitted fail on
//     a stale file).
//  3. Add it to the kernels table of the package's
//     kernels_check_amd64_test.go with the cpu.Kernel of its features
//     (TestKernelsInTables here; TestKernelFeatures there checks the
//     features against every instruction and keeps EVEX out of AVX2 code).
//  4. Call it from the package's dispatch_amd64.go only where the
//     cpu.Kernel of its table entry Runs (or, for a one-key entry point, by
//     cpu.Active's level); CPU facts come only from internal/cpu.
//  5. Keep or write its pure-Go reference in *_generic.go (tag purego and
//     other GOARCHes run it).
//  6. Write its equivalence test: the kernel against the generic code, byte
//     for byte, at every batch length past its unrolling and prefetch
//     distance, with guards around the data, in each level's child process
//     (forEachAsmLevel, forStrVariants) and under the feature masks that
//     select it (withoutBITALG, withoutBMI2, strVariant's ifma), and match
//     its name with the package's equivalenceTests pattern
//     (kernels_check_amd64_test.go). TestEveryKernelHasEquivalenceTest
//     (equivalence_test.go, not under -short) runs those tests with
//     coverage and fails for a kernel whose call they never reach.
//  7. If it replaces a modelled loop, list it in ../bench/mca/kernels.go
//     (the bench module), and add its benchmark row to PERF.md.
//
// The kernels loop over a whole batch inside the assembly. The Go callers
// check every length first: the assembly trusts that out has len(hs)
// elements, that the filter has nblocks > 0 blocks, and that hs[i+pf] exists
// for every i < npf (the keys whose successor pf places ahead is prefetched).
package main

import (
	"flag"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

var (
	set = flag.String("set", "blocked", "the package whose kernels to generate: blocked, bloom (the root package) or cuckoo")
	isa = flag.String("isa", "avx2", "the instruction set of the file: base, avx2 or avx512")
)

// generators are the files' generators, by set and isa.
var generators = map[[2]string]func(){
	{"blocked", "base"}:   blockedBase,
	{"blocked", "avx2"}:   blockedAVX2,
	{"blocked", "avx512"}: blockedAVX512,
	{"bloom", "base"}:     bloomBase,
	{"bloom", "avx2"}:     bloomAVX2,
	{"bloom", "avx512"}:   bloomAVX512,
	{"cuckoo", "avx2"}:    cuckooAVX2,
	{"cuckoo", "avx512"}:  cuckooAVX512,
}

// preloads read, for each set, the Go declarations its kernels take
// values from (source.go), and set avo's package for signatures that name
// the package's types.
var preloads = map[string]func(){
	"blocked": func() {
		Package(blockedPath)
		filterSalts()
		layouts()
		aheadGroups()
		activeLevel()
		encoding()
	},
	"bloom": func() {
		Package(modulePath)
		filterSalts()
		layouts()
		typedFields()
		kindOf("kindUint64")
		activeLevel()
	},
	"cuckoo": func() { ck("cpWords") },
}

func main() {
	// avo's -out and -stubs flags create (truncate) their files as they
	// are parsed, and the packages whose declarations the kernels read
	// include those files: read them first, while the files are whole.
	preload, ok := preloads[argValue("set", *set)]
	if !ok {
		log.Fatalf("asm: no kernels for -set %q", argValue("set", *set))
	}
	preload()
	flag.Parse() // avo's -out, -stubs and -pkg are on the same flag set
	gen, ok := generators[[2]string{*set, *isa}]
	if !ok {
		log.Fatalf("asm: no kernels for -set %q -isa %q", *set, *isa)
	}
	ConstraintExpr("!purego")
	gen()
	Generate()
	writePins(flag.Lookup("stubs").Value.String())
}

// argValue returns the value of flag -name in the command line, or def,
// before flag.Parse.
func argValue(name, def string) string {
	args := os.Args[1:]
	for i, a := range args {
		a = strings.TrimPrefix(a, "-")
		a = strings.TrimPrefix(a, "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return def
}

// qwordTable emits a read-only table of 64-bit words and returns it.
func qwordTable(name string, words []uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, w := range words {
		DATA(8*i, U64(w))
	}
	return m
}
