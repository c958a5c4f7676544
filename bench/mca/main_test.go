package main

import (
	"os"
	"strings"
	"testing"
)

// snippet is llvm-objdump output in the shape of a Go test binary's: a loop
// that calls a leaf function with a branch, and the stack-growth jump back
// to the entry, which is not a loop.
const snippet = `
0000000000010000 <github.com/simdbloom/bloom/blocked.loopy>:
   10000:      	ldr	x16, [x28, #0x10]
   10004:      	cmp	sp, x16
   10008:      	b.ls	0x10030 <github.com/simdbloom/bloom/blocked.loopy+0x30>
   1000c:      	mov	x3, xzr
   10010:      	ldr	x1, [x2, x3, lsl #3]
   10014:      	bl	0x10100 <github.com/simdbloom/bloom/blocked.leaf>
   10018:      	strb	w0, [x4, x3]
   1001c:      	add	x3, x3, #0x1
   10020:      	cmp	x3, x5
   10024:      	b.lt	0x10010 <github.com/simdbloom/bloom/blocked.loopy+0x10>
   10028:      	ret
   1002c:      	nop
   10030:      	bl	0x97e10 <runtime.morestack_noctxt>
   10034:      	b	0x10000 <github.com/simdbloom/bloom/blocked.loopy>

0000000000010100 <github.com/simdbloom/bloom/blocked.leaf>:
   10100:      	cmp	x1, #0x8
   10104:      	b.ne	0x10110 <github.com/simdbloom/bloom/blocked.leaf+0x10>
   10108:      	mov	x0, #0xe667             // =58983
   1010c:      	ret
   10110:      	mul	x0, x1, x1
   10114:      	ret
`

func TestLoopOfSnippet(t *testing.T) {
	fns := parse(snippet)
	code := fns["github.com/simdbloom/bloom/blocked.loopy"]
	if len(code) != 14 {
		t.Fatalf("parsed %d instructions of loopy, want 14", len(code))
	}
	ls := loops(code)
	if len(ls) != 1 {
		t.Fatalf("found %d loops, want 1 (the jump to the entry is not one)", len(ls))
	}
	body := ls[0]
	if body[0].addr != 0x10010 || body[len(body)-1].addr != 0x10024 {
		t.Fatalf("loop from %#x to %#x, want 0x10010 to 0x10024", body[0].addr, body[len(body)-1].addr)
	}
	if inc := increments(body); !inc[1] || len(inc) != 1 {
		t.Fatalf("increments %v, want only 1", inc)
	}
	in, err := inline(body, fns)
	if err != nil {
		t.Fatal(err)
	}
	// The call is followed by the callee's path falling through its branch.
	want := "loop:\n\tldr x1, [x2, x3, lsl #3]\n\tbl loop\n\tcmp x1, #0x8\n\tb.ne loop\n\tmov x0, #0xe667" +
		"\n\tret\n\tstrb w0, [x4, x3]\n\tadd x3, x3, #0x1\n\tcmp x3, x5\n\tb.lt loop\n"
	if asm := mcaInput(in); asm != want {
		t.Errorf("llvm-mca input\n%s\nwant\n%s", asm, want)
	}
}

// rotated is the shape Go gives a loop it inlined after a call: the exit
// block (which returns) comes first, the loop's test last, and an
// unconditional branch jumps back from the test to the exit block.
const rotated = `
0000000000020000 <github.com/simdbloom/bloom/blocked.rotated>:
   20000:      	b	0x2000c <github.com/simdbloom/bloom/blocked.rotated+0xc>
   20004:      	ldr	x30, [sp], #0x40
   20008:      	ret
   2000c:      	ldr	x1, [x2, x0, lsl #3]
   20010:      	add	x0, x0, #0x1
   20014:      	cmp	x2, x0
   20018:      	b.gt	0x2000c <github.com/simdbloom/bloom/blocked.rotated+0xc>
   2001c:      	b	0x20004 <github.com/simdbloom/bloom/blocked.rotated+0x4>
`

