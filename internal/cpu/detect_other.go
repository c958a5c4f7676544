//go:build (!amd64 && !arm64) || purego

package cpu

func detect() Level { return Generic }
