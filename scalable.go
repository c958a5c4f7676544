package bloom

import (
	"fmt"
	"math"

	"github.com/simdbloom/bloom/blocked"
)

// Scalable is a Bloom filter that grows: a chain of blocked filters (stages).
// When the newest stage reaches its planned number of keys, or has as many
// bits set as its sizing predicts for them (blocked.Fill), a new stage is
// added, growth times larger, with its false-positive rate tightened by the
// ratio r: stage i is planned for initial*growth^i keys at p0*r^i, with
// p0 = fpr*(1-r), so the rates of all stages sum to less than fpr however
// many keys are added. Lookups check every stage; only the newest takes
// adds.
//
// A key already found in the filter is not added again, so duplicates do not
// make it grow. Has and HasAll are safe for concurrent use with each other;
// Add and AddAll are not safe concurrently with anything.
//
// A stage that cannot be made (larger than blocked.MaxBlocks or this
// platform's reach, more than 1024 bits per key, or a rate that underflows)
// is never allocated: growth stops there, the newest stage takes every
// further key (its FillRatio and EstimatedFPR show the overflow), and Err
// returns the error, which wraps ErrTooLarge or ErrFPR.
//
// The zero Scalable is empty: its lookups answer false and 0, its mutations
// panic, and UnmarshalBinary or ReadFrom fill it.
type Scalable[K Key] struct {
	stages     []*blocked.Filter
	initial    uint64  // keys planned for the first stage
	planned    uint64  // keys planned for the newest stage
	count      uint64  // keys added to the newest stage
	nextCheck  uint64  // count at which to look at the newest stage's fill again
	fillAt     float64 // fill at which the newest stage is full: blocked.Fill at its planned keys
	err        error   // why growth stopped (planned is then 2^64-1), or nil
	fpr        float64
	growth     float64
	tightening float64
	kind       keyKind
}

// ScalableOption configures NewScalable: pass WithGrowth or WithTightening.
// A bad value makes NewScalable return an error wrapping ErrOption.
type ScalableOption struct {
	apply func(*scalableConfig) error
}

type scalableConfig struct{ growth, tightening float64 }

// minGrowth is the smallest growth factor WithGrowth accepts.
//
// N keys take about log(N/initial)/log(growth) stages, and every lookup
// probes every stage. Each stage's rate is r times the one before
// (WithTightening), so its keys cost about log2(1/r)/ln 2 bits more (0.34
// at the default r = 0.85): bits per key rise by 0.34/log2(growth) each
// time N doubles. The memory held just after a stage opens, the worst
// case, is lowest for growth between 1.5 and 2 (at 10^9 keys from 1000
// planned at fpr 0.01: 44 bits per key at 1.5, 47 at 2, 55 at 1.25, 78 at
// 4); below 1.5 it and the number of stages climb fast, and growth 1 (each
// stage one key larger) needs a stage per sqrt(2N) keys, whose rates sink
// until a stage of a few hundred keys takes gigabytes. From 1.5 up, memory
// is linear in N but for that slow logarithmic rise.
const minGrowth = 1.5

// WithGrowth sets how much larger each stage is than the one before: a
// factor in [1.5, 1e6] (default 2). Larger factors mean fewer stages
// (faster lookups) and more memory held in reserve. A factor below 1.5
// (earlier versions took 1) is an error wrapping ErrOption; encodings
// written with one still decode, and grow as they were made to.
func WithGrowth(s float64) ScalableOption {
	return ScalableOption{func(c *scalableConfig) error {
		if math.IsNaN(s) || s < minGrowth || s > 1e6 {
			return fmt.Errorf("%w: growth factor must be in [%v, 1e6], got %v", ErrOption, minGrowth, s)
		}
		c.growth = s
		return nil
	}}
}

// WithTightening sets the ratio r in (0, 1) by which each stage's
// false-positive rate is lower than the previous one's (default 0.85).
func WithTightening(r float64) ScalableOption {
	return ScalableOption{func(c *scalableConfig) error {
		if math.IsNaN(r) || r <= 0 || r >= 1 {
			return fmt.Errorf("%w: tightening ratio must be in (0, 1), got %v", ErrOption, r)
		}
		c.tightening = r
		return nil
	}}
}

