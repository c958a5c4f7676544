package sbpebble

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	pbloom "github.com/cockroachdb/pebble/v2/bloom"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// TestFPR measures the false-positive rate of this policy and of Pebble's
// bloom.FilterPolicy(10) on n keys key(i) with 4M absent keys of another
// shape, and checks that this policy's is the rate its filter's bits give
// a uniform hash (within 4.5 standard errors: xxh3 spreads these keys as
// uniform hashes would): the mean over blocks of the product over the 8
// words of popcount/64, as an absent key tests one bit in each word. It
// logs, for both policies, the measured rate with its 95% interval, the
// rate the filter's bits give (Pebble's: the mean over lines of the
// chance that 6 distinct bits of the line are set), and each design's
// expected rate over random filters: blocked.FPR for this one (k = 8, one
// bit in each 64-bit word of a 512-bit block), and for Pebble's (k = 6
// bits anywhere in a 512-bit line, of an odd number of lines) the mixture
// E[(1-(1-1/512)^(6L))^6], L ~ Poisson(n/lines).
func TestFPR(t *testing.T) {
	sizes := []int{10_000, 100_000, 1_000_000}
	probes := 4 << 20
	if testing.Short() {
		sizes, probes = sizes[:2], 1<<20
	}
	for _, n := range sizes {
		ours := build(FilterPolicy(10), n)
		theirs := build(pbloom.FilterPolicy(10), n)
		var buf []byte
		fpOurs, fpTheirs := 0, 0
		for i := range probes {
			buf = strconv.AppendInt(append(buf[:0], "absent-"...), int64(i), 10)
			if FilterPolicy(10).MayContain(pebble.TableFilter, ours, buf) {
				fpOurs++
			}
			if pbloom.FilterPolicy(10).MayContain(pebble.TableFilter, theirs, buf) {
				fpTheirs++
			}
		}
		h, err := format.Parse(ours, 0)
		if err != nil {
			t.Fatal(err)
		}
		design := blocked.FPR(uint64(n), h.Blocks, int(h.K))
		want := oursGiven(ours[format.HeaderSize:])
		lines := (n*10 + 511) / 512 // Pebble's geometry, made odd
		lines |= 1
		model := pebbleModel(float64(n) / float64(lines))
		rate := func(fp int) (p, ci float64) {
			p = float64(fp) / float64(probes)
			return p, 1.96 * math.Sqrt(p*(1-p)/float64(probes))
		}
		po, co := rate(fpOurs)
		pp, cp := rate(fpTheirs)
		t.Logf("n=%d: this policy %.3f%% ± %.3f (its bits %.3f%%, design %.3f%%; %.4f bytes/key, k=%d); Pebble's %.3f%% ± %.3f (its bits %.3f%%, design %.3f%%; %.4f bytes/key, k=6)",
			n, 100*po, 100*co, 100*want, 100*design, float64(len(ours))/float64(n), h.K,
			100*pp, 100*cp, 100*pebbleGiven(theirs), 100*model, float64(len(theirs))/float64(n))
		if se := math.Sqrt(want * (1 - want) / float64(probes)); math.Abs(po-want) > 4.5*se {
			t.Errorf("n=%d: false-positive rate %.4f%%, expected %.4f%% ± %.4f", n, 100*po, 100*want, 100*4.5*se)
		}
	}
}

// oursGiven is the false-positive rate a uniform hash finds in the payload
// p of a k = 8 Filter: the mean over blocks of the product over its 8
// words of the fraction of the word's bits that are set.
func oursGiven(p []byte) float64 {
	s := 0.0
	for b := 0; b+64 <= len(p); b += 64 {
		q := 1.0
		for w := b; w < b+64; w += 8 {
			q *= float64(bits.OnesCount64(binary.LittleEndian.Uint64(p[w:]))) / 64
		}
		s += q
	}
	return s / float64(len(p)/64)
}

// pebbleGiven is the false-positive rate a uniform hash finds in Pebble's
// table filter f (lines of 64 bytes, then the probe count and the line
// count): the mean over lines of the chance that 6 distinct bits of the
// line, drawn uniformly, are all set.
func pebbleGiven(f []byte) float64 {
	lines := int(binary.LittleEndian.Uint32(f[len(f)-4:]))
	s := 0.0
	for l := range lines {
		set := 0
		for w := l * 64; w < l*64+64; w += 8 {
			set += bits.OnesCount64(binary.LittleEndian.Uint64(f[w:]))
		}
		q := 1.0
		for j := range 6 {
			q *= float64(set-j) / float64(512-j)
		}
		s += max(q, 0)
	}
	return s / float64(lines)
}

// pebbleModel is the expected false-positive rate of Pebble's table filter
// at 10 bits per key for uniform hashes, lam keys per 512-bit line on
// average: a line holds L ~ Poisson(lam) keys of 6 bits each, and an absent
// key's 6 bits are all set with probability about (1-(1-1/512)^(6L))^6.
func pebbleModel(lam float64) float64 {
	s, p := 0.0, math.Exp(-lam)
	for l := 0; l < 400; l++ {
		if l > 0 {
			p *= lam / float64(l)
		}
		s += p * math.Pow(-math.Expm1(6*float64(l)*math.Log1p(-1.0/512)), 6)
	}
	return s
}
