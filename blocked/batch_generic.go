package blocked

import "unsafe"

// The pure-Go batch loops of Filter and SplitBlock (batch.go runs them where
// no kernel does): the path on every processor without SIMD, and the
// reference every assembly kernel must equal bit for bit. Counting's pure-Go
// loop is countingHasHashesGeneric in counting.go.
//
// Each loop spells out the probe of its one-key reference (hasHashGo,
// addHashGo, which the tests hold it equal to): Go inlines neither, and a
// call per key cost 10-15% at cache-resident sizes (PERF.md, "The pure-Go
// batch path").
//
// Go has no prefetch instruction. In a filter larger than the L2 cache
// (prefetchFrom), the loops instead take the keys touchGroup at a time and
// first read one word of each key's line, so that those misses are all in
// flight at once, then probe the group, whose lines are by then in cache.
// A plain load is a poor prefetch (the processor retires it only once the
// line arrives), but one load per key in a tight loop keeps many more lines
// in flight than the probe loop does, whose eight loads and eight multiplies
// per key fill the out-of-order window.
//
// Callers have checked the lengths: len(hs) > 0 and len(out) == len(hs).

// touchGroup is how many keys the loops touch before they probe them, in
// filters of prefetchFrom bytes or more.
const touchGroup = 64

// groupOf returns how many keys of hs the loops take at a time in a filter
// of size bytes: all of them below prefetchFrom, else touchGroup.
func groupOf(size uint64, hs []uint64) int {
	if size < prefetchFrom {
		return len(hs)
	}
	return touchGroup
}

// touchLines reads one word of the block of every hash of hs, in a filter
// of nb blocks of size bytes at base, and returns them ORed together (so
// that the loads are not optimized away; callers ignore it).
//
//go:noinline
func touchLines(base unsafe.Pointer, nb, size uint64, hs []uint64) uint64 {
	var t uint64
	for _, h := range hs {
		t |= *(*uint64)(unsafe.Add(base, ((h>>32)*nb)>>32*size))
	}
	return t
}

// The four loops below run a batch in groups; each group is one call to a
// loop over its keys (add8Go and the like), which keeps the loop's
// variables in registers across the call that touches the next group.

// addHashesGeneric adds every hash of hs to f.
func addHashesGeneric(f *Filter, hs []uint64) {
	base, nb := unsafe.Pointer(unsafe.SliceData(f.blocks)), uint64(len(f.blocks))
	step := groupOf(f.sizeBytes(), hs)
	for i := 0; i < len(hs); i += step {
		g := hs[i:min(i+step, len(hs))]
		if step == touchGroup {
			touchLines(base, nb, 64, g)
		}
		if f.k == 8 {
			add8Go(base, nb, g)
		} else {
			add16Go(base, nb, g)
		}
	}
}

// hasHashesGeneric looks up every hash of hs; out has the length of hs.
func hasHashesGeneric(f *Filter, hs []uint64, out []bool) int {
	base, nb := unsafe.Pointer(unsafe.SliceData(f.blocks)), uint64(len(f.blocks))
	step := groupOf(f.sizeBytes(), hs)
	n := 0
	for i := 0; i < len(hs); i += step {
		g := hs[i:min(i+step, len(hs))]
		if step == touchGroup {
			touchLines(base, nb, 64, g)
		}
		if f.k == 8 {
			n += has8Go(base, nb, g, out[i:i+len(g)])
		} else {
			n += has16Go(base, nb, g, out[i:i+len(g)])
		}
	}
	return n
}

// splitAddHashesGeneric adds every hash of hs to s.
func splitAddHashesGeneric(s *SplitBlock, hs []uint64) {
	base, nb := unsafe.Pointer(unsafe.SliceData(s.blocks)), uint64(len(s.blocks))
	step := groupOf(s.sizeBytes(), hs)
	for i := 0; i < len(hs); i += step {
		g := hs[i:min(i+step, len(hs))]
		if step == touchGroup {
			touchLines(base, nb, splitBlockBytes, g)
		}
		splitAddGo(base, nb, g)
	}
}

// splitHasHashesGeneric looks up every hash of hs; out has the length of hs.
func splitHasHashesGeneric(s *SplitBlock, hs []uint64, out []bool) int {
	base, nb := unsafe.Pointer(unsafe.SliceData(s.blocks)), uint64(len(s.blocks))
	step := groupOf(s.sizeBytes(), hs)
	n := 0
	for i := 0; i < len(hs); i += step {
		g := hs[i:min(i+step, len(hs))]
		if step == touchGroup {
			touchLines(base, nb, splitBlockBytes, g)
		}
		n += splitHasGo(base, nb, g, out[i:i+len(g)])
	}
	return n
}

// add8Go adds every hash of hs to the Filter of nb blocks at base, k = 8.
func add8Go(base unsafe.Pointer, nb uint64, hs []uint64) {
	for _, h := range hs {
		b, x := (*block)(unsafe.Add(base, ((h>>32)*nb)>>32*64)), uint32(h)
		b[0] |= 1 << ((x * salt0) >> 26)
		b[1] |= 1 << ((x * salt1) >> 26)
		b[2] |= 1 << ((x * salt2) >> 26)
		b[3] |= 1 << ((x * salt3) >> 26)
		b[4] |= 1 << ((x * salt4) >> 26)
		b[5] |= 1 << ((x * salt5) >> 26)
		b[6] |= 1 << ((x * salt6) >> 26)
		b[7] |= 1 << ((x * salt7) >> 26)
	}
}