// NewScalable returns a growing filter whose first stage is planned for
// initial keys, with a total false-positive rate of at most fpr. It returns
// ErrKeys for initial = 0, ErrFPR for fpr outside (0, 1) or NaN, ErrOption
// for a bad option, and ErrTooLarge if the first stage cannot be made.
func NewScalable[K Key](initial uint64, fpr float64, opts ...ScalableOption) (*Scalable[K], error) {
	if initial == 0 {
		return nil, ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return nil, fmt.Errorf("%w: got %v", ErrFPR, fpr)
	}
	c := scalableConfig{growth: 2, tightening: 0.85}
	for _, o := range opts {
		if o.apply == nil {
			return nil, fmt.Errorf("%w: a zero ScalableOption (use WithGrowth or WithTightening)", ErrOption)
		}
		if err := o.apply(&c); err != nil {
			return nil, err
		}
	}
	s := &Scalable[K]{initial: initial, fpr: fpr, growth: c.growth, tightening: c.tightening, kind: kindOf[K]()}
	first, err := blocked.New(initial, s.stageFPR(0))
	if err != nil {
		return nil, err
	}
	s.push(first, initial)
	return s, nil
}

// stageFPR returns the target false-positive rate of stage i.
func (s *Scalable[K]) stageFPR(i int) float64 {
	return s.fpr * (1 - s.tightening) * math.Pow(s.tightening, float64(i))
}

func (s *Scalable[K]) push(f *blocked.Filter, planned uint64) {
	f.SetKeyHash(blocked.HashXXH3) // every stage holds Hash's hashes
	s.stages = append(s.stages, f)
	s.planned, s.count = planned, 0
	s.nextCheck = max(1, planned/16)
	s.fillAt = blocked.Fill(planned, f.NumBlocks(), f.K())
}

// maxStageBitsPerKey bounds a new stage's size: at most this many bits per
// planned key (or one block). A blocked filter needs about 40 bits per key
// at rate 1e-6, 550 at 1e-15, 5500 at 1e-20 and 10^5 at 1e-24; a stage past
// the bound is one whose rate (a tightening ratio far below the default)
// the layout cannot reach at any sensible size, and an encoding of a few
// kilobytes could otherwise ask for the largest Filter on its next Add. At
// the default tightening no stage comes near it before blocked.MaxBlocks.
const maxStageBitsPerKey = 1024

// grow adds a stage. It sizes the stage first and allocates nothing if the
// stage is beyond blocked.MaxBlocks or this platform's reach (ErrTooLarge),
// needs more than maxStageBitsPerKey bits per key (ErrTooLarge), or its rate
// underflowed (ErrFPR): then growth stops, Err says why, and the newest
// stage keeps taking keys.
func (s *Scalable[K]) grow() {
	planned := nextPlanned(s.planned, s.growth)
	i := len(s.stages)
	f, err := newStage(planned, s.stageFPR(i))
	if err != nil {
		s.planned = math.MaxUint64
		s.err = fmt.Errorf("%w; so Scalable stage %d (%d keys) is not made, and stage %d takes every further key", err, i, planned, i-1)
		return
	}
	s.push(f, planned)
}

// stageSize returns the geometry of a stage for planned keys at rate p: the
// Filter blocked.New would make, or an error if it cannot be made or takes
// more than maxStageBitsPerKey bits per key.
func stageSize(planned uint64, p float64) (blocked.Sizing, error) {
	sz, err := blocked.Size(planned, p)
	if err != nil {
		return sz, err
	}
	if sz.Blocks > 1 && sz.BitsPerKey > maxStageBitsPerKey {
		return sz, fmt.Errorf("%w: %d keys at fpr %g need %.0f bits per key, more than the %d a Scalable stage may take",
			ErrTooLarge, planned, p, sz.BitsPerKey, maxStageBitsPerKey)
	}
	return sz, nil
}

// newStage returns an empty stage for planned keys at rate p, or the error
// that keeps it from being made (nothing is allocated then).
func newStage(planned uint64, p float64) (*blocked.Filter, error) {
	sz, err := stageSize(planned, p)
	if err != nil {
		return nil, err
	}
	return blocked.NewBytes(sz.Bytes, sz.K) // ErrTooLarge beyond this platform's reach
}

