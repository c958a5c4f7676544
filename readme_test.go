package bloom_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// readmeImports are the packages a README fragment may use without
// importing them, by the name it uses.
var readmeImports = map[string]string{
	"bloom":     `"github.com/simdbloom/bloom"`,
	"blocked":   `"github.com/simdbloom/bloom/blocked"`,
	"cuckoo":    `"github.com/simdbloom/bloom/cuckoo"`,
	"sbparquet": `sbparquet "github.com/simdbloom/bloom/parquet"`,
	"bytes":     `"bytes"`,
	"errors":    `"errors"`,
	"fmt":       `"fmt"`,
	"os":        `"os"`,
	"xxh3":      `"github.com/zeebo/xxh3"`,
}

// TestReadmeCompiles builds every Go code block of README.md against this
// checkout: a block that starts with "package" as it stands, any other as
// the body of a main function, importing the packages it names from
// readmeImports. A block that does not compile as pasted fails the test.
func TestReadmeCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the README's code with the go command")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skip("no go command here:", err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) < 3 {
		t.Fatalf("README.md has %d Go code blocks; the test expects the example and more", len(blocks))
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := fmt.Sprintf("module readme\n\ngo 1.24.0\n\nrequire github.com/simdbloom/bloom v0.0.0\n\nreplace github.com/simdbloom/bloom => %s\n", root)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o666); err != nil {
		t.Fatal(err)
	}
	for i, m := range blocks {
		src := string(m[1])
		if !strings.HasPrefix(src, "package ") {
			var imports []string
			for name, path := range readmeImports {
				if regexp.MustCompile(`\b` + name + `\.`).MatchString(src) {
					imports = append(imports, path)
				}
			}
			src = "package main\n\nimport (\n\t" + strings.Join(imports, "\n\t") + "\n)\n\nfunc main() {\n" + src + "}\n"
		}
		sub := filepath.Join(dir, fmt.Sprintf("block%02d", i+1))
		if err := os.MkdirAll(sub, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "main.go"), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("go %s of the README's code blocks (blockNN is the NN-th block): %v\n%s", strings.Join(args, " "), err, out.String())
		}
	}
}
