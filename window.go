package bloom

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/simdbloom/bloom/blocked"
	"github.com/simdbloom/bloom/internal/format"
)

// Window is a Bloom filter that forgets: a key added at time t answers true
// at every time before t + window, and is forgotten (answers true only at
// the false-positive rate) from t + window + window/g on, g being the
// generations per window (WithGenerations, default 4). Use it for "seen in
// the last hour" questions: caching an object on its second request within
// a day, sending an event at most once an hour, a crawler revisiting after
// a week. Create one with NewWindow.
//
// Time is cut into generations of window/g (rounded up to the
// nanosecond) from the moment NewWindow ran; the filter keeps g+1
// generations, each a blocked.Filter, adds to the newest and looks keys up
// in all that are younger than the window. When a call finds that a new
// generation has begun by its clock (WithClock, default time.Now), the
// oldest generation is cleared and reused: Add and AddAll do that, inside
// the call, with no goroutine or timer; Has and HasAll only skip
// generations the clock says have expired, and change nothing. So a
// rotation costs one clear of a generation's memory in the Add that finds
// it. A clock that goes backwards never loses a key: the newest generation
// stays the newest and takes the keys; one that jumps forwards by more than
// the window forgets every key, as that much time would.
//
// n, given to NewWindow, is the keys added per window: each generation is
// sized for n/g of them, at a rate such that the g+1 generations together
// answer a false positive with probability at most fpr (so with n keys per
// window, arriving steadily, the rate stays at or under fpr at every
// moment). More keys than planned fill the generations past their plan:
// FillRatio and EstimatedFPR say so, as for Filter.
//
// Has and HasAll are safe for concurrent use; Add, AddAll, Clear and the
// decoders are not safe concurrently with anything else on the same
// Window. The clock is read once per call of Add, AddAll, Has, HasAll,
// FillRatio, EstimatedFPR and EstimatedCount, and by NewWindow (the
// origin): on a hot path, look keys up in batches with HasAll, which reads
// it once a batch.
//
// The zero Window holds no key: Has and HasAll answer false, FillRatio and
// EstimatedFPR 0, MarshalBinary, AppendBinary and WriteTo return an error
// wrapping ErrGeometry, Clear does nothing, UnmarshalBinary and ReadFrom
// fill it, and Add and AddAll panic.
type Window[K Key] struct {
	gens   []*blocked.Filter // g+1; slot s holds generation e for the largest e <= epoch with e = s mod g+1
	expiry []int64           // per slot, the time its generation expires, in nanoseconds from origin (saturated)
	epoch  int64             // the newest generation's number: 0 at NewWindow, never decreasing
	next   int64             // when generation epoch+1 begins, in nanoseconds from origin (saturated)
	origin time.Time         // when generation 0 began
	span   time.Duration     // one generation: window/g rounded up
	window time.Duration
	n      uint64           // keys per window
	fpr    float64          // target rate of all generations together
	clock  func() time.Time // nil: time.Now, read as time.Since(origin)
	wall   bool             // origin has no monotonic reading: since may subtract wall times itself
	kind   keyKind
}

// WindowOption configures NewWindow: pass WithGenerations or WithClock. A
// bad value makes NewWindow return an error wrapping ErrOption.
type WindowOption struct {
	apply func(*windowConfig) error
}

type windowConfig struct {
	g     int
	clock func() time.Time
}

// WithGenerations sets g, the generations a window is cut into, from 1 to
// 64 (default 4). The filter keeps g+1 of them, so it takes (g+1)/g times
// the memory of one filter for its keys, and forgets a key between window
// and window + window/g after adding it: more generations forget closer
// to the window and cost less memory, and lookups probe each one.
func WithGenerations(g int) WindowOption {
	return WindowOption{func(c *windowConfig) error {
		if g < 1 || g > format.WindowMaxGenerations {
			return fmt.Errorf("%w: generations must be 1 to %d, got %d", ErrOption, format.WindowMaxGenerations, g)
		}
		c.g = g
		return nil
	}}
}

// WithClock sets the function Window reads the time from (default
// time.Now): a fake clock for tests, or one shared with the caller. It must
// be safe for concurrent use if Has is called concurrently.
func WithClock(now func() time.Time) WindowOption {
	return WindowOption{func(c *windowConfig) error {
		if now == nil {
			return fmt.Errorf("%w: WithClock(nil)", ErrOption)
		}
		c.clock = now
		return nil
	}}
}

