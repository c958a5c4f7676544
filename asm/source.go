package main

import (
	"flag"
	"fmt"
	"go/constant"
	"go/types"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"golang.org/x/tools/go/packages"

	"github.com/simdbloom/bloom/internal/cpu"
)

// The values the kernels share with the Go code come from its declarations,
// never from a copy: the levels from importing internal/cpu, the format's
// header offsets, flags and constants from internal/format (their only
// definition: lookup.go), and the unexported constants and struct offsets
// of the root package and blocked from their types, all loaded with
// go/packages for amd64 (the sizes of gc on amd64). A field that moves or a constant that changes moves the generated
// code with it at the next go generate, which CI runs; until then the
// package does not compile, as every value read is pinned (pins.go).

// The import paths whose declarations the kernels read.
const (
	modulePath  = "github.com/simdbloom/bloom"
	blockedPath = modulePath + "/blocked"
	cpuPath     = modulePath + "/internal/cpu"
	formatPath  = modulePath + "/internal/format"
	cuckooPath  = modulePath + "/cuckoo"
)

// levelAVX2 is the level that the one-key kernels' entry points compare
// cpu.Active with.
var levelAVX2 = uint8(cpu.AVX2)

// activeLevel returns cpu.Active, a Level (an int): its assembler symbol, the
// import path with a middle dot for each dot and a division slash for each
// slash, then a middle dot and the name. Its size is checked to be 8, as
// CMPQ reads it.
func activeLevel() Mem {
	v, ok := lookup(cpuPath, "Active").(*types.Var)
	if !ok {
		log.Fatalf("asm: %s.Active is not a variable", cpuPath)
	}
	if n := sizes.Sizeof(v.Type()); n != 8 {
		log.Fatalf("asm: %s.Active has %d bytes, not the 8 that CMPQ reads", cpuPath, n)
	}
	pinInt(cpuPath, true, func(q string) string { return "unsafe.Sizeof(" + q + "Active)" }, 8)
	pinInt(cpuPath, true, func(q string) string { return q + "AVX2" }, int(levelAVX2))
	sym := strings.NewReplacer(".", "·", "/", "∕").Replace(cpuPath) + "·Active"
	return Mem{Symbol: Symbol{Name: sym}, Base: StaticBase}
}

// sizes are the type sizes of gc on amd64, the kernels' target.
var sizes = types.SizesFor("gc", "amd64")

// loaded caches the packages loaded by import path.
var loaded = map[string]*types.Package{}

// pkgTypes returns the type-checked package at path, as built for amd64.
func pkgTypes(path string) *types.Package {
	if p, ok := loaded[path]; ok {
		return p
	}
	if flag.Parsed() {
		// avo's output flags have truncated the files being generated, so
		// the package would not type-check.
		log.Fatalf("asm: %s loaded after the flags were parsed: read what the kernels need in main's preloads", path)
	}
	// Loaded from the root module's directory (go generate runs this
	// command in asm/), so that the library's own go.mod resolves its
	// dependencies. NeedSyntax has it type-checked from source: export data
	// may leave out unexported constants.
	cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName | packages.NeedSyntax | packages.NeedTypesInfo, Dir: "..", Env: append(envWithout("GOARCH"), "GOARCH=amd64")}
	pkgs, err := packages.Load(cfg, path)
	if err != nil {
		log.Fatalf("asm: loading %s: %v", path, err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		log.Fatalf("asm: loading %s: %v", path, pkgs[0].Errors)
	}
	loaded[path] = pkgs[0].Types
	return pkgs[0].Types
}

// lookup returns the package-level object name of the package at path.
func lookup(path, name string) types.Object {
	o := pkgTypes(path).Scope().Lookup(name)
	if o == nil {
		log.Fatalf("asm: %s has no %s", path, name)
	}
	return o
}

// constInt returns the integer constant name of the package at path.
func constInt(path, name string) int {
	c, ok := lookup(path, name).(*types.Const)
	if !ok {
		log.Fatalf("asm: %s.%s is not a constant", path, name)
	}
	v, exact := constant.Int64Val(constant.ToInt(c.Val()))
	if !exact {
		log.Fatalf("asm: %s.%s is not an int", path, name)
	}
	pinInt(path, exported(name), func(q string) string { return q + name }, int(v))
	return int(v)
}

// ck returns the index of the word or row name (cpNB, c2NB, ...) of the
// cuckoo kernels' parameter blocks, from cuckoo/dispatch_amd64.go.
func ck(name string) int { return constInt(cuckooPath, name) }

// offsetOf returns the byte offset of field in the struct type typ of the
// package at path, and the field's size.
func offsetOf(path, typ, field string) (offset, size int) {
	tn, ok := lookup(path, typ).(*types.TypeName)
	if !ok {
		log.Fatalf("asm: %s.%s is not a type", path, typ)
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		log.Fatalf("asm: %s.%s is not a struct", path, typ)
	}
	var fields []*types.Var
	for i := range st.NumFields() {
		fields = append(fields, st.Field(i))
	}
	offs := sizes.Offsetsof(fields)
	for i, f := range fields {
		if f.Name() == field {
			ok := exported(typ) && exported(field)
			sel := func(q string) string { return q + typ + "{}." + field + ")" }
			pinInt(path, ok, func(q string) string { return "unsafe.Offsetof(" + sel(q) }, int(offs[i]))
			pinInt(path, ok, func(q string) string { return "unsafe.Sizeof(" + sel(q) }, int(sizes.Sizeof(f.Type())))
			return int(offs[i]), int(sizes.Sizeof(f.Type()))
		}
	}
	log.Fatalf("asm: %s.%s has no field %s", path, typ, field)
	return 0, 0
}

// mustSize stops the generator unless size is want: the kernels read the
// field with an instruction of that width.
func mustSize(what string, size, want int) {
	if size != want {
		panic(fmt.Sprintf("asm: %s has %d bytes; the kernels read %d", what, size, want))
	}
}

// envWithout returns the environment without the variables names.
func envWithout(names ...string) []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}
