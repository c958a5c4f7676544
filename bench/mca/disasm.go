package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// inst is one disassembled instruction: its address and its text, without
// the symbolic comment llvm-objdump appends to branch targets.
type inst struct {
	addr uint64
	text string
}

var (
	// "  4a5b20:      	ldr	x6, [x2], #8" (llvm-objdump -d --no-show-raw-insn)
	instLine = regexp.MustCompile(`^\s*([0-9a-f]+):\s+(\S.*)$`)
	// "000000000004a5b00 <github.com/...>:"
	symLine = regexp.MustCompile(`^[0-9a-f]+ <(.+)>:$`)
	// a branch's target address, the first hex number of its operands
	target = regexp.MustCompile(`\b0x([0-9a-f]+)\b`)
)

// parse returns the functions of the llvm-objdump output out: each symbol's
// instructions in address order.
func parse(out string) map[string][]inst {
	fns := map[string][]inst{}
	sym := ""
	for _, line := range strings.Split(out, "\n") {
		if m := symLine.FindStringSubmatch(line); m != nil {
			sym = m[1]
			continue
		}
		m := instLine.FindStringSubmatch(line)
		if m == nil || sym == "" {
			continue
		}
		a, _ := strconv.ParseUint(m[1], 16, 64)
		text, _, _ := strings.Cut(m[2], " <") // drop "<sym+0x40>"
		text, _, _ = strings.Cut(text, "//")  // and "// =58983"
		fns[sym] = append(fns[sym], inst{a, strings.Join(strings.Fields(text), " ")})
	}
	return fns
}

// isCall reports whether the instruction is a direct call.
func isCall(text string) bool {
	op, _, _ := strings.Cut(text, " ")
	return (op == "bl" || op == "callq" || op == "call") && strings.Contains(text, "0x")
}

// isReturn reports whether the instruction returns.
func isReturn(text string) bool {
	op, _, _ := strings.Cut(text, " ")
	return op == "ret" || op == "retq"
}

// branchTarget returns the address a direct branch or call aims at.
func branchTarget(text string) (uint64, bool) {
	m := target.FindAllStringSubmatch(text, -1)
	if m == nil {
		return 0, false
	}
	t, err := strconv.ParseUint(m[len(m)-1][1], 16, 64)
	return t, err == nil
}

// inline returns body with every direct call to a function of fns followed
// by the instructions that function runs: from its entry to its return,
// falling through each conditional branch and taking each unconditional
// one. Calls to functions not in fns stay calls.
func inline(body []inst, fns map[string][]inst) ([]inst, error) {
	byAddr := map[uint64][]inst{}
	for _, code := range fns {
		byAddr[code[0].addr] = code
	}
	var out []inst
	for _, in := range body {
		out = append(out, in)
		t, ok := branchTarget(in.text)
		callee := byAddr[t]
		if !isCall(in.text) || !ok || callee == nil {
			continue
		}
		for i, steps := 0, 0; ; steps++ {
			if i >= len(callee) || steps > 10000 {
				return nil, fmt.Errorf("no return on the path through the callee at %#x", t)
			}
			c := callee[i]
			out = append(out, c)
			if isReturn(c.text) {
				break
			}
			i++
			if !isBranch(c.text) {
				continue
			}
			if !strings.HasPrefix(c.text, "b ") && !strings.HasPrefix(c.text, "jmp") {
				continue // conditional: fall through
			}
			dst, _ := branchTarget(c.text)
			i = slices.IndexFunc(callee, func(x inst) bool { return x.addr == dst })
			if i < 0 {
				return nil, fmt.Errorf("branch out of the callee at %#x", c.addr)
			}
		}
	}
	return out, nil
}