// NewWindow returns a Window for n keys per window at a false-positive rate
// of at most fpr, forgetting keys after window (see Window). It returns
// ErrKeys for n = 0, ErrFPR for fpr outside (0, 1), ErrOption for a bad
// option or a window shorter than a microsecond per generation, and
// ErrTooLarge for generations too large to make.
func NewWindow[K Key](n uint64, fpr float64, window time.Duration, opts ...WindowOption) (*Window[K], error) {
	if n == 0 {
		return nil, ErrKeys
	}
	if math.IsNaN(fpr) || fpr <= 0 || fpr >= 1 {
		return nil, fmt.Errorf("%w: got %v", ErrFPR, fpr)
	}
	c := windowConfig{g: 4}
	for _, o := range opts {
		if o.apply == nil {
			return nil, fmt.Errorf("%w: a zero WindowOption (use WithGenerations or WithClock)", ErrOption)
		}
		if err := o.apply(&c); err != nil {
			return nil, err
		}
	}
	span, err := windowSpan(window, c.g)
	if err != nil {
		return nil, err
	}
	sz, err := windowSize(n, fpr, c.g)
	if err != nil {
		return nil, err
	}
	w := &Window[K]{span: span, window: window, n: n, fpr: fpr, clock: c.clock, kind: kindOf[K]()}
	for range c.g + 1 {
		f, err := blocked.NewBytes(sz.Bytes, sz.K)
		if err != nil {
			return nil, err
		}
		f.SetKeyHash(blocked.HashXXH3) // the Window records the key family, as Scalable does
		w.gens = append(w.gens, f)
	}
	if c.clock == nil {
		w.setOrigin(time.Now())
	} else {
		w.setOrigin(c.clock())
	}
	w.setEpoch(0)
	return w, nil
}

// setOrigin makes t the start of generation 0.
func (w *Window[K]) setOrigin(t time.Time) {
	w.origin = t
	w.wall = t == t.Round(0) // Round(0) strips the monotonic reading
}

// setEpoch makes e the newest generation and sets the times derived from
// it: when each slot expires, when the next generation begins.
func (w *Window[K]) setEpoch(e int64) {
	w.epoch = e
	w.next = w.startOf(e + 1)
	w.expiry = w.expiry[:0]
	for s := range w.gens {
		w.expiry = append(w.expiry, w.startOf(w.slotEpoch(s)+int64(len(w.gens))))
	}
}

// startOf returns when generation e begins, in nanoseconds from origin,
// saturated at the largest int64 (e is at most MaxInt64/span + 66, and
// span at least a microsecond: no overflow before the check).
func (w *Window[K]) startOf(e int64) int64 {
	if e > math.MaxInt64/int64(w.span) {
		return math.MaxInt64
	}
	return e * int64(w.span)
}

// since returns the clock's time in nanoseconds from origin, as
// clock().Sub(origin) would, saturated and below the largest int64, so that
// a time past the end of the saturated expiries is still inside the newest
// generation. For time.Now it calls time.Since, which reads only the
// monotonic clock when origin has a monotonic reading; for an origin
// without one, Sub subtracts the wall times, and so does since, without
// Sub's slower check for overflow.
func (w *Window[K]) since() int64 {
	if w.clock == nil {
		return min(int64(time.Since(w.origin)), math.MaxInt64-1)
	}
	t := w.clock()
	if !w.wall {
		return min(int64(t.Sub(w.origin)), math.MaxInt64-1)
	}
	const lim = math.MaxInt64/int64(time.Second) - 1 // seconds apart whose nanoseconds fit an int64 with any remainder
	ds := t.Unix() - w.origin.Unix()
	if ds > lim || ds < -lim {
		return min(int64(t.Sub(w.origin)), math.MaxInt64-1)
	}
	return ds*1e9 + int64(t.Nanosecond()-w.origin.Nanosecond())
}

