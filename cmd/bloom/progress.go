package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/simdbloom/bloom/internal/memlimit"
)

// keyProgress prints a status line on a terminal, at most once a second and
// only once the work has run for a second; elsewhere it prints nothing.
type keyProgress struct {
	w     io.Writer // nil: quiet
	start time.Time
	last  time.Time
	shown bool
}

// newKeyProgress returns a progress line on stderr if stderr is a terminal.
func newKeyProgress(stderr io.Writer) *keyProgress {
	p := &keyProgress{start: time.Now()}
	p.last = p.start
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		p.w = stderr
	}
	return p
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update shows keys and bytes so far, if a second has passed.
func (p *keyProgress) update(keys uint64, bytes int64) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < time.Second {
		return
	}
	p.last = now
	p.shown = true
	rate := float64(keys) / now.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%d keys, %s keys/s, %s read   ", keys, humanCount(rate), memlimit.Human(uint64(bytes)))
}

// done ends the status line, if one was shown.
func (p *keyProgress) done(keys uint64, bytes int64) {
	if p.w == nil || !p.shown {
		return
	}
	p.last = time.Time{}
	p.update(keys, bytes)
	fmt.Fprintln(p.w)
}

// humanCount formats a rate with a decimal unit (12.3M).
func humanCount(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.2fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}