// add16Go adds every hash of hs to the Filter of nb blocks at base, k = 16.
func add16Go(base unsafe.Pointer, nb uint64, hs []uint64) {
	for _, h := range hs {
		b, x := (*block)(unsafe.Add(base, ((h>>32)*nb)>>32*64)), uint32(h)
		b[0] |= 1<<((x*salt0)>>26) | 1<<((x*salt8)>>26)
		b[1] |= 1<<((x*salt1)>>26) | 1<<((x*salt9)>>26)
		b[2] |= 1<<((x*salt2)>>26) | 1<<((x*salt10)>>26)
		b[3] |= 1<<((x*salt3)>>26) | 1<<((x*salt11)>>26)
		b[4] |= 1<<((x*salt4)>>26) | 1<<((x*salt12)>>26)
		b[5] |= 1<<((x*salt5)>>26) | 1<<((x*salt13)>>26)
		b[6] |= 1<<((x*salt6)>>26) | 1<<((x*salt14)>>26)
		b[7] |= 1<<((x*salt7)>>26) | 1<<((x*salt15)>>26)
	}
}

// has8Go looks up every hash of hs in the Filter of nb blocks at base,
// k = 8; out has the length of hs.
func has8Go(base unsafe.Pointer, nb uint64, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		b, x := (*block)(unsafe.Add(base, ((h>>32)*nb)>>32*64)), uint32(h)
		v := b[0] >> ((x * salt0) >> 26)
		v &= b[1] >> ((x * salt1) >> 26)
		v &= b[2] >> ((x * salt2) >> 26)
		v &= b[3] >> ((x * salt3) >> 26)
		v &= b[4] >> ((x * salt4) >> 26)
		v &= b[5] >> ((x * salt5) >> 26)
		v &= b[6] >> ((x * salt6) >> 26)
		v &= b[7] >> ((x * salt7) >> 26)
		v &= 1
		out[i] = v != 0
		n += int(v)
	}
	return n
}

// has16Go looks up every hash of hs in the Filter of nb blocks at base,
// k = 16; out has the length of hs.
func has16Go(base unsafe.Pointer, nb uint64, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		b, x := (*block)(unsafe.Add(base, ((h>>32)*nb)>>32*64)), uint32(h)
		v := b[0] >> ((x * salt0) >> 26) & (b[0] >> ((x * salt8) >> 26))
		v &= b[1] >> ((x * salt1) >> 26) & (b[1] >> ((x * salt9) >> 26))
		v &= b[2] >> ((x * salt2) >> 26) & (b[2] >> ((x * salt10) >> 26))
		v &= b[3] >> ((x * salt3) >> 26) & (b[3] >> ((x * salt11) >> 26))
		v &= b[4] >> ((x * salt4) >> 26) & (b[4] >> ((x * salt12) >> 26))
		v &= b[5] >> ((x * salt5) >> 26) & (b[5] >> ((x * salt13) >> 26))
		v &= b[6] >> ((x * salt6) >> 26) & (b[6] >> ((x * salt14) >> 26))
		v &= b[7] >> ((x * salt7) >> 26) & (b[7] >> ((x * salt15) >> 26))
		v &= 1
		out[i] = v != 0
		n += int(v)
	}
	return n
}

// splitAddGo adds every hash of hs to the SplitBlock of nb blocks at base.
func splitAddGo(base unsafe.Pointer, nb uint64, hs []uint64) {
	for _, h := range hs {
		b, x := (*splitBlock)(unsafe.Add(base, ((h>>32)*nb)>>32*splitBlockBytes)), uint32(h)
		b[0] |= 1 << ((x * splitSalt0) >> 27)
		b[1] |= 1 << ((x * splitSalt1) >> 27)
		b[2] |= 1 << ((x * splitSalt2) >> 27)
		b[3] |= 1 << ((x * splitSalt3) >> 27)
		b[4] |= 1 << ((x * splitSalt4) >> 27)
		b[5] |= 1 << ((x * splitSalt5) >> 27)
		b[6] |= 1 << ((x * splitSalt6) >> 27)
		b[7] |= 1 << ((x * splitSalt7) >> 27)
	}
}

// splitHasGo looks up every hash of hs in the SplitBlock of nb blocks at
// base; out has the length of hs.
func splitHasGo(base unsafe.Pointer, nb uint64, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		b, x := (*splitBlock)(unsafe.Add(base, ((h>>32)*nb)>>32*splitBlockBytes)), uint32(h)
		v := b[0] >> ((x * splitSalt0) >> 27)
		v &= b[1] >> ((x * splitSalt1) >> 27)
		v &= b[2] >> ((x * splitSalt2) >> 27)
		v &= b[3] >> ((x * splitSalt3) >> 27)
		v &= b[4] >> ((x * splitSalt4) >> 27)
		v &= b[5] >> ((x * splitSalt5) >> 27)
		v &= b[6] >> ((x * splitSalt6) >> 27)
		v &= b[7] >> ((x * splitSalt7) >> 27)
		v &= 1
		out[i] = v != 0
		n += int(v)
	}
	return n
}
