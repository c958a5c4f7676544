//go:build !purego

package blocked

// Placeholder until the arm64 split-block kernels land: the generic kernel runs.

func splitAddHashesArch(s *SplitBlock, hs []uint64) bool { return false }

func splitHasHashesArch(s *SplitBlock, hs []uint64, out []bool) (int, bool) { return 0, false }
