// Package kernelcheck checks a package's assembly against its table of CPU
// features (a map from function name to cpu.Kernel, the variables its
// dispatch runs each kernel by), kept in the package's
// kernels_check_<arch>_test.go, for its TestKernelFeatures. It is used only
// by tests.
//
// Three checks, each failing the test with the function and the line (on
// arm64, whose hand-written kernels carry Requires lines too, only the
// first):
//
//   - Table: every TEXT symbol of the .s files has a table entry and every
//     entry a TEXT symbol; the features on avo's "// Requires:" line above
//     the function are all in its entry (its Needs, or the architecture's
//     Baseline); a kernel below AVX-512 needs no AVX-512 feature; a kernel
//     reached by its level alone (ByLevel) needs only what its level
//     guarantees.
//   - Registers: the functions below the AVX-512 level name no Z or K
//     register and no X16-X31 or Y16-Y31, which only EVEX can encode.
//   - Encodings: the machine code of the test binary, disassembled with GNU
//     objdump, has no EVEX-encoded instruction (and, in functions that run
//     without AVX, no VEX one) in functions below the AVX-512 level. This
//     is what catches an EVEX-only form, such as a shift by an immediate
//     with a memory source, that names no EVEX-only register.
//
// Every function runs at one level, its table entry's: the amd64 kernels
// are one function per level, in one file per instruction set, and an entry
// point that chooses between them jumps to another function.
package kernelcheck

import (
	"bufio"
	"debug/elf"
	"debug/gosym"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// function is one TEXT symbol of a .s file.
type function struct {
	name     string
	file     string
	requires cpu.Feature
	unknown  []string
	level    cpu.Level // its table entry's
	first    int       // the line of the TEXT symbol: lines[0]
	lines    []string
}

var (
	textRE     = regexp.MustCompile(`^TEXT ·(\w+)\(SB\)`)
	requiresRE = regexp.MustCompile(`^// Requires: (.*)$`)
	// evexRegRE matches the registers only EVEX can encode.
	evexRegRE = regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
)

// parse reads the functions of the .s file at path, each at the level of
// its entry in table.
func parse(path string, table map[string]cpu.Kernel) ([]*function, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fns []*function
	var fn *function
	var requires string
	for i, line := range strings.Split(string(src), "\n") {
		if m := requiresRE.FindStringSubmatch(line); m != nil {
			requires = m[1]
			continue
		}
		if m := textRE.FindStringSubmatch(line); m != nil {
			fn = &function{name: m[1], file: path, first: i + 1, level: table[m[1]].Level}
			fn.requires, fn.unknown = cpu.ParseFeatures(requires)
			requires = ""
			fns = append(fns, fn)
		}
		if fn != nil {
			fn.lines = append(fn.lines, line)
		}
	}
	return fns, nil
}

// Check runs the three checks on the .s files (paths relative to the test's
// directory) of the package whose import path is pkg, against its table.
func Check(t *testing.T, pkg string, table map[string]cpu.Kernel, files ...string) {
	t.Helper()
	var fns []*function
	for _, f := range files {
		fs, err := parse(f, table)
		if err != nil {
			t.Fatal(err)
		}
		fns = append(fns, fs...)
	}
	if len(fns) == 0 {
		t.Fatalf("no TEXT symbols in %v", files)
	}
	for _, p := range checkTable(fns, table) {
		t.Error(p)
	}
	if runtime.GOARCH != "amd64" {
		return // the register and encoding checks are of amd64's EVEX
	}
	for _, p := range checkRegisters(fns) {
		t.Error(p)
	}
	checkEncodings(t, pkg, fns)
}

// checkTable returns the problems of the table against the functions.
func checkTable(fns []*function, table map[string]cpu.Kernel) (problems []string) {
	errorf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	const avx512 = cpu.FeatureAVX512F | cpu.FeatureAVX512VL | cpu.FeatureAVX512DQ | cpu.FeatureAVX512BW |
		cpu.FeatureAVX512BITALG | cpu.FeatureAVX512IFMA | cpu.FeatureAVX512VBMI
	seen := map[string]bool{}
	for _, fn := range fns {
		seen[fn.name] = true
		k, ok := table[fn.name]
		if !ok {
			errorf("%s (%s): no entry in the kernel table", fn.name, fn.file)
			continue
		}
		if len(fn.unknown) > 0 {
			errorf("%s: Requires names features internal/cpu does not know: %v", fn.name, fn.unknown)
		}
		have := k.Needs | cpu.Baseline
		if extra := k.Needs &^ cpu.LevelFeatures(k.Level); k.ByLevel && extra != 0 {
			errorf("%s: needs %v, which the %v level does not guarantee (it runs where cpu.Active is %v, without cpu.Can)", fn.name, extra, k.Level, k.Level)
		}
		if missing := fn.requires &^ have; missing != 0 {
			errorf("%s: its instructions need %v (Requires: %v), which its table entry lacks (%v)", fn.name, missing, fn.requires, k.Needs)
		}
		if k.Level < cpu.AVX512 && k.Needs&avx512 != 0 {
			errorf("%s: a kernel of level %v needs AVX-512 features %v", fn.name, k.Level, k.Needs&avx512)
		}
	}
	var names []string
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !seen[name] {
			errorf("%s: in the kernel table but not in the assembly", name)
		}
	}
	return problems
}

