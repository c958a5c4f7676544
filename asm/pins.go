package main

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"log"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Pins. The kernels use values read from the Go declarations at go
// generate (source.go): field offsets and sizes, constants. A declaration
// changed without go generate would leave the assembly reading the old
// offsets, silently. So each reader records what it read (pin), and after
// the kernels the generator appends to the stubs file a function that
// does not compile unless every recorded value is still what the
// declarations give: an offset check x[got-want] is an out-of-range index
// or a negative constant otherwise.
//
// Values read from another package's unexported declarations (the root
// package's typed kernels read blocked.Filter's fields and salts) cannot be
// named there: the kernels of that package, which read the same values
// (asm/main.go's preloads), pin them in theirs.

// setPaths are the import paths of the packages of each -set.
var setPaths = map[string]string{"blocked": blockedPath, "bloom": modulePath, "cuckoo": cuckooPath}

// pinned maps each check's Go expression, valid in the package being
// generated, to the constant it must equal (Go source text).
var pinned = map[string]string{}

// pinImports are the import paths the pinned expressions use.
var pinImports = map[string]bool{}

// unpinned are the packages whose unexported declarations gave values.
var unpinned = map[string]bool{}

// pin records that the kernels use the value want of the expression that
// expr builds around a qualifier ("" in the package at path, "name." from
// another); exported tells whether another package may name it.
func pin(path string, exported bool, expr func(q string) string, want string) {
	own := setPaths[argValue("set", *set)]
	switch {
	case path == own:
		pinned[expr("")] = want
	case exported:
		pinImports[path] = true
		pinned[expr(pathBase(path)+".")] = want
	default:
		unpinned[pathBase(path)] = true
	}
	if strings.Contains(expr(""), "unsafe.") {
		pinImports["unsafe"] = true
	}
}

// pathBase returns the last element of an import path, the package name of
// every package the kernels read.
func pathBase(p string) string { return path.Base(p) }

// pinInt records an integer value.
func pinInt(path string, exported bool, expr func(q string) string, want int) {
	pin(path, exported, expr, strconv.Itoa(want))
}

// writePins appends the pins to the Go file at stubs (avo's stubs file),
// with the imports they need.
func writePins(stubs string) {
	src, err := os.ReadFile(stubs)
	if err != nil {
		log.Fatalf("asm: %v", err)
	}
	var b bytes.Buffer
	head, rest, ok := bytes.Cut(src, []byte("\npackage "))
	if !ok {
		log.Fatalf("asm: %s has no package clause", stubs)
	}
	clause, body, _ := bytes.Cut(rest, []byte("\n"))
	b.Write(head)
	b.WriteString("\npackage ")
	b.Write(clause)
	b.WriteString("\n")
	if len(pinImports) > 0 {
		b.WriteString("\nimport (\n")
		for _, p := range slices.Sorted(mapKeys(pinImports)) {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
		b.WriteString(")\n")
	}
	b.Write(body)
	b.WriteString("\n// The declarations the assembly of this file was generated from: a build\n")
	b.WriteString("// fails here when one has changed since. Run go generate ./... (../asm/pins.go).\n")
	for _, u := range slices.Sorted(mapKeys(unpinned)) {
		b.WriteString("// The values read from unexported declarations of package " + u + " are\n")
		b.WriteString("// pinned by its own kernels, which read them too.\n")
	}
	b.WriteString("func _() {\n\tvar x [1]struct{}\n")
	for _, e := range slices.Sorted(mapKeys(pinned)) {
		want := pinned[e]
		if strings.HasPrefix(want, `"`) {
			// A string: a map literal may not repeat a constant key.
			fmt.Fprintf(&b, "\t_ = map[bool]int{false: 0, %s == %s: 1}\n", e, want)
			continue
		}
		if strings.HasPrefix(want, "-") {
			want = "(" + want + ")"
		}
		fmt.Fprintf(&b, "\t_ = x[%s-%s]\n", e, want)
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("asm: the pins of %s: %v\n%s", stubs, err, b.Bytes())
	}
	if err := os.WriteFile(stubs, out, 0o644); err != nil {
		log.Fatalf("asm: %v", err)
	}
}

// mapKeys returns the keys of m.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// exported reports whether name is exported.
func exported(name string) bool { return token.IsExported(name) }