// windowSpan returns the length of a generation, window/g rounded up: an
// error wrapping ErrOption if it is under a microsecond (which also bounds
// generation numbers far from overflow).
func windowSpan(window time.Duration, g int) (time.Duration, error) {
	if window < time.Duration(g)*time.Microsecond {
		return 0, fmt.Errorf("%w: a window of %v cut into %d generations: each must be at least a microsecond", ErrOption, window, g)
	}
	return (window + time.Duration(g) - 1) / time.Duration(g), nil
}

// windowSize returns the size of one generation of a Window for n keys
// per window cut into g generations at total rate fpr: blocked.Size for
// ceil(n/g) keys at the rate p with 1 - (1-p)^(g+1) = fpr, the rate of g+1
// full generations probed together.
func windowSize(n uint64, fpr float64, g int) (blocked.Sizing, error) {
	per := n/uint64(g) + min(n%uint64(g), 1)
	p := -math.Expm1(math.Log1p(-fpr) / float64(g+1))
	return blocked.Size(per, p)
}

// epochAt returns the number of the generation the time d (nanoseconds
// from origin) falls in, negative before origin.
func (w *Window[K]) epochAt(d int64) int64 {
	s := int64(w.span)
	e := d / s
	if d%s < 0 {
		e--
	}
	return e
}

// slotEpoch returns the generation slot s holds.
func (w *Window[K]) slotEpoch(s int) int64 {
	m := int64(len(w.gens))
	back := ((w.epoch-int64(s))%m + m) % m
	return w.epoch - back
}

// current returns the generation keys go to, after clearing the slots of
// generations that expired by the clock. A slot is live at time d while
// d < its expiry: its generation is one of the g+1 newest at d, or newer
// (a clock gone backwards).
func (w *Window[K]) current(op string) *blocked.Filter {
	if len(w.gens) == 0 {
		panic("bloom: " + op + " on a zero Window; use bloom.NewWindow")
	}
	if d := w.since(); d >= w.next {
		for s, f := range w.gens {
			if d >= w.expiry[s] {
				f.Clear()
			}
		}
		// Slots kept hold generations within g of the new one: their
		// numbers, derived from it, stay the same.
		w.setEpoch(w.epochAt(d))
	}
	m := int64(len(w.gens))
	return w.gens[w.epoch%m] // epoch >= 0
}

// liveGens returns the generations younger than the window now, in buf.
func (w *Window[K]) liveGens(buf *[format.WindowMaxGenerations + 1]*blocked.Filter) []*blocked.Filter {
	if len(w.gens) == 0 {
		return nil
	}
	d := w.since()
	out := buf[:0]
	for s, f := range w.gens {
		if d < w.expiry[s] {
			out = append(out, f)
		}
	}
	return out
}

// Add adds key k. It panics on the zero Window.
func (w *Window[K]) Add(k K) {
	w.current("Add").AddHash(hashKind(w.kind, &k))
}

// AddAll adds every key of keys, reading the clock once. It panics on the
// zero Window.
func (w *Window[K]) AddAll(keys []K) {
	f := w.current("AddAll")
	c := keyChunks[K]{kind: w.kind, keys: keys}
	for hs, _ := c.next(); len(hs) > 0; hs, _ = c.next() {
		f.AddHashes(hs)
	}
}

// Has reports whether k may have been added within the window: false
// means certainly not (or longer ago than the window). The zero Window
// answers false.
func (w *Window[K]) Has(k K) bool {
	if len(w.gens) == 0 {
		return false
	}
	live := ^uint64(0) // before next, when the oldest slot expires, all are live
	if d := w.since(); d >= w.next {
		live = 0
		for s, e := range w.expiry {
			live |= uint64(b2i(d < e)) << uint(s)
		}
	}
	// One kernel call for every generation (see asm/window.go).
	return hasGens((*uintptr)(unsafe.Pointer(unsafe.SliceData(w.gens))), len(w.gens), live, hashKind(w.kind, &k))
}

// hasGensGo is hasGens in Go: below AVX2 and where no assembly runs.
func hasGensGo(gens *uintptr, n int, live, h uint64) bool {
	for s, f := range unsafe.Slice((**blocked.Filter)(unsafe.Pointer(gens)), n) {
		if live>>uint(s)&1 != 0 && f.HasHash(h) {
			return true
		}
	}
	return false
}