// checkRegisters returns every line of a function below the AVX-512 level
// that names a register only EVEX encodes.
func checkRegisters(fns []*function) (problems []string) {
	for _, fn := range fns {
		if fn.level >= cpu.AVX512 {
			continue
		}
		for i, line := range fn.lines {
			code, _, _ := strings.Cut(line, "//")
			if evexRegRE.MatchString(code) {
				problems = append(problems, fmt.Sprintf("%s:%d (%s, runs at level %v): %s names %s, which only EVEX encodes",
					fn.file, fn.first+i, fn.name, fn.level, strings.TrimSpace(code), evexRegRE.FindString(code)))
			}
		}
	}
	return problems
}

// insnRE matches an instruction line of objdump -d with all its bytes on
// the line (--insn-width=15).
var insnRE = regexp.MustCompile(`^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t(.*)$`)

// encoding returns "evex", "vex" or "" for an instruction's bytes.
func encoding(b []byte) string {
	i := 0
	for i < len(b) {
		switch c := b[i]; {
		case c == 0x66 || c == 0x67 || c == 0xf2 || c == 0xf3 || c == 0xf0 ||
			c == 0x2e || c == 0x3e || c == 0x26 || c == 0x36 || c == 0x64 || c == 0x65:
			i++
			continue
		case c >= 0x40 && c <= 0x4f: // REX
			i++
			continue
		case c == 0x62: // BOUND is not valid in 64-bit mode: always EVEX
			return "evex"
		case c == 0xc4 || c == 0xc5: // LES/LDS are not valid in 64-bit mode
			return "vex"
		}
		return ""
	}
	return ""
}

// objdumpPath returns GNU objdump, or "" when there is none: then the test
// skips the encoding check, unless it runs in CI (CI set), where it fails.
func objdumpPath(t *testing.T) string {
	p, err := exec.LookPath("objdump")
	if err == nil {
		out, _ := exec.Command(p, "--version").Output()
		if strings.Contains(string(out), "GNU objdump") {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("GNU objdump (Debian package binutils) is needed for the encoding check in CI")
	}
	t.Logf("no GNU objdump: the encoding check is skipped")
	return ""
}

func checkEncodings(t *testing.T, pkg string, fns []*function) {
	t.Helper()
	objdump := objdumpPath(t)
	if objdump == "" {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := lineTable(exe)
	if err != nil {
		t.Fatalf("reading the test binary %s: %v", exe, err)
	}
	for _, fn := range fns {
		f := tab.LookupFunc(pkg + "." + fn.name)
		if f == nil {
			t.Errorf("%s: not found in the test binary (as %s.%s)", fn.name, pkg, fn.name)
			continue
		}
		checkFunction(t, objdump, exe, tab, fn, f.Entry, f.End)
	}
}

// lineTable reads the Go symbol and line table of the binary at path (from
// .gopclntab, which go test's stripped binaries keep).
func lineTable(path string) (*gosym.Table, error) {
	ef, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer ef.Close()
	pcln, text := ef.Section(".gopclntab"), ef.Section(".text")
	if pcln == nil || text == nil {
		return nil, fmt.Errorf("no .gopclntab or .text section")
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, err
	}
	return gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
}

func checkFunction(t *testing.T, objdump, exe string, tab *gosym.Table, fn *function, start, end uint64) {
	t.Helper()
	cmd := exec.Command(objdump, "-d", "--insn-width=15",
		fmt.Sprintf("--start-address=%#x", start), fmt.Sprintf("--stop-address=%#x", end), exe)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("objdump %s: %v", fn.name, err)
	}
	base := filepath.Base(fn.file)
	n := 0
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := insnRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		pc, _ := strconv.ParseUint(m[1], 16, 64)
		var b []byte
		for _, h := range strings.Fields(m[2]) {
			v, _ := strconv.ParseUint(h, 16, 8)
			b = append(b, byte(v))
		}
		n++
		enc := encoding(b)
		if enc == "" {
			continue
		}
		file, line, _ := tab.PCToLine(pc)
		if filepath.Base(file) != base {
			t.Errorf("%s: the instruction at %#x is from %s:%d, not %s", fn.name, pc, file, line, base)
			continue
		}
		i := line - fn.first
		if i < 0 || i >= len(fn.lines) {
			t.Errorf("%s: the instruction at %#x is from line %d, outside the function", fn.name, pc, line)
			continue
		}
		lvl := fn.level
		if (enc == "evex" && lvl < cpu.AVX512) || (enc == "vex" && lvl < cpu.AVX2) {
			t.Errorf("%s:%d (%s, runs at level %v): %s is %s-encoded: %s",
				base, line, fn.name, lvl, strings.TrimSpace(fn.lines[i]), strings.ToUpper(enc), strings.TrimSpace(m[3]))
		}
	}
	if n == 0 {
		t.Errorf("%s: objdump showed no instructions between %#x and %#x", fn.name, start, end)
	}
}
