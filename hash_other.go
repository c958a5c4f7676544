//go:build purego || !amd64

package bloom

// hashWords sets dst[i] = HashUint64(src[i]); len(dst) >= len(src), and dst
// may be src. Without assembly it is the Go loop.
func hashWords(dst, src []uint64) { hashWordsGo(dst, src) }
