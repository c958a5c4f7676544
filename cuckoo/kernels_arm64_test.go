//go:build !purego

package cuckoo

import (
	"fmt"
	"slices"
	"testing"

	"github.com/simdbloom/bloom/internal/cpu"
)

// The NEON kernels called directly, answer by answer against the generic
// bucket decode (refHas): every fingerprint width up to 16 in both layouts,
// the wide kernels on every width (they serve all), the narrow ones on the
// widths needsWide leaves them, every batch length from 0 to 1100 on one
// filter per geometry, and a grid of table sizes and loads at shorter
// lengths. TestHasHashesLevels and FuzzHasHashes reach the same kernels
// through HasHashes at the NEON level.

// neonKernel is one kernel and whether it reads the wide parameter block.
type neonKernel struct {
	name string
	wide bool
	fn   func(data *byte, params *neonParams, tab *[4096]uint32, hs []uint64, out []bool) int
}

// neonKernels returns the kernels that can serve f: its layout's wide
// kernel, and the narrow one unless f needs the wide.
func neonKernels(f *Filter) []neonKernel {
	var ks []neonKernel
	if f.layout == SemiSorted {
		ks = append(ks, neonKernel{"cuckooHasSemiWideNEON", true, cuckooHasSemiWideNEON})
		if !f.needsWide() {
			ks = append(ks, neonKernel{"cuckooHasSemiNEON", false, cuckooHasSemiNEON})
		}
		return ks
	}
	ks = append(ks, neonKernel{"cuckooHasPlainWideNEON", true, cuckooHasPlainWideNEON})
	if !f.needsWide() {
		ks = append(ks, neonKernel{"cuckooHasPlainNEON", false, cuckooHasPlainNEON})
	}
	return ks
}

// checkNEON runs kernel k on probe[:n] for every n in lengths, into the
// middle of a poisoned buffer, and compares each answer and the count with
// want (refHas of probe).
func checkNEON(t *testing.T, f *Filter, k neonKernel, probe []uint64, want []bool, lengths []int, desc string) {
	t.Helper()
	g := f.neonParams(k.wide)
	buf := make([]bool, len(probe)+16)
	for _, n := range lengths {
		for _, poison := range []bool{false, true} {
			for i := range buf {
				buf[i] = poison
			}
			out := buf[8 : 8+n]
			got := k.fn(&f.data[0], &g, &nibbleBytes, probe[:n], out)
			count := 0
			for i, w := range want[:n] {
				if out[i] != w {
					t.Fatalf("%s %s len=%d: answer %d (%#x) = %v, want %v", k.name, desc, n, i, probe[i], out[i], w)
				}
				count += int(b2u(w))
			}
			if got != count {
				t.Fatalf("%s %s len=%d: counted %d, want %d", k.name, desc, n, got, count)
			}
			for i := range 8 {
				if buf[i] != poison || buf[8+n+i] != poison {
					t.Fatalf("%s %s len=%d: wrote outside out", k.name, desc, n)
				}
			}
		}
	}
}

// TestNeedsWide pins the widths that take the wide kernels.
func TestNeedsWide(t *testing.T) {
	var semi, plain []int
	for fb := minFingerprintBits; fb <= 16; fb++ {
		if mustBuckets(t, 1, fb, SemiSorted).needsWide() {
			semi = append(semi, fb)
		}
		if mustBuckets(t, 1, fb, Plain).needsWide() {
			plain = append(plain, fb)
		}
	}
	if !slices.Equal(semi, []int{15}) || !slices.Equal(plain, []int{11, 13, 14, 15}) {
		t.Fatalf("wide widths: semi-sorted %v, plain %v; want [15] and [11 13 14 15]", semi, plain)
	}
}

func TestNEONKernels(t *testing.T) {
	if !cpu.Supported(cpu.NEON) {
		t.Skip("no NEON")
	}
	maxLen := 1100
	bucketCounts := []uint64{1, 2, 3, 17, 1000, 100_003}
	if testing.Short() {
		maxLen = 300
		bucketCounts = []uint64{1, 3, 1000}
	}
	every := make([]int, maxLen+1)
	for n := range every {
		every[n] = n
	}
	few := []int{0, 1, 2, 3, 7, 8, 9, 63, 64, 65, maxLen}
	for fb := minFingerprintBits; fb <= 16; fb++ {
		for _, lay := range []Layout{SemiSorted, Plain} {
			g := geometry{fb, lay}
			for _, nb := range bucketCounts {
				for _, load := range []float64{0, 0.5, 1} {
					f, added := fillTo(t, nb, g, load, uint64(fb)*977+nb)
					probe := adversarial(f, added, maxLen, nb*31+uint64(fb))
					want := make([]bool, len(probe))
					for i, h := range probe {
						want[i] = f.refHas(h)
					}
					lengths := few
					if nb == 1000 && load == 1 {
						lengths = every
					}
					desc := fmt.Sprintf("%v buckets=%d load=%.1f", g, nb, load)
					for _, k := range neonKernels(f) {
						checkNEON(t, f, k, probe, want, lengths, desc)
					}
				}
			}
		}
	}
}

// TestNEONDispatch: the NEON level runs a kernel for every width up to 16
// and batch length from 1, and no other level, nor a wider fingerprint, or
// an empty batch, does.
func TestNEONDispatch(t *testing.T) {
	if !cpu.Supported(cpu.NEON) {
		t.Skip("no NEON")
	}
	hs := randomHashes(5, 1)
	out := make([]bool, len(hs))
	for _, tc := range []struct {
		fb   int
		l    cpu.Level
		hs   []uint64
		want bool
	}{
		{10, cpu.NEON, hs, true},
		{15, cpu.NEON, hs[:1], true},
		{16, cpu.NEON, hs, true},
		{17, cpu.NEON, hs, false},
		{10, cpu.NEON, hs[:0], false},
		{10, cpu.Generic, hs, false},
	} {
		f := mustBuckets(t, 100, tc.fb, SemiSorted)
		var ran bool
		withLevel(tc.l, func() { _, ran = hasHashesArch(f, tc.hs, out[:len(tc.hs)]) })
		if ran != tc.want {
			t.Errorf("f=%d level %v len=%d: kernel ran %v, want %v", tc.fb, tc.l, len(tc.hs), ran, tc.want)
		}
	}
}
