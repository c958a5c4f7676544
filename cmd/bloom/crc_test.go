package main

import (
	"math/rand/v2"
	"testing"

	"github.com/simdbloom/bloom/internal/format"
)

// crcConcat of the CRCs of two byte strings is the CRC of the two end to
// end, for random strings split at random points, empty halves included,
// and lengths that make x^(8n) take many squarings.
func TestCRCConcat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	b := make([]byte, 1<<16)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for range 2000 {
		n := r.IntN(len(b) + 1)
		s := b[:n]
		cut := 0
		switch r.IntN(4) {
		case 0: // A empty
		case 1:
			cut = n // B empty
		default:
			cut = r.IntN(n + 1)
		}
		a, c := s[:cut], s[cut:]
		if got, want := crcConcat(format.CRC(a), format.CRC(c), uint64(len(c))), format.CRC(s); got != want {
			t.Fatalf("crcConcat of %d and %d bytes: %#08x, want %#08x", len(a), len(c), got, want)
		}
	}
	// Three pieces, folded left, as checkEncoding folds stages.
	a, c, d := b[:64], b[64:1000], b[1000:]
	got := crcConcat(crcConcat(format.CRC(a), format.CRC(c), uint64(len(c))), format.CRC(d), uint64(len(d)))
	if want := format.CRC(b); got != want {
		t.Errorf("three pieces: %#08x, want %#08x", got, want)
	}
}
