//go:build purego || !(amd64 || arm64)

package blocked

// Without assembly every split-block batch operation runs the generic kernel.

func splitAddHashesArch(s *SplitBlock, hs []uint64) bool { return false }

func splitHasHashesArch(s *SplitBlock, hs []uint64, out []bool) (int, bool) { return 0, false }
