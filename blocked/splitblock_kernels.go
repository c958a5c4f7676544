package blocked

// The split-block batch kernels: dispatch to the architecture hooks
// (splitblock_arch_<arch>.go), which return false when they have no kernel
// for the level in cpu.Active, and the pure-Go kernels, the fallback and the
// reference every assembly kernel must equal bit for bit.

// The Parquet salts: word i of a block uses splitSalt i. They are fixed by
// the Parquet specification (BloomFilter.md).
const (
	splitSalt0 = 0x47b6137b
	splitSalt1 = 0x44974d91
	splitSalt2 = 0x8824ad5b
	splitSalt3 = 0xa2b7289d
	splitSalt4 = 0x705495c7
	splitSalt5 = 0x2df1424b
	splitSalt6 = 0x9efc4947
	splitSalt7 = 0x5c6bfb31
)

// splitSalt lists the Parquet salts in order, for loops and for the assembly generators.
var splitSalt = [8]uint32{
	splitSalt0, splitSalt1, splitSalt2, splitSalt3,
	splitSalt4, splitSalt5, splitSalt6, splitSalt7,
}

// splitAddHashes adds every hash of hs with the kernel of the current level.
// Callers have checked len(hs) > 0.
func splitAddHashes(s *SplitBlock, hs []uint64) {
	if !splitAddHashesArch(s, hs) {
		splitAddHashesGeneric(s, hs)
	}
}

// splitHasHashes looks up every hash of hs with the kernel of the current
// level. Callers have checked len(hs) > 0 and len(out) == len(hs).
func splitHasHashes(s *SplitBlock, hs []uint64, out []bool) int {
	if n, ok := splitHasHashesArch(s, hs, out); ok {
		return n
	}
	return splitHasHashesGeneric(s, hs, out)
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
