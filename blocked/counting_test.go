package blocked

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdbloom/bloom/internal/errs"
)

func mustCounting(t testing.TB, numBytes uint64) *Counting {
	t.Helper()
	c, err := NewCountingBytes(numBytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// counter returns the value of counter j of word i of block bi.
func (c *Counting) counter(bi uint64, i int, j uint64) uint64 {
	return c.blocks[bi][i] >> (4 * j) & 15
}

// keyCounters returns the 8 counters of hash h.
func (c *Counting) keyCounters(h uint64) [8]uint64 {
	bi := ((h >> 32) * uint64(len(c.blocks))) >> 32
	var r [8]uint64
	for i := range r {
		r[i] = c.counter(bi, i, uint64((uint32(h)*salt[i])>>28))
	}
	return r
}

func TestCountingAligned(t *testing.T) {
	for _, nb := range []uint64{1, 3, 1000} {
		c := mustCounting(t, nb*64)
		if p := uintptr(unsafe.Pointer(&c.blocks[0])); p%64 != 0 {
			t.Fatalf("%d blocks: counters at %#x are not 64-byte aligned", nb, p)
		}
		if c.NumBlocks() != nb || c.NumBits() != nb*512 || c.sizeBytes() != nb*64 {
			t.Fatalf("NumBlocks %d NumBits %d SizeBytes %d for %d blocks", c.NumBlocks(), c.NumBits(), c.sizeBytes(), nb)
		}
	}
}

// TestCountingCountersExact checks the SWAR kernels against a plain model
// of 4-bit saturating counters, on adversarial and random hashes crowded
// into a few blocks so that counters collide and saturate.
func TestCountingCountersExact(t *testing.T) {
	const nb = 3
	c := mustCounting(t, nb*64)
	var model [nb][8][16]int
	hs := append(randomHashes(600, 21), adversarialHashes()...)
	ref := func(h uint64) (uint64, [8]uint64) {
		bi := ((h >> 32) * nb) >> 32
		var js [8]uint64
		for i := range js {
			js[i] = uint64((uint32(h) * salt[i]) >> 28)
		}
		return bi, js
	}
	check := func(step string) {
		t.Helper()
		for bi := range model {
			for i := range model[bi] {
				for j := range model[bi][i] {
					if got := c.counter(uint64(bi), i, uint64(j)); got != uint64(model[bi][i][j]) {
						t.Fatalf("%s: block %d word %d counter %d = %d, model %d", step, bi, i, j, got, model[bi][i][j])
					}
				}
			}
		}
	}
	for round := 0; round < 3; round++ {
		for _, h := range hs {
			c.AddHash(h)
			bi, js := ref(h)
			for i, j := range js {
				model[bi][i][j] = min(model[bi][i][j]+1, 15)
			}
		}
		check("add")
		for _, h := range hs[:len(hs)/2] {
			bi, js := ref(h)
			present := true
			for i, j := range js {
				present = present && model[bi][i][j] > 0
			}
			if got := c.HasHash(h); got != present {
				t.Fatalf("HasHash(%#x) = %v, model %v", h, got, present)
			}
			if got := c.RemoveHash(h); got != present {
				t.Fatalf("RemoveHash(%#x) = %v, model %v", h, got, present)
			}
			if present {
				for i, j := range js {
					if model[bi][i][j] < 15 {
						model[bi][i][j]--
					}
				}
			}
		}
		check("remove")
	}
}

// TestCountingAddRemove is the property: add 1e6, remove half; the
// rest are all present, and the removed ones answer "yes" only at the FPR of
// a filter holding the remaining half.
func TestCountingAddRemove(t *testing.T) { forEachLevel(t, testCountingAddRemove) }

func testCountingAddRemove(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	c, err := NewCounting(uint64(n), 0.01)
	if err != nil {
		t.Fatal(err)
	}
	hs := randomHashes(n, 31)
	c.AddHashes(hs)
	removed, kept := hs[:n/2], hs[n/2:]
	if got := c.RemoveHashes(removed); got != len(removed) {
		t.Fatalf("RemoveHashes removed %d of %d added hashes", got, len(removed))
	}
	out := make([]bool, len(kept))
	if got := c.HasHashes(kept, out); got != len(kept) {
		t.Fatalf("false negatives: %d of %d kept hashes present after removing the others", got, len(kept))
	}
	yes := c.HasHashes(removed, out)
	want := CountingFPR(uint64(len(kept)), c.NumBlocks())
	got := float64(yes) / float64(len(removed))
	s := sigma(want, len(removed))
	t.Logf("%d blocks, %.2f bits/key at %d keys: removed keys still present %.5f, formula at %d keys %.5f (sigma %.5f), saturated %d",
		c.NumBlocks(), float64(c.NumBits())/float64(n), n, got, len(kept), want, s, c.Saturated())
	if math.Abs(got-want) > 4*s {
		t.Errorf("removed keys answer yes at %.5f, more than 4 sigma from the formula %.5f", got, want)
	}
	if est := c.EstimatedFPR(); math.Abs(est-want) > 0.05*want {
		t.Errorf("EstimatedFPR %.5f is more than 5%% from the formula %.5f", est, want)
	}
}

// TestCountingFPRMatchesFormula checks CountingFPR against absent probes
// and NewCounting against its target.
func TestCountingFPRMatchesFormula(t *testing.T) {
	const n = 300_000
	const probes = 1 << 21
	keys := randomHashes(n, 41)
	probe := randomHashes(probes, 42)
	out := make([]bool, probes)
	for _, p := range []float64{0.1, 0.01, 0.001} {
		c, err := NewCounting(n, p)
		if err != nil {
			t.Fatal(err)
		}
		if f := CountingFPR(n, c.NumBlocks()); f > p || (c.NumBlocks() > 1 && CountingFPR(n, c.NumBlocks()-1) <= p) {
			t.Fatalf("NewCounting(%d, %v): %d blocks is not the smallest with FPR <= target (formula %v)", n, p, c.NumBlocks(), f)
		}
		c.AddHashes(keys)
		want := CountingFPR(n, c.NumBlocks())
		got := float64(c.HasHashes(probe, out)) / probes
		s := sigma(want, probes)
		t.Logf("p=%v: %.2f bits/key, measured %.5f, formula %.5f (sigma %.5f)", p, float64(c.NumBits())/n, got, want, s)
		if math.Abs(got-want) > 4*s {
			t.Errorf("p=%v: measured FPR %.5f is more than 4 sigma from the formula %.5f", p, got, want)
		}
	}
}

// TestCountingRepeatedKey adds one key 20 times and removes it 20 times:
// its counters saturate, so it stays (a permanent false positive), and
// every other key stays present.
func TestCountingRepeatedKey(t *testing.T) {
	c, err := NewCounting(10_000, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	others := randomHashes(10_000, 51)
	c.AddHashes(others)
	x := uint64(0xdeadbeefcafef00d)
	for range 20 {
		c.AddHash(x)
	}
	for i, v := range c.keyCounters(x) {
		if v != 15 {
			t.Fatalf("after 20 adds counter %d of the key is %d, want saturated 15", i, v)
		}
	}
	if c.Saturated() < 8 {
		t.Fatalf("Saturated() = %d, want at least the key's 8", c.Saturated())
	}
	for i := range 20 {
		if !c.RemoveHash(x) {
			t.Fatalf("remove %d of 20 of an added key returned false", i+1)
		}
	}
	for _, h := range others {
		if !c.HasHash(h) {
			t.Fatal("adding and removing one key 20 times lost another key")
		}
	}
	if !c.HasHash(x) {
		t.Fatal("a saturated key was decremented")
	}

	// Below saturation, 14 adds and 14 removes of a key whose counters were
	// all zero restore the filter exactly.
	var y uint64
	for _, h := range randomHashes(1000, 52) {
		if c.keyCounters(h) == [8]uint64{} {
			y = h
			break
		}
	}
	if y == 0 {
		t.Fatal("no hash with all counters zero")
	}
	before := c.Clone()
	for range 14 {
		c.AddHash(y)
	}
	for range 14 {
		if !c.RemoveHash(y) {
			t.Fatal("RemoveHash of an added key returned false")
		}
	}
	if !c.Equal(before) {
		t.Fatal("14 adds and 14 removes of a key did not restore the counters")
	}
}

func TestCountingSaturated(t *testing.T) {
	c := mustCounting(t, 64*100)
	x := uint64(0x1234567887654321)
	for i := 1; i <= 16; i++ {
		c.AddHash(x)
		want := uint64(0)
		if i >= 15 {
			want = 8
		}
		if got := c.Saturated(); got != want {
			t.Fatalf("after %d adds Saturated() = %d, want %d", i, got, want)
		}
	}
	c.Clear()
	if c.Saturated() != 0 || c.FillRatio() != 0 || c.EstimatedFPR() != 0 || c.HasHash(x) {
		t.Fatal("Clear left counters")
	}
}

// TestCountingRemoveAbsent: RemoveHash of a definitely absent key returns
// false and changes nothing.
func TestCountingRemoveAbsent(t *testing.T) {
	c := mustCounting(t, 64*1000)
	c.AddHashes(randomHashes(5000, 61))
	before := c.Clone()
	var absent []uint64
	for _, h := range randomHashes(10_000, 62) {
		if c.HasHash(h) {
			continue
		}
		absent = append(absent, h)
		if c.RemoveHash(h) {
			t.Fatalf("RemoveHash(%#x) of an absent key returned true", h)
		}
		if !c.Equal(before) {
			t.Fatalf("RemoveHash(%#x) of an absent key changed the counters", h)
		}
	}
	if len(absent) < 5000 {
		t.Fatalf("only %d absent probes", len(absent))
	}
	if got := c.RemoveHashes(absent); got != 0 || !c.Equal(before) {
		t.Fatalf("RemoveHashes of %d absent keys removed %d or changed the counters", len(absent), got)
	}
}

func TestCountingBatchEqualsSingle(t *testing.T) { forEachLevel(t, testCountingBatchEqualsSingle) }

func testCountingBatchEqualsSingle(t *testing.T) {
	for _, nb := range []uint64{1, 5, 256, 10_007} {
		a, b := mustCounting(t, nb*64), mustCounting(t, nb*64)
		add := append(randomHashes(5000, nb), adversarialHashes()...)
		for _, h := range add {
			a.AddHash(h)
		}
		b.AddHashes(add)
		if !a.Equal(b) {
			t.Fatalf("blocks=%d: AddHashes and AddHash differ", nb)
		}
		probe := append(randomHashes(20000, nb+1), add...)
		out := make([]bool, len(probe)+3)
		for i := range out {
			out[i] = true
		}
		count := a.HasHashes(probe, out)
		want := 0
		for i, h := range probe {
			if out[i] != a.HasHash(h) {
				t.Fatalf("blocks=%d: HasHashes[%d] = %v, HasHash = %v", nb, i, out[i], !out[i])
			}
			want += int(b2u(out[i]))
		}
		if count != want || !out[len(probe)] || !out[len(probe)+2] {
			t.Fatalf("blocks=%d: HasHashes returned %d, counted %d, or wrote past len(hs)", nb, count, want)
		}
		rm := probe[:len(probe)/2]
		n := 0
		for _, h := range rm {
			n += int(b2u(a.RemoveHash(h)))
		}
		if got := b.RemoveHashes(rm); got != n || !a.Equal(b) {
			t.Fatalf("blocks=%d: RemoveHashes removed %d, RemoveHash %d, or the counters differ", nb, got, n)
		}
	}
}

func TestCountingHasHashesShortOutPanics(t *testing.T) {
	c := mustCounting(t, 64)
	hs := randomHashes(4, 2)
	c.AddHashes(hs)
	out := make([]bool, 3)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "shorter") {
			t.Fatalf("want a panic naming the short slice, got %v", r)
		}
		for _, o := range out {
			if o {
				t.Fatal("out was written before the panic")
			}
		}
	}()
	c.HasHashes(hs, out)
}

func TestCountingBadInput(t *testing.T) {
	for _, cs := range []struct {
		n    uint64
		p    float64
		want error
	}{
		{0, 0.01, errs.ErrKeys}, {10, 0, errs.ErrFPR}, {10, 1, errs.ErrFPR}, {10, math.NaN(), errs.ErrFPR}, {10, -1, errs.ErrFPR},
		{math.MaxUint64, 0.01, errs.ErrTooLarge},
	} {
		c, err := NewCounting(cs.n, cs.p)
		if !errors.Is(err, cs.want) || c != nil {
			t.Errorf("NewCounting(%d, %v) = %v, %v; want error %v", cs.n, cs.p, c, err, cs.want)
		}
	}
	for _, cs := range []struct {
		bytes uint64
		want  error
	}{{0, errs.ErrGeometry}, {MaxBlocks*64 + 1, errs.ErrTooLarge}, {math.MaxUint64, errs.ErrTooLarge}} {
		c, err := NewCountingBytes(cs.bytes)
		if !errors.Is(err, cs.want) || c != nil {
			t.Errorf("NewCountingBytes(%d) = %v, %v; want error %v", cs.bytes, c, err, cs.want)
		}
	}
	if c := mustCounting(t, 65); c.NumBlocks() != 2 {
		t.Errorf("NewCountingBytes(65) has %d blocks, want 2", c.NumBlocks())
	}
}

// TestCountingTooLargeFor32Bit: on 32-bit platforms a filter an int cannot
// size is an error, not a panic in make.
func TestCountingTooLargeFor32Bit(t *testing.T) {
	if math.MaxInt != math.MaxInt32 {
		t.Skip("64-bit platform")
	}
	if _, err := NewCountingBytes(1 << 31); !errors.Is(err, errs.ErrTooLarge) {
		t.Errorf("NewCountingBytes(2^31) on 32-bit: %v", err)
	}
	if _, err := NewCounting(1e9, 0.01); !errors.Is(err, errs.ErrTooLarge) { // 5.7 GB
		t.Errorf("NewCounting(1e9, 0.01) on 32-bit: %v", err)
	}
}

func TestCountingCloneEqual(t *testing.T) {
	c := mustCounting(t, 64*100)
	c.AddHashes(randomHashes(1000, 71))
	d := c.Clone()
	if !d.Equal(c) || d.Equal(nil) || d.Equal(mustCounting(t, 64*101)) {
		t.Fatal("Clone/Equal")
	}
	d.AddHash(1)
	if d.Equal(c) {
		t.Fatal("a clone shares counters with the original")
	}
	if f := c.FillRatio(); f <= 0 || f >= 1 {
		t.Fatalf("FillRatio %v", f)
	}
}

func TestCountingZeroAllocs(t *testing.T) {
	c := mustCounting(t, 16<<10)
	hs := randomHashes(1000, 4)
	out := make([]bool, len(hs))
	for name, fn := range map[string]func(){
		"AddHash":      func() { c.AddHash(hs[3]) },
		"HasHash":      func() { c.HasHash(hs[5]) },
		"RemoveHash":   func() { c.RemoveHash(hs[3]) },
		"AddHashes":    func() { c.AddHashes(hs) },
		"HasHashes":    func() { c.HasHashes(hs, out) },
		"RemoveHashes": func() { c.RemoveHashes(hs) },
	} {
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

// FuzzCounting decodes the input into a list of operations on a tiny
// filter (so counters collide and saturate): add a key from a small pool,
// remove a key that was added, and checks that every key added more times
// than removed is still present after every step.
func FuzzCounting(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0x81, 0x82, 4, 5})
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0x81, 0x81, 0x81, 2, 3})
	f.Add([]byte{0xff, 0x7f, 0x80, 0, 0x10, 0x90, 0x20, 0xa0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 4096 {
			return
		}
		c := mustCounting(t, 2*64)
		live := map[uint64]int{} // hash -> adds minus removes
		var order []uint64       // added keys, for choosing what to remove
		key := func(b byte) uint64 {
			// Well-mixed hashes from a pool of 128 keys in 2 blocks.
			x := uint64(b&0x7f)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
			x ^= x >> 31
			return x * 0xbf58476d1ce4e5b9
		}
		for i, op := range ops {
			if op&0x80 == 0 {
				h := key(op)
				c.AddHash(h)
				live[h]++
				order = append(order, h)
			} else if len(order) > 0 {
				j := int(op&0x7f) % len(order)
				h := order[j]
				order = append(order[:j], order[j+1:]...)
				if !c.RemoveHash(h) {
					t.Fatalf("op %d: RemoveHash of added key %#x returned false", i, h)
				}
				live[h]--
			}
			for h, n := range live {
				if n > 0 && !c.HasHash(h) {
					t.Fatalf("op %d: false negative for %#x (added %d more times than removed)", i, h, n)
				}
			}
		}
	})
}
