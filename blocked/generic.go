package blocked

// The batch operations of Filter and SplitBlock: each runs the kernel that
// dispatch_<arch>.go chooses for the current level (cpu.Active), else the
// pure-Go loop below. The pure-Go loops are the path on every processor
// without SIMD and the reference every assembly kernel must equal bit for
// bit; the per-key work is the pure-Go one-key probe (addHashGo, hasHashGo),
// never the one-key assembly. Counting's pure-Go loop is
// countingHasHashesGeneric in counting.go.
//
// Callers have checked the lengths: len(hs) > 0 and len(out) == len(hs).

func addHashes(f *Filter, hs []uint64) {
	if !addHashesArch(f, hs) {
		addHashesGeneric(f, hs)
	}
}

func hasHashes(f *Filter, hs []uint64, out []bool) int {
	if n, ok := hasHashesArch(f, hs, out); ok {
		return n
	}
	return hasHashesGeneric(f, hs, out)
}

func splitAddHashes(s *SplitBlock, hs []uint64) {
	if !splitAddHashesArch(s, hs) {
		splitAddHashesGeneric(s, hs)
	}
}

func splitHasHashes(s *SplitBlock, hs []uint64, out []bool) int {
	if n, ok := splitHasHashesArch(s, hs, out); ok {
		return n
	}
	return splitHasHashesGeneric(s, hs, out)
}

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
