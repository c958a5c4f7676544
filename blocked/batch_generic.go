package blocked

// The pure-Go batch loops of Filter and SplitBlock (batch.go runs them where
// no kernel does): the path on every processor without SIMD and the
// reference every assembly kernel must equal bit for bit. The per-key work
// is the pure-Go one-key probe (addHashGo, hasHashGo), never the one-key
// assembly. Counting's pure-Go loop is countingHasHashesGeneric in
// counting.go.
//
// Callers have checked the lengths: len(hs) > 0 and len(out) == len(hs).

// addHashesGeneric adds every hash of hs to f.
func addHashesGeneric(f *Filter, hs []uint64) {
	for _, h := range hs {
		f.addHashGo(h)
	}
}

// hasHashesGeneric looks up every hash of hs; out has the length of hs.
func hasHashesGeneric(f *Filter, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		r := f.hasHashGo(h)
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// splitAddHashesGeneric adds every hash of hs to s.
func splitAddHashesGeneric(s *SplitBlock, hs []uint64) {
	for _, h := range hs {
		s.addHashGo(h)
	}
}

// splitHasHashesGeneric looks up every hash of hs; out has the length of hs.
func splitHasHashesGeneric(s *SplitBlock, hs []uint64, out []bool) int {
	out = out[:len(hs)]
	n := 0
	for i, h := range hs {
		r := s.hasHashGo(h)
		out[i] = r
		n += int(b2u(r))
	}
	return n
}

// b2u converts a bool to 0 or 1 without a branch.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
