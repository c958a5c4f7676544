package main

import (
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/klauspost/cpuid/v2"
	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/cpu"
)

// benchRow is one measurement of "bloom bench".
type benchRow struct {
	SizeBytes uint64  `json:"size_bytes"`
	Op        string  `json:"op"`
	Kernel    string  `json:"kernel"`
	NsPerKey  float64 `json:"ns_per_key"`
	KeysPerS  float64 `json:"keys_per_s"`
}

type benchResult struct {
	CPU     string     `json:"cpu"`
	Kernel  string     `json:"kernel"`
	GoArch  string     `json:"goarch"`
	Results []benchRow `json:"results"`
}

// streamLen is the length of every lookup stream: long enough that the
// branch predictor cannot learn it.
const streamLen = 1 << 20

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "bloom bench: a short benchmark of blocked.Filter on this machine (k=8, 10 bits/key),\n"+
		"batch and single lookups, present and absent keys shuffled, with the kernel in use and the generic one,\n"+
		"next to the floor (one random cache-line load per key). In the source tree, the bench module draws\n"+
		"its --json output as an SVG chart: bloom bench --json | (cd bench && go run ./benchplot) > bench.svg")
	seconds := fs.Float64("seconds", 10, "approximate total running time")
	maxSize := fs.String("max-size", "256M", "largest filter size, of 16K, 1M, 8M, 256M, 1G: bytes, or a number with K, M or G\n"+
		"(powers of 1024; a fraction such as 1.5M is rounded down to whole bytes)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	limit, err := parseSize(*maxSize)
	if err != nil {
		return usageError{err.Error()}
	}
	if !(*seconds > 0 && *seconds <= 3600) { // also refuses NaN
		return usagef("-seconds must be in (0, 3600], got %v", *seconds)
	}
	var sizes []uint64
	for _, s := range []uint64{16 << 10, 1 << 20, 8 << 20, 256 << 20, 1 << 30} {
		if s <= limit {
			sizes = append(sizes, s)
		}
	}
	if len(sizes) == 0 {
		return usagef("-max-size %s is below 16K, the smallest size measured", *maxSize)
	}
	res := benchResult{CPU: cpuid.CPU.BrandName, Kernel: cpu.Active.String(), GoArch: runtime.GOARCH}
	ops := []string{"lookup batch", "lookup single", "add batch", "floor: random line"}
	kernels := []cpu.Level{cpu.Active}
	if cpu.Active != cpu.Generic {
		kernels = append(kernels, cpu.Generic)
	}
	steps := len(sizes) * (len(kernels)*2 + 2)
	per := time.Duration(*seconds * float64(time.Second) / float64(steps))
	prog := newProgress(stderr, steps)
	defer prog.done()

	for _, size := range sizes {
		f, present, err := filledFilter(size)
		if err != nil {
			return err
		}
		stream := lookupStream(present)
		out := make([]bool, len(stream))
		for _, l := range kernels {
			cpu.Active = l
			prog.step(fmt.Sprintf("lookup batch %s %s", sizeLabel(size), l))
			res.add(size, ops[0], l, measure(per, len(stream), func() { f.HasHashes(stream, out) }))
			prog.step(fmt.Sprintf("add batch %s %s", sizeLabel(size), l))
			res.add(size, ops[2], l, measure(per, len(present), func() { f.AddHashes(present) }))
		}
		cpu.Active = kernels[0]
		prog.step(fmt.Sprintf("lookup single %s", sizeLabel(size)))
		res.add(size, ops[1], cpu.Active, measure(per, len(stream), func() {
			n := 0
			for _, h := range stream {
				if f.HasHash(h) {
					n++
				}
			}
			sinkInt += n
		}))
		prog.step(fmt.Sprintf("floor %s", sizeLabel(size)))
		lines := make([]uint64, size/8)
		res.add(size, ops[3], cpu.Generic, measure(per, len(stream), func() { sinkInt += touchLines(lines, stream) }))
	}
	prog.done()
	if *asJSON {
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "CPU: %s (%s), kernel in use: %s\n\n", res.CPU, res.GoArch, res.Kernel)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "size\toperation\tkernel\tns/key\tMkeys/s\t")
	for _, r := range res.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%.0f\t\n", sizeLabel(r.SizeBytes), r.Op, r.Kernel, r.NsPerKey, r.KeysPerS/1e6)
	}
	return tw.Flush()
}

var sinkInt int

func (r *benchResult) add(size uint64, op string, l cpu.Level, ns float64) {
	r.Results = append(r.Results, benchRow{SizeBytes: size, Op: op, Kernel: l.String(), NsPerKey: ns, KeysPerS: 1e9 / ns})
}

