package bloom

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/simdbloom/bloom/internal/childtest"
)

// childMemoryLimit is the soft memory limit (debug.SetMemoryLimit) of the
// child processes that run the cases which, when they regress, ask for
// gigabytes.
const childMemoryLimit = 256 << 20

// TestScalableMemoryLinear adds 2^20 keys to Scalables of the smallest
// growth factor WithGrowth accepts, planned for 1 and for 1000 keys, and
// checks that memory stays linear in the keys but for the slow rise that
// minGrowth describes: at most 64 bits a key at every 1024 keys, and the
// fewest bits per key within a doubling of the keys (when a stage is about
// to open, its reserve used up) at most 1.2 bits higher per doubling from
// 2^11 keys to 2^19 (the stages' tightening gives 0.58). Growth 1 took 121
// bits a key at 10^4 keys and a fatal OOM soon after, so the test runs in a
// child process under a memory limit, and stops at the first batch past
// the bound.
func TestScalableMemoryLinear(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		debug.SetMemoryLimit(childMemoryLimit)
		const bitsPerKey, most, batch = 64, 1 << 20, 1024
		for _, initial := range []uint64{1, 1000} {
			s, err := NewScalable[uint64](initial, 0.01, WithGrowth(minGrowth))
			if err != nil {
				t.Fatal(err)
			}
			low := map[int]float64{} // fewest bits per key with 2^j <= keys < 2^(j+1), by j
			keys := seedKeys(int(initial), most)
			for n := batch; n <= most; n += batch {
				s.AddAll(keys[n-batch : n])
				nb := s.NumBits()
				if nb > bitsPerKey*uint64(n) {
					t.Fatalf("initial %d, growth %v: %d bits (%.1f a key) for %d keys, %d stages",
						initial, minGrowth, nb, float64(nb)/float64(n), n, s.Stages())
				}
				j := 63 - bits.LeadingZeros64(uint64(n))
				if l, ok := low[j]; !ok || float64(nb)/float64(n) < l {
					low[j] = float64(nb) / float64(n)
				}
			}
			rise := (low[19] - low[11]) / 8
			maxStages := int(math.Ceil(math.Log(float64(most)/float64(initial))/math.Log(minGrowth))) + 3
			t.Logf("initial %d: at least %.1f bits per key from 2^11 keys, %.1f from 2^15, %.1f from 2^19 (%.2f more a doubling); %d stages",
				initial, low[11], low[15], low[19], rise, s.Stages())
			if rise > 1.2 || s.Stages() > maxStages {
				t.Errorf("initial %d: bits per key rise %.2f a doubling (from %.1f to %.1f); %d stages (at most %d)",
					initial, rise, low[11], low[19], s.Stages(), maxStages)
			}
			if s.HasAll(keys, make([]bool, most)) != most {
				t.Errorf("initial %d: keys lost", initial)
			}
		}
	})
}

// TestWithGrowthBound checks that WithGrowth refuses factors below
// minGrowth, naming the bound, and takes minGrowth itself.
func TestWithGrowthBound(t *testing.T) {
	for _, g := range []float64{1, 1.25, math.Nextafter(minGrowth, 0), 1e6 + 1, math.Inf(1)} {
		_, err := NewScalable[int](100, 0.01, WithGrowth(g))
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), fmt.Sprint(minGrowth)) {
			t.Errorf("growth %v: %v, want ErrOption naming %v", g, err, minGrowth)
		}
	}
	for _, g := range []float64{minGrowth, 2, 1e6} {
		if _, err := NewScalable[int](100, 0.01, WithGrowth(g)); err != nil {
			t.Errorf("growth %v: %v", g, err)
		}
	}
}

// TestScalableLegacyGrowth checks filters of the growth factors earlier
// versions took (1, 1.3): their encodings decode, and they go on growing as
// they were made to, AddAll exactly as Add, a decoded copy exactly as the
// original.
func TestScalableLegacyGrowth(t *testing.T) {
	for _, g := range []float64{1, 1.3} {
		t.Run(fmt.Sprint(g), func(t *testing.T) {
			legacy := func() *Scalable[uint64] {
				s, err := NewScalable[uint64](10, 0.05)
				if err != nil {
					t.Fatal(err)
				}
				s.growth = g // as an earlier NewScalable(10, 0.05, WithGrowth(g)) made it
				return s
			}
			a, b := legacy(), legacy()
			keys := seedKeys(7, 600)
			for i := 0; i < len(keys); i += 37 {
				a.AddAll(keys[i:min(i+37, len(keys))])
			}
			for _, k := range keys {
				b.Add(k)
			}
			enc := mustMarshal(t, a)
			if a.Stages() < 8 || !bytes.Equal(enc, mustMarshal(t, b)) {
				t.Fatalf("AddAll and Add differ (%d and %d stages)", a.Stages(), b.Stages())
			}
			var d Scalable[uint64]
			if err := d.UnmarshalBinary(enc); err != nil {
				t.Fatalf("a growth-%v encoding with %d stages: %v", g, a.Stages(), err)
			}
			more := seedKeys(8, 400)
			a.AddAll(more)
			d.AddAll(more)
			if !bytes.Equal(mustMarshal(t, a), mustMarshal(t, &d)) {
				t.Fatal("the decoded copy grows differently")
			}
		})
	}
}
