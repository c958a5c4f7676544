//go:build (!amd64 && !arm64) || purego

package cpu

func detect() Level      { return Generic }
func detectBMI2() bool   { return false }
func detectBITALG() bool { return false }
func detectIFMA() bool   { return false }
func detectVBMI() bool   { return false }
func detectL2() uint64   { return 0 }
func detectL3() uint64   { return 0 }
