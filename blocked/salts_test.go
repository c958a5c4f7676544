package blocked

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// salts.go is the one source of the salts. The amd64 generator (../asm)
// reads its constants, the generated kernels_*amd64.s hold tables and
// immediates made from them, and kernels_arm64.s loads the Go arrays by
// symbol. These tests fail when any of them disagrees with salts.go.

func TestSaltsAreSquareRootsOfPrimes(t *testing.T) {
	primes := []float64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53}
	for i, p := range primes {
		r := math.Sqrt(p)
		want := uint32((r-math.Floor(r))*(1<<32)) | 1
		if salt[i] != want {
			t.Errorf("salt%d = %#08x, want %#08x (sqrt(%v))", i, salt[i], want, p)
		}
	}
}

var dataLine = regexp.MustCompile(`(?m)^DATA (\w+)<>\+(\d+)\(SB\)/8, \$(0x[0-9a-f]+)$`)

func TestGeneratedSaltTablesMatch(t *testing.T) {
	// Each generated file has its own copy of the tables it uses (they are
	// file-local symbols): every copy must match.
	files := []string{"kernels_amd64.s", "kernels_avx2_amd64.s", "kernels_avx512_amd64.s"}
	type copyOf struct {
		file string
		tab  []uint64
	}
	tables := map[string][]copyOf{}
	var all strings.Builder
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(src)
		mine := map[string][]uint64{}
		for _, m := range dataLine.FindAllStringSubmatch(string(src), -1) {
			off, _ := strconv.Atoi(m[2])
			v, err := strconv.ParseUint(m[3], 0, 64)
			if err != nil {
				t.Fatal(err)
			}
			tab := mine[m[1]]
			for len(tab) <= off/8 {
				tab = append(tab, 0)
			}
			tab[off/8] = v
			mine[m[1]] = tab
		}
		for name, tab := range mine {
			tables[name] = append(tables[name], copyOf{file, tab})
		}
	}
	src := all.String()
	want := map[string][]uint64{}
	for j := 0; j < 8; j++ {
		want["filterSalts"] = append(want["filterSalts"], uint64(salt[j])<<32)
		want["filterSalts16"] = append(want["filterSalts16"], uint64(salt[j+8])<<32)
		want["filterSaltsByte4"] = append(want["filterSaltsByte4"], uint64(salt[j])<<6)
		want["filterSaltsByte4x16"] = append(want["filterSaltsByte4x16"], uint64(salt[j+8])<<6)
	}
	for i := 0; i < 8; i += 2 {
		want["splitSalts"] = append(want["splitSalts"], uint64(splitSalt[i])|uint64(splitSalt[i+1])<<32)
	}
	for name, w := range want {
		if len(tables[name]) == 0 {
			t.Errorf("no generated file has the table %s", name)
		}
		for _, c := range tables[name] {
			if !slices.Equal(c.tab, w) {
				t.Errorf("%s table %s = %#x, want %#x", c.file, name, c.tab, w)
			}
		}
	}

	// The scalar one-key kernels multiply by the salts as immediates.
	known := map[uint64]bool{}
	for _, s := range salt {
		known[uint64(s)] = true
	}
	for _, s := range splitSalt {
		known[uint64(s)] = true
	}
	imm := regexp.MustCompile(`IMUL3L \$(0x[0-9a-f]+),`).FindAllStringSubmatch(src, -1)
	if len(imm) == 0 {
		t.Fatal("the generated kernels have no IMUL3L immediates: the scalar one-key kernels changed; update this test")
	}
	for _, m := range imm {
		v, _ := strconv.ParseUint(m[1], 0, 64)
		if !known[v] {
			t.Errorf("the generated kernels multiply by %#x, which is not a salt", v)
		}
	}
}

func TestNEONLoadsSaltsBySymbol(t *testing.T) {
	src, err := os.ReadFile("kernels_arm64.s")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, sym := range []string{"$·salt(SB)", "$·splitSalt(SB)"} {
		if !strings.Contains(s, sym) {
			t.Errorf("kernels_arm64.s does not load %s", sym)
		}
	}
	if regexp.MustCompile(`(?m)^\s*(DATA|GLOBL)\b`).MatchString(s) {
		t.Error("kernels_arm64.s defines its own data; its salts must come from salts.go")
	}
}
