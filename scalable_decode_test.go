package bloom

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/childtest"
	"github.com/simdbloom/bloom/internal/format"
)

// heapCeiling is the most heap the child processes that run the hostile
// cases may hold after them: a regression asks for tens of gigabytes, and
// dies (the child fails, not the test binary) or shows here.
const heapCeiling = 1 << 30

// checkHeap fails t if the process holds more than heapCeiling of live
// heap. Live, after a collection, not what the heap ever took (HeapSys):
// where childtest.Run cannot start a child (qemu-user without binfmt), the
// case runs in the test binary, after other tests' large filters.
func checkHeap(t *testing.T, what string) {
	t.Helper()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.HeapInuse > heapCeiling {
		t.Errorf("%s: the heap holds %d MiB", what, m.HeapInuse>>20)
	}
}

// setParam sets parameter word off of the Scalable encoding b and makes
// its checksums right again (the stages are not touched, so theirs stay).
func setParam(b []byte, off int, v uint64) {
	binary.LittleEndian.PutUint64(b[format.HeaderSize+off:], v)
	refixed(b)
}

func param(b []byte, off int) uint64 {
	return binary.LittleEndian.Uint64(b[format.HeaderSize+off:])
}

func buildScalable(t testing.TB, initial uint64, fpr float64, keys int, opts ...ScalableOption) *Scalable[uint64] {
	t.Helper()
	s, err := NewScalable[uint64](initial, fpr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	s.AddAll(seedKeys(3, keys))
	return s
}

// TestScalableHostileParameters crafts Scalable encodings whose parameter
// block (checksums made right) plans for far more keys than its stages were
// made for, the first the 256-byte encoding whose next Add asked for a
// 64 GiB stage: decoding refuses each with ErrCorrupt. It runs in a child
// process under a memory limit, so that a decoder that accepts them fails
// this test (the Adds that follow then ask for the stage) instead of
// killing the test binary.
func TestScalableHostileParameters(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		debug.SetMemoryLimit(childMemoryLimit)
		one := mustMarshal(t, buildScalable(t, 10, 0.01, 10))
		if len(one) != 256 {
			t.Fatalf("the one-stage encoding is %d bytes, want 256", len(one))
		}
		multi := buildScalable(t, 1000, 0.01, 5000)
		if multi.Stages() < 3 {
			t.Fatalf("%d stages, want at least 3", multi.Stages())
		}
		many := mustMarshal(t, multi)
		cases := []struct {
			name  string
			base  []byte
			craft func(b []byte)
		}{
			{"256 bytes planning 2^34 keys, all added", one, func(b []byte) {
				for _, off := range []int{spInitial, spPlanned, spCount, spNextCheck} {
					setParam(b, off, 1<<34)
				}
			}},
			{"256 bytes planning 2^40 keys", one, func(b []byte) {
				setParam(b, spInitial, 1<<40)
				setParam(b, spPlanned, 1<<40)
			}},
			{"initial keys x1024, the planned chain from them", many, func(b []byte) {
				setParam(b, spInitial, 1024*param(b, spInitial))
				setParam(b, spPlanned, plannedChain(param(b, spInitial), 2, multi.Stages()-1))
			}},
			{"fpr x10", many, func(b []byte) { setParam(b, spFPR, math.Float64bits(0.1)) }},
			{"fpr /1000", many, func(b []byte) { setParam(b, spFPR, math.Float64bits(1e-5)) }},
			{"tightening 1e-6", many, func(b []byte) { setParam(b, spTightening, math.Float64bits(1e-6)) }},
			{"tightening 0.99", many, func(b []byte) { setParam(b, spTightening, math.Float64bits(0.99)) }},
		}
		for _, tc := range cases {
			b := bytes.Clone(tc.base)
			tc.craft(b)
			var g Scalable[uint64]
			err := g.UnmarshalBinary(b)
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: %v, want ErrCorrupt", tc.name, err)
			}
			t.Logf("%s: %v", tc.name, err)
			if err == nil {
				g.AddAll(seedKeys(9, 1000)) // what followed the decoding that killed the process
				checkHeap(t, tc.name)
			}
		}
	})
}

