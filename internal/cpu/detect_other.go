//go:build (!amd64 && !arm64) || purego

package cpu

// archFeatures is empty: without assembly no feature is used.
const archFeatures Feature = 0

func baseline() Feature       { return 0 }
func detectFeatures() Feature { return 0 }
func detect() Level           { return Generic }
func detectL2() uint64        { return 0 }
func detectL3() uint64        { return 0 }