// isBranch reports whether the instruction is a direct branch that can
// close a loop (conditional or not), on either architecture.
func isBranch(text string) bool {
	op, _, _ := strings.Cut(text, " ")
	switch {
	case op == "b", strings.HasPrefix(op, "b."), op == "cbz", op == "cbnz", op == "tbz", op == "tbnz":
		return true // arm64
	case strings.HasPrefix(op, "j") && op != "jmpq" || op == "jmp":
		return strings.Contains(text, "0x") && !strings.Contains(text, "*") // amd64, direct
	}
	return false
}

// loops returns the bodies of the loops of code: for every backward branch,
// in address order, the instructions from its target to the branch itself.
// A branch back to the function's entry (Go's stack-growth path) is not one,
// nor is a branch back to code that returns (Go lays out a rotated loop's
// exit block before the loop's body, and jumps back to it).
func loops(code []inst) [][]inst {
	var out [][]inst
	for i, in := range code {
		if !isBranch(in.text) {
			continue
		}
		t, ok := branchTarget(in.text)
		// a branch to the entry is the stack-growth path, not a loop
		if !ok || t > in.addr || t <= code[0].addr {
			continue
		}
		for j := i; j >= 0; j-- {
			if code[j].addr == t {
				body := code[j : i+1]
				if !slices.ContainsFunc(body, func(x inst) bool { return isReturn(x.text) }) {
					out = append(out, body)
				}
				break
			}
		}
	}
	return out
}

// pick returns the index-th loop (negative counts from the last).
func pick(ls [][]inst, index int) ([]inst, error) {
	i := index
	if i < 0 {
		i += len(ls)
	}
	if i < 0 || i >= len(ls) {
		return nil, fmt.Errorf("loop %d of %d", index, len(ls))
	}
	return ls[i], nil
}

// mcaInput returns the loop as llvm-mca input: one instruction a line,
// every branch and call aimed at a label at the top (llvm-mca ignores
// control flow, but the assembler must parse the target).
func mcaInput(body []inst) string {
	var b strings.Builder
	b.WriteString("loop:\n")
	for _, in := range body {
		t := in.text
		if isBranch(t) || isCall(t) {
			m := target.FindAllStringIndex(t, -1)
			last := m[len(m)-1]
			t = t[:last[0]] + "loop" + t[last[1]:]
		}
		b.WriteString("\t" + t + "\n")
	}
	return b.String()
}

var (
	// arm64: "ldr x6, [x2], #8" (post-index), "add x3, x3, #1"
	postIndex = regexp.MustCompile(`\], #(0x[0-9a-f]+|\d+)$`)
	addImm    = regexp.MustCompile(`^add (\w+), (\w+), #(0x[0-9a-f]+|\d+)$`)
	// amd64 (AT&T): "addq $0x40, %rsi", "incq %rax", "leaq 0x40(%rsi), %rsi"
	addImmX86 = regexp.MustCompile(`^add[lq]? \$(0x[0-9a-f]+|\d+), %\w+$`)
	incX86    = regexp.MustCompile(`^inc[lq]? %\w+$`)
	leaX86    = regexp.MustCompile(`^lea[lq]? (0x[0-9a-f]+|\d+)\(%(\w+)\), %(\w+)$`)
)

// increments returns the constant amounts by which the loop body advances a
// register: post-indexed loads and stores, adds of an immediate, INC, and LEA of a register into itself.
func increments(body []inst) map[int64]bool {
	inc := map[int64]bool{}
	num := func(s string) int64 {
		v, _ := strconv.ParseInt(s, 0, 64)
		return v
	}
	for _, in := range body {
		t := in.text
		if m := postIndex.FindStringSubmatch(t); m != nil {
			inc[num(m[1])] = true
		}
		if m := addImm.FindStringSubmatch(t); m != nil {
			inc[num(m[3])] = true // Go may move the index through another register
		}
		if m := addImmX86.FindStringSubmatch(t); m != nil {
			inc[num(m[1])] = true
		}
		if incX86.MatchString(t) {
			inc[1] = true
		}
		if m := leaX86.FindStringSubmatch(t); m != nil && m[2] == m[3] {
			inc[num(m[1])] = true
		}
	}
	return inc
}