// TestScalableGrowthStopsAtItsBound makes, through the API, a Scalable whose
// third stage (1024 keys at a rate that only 2^31 or more blocks reach, 128
// GiB: a tiny tightening ratio) is larger than the machine, while its
// encoding is tens of kilobytes and decodes (an encoder writes it). Adding
// keys to it, and to the decoded copy, must stop growth with an error
// wrapping ErrTooLarge and allocate nothing, rather than ask for the stage;
// the keys added stay present and the stopped filter round-trips. In a
// child process under a memory limit.
func TestScalableGrowthStopsAtItsBound(t *testing.T) {
	childtest.Run(t, func(t *testing.T) {
		debug.SetMemoryLimit(childMemoryLimit)
		const fpr, initial, growth = 0.5, 64, 4 // stages of 64, 256, 1024 keys
		rate := func(r float64, i int) float64 { return fpr * (1 - r) * math.Pow(r, float64(i)) }
		lo, hi := -20.0, -10.0 // log10 r: find stage 2 of 2^31 to 2^32 blocks
		var third blocked.Sizing
		for range 100 {
			mid := (lo + hi) / 2
			sz, err := blocked.Size(plannedChain(initial, growth, 2), rate(math.Pow(10, mid), 2))
			if err == nil && sz.Blocks >= 1<<31 {
				third = sz
				break
			}
			if err != nil {
				lo = mid
			} else {
				hi = mid
			}
		}
		r := math.Pow(10, (lo+hi)/2)
		second, err := stageSize(plannedChain(initial, growth, 1), rate(r, 1))
		if third.Blocks < 1<<31 || err != nil || second.Bytes > 1<<20 {
			t.Fatalf("r = %g: stage 2 of %d blocks, stage 1 %+v, %v", r, third.Blocks, second, err)
		}
		s, err := NewScalable[uint64](initial, fpr, WithGrowth(growth), WithTightening(r))
		if err != nil {
			t.Fatal(err)
		}
		keys := seedKeys(4, 320) // the first two stages' keys
		s.AddAll(keys)
		if s.Stages() != 2 || s.Err() != nil || new(Scalable[uint64]).Err() != nil {
			t.Fatalf("%d stages, %v: want 2 and no error", s.Stages(), s.Err())
		}
		b := mustMarshal(t, s)
		var g Scalable[uint64]
		if err := g.UnmarshalBinary(b); err != nil {
			t.Fatalf("the encoding of a filter made by NewScalable: %v", err)
		}
		t.Logf("r = %g: a %d-byte encoding whose stage 2 would take %d GiB", r, len(b), third.Bytes>>30)
		more := seedKeys(5, 2000)
		for name, f := range map[string]*Scalable[uint64]{"made": s, "decoded": &g} {
			f.AddAll(more[:1000])
			for _, k := range more[1000:] {
				f.Add(k)
			}
			if f.Stages() != 2 || !errors.Is(f.Err(), ErrTooLarge) {
				t.Errorf("%s: %d stages, Err %v: want 2 and ErrTooLarge", name, f.Stages(), f.Err())
			}
			if f.HasAll(more, make([]bool, len(more))) != len(more) || f.HasAll(keys, make([]bool, len(keys))) != len(keys) {
				t.Errorf("%s: keys lost", name)
			}
			checkHeap(t, name)
			var h Scalable[uint64]
			enc := mustMarshal(t, f)
			if err := h.UnmarshalBinary(enc); err != nil || !errors.Is(h.Err(), ErrTooLarge) || !bytes.Equal(mustMarshal(t, &h), enc) {
				t.Errorf("%s: the stopped filter decodes with %v, Err %v", name, err, h.Err())
			}
			t.Logf("%s: %v", name, f.Err())
		}
	})
}

// TestScalableParameterMutation mutates the parameter block of Scalable
// encodings at random (one to three words: random bits, bit flips, shifts,
// scalings, off by one, extremes, another word's value) with the checksums
// made right, many thousands of times. A mutant is refused with ErrCorrupt,
// or it is one an encoder writes: every stage plans for no more keys than
// its blocks can hold at any rate below 1 (4096 a block: at 4096 keys a
// block's bits are all set), and it re-encodes to itself. Nothing is added
// to accepted mutants (a growth factor of 1e6 is theirs to ask for).
func TestScalableParameterMutation(t *testing.T) {
	bases := [][]byte{
		mustMarshal(t, buildScalable(t, 10, 0.01, 10)),
		mustMarshal(t, buildScalable(t, 40, 0.01, 300, WithGrowth(1.5))),
		mustMarshal(t, buildScalable(t, 1000, 0.05, 20000, WithGrowth(4), WithTightening(0.5))),
		mustMarshal(t, buildScalable(t, 1, 0.5, 50, WithTightening(1e-6))), // growth stopped
	}
	var stopped Scalable[uint64]
	if err := stopped.UnmarshalBinary(bases[3]); err != nil || stopped.Err() == nil {
		t.Fatalf("the last base should have stopped growing: %v, %v", err, stopped.Err())
	}
	words := []int{spFPR, spGrowth, spTightening, spInitial, spPlanned, spCount, spNextCheck}
	r := rand.New(rand.NewPCG(20, 2))
	mutate := func(b []byte) {
		for range 1 + r.IntN(3) {
			off := words[r.IntN(len(words))]
			v := param(b, off)
			switch r.IntN(9) {
			case 0:
				v = r.Uint64()
			case 1:
				v ^= 1 << r.IntN(64)
			case 2:
				v <<= r.IntN(40)
			case 3:
				v >>= r.IntN(40)
			case 4:
				v = math.Float64bits(math.Float64frombits(v) * math.Pow(2, float64(r.IntN(81)-40)))
			case 5:
				v += uint64(r.IntN(3)) - 1
			case 6:
				v = []uint64{0, 1, math.MaxUint64, math.MaxUint64 - 1, 1 << 62, 1 << 34}[r.IntN(6)]
			case 7:
				v = param(b, words[r.IntN(len(words))])
			case 8:
				v = math.Float64bits([]float64{1e-300, 1e-20, 0.5, 0.999999, 1, 1.5, 1e6}[r.IntN(7)])
			}
			setParam(b, off, v)
		}
	}
	n := 20000
	if testing.Short() {
		n = 4000
	}
	accepted := 0
	for i := range n {
		b := bytes.Clone(bases[i%len(bases)])
		mutate(b)
		var g Scalable[uint64]
		err := g.UnmarshalBinary(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("mutant %d: %v, want ErrCorrupt", i, err)
			}
			continue
		}
		accepted++
		for j, f := range g.stages {
			if p := plannedChain(g.initial, g.growth, j); p > 4096*f.NumBlocks() {
				t.Fatalf("mutant %d accepted: stage %d of %d blocks plans for %d keys", i, j, f.NumBlocks(), p)
			}
		}
		if !bytes.Equal(mustMarshal(t, &g), b) {
			t.Fatalf("mutant %d accepted and re-encodes differently", i)
		}
	}
	t.Logf("%d of %d mutants accepted", accepted, n)
}
