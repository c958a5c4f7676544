package format

import (
	"math/rand/v2"
	"testing"
)

// TestCombineCRC checks combineCRC against the CRC-32C of the joined bytes
// for pieces of every length to 300 and random ones to 1 MiB, either piece
// empty included: any wrong term of the arithmetic changes most results.
func TestCombineCRC(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	buf := make([]byte, 2<<20)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	check := func(na, nb int) {
		a, b := buf[:na], buf[na:na+nb]
		if got, want := combineCRC(CRC(a), CRC(b), uint64(nb)), CRC(buf[:na+nb]); got != want {
			t.Fatalf("%d bytes then %d: combined %#08x, CRC of both %#08x", na, nb, got, want)
		}
	}
	for na := range 40 {
		for nb := range 300 {
			check(na, nb)
		}
	}
	for range 300 {
		check(r.IntN(1<<20), r.IntN(1<<20))
	}
	if got := mulModP(1<<31, 0x12345678); got != 0x12345678 {
		t.Fatalf("1 * p = %#08x", got)
	}
}