// Err returns nil while s can grow, or the error that stopped its growth:
// the next stage could not be made (an error wrapping ErrTooLarge or
// ErrFPR), so the newest stage takes every further key and the
// false-positive rate rises past the target. It returns nil for the zero
// Scalable.
func (s *Scalable[K]) Err() error { return s.err }

// nextPlanned returns the keys planned for the stage after one planned for
// p keys: p*growth, at most 2^62, and at least p+1.
func nextPlanned(p uint64, growth float64) uint64 {
	return max(uint64(math.Min(float64(p)*growth, 1<<62)), p+1)
}

// full reports whether the newest stage has its planned keys, or at least
// the fill its sizing predicts for them (read every planned/16 keys). Once
// growth has stopped (planned 2^64-1) it is never full.
func (s *Scalable[K]) full() bool {
	if s.count >= s.planned {
		return s.planned != math.MaxUint64
	}
	if s.count >= s.nextCheck {
		s.nextCheck += max(1, s.planned/16)
		return s.planned != math.MaxUint64 && s.stages[len(s.stages)-1].FillRatio() >= s.fillAt
	}
	return false
}

// hasHash reports whether any stage may hold h.
func (s *Scalable[K]) hasHash(h uint64) bool {
	for _, f := range s.stages {
		if f.HasHash(h) {
			return true
		}
	}
	return false
}

func (s *Scalable[K]) addHash(h uint64) {
	if s.hasHash(h) {
		return
	}
	if s.full() {
		s.grow()
	}
	s.stages[len(s.stages)-1].AddHash(h)
	s.count++
}

// mustStages panics, naming the constructor, when s is the zero Scalable.
func (s *Scalable[K]) mustStages(op string) {
	if len(s.stages) == 0 {
		panic("bloom: " + op + " on a zero Scalable; use bloom.NewScalable")
	}
}

// Add adds key k.
func (s *Scalable[K]) Add(k K) {
	s.mustStages("Add")
	s.addHash(hashKind(s.kind, &k))
}

// Has reports whether k may have been added: false means certainly not.
func (s *Scalable[K]) Has(k K) bool {
	if len(s.stages) == 0 {
		return false
	}
	return s.hasHash(hashKind(s.kind, &k))
}

// AddAll adds every key of keys, in order, with exactly the effect of Add on
// each (the same stages, bits and growth), hashing the keys in chunks and
// using the batch kernels.
func (s *Scalable[K]) AddAll(keys []K) {
	s.mustStages("AddAll")
	c := keyChunks[K]{kind: s.kind, keys: keys}
	for hs, _ := c.next(); len(hs) > 0; hs, _ = c.next() {
		s.addHashes(hs)
	}
}

