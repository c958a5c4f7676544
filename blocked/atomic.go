package blocked

import (
	"fmt"
	"sync/atomic"
)

// Concurrent adds. The atomic methods set a key's bits with atomic OR
// (lock-free; a word whose bits are already set is only loaded, not
// written, so hot blocks are not bounced between cores needlessly). Bits are
// only ever set, never cleared, so the result is exactly the filter that
// AddHash of the same keys in any order would give.
//
// What may run at the same time on one filter:
//   - AddHashAtomic and AddHashesAtomic, from any number of goroutines, with
//     each other and with HasHashAtomic and HasHashesAtomic: the latter see
//     every key whose atomic add happened before the lookup (in the Go memory
//     model's sense: the add returned, then a channel, mutex or WaitGroup
//     ordered the lookup after it), and may or may not see adds in flight.
//   - HasHash and HasHashes with the atomic adds: on every platform Go
//     supports they read whole words, and since bits are only set, a key
//     added before the lookup is found. But the Go memory model calls a plain
//     read concurrent with an atomic write a data race, and the race detector
//     reports it; use HasHashAtomic/HasHashesAtomic in code that runs under
//     -race or that must be race-free by the book.
//   - Not safe with anything else running: AddHash, AddHashes (plain
//     read-modify-write, which can lose a concurrent atomic add's bits),
//     Union, Intersect, Clear, UnmarshalBinary and ReadFrom.

// orWord sets the bits of m in *p atomically, skipping the write when they
// are all set already.
func orWord(p *uint64, m uint64) {
	if atomic.LoadUint64(p)&m != m {
		atomic.OrUint64(p, m)
	}
}

// orWord32 is orWord for 32-bit words.
func orWord32(p *uint32, m uint32) {
	if atomic.LoadUint32(p)&m != m {
		atomic.OrUint32(p, m)
	}
}

// AddHashAtomic adds the hash h with atomic operations: it is safe
// concurrently with other atomic adds and with lookups (see HasHashAtomic).
// It panics on a zero Filter.
func (f *Filter) AddHashAtomic(h uint64) {
	if len(f.blocks) == 0 {
		panic("blocked: AddHashAtomic" + zeroFilter)
	}
	b, x := f.blockAt(h), uint32(h)
	if f.k == 8 {
		for i := range b {
			orWord(&b[i], 1<<((x*salt[i])>>26))
		}
		return
	}
	for i := range b {
		orWord(&b[i], 1<<((x*salt[i])>>26)|1<<((x*salt[i+8])>>26))
	}
}

// AddHashesAtomic adds every hash of hs with AddHashAtomic. It panics on a
// zero Filter.
func (f *Filter) AddHashesAtomic(hs []uint64) {
	if len(f.blocks) == 0 {
		panic("blocked: AddHashesAtomic" + zeroFilter)
	}
	for _, h := range hs {
		f.AddHashAtomic(h)
	}
}

// HasHashAtomic is HasHash with atomic loads: it is free of data races with
// concurrent AddHashAtomic calls, and finds every key whose add happened
// before it.
func (f *Filter) HasHashAtomic(h uint64) bool {
	if len(f.blocks) == 0 {
		return false
	}
	b, x := f.blockAt(h), uint32(h)
	v := uint64(1)
	if f.k == 8 {
		for i := range b {
			v &= atomic.LoadUint64(&b[i]) >> ((x * salt[i]) >> 26)
		}
		return v&1 != 0
	}
	for i := range b {
		w := atomic.LoadUint64(&b[i])
		v &= w >> ((x * salt[i]) >> 26) & (w >> ((x * salt[i+8]) >> 26))
	}
	return v&1 != 0
}

// HasHashesAtomic sets out[i] to HasHashAtomic(hs[i]) for every i and
// returns how many are true. It panics if out is shorter than hs, before
// touching anything.
func (f *Filter) HasHashesAtomic(hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic(fmt.Sprintf("blocked: HasHashesAtomic: out has %d elements, shorter than %d hashes", len(out), len(hs)))
	}
	n := 0
	for i, h := range hs {
		r := f.HasHashAtomic(h)
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// AddHashAtomic adds the hash h with atomic operations: it is safe
// concurrently with other atomic adds and with lookups; the rules are those
// of Filter.AddHashAtomic. It panics on a zero SplitBlock.
func (s *SplitBlock) AddHashAtomic(h uint64) {
	if len(s.blocks) == 0 {
		panic("blocked: SplitBlock.AddHashAtomic" + zeroSplitBlock)
	}
	b, x := s.blockAt(h), uint32(h)
	for i := range b {
		orWord32(&b[i], 1<<((x*splitSalt[i])>>27))
	}
}

// AddHashesAtomic adds every hash of hs with AddHashAtomic. It panics on a
// zero SplitBlock.
func (s *SplitBlock) AddHashesAtomic(hs []uint64) {
	if len(s.blocks) == 0 {
		panic("blocked: SplitBlock.AddHashesAtomic" + zeroSplitBlock)
	}
	for _, h := range hs {
		s.AddHashAtomic(h)
	}
}

// HasHashAtomic is HasHash with atomic loads, free of data races with
// concurrent AddHashAtomic calls.
func (s *SplitBlock) HasHashAtomic(h uint64) bool {
	if len(s.blocks) == 0 {
		return false
	}
	b, x := s.blockAt(h), uint32(h)
	v := uint32(1)
	for i := range b {
		v &= atomic.LoadUint32(&b[i]) >> ((x * splitSalt[i]) >> 27)
	}
	return v&1 != 0
}

// HasHashesAtomic sets out[i] to HasHashAtomic(hs[i]) for every i and
// returns how many are true. It panics if out is shorter than hs, before
// touching anything.
func (s *SplitBlock) HasHashesAtomic(hs []uint64, out []bool) int {
	if len(out) < len(hs) {
		panic(fmt.Sprintf("blocked: SplitBlock.HasHashesAtomic: out has %d elements, shorter than %d hashes", len(out), len(hs)))
	}
	n := 0
	for i, h := range hs {
		r := s.HasHashAtomic(h)
		out[i] = r
		n += int(b2u(r))
	}
	return n
}