// filledFilter returns a k=8 filter of size bytes holding size*8/10 random
// hashes (10 bits per key, every page touched), and 2^19 of those hashes.
func filledFilter(size uint64) (*blocked.Filter, []uint64, error) {
	f, err := blocked.NewBytes(size, 8)
	if err != nil {
		return nil, nil, fmt.Errorf("a %s filter: %w", sizeLabel(size), err)
	}
	r := rand.New(rand.NewPCG(size, 1))
	n := size * 8 / 10
	buf := make([]uint64, 1<<16)
	var present []uint64
	for i := uint64(0); i < n; i += uint64(len(buf)) {
		b := buf[:min(uint64(len(buf)), n-i)]
		for j := range b {
			b[j] = r.Uint64()
		}
		f.AddHashes(b)
		if len(present) < streamLen/2 {
			present = append(present, b[:min(len(b), streamLen/2-len(present))]...)
		}
	}
	return f, present, nil
}

// lookupStream returns streamLen hashes, the present ones (repeated as needed)
// and as many random absent ones, shuffled.
func lookupStream(present []uint64) []uint64 {
	r := rand.New(rand.NewPCG(7, 7))
	s := make([]uint64, 0, streamLen)
	for len(s) < streamLen/2 {
		s = append(s, present[len(s)%len(present)])
	}
	for len(s) < streamLen {
		s = append(s, r.Uint64())
	}
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s
}

// touchLines reads one random cache line per hash, as a lookup must at least.
func touchLines(lines []uint64, hs []uint64) int {
	n := uint64(len(lines) / 8)
	var x uint64
	for _, h := range hs {
		x += lines[((h>>32)*n)>>32*8]
	}
	return int(x & 1)
}

// measure runs fn (which processes keys keys) repeatedly for about d and
// returns the median ns per key over the runs.
func measure(d time.Duration, keys int, fn func()) float64 {
	fn() // warm up: page faults, caches
	var runs []float64
	start := time.Now()
	for len(runs) < 3 || time.Since(start) < d {
		t := time.Now()
		fn()
		runs = append(runs, float64(time.Since(t).Nanoseconds())/float64(keys))
		if len(runs) >= 1000 {
			break
		}
	}
	slices.Sort(runs)
	return runs[len(runs)/2]
}

// sizeSyntax is a size: digits, an optional fraction, an optional K, M or G
// (powers of 1024), and an optional B or iB ("16K", "16KiB", "1.5M", "4096").
var sizeSyntax = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]+))?(?:([KMGkmg])(?:i?[Bb])?|[Bb])?$`)

// maxSizeBytes bounds -max-size (and keeps the arithmetic in range).
const maxSizeBytes = 1 << 40

// parseSize parses a byte size strictly: anything but sizeSyntax is refused,
// and a fractional number of bytes (16.9K is 17305.6) is rounded down.
func parseSize(s string) (uint64, error) {
	bad := fmt.Errorf("size %q: want bytes or a number with K, M or G, such as 256M or 1.5G", s)
	m := sizeSyntax.FindStringSubmatch(s)
	if m == nil || len(m[1]) > 13 || len(m[2]) > 30 {
		return 0, bad
	}
	unit := uint64(1)
	switch strings.ToUpper(m[3]) {
	case "K":
		unit = 1 << 10
	case "M":
		unit = 1 << 20
	case "G":
		unit = 1 << 30
	}
	whole, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil || whole > maxSizeBytes/unit {
		return 0, fmt.Errorf("size %q: more than 1024G", s)
	}
	v := whole * unit
	if m[2] != "" {
		// floor(0.frac * unit), exactly: unit < 2^31 and the fraction has
		// at most 30 digits, so the product fits in a big.Int.
		frac, _ := new(big.Int).SetString(m[2], 10) // digits only: sizeSyntax
		den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(m[2]))), nil)
		frac.Mul(frac, new(big.Int).SetUint64(unit)).Quo(frac, den)
		v += frac.Uint64()
	}
	if v == 0 || v > maxSizeBytes {
		return 0, fmt.Errorf("size %q: want from 1 byte to 1024G", s)
	}
	return v, nil
}

// sizeLabel formats a byte count as 16K, 1M, 256M, 1G.
func sizeLabel(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%gG", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%gM", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%gK", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d", b)
}

// progress prints "[i/n] what" on one line of a terminal; nothing elsewhere.
type progress struct {
	w     io.Writer
	n, i  int
	isTTY bool
}

func newProgress(w io.Writer, n int) *progress {
	p := &progress{w: w, n: n}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.isTTY = true
		}
	}
	return p
}

func (p *progress) step(what string) {
	p.i++
	if p.isTTY {
		fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s", p.i, p.n, what)
	}
}

func (p *progress) done() {
	if p.isTTY && p.i > 0 {
		fmt.Fprint(p.w, "\r\033[K")
		p.isTTY = false
	}
}
