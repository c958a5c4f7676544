package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The generator's own tests. They run it as go generate does (the
// //go:generate lines of the library, run in this directory), writing into
// temporary directories, and check that
//
//   - every (set, isa) of generators has a //go:generate line, and every
//     line names one of them;
//   - two runs write the same bytes, and those are the committed files (so
//     the committed code is what the generator makes, whoever ran it);
//   - the TEXT symbols it emits for a package are exactly the keys of that
//     package's kernels table (kernels_check_amd64_test.go), which
//     TestKernelFeatures checks each kernel's features against: a kernel
//     added without its table entry, or an entry whose kernel is gone,
//     fails here.

// genRun is one //go:generate line that runs this generator.
type genRun struct {
	file       string   // the Go file holding the line, relative to the module root
	args       []string // the generator's arguments
	set, isa   string
	out, stubs string // as written in args: paths relative to this directory
}

// generateLine matches a //go:generate line that runs the generator with
// go run -C DIR ., capturing DIR and the arguments.
var generateLine = regexp.MustCompile(`^//go:generate go run -C (\S+) \. (.*)$`)

// genRuns returns the //go:generate lines of the library module (the
// parent directory, without its nested modules) that run this generator.
func genRuns(t *testing.T) []genRun {
	t.Helper()
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(here)
	var runs []genRun
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module: asm itself, bench, ...
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, path)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := generateLine.FindStringSubmatch(sc.Text())
			if m == nil || filepath.Join(filepath.Dir(path), m[1]) != here {
				continue
			}
			r := genRun{file: rel, args: strings.Fields(m[2])}
			for i := 0; i+1 < len(r.args); i++ {
				switch v := r.args[i+1]; r.args[i] {
				case "-set":
					r.set = v
				case "-isa":
					r.isa = v
				case "-out":
					r.out = v
				case "-stubs":
					r.stubs = v
				}
			}
			if r.set == "" || r.isa == "" || r.out == "" || r.stubs == "" {
				t.Fatalf("%s: %q lacks -set, -isa, -out or -stubs", rel, sc.Text())
			}
			runs = append(runs, r)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) == 0 {
		t.Fatal("no //go:generate line runs the generator")
	}
	return runs
}

func TestEveryGeneratorRuns(t *testing.T) {
	seen := map[[2]string]bool{}
	for _, r := range genRuns(t) {
		k := [2]string{r.set, r.isa}
		if generators[k] == nil {
			t.Errorf("%s: -set %s -isa %s has no generator", r.file, r.set, r.isa)
		}
		if seen[k] {
			t.Errorf("%s: -set %s -isa %s is generated twice", r.file, r.set, r.isa)
		}
		seen[k] = true
	}
	for k := range generators {
		if !seen[k] {
			t.Errorf("generator -set %s -isa %s is run by no //go:generate line: its file is never written", k[0], k[1])
		}
	}
}

// generate runs the generator (the binary bin) for every run, writing each
// run's files into dir, and returns their contents by the path the run
// names (its -out or -stubs), with dir's paths in the header replaced by
// those: the bytes go generate would write.
func generate(t *testing.T, bin, dir string, runs []genRun) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for i, r := range runs {
		out := filepath.Join(dir, strconv.Itoa(i)+".s")
		stubs := filepath.Join(dir, strconv.Itoa(i)+".go")
		args := slices.Clone(r.args)
		for j := range args {
			switch {
			case j > 0 && args[j-1] == "-out":
				args[j] = out
			case j > 0 && args[j-1] == "-stubs":
				args[j] = stubs
			}
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = "." // go run -C: this directory
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: asm %s: %v\n%s", r.file, strings.Join(r.args, " "), err, b)
		}
		for _, f := range [][2]string{{out, r.out}, {stubs, r.stubs}} {
			b, err := os.ReadFile(f[0])
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.ReplaceAll(b, []byte(out), []byte(r.out))
			files[f[1]] = bytes.ReplaceAll(b, []byte(stubs), []byte(r.stubs))
		}
	}
	return files
}

// buildGenerator builds this command into a temporary directory. It is
// built, not run in the test binary: avo's header names the file of the
// main function.
func buildGenerator(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "asm")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return bin
}

func TestGenerateDeterministicAndCommitted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator twice for every file (about a minute)")
	}
	runs := genRuns(t)
	bin := buildGenerator(t)
	first := generate(t, bin, t.TempDir(), runs)
	second := generate(t, bin, t.TempDir(), runs)
	for _, name := range slices.Sorted(maps.Keys(first)) {
		if !bytes.Equal(first[name], second[name]) {
			t.Errorf("%s: two runs of the generator differ", name)
		}
		committed, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(first[name], committed) {
			t.Errorf("%s: the committed file is not what the generator writes: run go generate ./... and commit", name)
		}
	}
	checkTables(t, first)
}

// TestKernelsInTables checks the TEXT symbols of the committed files
// against the packages' kernels tables (TestGenerateDeterministicAndCommitted,
// not short, checks them as generated).
func TestKernelsInTables(t *testing.T) {
	files := map[string][]byte{}
	for _, r := range genRuns(t) {
		b, err := os.ReadFile(r.out)
		if err != nil {
			t.Fatal(err)
		}
		files[r.out] = b
	}
	checkTables(t, files)
}

var textSymbol = regexp.MustCompile(`(?m)^TEXT ·(\w+)\(SB\)`)

// checkTables checks that the TEXT symbols of the .s files of files, by
// package directory, are exactly the keys of the kernels table in that
// directory's kernels_check_amd64_test.go.
func checkTables(t *testing.T, files map[string][]byte) {
	t.Helper()
	emitted := map[string]map[string]string{} // dir -> symbol -> file
	for name, b := range files {
		if !strings.HasSuffix(name, ".s") {
			continue
		}
		dir := filepath.Dir(name)
		if emitted[dir] == nil {
			emitted[dir] = map[string]string{}
		}
		for _, m := range textSymbol.FindAllSubmatch(b, -1) {
			emitted[dir][string(m[1])] = name
		}
	}
	for dir, syms := range emitted {
		table := filepath.Join(dir, "kernels_check_amd64_test.go")
		keys, err := tableKeys(table)
		if err != nil {
			t.Error(err)
			continue
		}
		for s, file := range syms {
			if !keys[s] {
				t.Errorf("%s: kernel %s is not in the kernels table of %s", file, s, table)
			}
		}
		for k := range keys {
			if syms[k] == "" {
				t.Errorf("%s: the kernels table lists %s, which the generator does not emit", table, k)
			}
		}
	}
}

// tableKeys returns the keys of the map literal of the package-level
// variable kernels in the Go file path.
func tableKeys(path string) (map[string]bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if len(v.Names) != 1 || v.Names[0].Name != "kernels" || len(v.Values) != 1 {
				continue
			}
			lit, ok := v.Values[0].(*ast.CompositeLit)
			if !ok {
				continue
			}
			keys := map[string]bool{}
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if b, ok := kv.Key.(*ast.BasicLit); ok && b.Kind == token.STRING {
					name, err := strconv.Unquote(b.Value)
					if err != nil {
						return nil, err
					}
					keys[name] = true
				}
			}
			return keys, nil
		}
	}
	return nil, fmt.Errorf("%s: no kernels table (var kernels = map[string]cpu.Kernel{...})", path)
}