// hasGensAllGo is hasGensAll in Go: below AVX2 and where no assembly
// runs. It looks hs up in each filter with its batch kernel and ORs the
// answers (hasAnyOf).
func hasGensAllGo(gens *uintptr, n int, hs []uint64, out []bool) int {
	var buf [chunk]bool
	tmp := buf[:]
	if len(hs) > len(tmp) {
		tmp = make([]bool, len(hs))
	}
	return hasAnyOf(unsafe.Slice((**blocked.Filter)(unsafe.Pointer(gens)), n), hs, out, tmp[:len(hs)])
}

// HasAll sets out[i] to Has(keys[i]) and returns how many are true,
// reading the clock once. It panics, before touching anything, if out is
// shorter than keys.
func (w *Window[K]) HasAll(keys []K, out []bool) int {
	if len(out) < len(keys) {
		panic("bloom: Window.HasAll: out is shorter than keys")
	}
	var buf [format.WindowMaxGenerations + 1]*blocked.Filter
	gens := w.liveGens(&buf)
	if len(gens) == 0 {
		clear(out[:len(keys)])
		return 0
	}
	// One kernel call a chunk for every generation (see asm/window.go).
	gp := (*uintptr)(unsafe.Pointer(unsafe.SliceData(gens)))
	found := 0
	c := keyChunks[K]{kind: w.kind, keys: keys}
	for hs, at := c.next(); len(hs) > 0; hs, at = c.next() {
		found += hasGensAll(gp, len(gens), hs, out[at:at+len(hs)])
	}
	return found
}

// NumBits returns the size of all generations in bits (g+1 of them).
func (w *Window[K]) NumBits() uint64 {
	var n uint64
	for _, f := range w.gens {
		n += f.NumBits()
	}
	return n
}

// FillRatio returns the fraction of bits set in the generations younger
// than the window now. With n keys per window it stays near
// blocked.Fill(n/g, blocks, k) of a generation or under; far above,
// more keys arrive than planned and EstimatedFPR is above the target.
func (w *Window[K]) FillRatio() float64 {
	var buf [format.WindowMaxGenerations + 1]*blocked.Filter
	set, total := 0.0, 0.0
	for _, f := range w.liveGens(&buf) {
		set += f.FillRatio() * float64(f.NumBits())
		total += float64(f.NumBits())
	}
	if total == 0 {
		return 0
	}
	return set / total
}

// EstimatedFPR returns the false-positive rate of a lookup now: 1 -
// prod(1 - rate of each generation younger than the window), from their
// bits.
func (w *Window[K]) EstimatedFPR() float64 {
	var buf [format.WindowMaxGenerations + 1]*blocked.Filter
	miss := 1.0
	for _, f := range w.liveGens(&buf) {
		miss *= 1 - f.EstimatedFPR()
	}
	return 1 - miss
}

// EstimatedCount estimates the number of distinct keys added to the
// generations younger than the window now.
func (w *Window[K]) EstimatedCount() float64 {
	var buf [format.WindowMaxGenerations + 1]*blocked.Filter
	c := 0.0
	for _, f := range w.liveGens(&buf) {
		c += f.EstimatedCount()
	}
	return c
}

// clone returns an independent copy of w, with the same clock (a zero
// Window for the zero Window).
func (w *Window[K]) clone() *Window[K] {
	c := *w
	c.expiry = append([]int64(nil), w.expiry...)
	c.gens = nil
	for _, f := range w.gens {
		c.gens = append(c.gens, f.Clone())
	}
	return &c
}

// equal reports whether w and o hold the same bits in the same
// generations, with the same parameters, origin and newest generation
// (what the encoding records; not the clock). Two zero Windows are equal.
func (w *Window[K]) equal(o *Window[K]) bool {
	if o == nil || len(w.gens) != len(o.gens) {
		return false
	}
	if len(w.gens) == 0 {
		return true
	}
	if w.fpr != o.fpr || w.n != o.n || w.window != o.window || !w.origin.Equal(o.origin) || w.epoch != o.epoch {
		return false
	}
	for i, f := range w.gens {
		if !f.Equal(o.gens[i]) {
			return false
		}
	}
	return true
}

// Clear forgets every key, keeping the size, generations and clock. On the
// zero Window, which holds no key, it does nothing.
func (w *Window[K]) Clear() {
	for _, f := range w.gens {
		f.Clear()
	}
}
