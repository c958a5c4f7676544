package main

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// tools are the llvm commands used: the newest versioned llvm-mca on PATH
// (llvm-mca-N knows more processors than an older one), else the plain one.
type tools struct {
	mca, objdump string
	version      string // N of llvm-mca-N, "" for the unversioned one
}

// errUnsupported: the processor lacks an instruction of the loop (AVX-512
// on Zen 3); the kernel does not run there and is not modelled.
var errUnsupported = errors.New("unsupported instruction")

var errNoLLVM = errors.New("llvm-mca and llvm-objdump are needed (Debian: apt-get install llvm, or llvm-N for a newer one)")

func findTools() (tools, error) {
	for n := 30; n >= 14; n-- {
		v := strconv.Itoa(n)
		m, err1 := exec.LookPath("llvm-mca-" + v)
		o, err2 := exec.LookPath("llvm-objdump-" + v)
		if err1 == nil && err2 == nil {
			return tools{m, o, v}, nil
		}
	}
	m, err1 := exec.LookPath("llvm-mca")
	o, err2 := exec.LookPath("llvm-objdump")
	if err1 != nil || err2 != nil {
		return tools{}, errNoLLVM
	}
	return tools{mca: m, objdump: o}, nil
}

// helps caches llvm-mca -mcpu=help per triple.
var helps = map[string]string{}

// knows reports whether llvm-mca has a processor named cpu for triple.
func (t tools) knows(triple, cpu string) bool {
	out, ok := helps[triple]
	if !ok {
		b, _ := exec.Command(t.mca, "-mtriple="+triple, "-mcpu=help").CombinedOutput()
		out = string(b)
		helps[triple] = out
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == cpu {
			return true
		}
	}
	return false
}

// model runs llvm-mca on the loop text asm and returns its cycles per
// iteration in the steady state.
func (t tools) model(triple, cpu, asm string) (float64, error) {
	cmd := exec.Command(t.mca, "-mtriple="+triple, "-mcpu="+cpu, "-iterations=400")
	cmd.Stdin = strings.NewReader(asm)
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "unsupported instruction") {
		return 0, errUnsupported
	}
	if err != nil {
		return 0, fmt.Errorf("llvm-mca -mcpu=%s: %v\n%s", cpu, err, out)
	}
	if strings.Contains(string(out), "no scheduling model") {
		return 0, fmt.Errorf("llvm-mca has no scheduling model for %s", cpu)
	}
	return cyclesPerIteration(string(out))
}

var (
	iterationsRe = regexp.MustCompile(`(?m)^Iterations:\s+(\d+)`)
	totalRe      = regexp.MustCompile(`(?m)^Total Cycles:\s+(\d+)`)
)

// cyclesPerIteration reads llvm-mca's summary: total cycles / iterations.
func cyclesPerIteration(out string) (float64, error) {
	it, tot := iterationsRe.FindStringSubmatch(out), totalRe.FindStringSubmatch(out)
	if it == nil || tot == nil {
		return 0, fmt.Errorf("no llvm-mca summary in:\n%s", out)
	}
	i, _ := strconv.ParseFloat(it[1], 64)
	c, _ := strconv.ParseFloat(tot[1], 64)
	return c / i, nil
}
