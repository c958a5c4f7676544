// Command mca models the throughput of every batch kernel's inner loop with
// llvm-mca, for arm64 processors (where no hardware is at hand) and amd64
// ones (where the model can be checked against measurements; PERF.md).
//
// It lives in the bench module, outside the library's module download. Run
// it from bench/ (it finds the library through bench's replace directive):
//
//	cd bench && go run ./mca [--json]
//
// It builds the test binaries of the kernels' packages for linux/arm64 and
// linux/amd64 (go test -c), disassembles each kernel with llvm-objdump, cuts
// its loop (from a backward branch's target to the branch), checks the loop
// against the keys-per-iteration table of kernels.go, and runs llvm-mca on
// it for each processor model. It prints cycles per iteration, keys per
// iteration and cycles per key; with --json, a list of
// {"kernel", "cpu", "cycles_per_key", "keys_per_iteration"}.
// With -show NAME it prints the llvm-mca input of that kernel instead.
// Without llvm-mca and llvm-objdump it says so and exits with status 2.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// result is one kernel on one processor model.
type result struct {
	Kernel       string  `json:"kernel"`
	Arch         string  `json:"-"`
	CPU          string  `json:"cpu"`
	CyclesPerIt  float64 `json:"-"`
	CyclesPerKey float64 `json:"cycles_per_key"`
	KeysPerIt    int     `json:"keys_per_iteration"`
}

func main() {
	asJSON := flag.Bool("json", false, "print JSON")
	show := flag.String("show", "", "print the llvm-mca input of the named kernel (as printed) instead")
	flag.Parse()
	t, err := findTools()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mca:", err)
		os.Exit(2)
	}
	if *show != "" {
		only := slices.DeleteFunc(slices.Clone(kernels), func(k kernel) bool { return k.name != *show })
		kernels = only
	}
	root, err := libraryRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mca:", err)
		os.Exit(1)
	}
	rs, err := run(t, root, *show != "")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mca:", err)
		os.Exit(1)
	}
	if *show != "" {
		return
	}
	if *asJSON {
		e := json.NewEncoder(os.Stdout)
		e.SetIndent("", "  ")
		e.Encode(rs)
		return
	}
	fmt.Printf("llvm-mca %s (%s)\n", t.version, t.mca)
	printTable(os.Stdout, rs)
}

// libraryRoot returns the directory of the library module, as the bench
// module resolves it (its replace directive points at the checkout).
func libraryRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %v", module, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("go list -m %s: no directory (run mca from the bench module)", module)
	}
	return dir, nil
}

// run builds, disassembles and models every kernel of the table.
// With show it prints each loop's llvm-mca input instead of modelling it.
func run(t tools, root string, show bool) ([]result, error) {
	dir, err := os.MkdirTemp("", "mca")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	dis, err := disassembleAll(t, root, dir, kernels)
	if err != nil {
		return nil, err
	}
	var rs []result
	for _, k := range kernels {
		bodies, err := kernelLoops(dis[k.binary()], k)
		if err != nil {
			return nil, err
		}
		if show {
			for _, b := range bodies {
				fmt.Print(mcaInput(b))
			}
			continue
		}
		triple := triples[k.arch]
		for _, slot := range cpus[k.arch] {
			i := slices.IndexFunc(slot, func(c string) bool { return t.knows(triple, c) })
			if i < 0 {
				continue
			}
			cpu := slot[i]
			perKey, perIt := 0.0, 0.0
			for i, b := range bodies {
				c, err := t.model(triple, cpu, mcaInput(b))
				if err == errUnsupported {
					perKey = 0
					break
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %v", k.name, err)
				}
				perKey += c / float64(k.loops[i].keys)
				perIt += c
			}
			if perKey == 0 {
				continue // not on this processor
			}
			rs = append(rs, result{k.name, k.arch, cpu, perIt, perKey, k.loops[0].keys})
		}
	}
	return rs, nil
}

// disassembleAll builds, in dir, the test binary of every package and
// architecture of ks and returns the disassembly of the kernels' symbols
// (and their callees'), by kernel.binary().
func disassembleAll(t tools, root, dir string, ks []kernel) (map[string]string, error) {
	syms := map[string][]string{}
	var order []string
	for _, k := range ks {
		b := k.binary()
		if syms[b] == nil {
			order = append(order, b)
		}
		syms[b] = append(syms[b], k.symbol())
		for _, c := range k.callees {
			syms[b] = append(syms[b], k.pkgPath()+"."+c)
		}
	}
	dis := map[string]string{}
	for _, b := range order {
		arch, pkg, _ := strings.Cut(b, "/")
		out, err := disassemble(t, root, dir, arch, pkg, syms[b])
		if err != nil {
			return nil, err
		}
		dis[b] = out
	}
	return dis, nil
}

// kernelLoops returns the loops of kernel k in the disassembly out, each
// checked against the table: it must advance a register by its stride.
func kernelLoops(out string, k kernel) ([][]inst, error) {
	fns := parse(out)
	code := fns[k.symbol()]
	if code == nil {
		return nil, fmt.Errorf("symbol %s not found in the disassembly", k.symbol())
	}
	all := loops(code)
	var bodies [][]inst
	for _, l := range k.loops {
		b, err := pick(all, l.index)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k.name, err)
		}
		if !increments(b)[l.stride] {
			return nil, fmt.Errorf("%s: loop %d does not advance by %d (the table says %d keys an iteration):\n%s",
				k.name, l.index, l.stride, l.keys, mcaInput(b))
		}
		if b, err = inline(b, fns); err != nil {
			return nil, fmt.Errorf("%s: %v", k.name, err)
		}
		bodies = append(bodies, b)
	}
	return bodies, nil
}

// disassemble builds the test binary of pkg for linux/arch and returns
// llvm-objdump's disassembly of the symbols syms.
func disassemble(t tools, root, dir, arch, pkg string, syms []string) (string, error) {
	bin := filepath.Join(dir, arch+"-"+filepath.Base(pkg+"root")+".test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./"+pkg)
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go test -c ./%s for %s: %v\n%s", pkg, arch, err, out)
	}
	args := []string{"-d", "--no-show-raw-insn"}
	for _, s := range syms {
		args = append(args, "--disassemble-symbols="+s)
	}
	out, err := exec.Command(t.objdump, append(args, bin)...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "", fmt.Errorf("llvm-objdump: %v\n%s", err, ee.Stderr)
	}
	return string(out), err
}

func printTable(w io.Writer, rs []result) {
	fmt.Fprintf(w, "%-26s %-6s %-16s %10s %9s %10s\n", "kernel", "arch", "cpu", "cycles/it", "keys/it", "cycles/key")
	rs = slices.Clone(rs)
	for _, r := range rs {
		fmt.Fprintf(w, "%-26s %-6s %-16s %10.2f %9d %10.2f\n", r.Kernel, r.Arch, r.CPU, r.CyclesPerIt, r.KeysPerIt, r.CyclesPerKey)
	}
}