// addHashes has the effect of addHash on each of hs in order (len(hs) <=
// chunk). It looks all hashes up in every stage at once; bits are only ever
// set, so a hash found then is found when its turn comes. One not found may
// be found later only in a block of the newest stage that an earlier hash of
// the batch went to: those blocks are tracked (by block number mod 1024, so
// a collision costs only a needless lookup) and such a hash is looked up
// again, after the pending adds are written. Adds are written in batches,
// before any lookup of the newest stage, before full reads its fill and
// before a new stage; after a new stage the rest starts over.
func (s *Scalable[K]) addHashes(hs []uint64) {
	var present, tmp [chunk]bool
	var pending [chunk]uint64
	for len(hs) > 0 {
		p := present[:len(hs)]
		s.stages[0].HasHashes(hs, p)
		for _, f := range s.stages[1:] {
			f.HasHashes(hs, tmp[:len(hs)])
			for j, t := range tmp[:len(hs)] {
				p[j] = p[j] || t
			}
		}
		nstages := len(s.stages)
		newest := s.stages[nstages-1]
		nb := newest.NumBlocks()
		var touched [1024 / 64]uint64
		np := 0
		j := 0
		for ; j < len(hs); j++ {
			if p[j] {
				continue
			}
			h := hs[j]
			b := ((h >> 32) * nb) >> 32 & 1023 // the block blocked.Filter uses, mod 1024
			if touched[b>>6]>>(b&63)&1 != 0 {
				newest.AddHashes(pending[:np])
				np = 0
				if newest.HasHash(h) {
					continue
				}
			}
			if s.count >= s.planned || s.count >= s.nextCheck { // full may read the fill or grow
				newest.AddHashes(pending[:np])
				np = 0
				if s.full() {
					s.grow()
				}
				if len(s.stages) != nstages {
					s.stages[len(s.stages)-1].AddHash(h)
					s.count++
					j++
					break
				}
			}
			pending[np] = h
			np++
			touched[b>>6] |= 1 << (b & 63)
			s.count++
		}
		newest.AddHashes(pending[:np])
		hs = hs[j:]
	}
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true. It
// panics, before touching anything, if out is shorter than keys.
func (s *Scalable[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: Scalable.HasAll: out is shorter than keys")
	}
	if len(s.stages) == 0 {
		clear(out[:len(keys)])
		return 0
	}
	var tmp [chunk]bool
	found := 0
	c := keyChunks[K]{kind: s.kind, keys: keys}
	for hs, at := c.next(); len(hs) > 0; hs, at = c.next() {
		found += hasAnyOf(s.stages, hs, out[at:at+len(hs)], tmp[:len(hs)])
	}
	return found
}

func b2i(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Stages returns the number of stages.
func (s *Scalable[K]) Stages() int { return len(s.stages) }

// NumBits returns the total size of all stages in bits.
func (s *Scalable[K]) NumBits() uint64 {
	var n uint64
	for _, f := range s.stages {
		n += f.NumBits()
	}
	return n
}

// FillRatio returns the fraction of set bits over all stages.
func (s *Scalable[K]) FillRatio() float64 {
	if len(s.stages) == 0 {
		return 0
	}
	set := 0.0
	for _, f := range s.stages {
		set += f.FillRatio() * float64(f.NumBits())
	}
	return set / float64(s.NumBits())
}

// EstimatedFPR returns the false-positive rate of the filter as it is now:
// 1 - prod(1 - stage rate), from each stage's bits.
func (s *Scalable[K]) EstimatedFPR() float64 {
	miss := 1.0
	for _, f := range s.stages {
		miss *= 1 - f.EstimatedFPR()
	}
	return 1 - miss
}

// EstimatedCount estimates the number of distinct keys added.
func (s *Scalable[K]) EstimatedCount() float64 {
	c := 0.0
	for _, f := range s.stages {
		c += f.EstimatedCount()
	}
	return c
}

// Clear removes every key and returns s to the state NewScalable made: the
// first stage, cleared, alone (the others are dropped and their memory
// freed), the same options, and Err nil. On the zero Scalable it does
// nothing.
func (s *Scalable[K]) Clear() {
	if len(s.stages) == 0 {
		return
	}
	first := s.stages[0]
	first.Clear()
	clear(s.stages[1:])
	s.stages = s.stages[:0]
	s.err = nil
	s.push(first, s.initial)
}

// clone returns an independent copy, which grows as s would (a zero
// Scalable for the zero Scalable).
func (s *Scalable[K]) clone() *Scalable[K] {
	c := *s
	c.stages = make([]*blocked.Filter, len(s.stages))
	for i, f := range s.stages {
		c.stages[i] = f.Clone()
	}
	if len(s.stages) == 0 {
		c.stages = nil
	}
	return &c
}

// equal reports whether s and o hold the same bits in the same stages and
// will grow alike: the same options, rate and initial keys, and the same
// count in the newest stage (what the encoding records). Two zero
// Scalables are equal.
func (s *Scalable[K]) equal(o *Scalable[K]) bool {
	if o == nil || len(s.stages) != len(o.stages) {
		return false
	}
	if len(s.stages) == 0 {
		return true
	}
	if s.fpr != o.fpr || s.growth != o.growth || s.tightening != o.tightening || s.initial != o.initial ||
		s.planned != o.planned || s.count != o.count || s.nextCheck != o.nextCheck {
		return false
	}
	for i, f := range s.stages {
		if !f.Equal(o.stages[i]) {
			return false
		}
	}
	return true
}