func TestRotatedLoop(t *testing.T) {
	code := parse(rotated)["github.com/simdbloom/bloom/blocked.rotated"]
	ls := loops(code)
	if len(ls) != 1 {
		t.Fatalf("found %d loops, want 1 (the branch back to the exit block, which returns, is not one)", len(ls))
	}
	if b := ls[0]; b[0].addr != 0x2000c || b[len(b)-1].addr != 0x20018 {
		t.Fatalf("loop from %#x to %#x, want 0x2000c to 0x20018", b[0].addr, b[len(b)-1].addr)
	}
}

func TestIncrementsAmd64(t *testing.T) {
	body := []inst{{0, "addq $0x8, %r9"}, {4, "incq %r10"}, {8, "leaq 0x40(%rsi), %rsi"}, {12, "leaq 0x20(%rsi), %rdi"}}
	inc := increments(body)
	if !inc[8] || !inc[1] || !inc[64] || inc[32] || len(inc) != 3 {
		t.Fatalf("increments %v, want 8, 1 and 64 (a LEA into another register is no increment)", inc)
	}
}

func TestCyclesPerIteration(t *testing.T) {
	out := "Iterations:        400\nInstructions:      5200\nTotal Cycles:      1403\nTotal uOps:        5600\n"
	c, err := cyclesPerIteration(out)
	if err != nil || c != 1403.0/400 {
		t.Fatalf("cyclesPerIteration = %v, %v; want %v", c, err, 1403.0/400)
	}
	if _, err := cyclesPerIteration("error: bad input"); err == nil {
		t.Fatal("no error without a summary")
	}
}

// TestTable checks that every kernel's table entry is usable: a known
// architecture, positive keys and stride, loops to cut.
func TestTable(t *testing.T) {
	for _, k := range kernels {
		if triples[k.arch] == "" || len(cpus[k.arch]) == 0 || len(k.loops) == 0 {
			t.Errorf("%s: arch %q or loops %v", k.name, k.arch, k.loops)
		}
		for _, l := range k.loops {
			if l.keys <= 0 || l.stride <= 0 {
				t.Errorf("%s: loop %+v", k.name, l)
			}
		}
	}
}

// needTools returns the llvm tools, or skips the test without them; with
// SIMDBLOOM_MCA_REQUIRED set (CI sets it, having installed llvm) it fails
// instead, so that the tests cannot pass by skipping.
func needTools(t *testing.T) tools {
	t.Helper()
	tl, err := findTools()
	if err != nil {
		if os.Getenv("SIMDBLOOM_MCA_REQUIRED") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return tl
}

// TestKernelsInDisassembly builds the library's test binaries for both
// architectures, as the tool does, and checks that every kernel of the
// table is in their disassembly (renamed, moved or inlined, it is not) and
// that its loops are where the table says, each advancing by its stride.
// It needs llvm-objdump, not llvm-mca.
func TestKernelsInDisassembly(t *testing.T) {
	tl := needTools(t)
	root, err := libraryRoot()
	if err != nil {
		t.Fatal(err)
	}
	dis, err := disassembleAll(tl, root, t.TempDir(), kernels)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kernels {
		if _, err := kernelLoops(dis[k.binary()], k); err != nil {
			t.Errorf("%s (%s): %v", k.name, k.arch, err)
		}
	}
}

// TestModel runs the tool as "go run ./mca --json" does: it builds both
// architectures' test binaries and models every kernel on every processor
// llvm-mca knows.
func TestModel(t *testing.T) {
	tl := needTools(t)
	root, err := libraryRoot()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := run(tl, root, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rs {
		got[r.Arch+"/"+r.Kernel] = true
		if r.CyclesPerKey <= 0 || r.KeysPerIt <= 0 {
			t.Errorf("%+v", r)
		}
		if strings.Contains(r.Kernel, "NEON") && r.CyclesPerKey < 1 {
			t.Errorf("%s on %s: %.2f cycles per key is less than the one load a key needs", r.Kernel, r.CPU, r.CyclesPerKey)
		}
	}
	for _, k := range kernels {
		if !got[k.arch+"/"+k.name] {
			t.Errorf("%s (%s): not modelled on any processor", k.name, k.arch)
		}
	}
}
