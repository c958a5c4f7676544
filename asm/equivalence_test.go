package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// TestEveryKernelHasEquivalenceTest checks that every kernel of a package's
// kernels table runs in that package's equivalence tests: the tests its
// kernels_check_amd64_test.go names in the constant equivalenceTests, which
// compare the assembly with the generic code. It runs them with coverage
// (their children too: internal/childtest passes -test.gocoverdir on, and
// the kernels of each level run in a child) and requires, for each kernel,
// a call of it in the package's Go code that the run reached; for a kernel
// only jumped to from another's assembly (the one-key kernels of a level),
// a reached call of the kernel that jumps. A kernel added with no test that
// reaches it fails here, naming it and its calls.
//
// It needs an amd64 processor with every feature some kernel uses (else
// some kernels cannot run), and takes minutes: not under -short.
func TestEveryKernelHasEquivalenceTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the library's equivalence tests with coverage (minutes)")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the kernels tables are amd64's")
	}
	all := cpu.FeatureSSE2 | cpu.FeatureMMXExt | cpu.FeaturePOPCNT | cpu.FeatureBMI1 | cpu.FeatureBMI2 |
		cpu.FeatureAVX | cpu.FeatureAVX2 | cpu.FeatureAVX512F | cpu.FeatureAVX512VL | cpu.FeatureAVX512DQ |
		cpu.FeatureAVX512BW | cpu.FeatureAVX512BITALG | cpu.FeatureAVX512IFMA | cpu.FeatureAVX512VBMI
	if cpu.Features&all != all || !slices.Contains(cpu.Usable(), cpu.AVX512) {
		t.Skipf("this processor (features %#x, usable %v) cannot run every kernel", cpu.Features, cpu.Usable())
	}
	dirs := map[string]string{} // package directory -> set
	for _, r := range genRuns(t) {
		dirs[filepath.Dir(r.out)] = r.set
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		t.Run(dirs[dir], func(t *testing.T) { checkEquivalence(t, dir) })
	}
}

// checkEquivalence is TestEveryKernelHasEquivalenceTest for the package in
// dir (relative to this directory).
func checkEquivalence(t *testing.T, dir string) {
	table := filepath.Join(dir, "kernels_check_amd64_test.go")
	keys, err := tableKeys(table)
	if err != nil {
		t.Fatal(err)
	}
	pattern, err := stringConst(table, "equivalenceTests")
	if err != nil {
		t.Fatal(err)
	}
	calls, err := kernelCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	jumps, err := kernelJumps(dir)
	if err != nil {
		t.Fatal(err)
	}

	covdir := t.TempDir()
	cmd := exec.Command("go", "test", "-count=1", "-cover", "-covermode=set", "-coverpkg=.", "-run", pattern, ".",
		"-args", "-test.gocoverdir="+covdir)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -run %q in %s: %v\n%s", pattern, dir, err, out)
	}
	profile := filepath.Join(t.TempDir(), "cover.txt")
	if out, err := exec.Command("go", "tool", "covdata", "textfmt", "-i="+covdir, "-o="+profile).CombinedOutput(); err != nil {
		t.Fatalf("go tool covdata: %v\n%s", err, out)
	}
	blocks, err := readProfile(profile)
	if err != nil {
		t.Fatal(err)
	}

	reached := func(k string) bool {
		for _, c := range calls[k] {
			if blocks.reached(c) {
				return true
			}
		}
		return false
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		switch {
		case reached(k):
		case len(calls[k]) == 0 && jumps[k] != "" && reached(jumps[k]):
		case len(calls[k]) == 0 && jumps[k] == "":
			t.Errorf("kernel %s: no Go code calls it and no kernel jumps to it", k)
		case len(calls[k]) == 0:
			t.Errorf("kernel %s (jumped to from %s): no test of %s reaches a call of %s (%v)", k, jumps[k], pattern, jumps[k], calls[jumps[k]])
		default:
			t.Errorf("kernel %s: no test of %s reaches its calls (%v): write its equivalence test (see main.go)", k, pattern, calls[k])
		}
	}
}

// stringConst returns the value of the string constant name in the Go file
// path.
func stringConst(path, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, n := range v.Names {
				if n.Name != name || i >= len(v.Values) {
					continue
				}
				if b, ok := v.Values[i].(*ast.BasicLit); ok && b.Kind == token.STRING {
					return strconv.Unquote(b.Value)
				}
			}
		}
	}
	return "", fmt.Errorf("%s: no string constant %s (the -run pattern of the tests that compare the kernels with the generic code)", path, name)
}

// position is a place in a Go file of a package directory.
type position struct {
	file      string // base name
	line, col int
}

func (p position) String() string { return fmt.Sprintf("%s:%d", p.file, p.line) }

// kernelCalls returns, by called name, the calls in the non-test Go files
// of dir of a function named by a plain identifier.
func kernelCalls(dir string) (map[string][]position, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	calls := map[string][]position{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok {
					p := fset.Position(c.Pos())
					calls[id.Name] = append(calls[id.Name], position{filepath.Base(name), p.Line, p.Column})
				}
			}
			return true
		})
	}
	return calls, nil
}

var (
	textLine = regexp.MustCompile(`^TEXT ·(\w+)\(SB\)`)
	jumpLine = regexp.MustCompile(`^\s+JMP\s+·(\w+)\(SB\)`)
)

// kernelJumps returns, by kernel, the kernel of the .s files of dir whose
// code jumps to it.
func kernelJumps(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.s"))
	if err != nil {
		return nil, err
	}
	jumps := map[string]string{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var in string
		for _, l := range strings.Split(string(b), "\n") {
			if m := textLine.FindStringSubmatch(l); m != nil {
				in = m[1]
			} else if m := jumpLine.FindStringSubmatch(l); m != nil && in != "" {
				jumps[m[1]] = in
			}
		}
	}
	return jumps, nil
}

// coverBlock is a block of a coverage profile.
type coverBlock struct {
	file                 string // base name
	l0, c0, l1, c1, hits int
}

type coverBlocks []coverBlock

// reached reports whether a block holding p ran.
func (bs coverBlocks) reached(p position) bool {
	for _, b := range bs {
		if b.file != p.file || b.hits == 0 {
			continue
		}
		after := p.line > b.l0 || p.line == b.l0 && p.col >= b.c0
		before := p.line < b.l1 || p.line == b.l1 && p.col <= b.c1
		if after && before {
			return true
		}
	}
	return false
}

var profileLine = regexp.MustCompile(`^(\S+):(\d+)\.(\d+),(\d+)\.(\d+) \d+ (\d+)$`)

// readProfile reads a coverage profile in the text format.
func readProfile(path string) (coverBlocks, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var bs coverBlocks
	for _, l := range strings.Split(string(b), "\n") {
		m := profileLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n := make([]int, 5)
		for i := range n {
			n[i], _ = strconv.Atoi(m[i+2])
		}
		bs = append(bs, coverBlock{filepath.Base(m[1]), n[0], n[1], n[2], n[3], n[4]})
	}
	if len(bs) == 0 {
		return nil, fmt.Errorf("%s: no coverage blocks", path)
	}
	return bs, nil
}
