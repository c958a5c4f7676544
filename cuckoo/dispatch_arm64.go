//go:build !purego

package cuckoo

import (
	"encoding/binary"

	"github.com/simdbloom/bloom/internal/cpu"
)

// kNEON is every kernel of kernels_arm64.s: ARMv8.0 Advanced SIMD, nothing
// more (the "// Requires:" line above each, which TestKernelFeatures checks
// against the kernels table of kernels_check_arm64_test.go). They run only
// where cpu.Can allows it.
var kNEON = cpu.Kernel{Level: cpu.NEON, Needs: cpu.FeatureASIMD}

// Which arm64 batch lookup runs: the hand-written NEON of kernels_arm64.s
// at the NEON level, for fingerprints of at most 16 bits, any number of
// buckets and any batch length (one key an iteration). Every length check
// happens here. Every fact about the processor comes from internal/cpu, so
// SIMDBLOOM_CPU=generic (or the purego tag) runs the grouped Go loop.

// nibbleBytes maps a semi-sorted bucket's code to its 4 nibbles, one a
// byte (the smallest in the low byte): the table the kernels load from.
var nibbleBytes [1 << codeBits]uint32

// archInit runs at the end of semisort.go's init, once decodeNibbles is
// built.
func archInit() {
	for c, nib := range decodeNibbles {
		for j := range 4 {
			nibbleBytes[c] |= uint32(nib>>(4*j)&15) << (8 * j)
		}
	}
}

// neonParams is the parameter block of the NEON kernels (its layout is
// described in kernels_arm64.s): four scalars, then five 16-byte vectors.
type neonParams [14]uint64

// needsWide reports whether f needs the wide kernels: slot j's low bits
// start at bit p_j of its bucket (after the code of a semi-sorted one) and
// the narrow kernels read them from the 2 bytes at byte p_j>>3, which hold
// them only if (p_j&7) + width <= 16.
func (f *Filter) needsWide() bool {
	base, width := f.slotBits()
	for j := range uint64(bucketSize) {
		if (base+j*width)&7+width > 16 {
			return true
		}
	}
	return false
}

// slotBits returns the bit where a bucket's first slot's low bits start and
// their width.
func (f *Filter) slotBits() (base, width uint64) {
	if f.layout == SemiSorted {
		return codeBits, uint64(f.rest)
	}
	return 0, uint64(f.fpBits)
}

// neonParams returns f's parameter block for the narrow kernels, or for
// the wide ones (which serve every width).
func (f *Filter) neonParams(wide bool) neonParams {
	base, width := f.slotBits()
	var idx, cnt, idx2, msk, rest [16]byte
	for j := range uint64(bucketSize) {
		p := base + j*width
		if wide { // 32-bit lane j of each bucket's register
			for k := range uint64(4) {
				idx[4*j+k] = byte(p>>3 + k)
				idx2[4*j+k] = byte(8 + p>>3 + k)
			}
			cnt[4*j] = byte(-(p & 7))
		} else { // 16-bit lane j (first bucket) and 4+j (second)
			for b := range uint64(2) {
				idx[8*b+2*j] = byte(8*b + p>>3)
				idx[8*b+2*j+1] = byte(8*b + p>>3 + 1)
				cnt[8*b+2*j] = byte(-(p & 7))
			}
		}
	}
	for l := range 8 {
		binary.LittleEndian.PutUint16(msk[2*l:], uint16(f.lanesMsk))
		rest[2*l] = byte(f.rest)
	}
	g := neonParams{f.nb, f.bBits, f.fpMask, altMix}
	for i, v := range [][16]byte{idx, cnt, msk, rest, idx2} {
		g[4+2*i] = binary.LittleEndian.Uint64(v[:8])
		g[5+2*i] = binary.LittleEndian.Uint64(v[8:])
	}
	return g
}

// hasHashesArch runs the NEON batch lookup of f's layout on hs and reports
// whether one ran (len(out) == len(hs)): at the NEON level, for
// fingerprints of at most 16 bits in a filter with buckets.
func hasHashesArch(f *Filter, hs []uint64, out []bool) (int, bool) {
	if !kNEON.Runs() || f.fpBits > 16 || f.nb == 0 || len(hs) == 0 || len(out) != len(hs) {
		return 0, false
	}
	wide := f.needsWide()
	g := f.neonParams(wide)
	switch {
	case f.layout == SemiSorted && !wide:
		return cuckooHasSemiNEON(&f.data[0], &g, &nibbleBytes, hs, out), true
	case f.layout == SemiSorted:
		return cuckooHasSemiWideNEON(&f.data[0], &g, &nibbleBytes, hs, out), true
	case !wide:
		return cuckooHasPlainNEON(&f.data[0], &g, &nibbleBytes, hs, out), true
	}
	return cuckooHasPlainWideNEON(&f.data[0], &g, &nibbleBytes, hs, out), true
}
