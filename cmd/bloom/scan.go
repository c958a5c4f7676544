package main

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// An input that is a regular file (named, or standard input redirected
// from one) is memory-mapped and cut into pieces of pieceBytes, each looked
// up by one of up to maxScanWorkers goroutines; the pieces' results are
// written in input order. A piece holds the lines that start inside it, so
// that cutting it needs no scan of the lines before it, and a line longer
// than a piece is whole in the piece where it starts.
const (
	pieceBytes     = 1 << 20
	maxScanWorkers = 8
	// scanBatch is the most lines hashed and probed in one HasAll: their
	// slice headers and results stay in the L2 cache with their bytes.
	scanBatch = 4096
	// splitBatchLines is the most lines a batch of splitAhead holds.
	splitBatchLines = 8192
)

// pieceLines returns the lines of the piece data[lo:end] as the range
// data[start:hi]: the lines that start inside the piece, the last of them
// whole (up to hi, past end). A line starts at 0 and after each sep. No
// line may start inside the piece (start == hi): its bytes are of a line
// that started before it, and are not scanned beyond end.
func pieceLines(data []byte, lo, end int, sep byte) (start, hi int) {
	if lo > 0 {
		i := bytes.IndexByte(data[lo-1:end], sep)
		if i < 0 || lo+i >= end {
			return end, end
		}
		lo += i
	}
	if end == len(data) {
		return lo, end
	}
	i := bytes.IndexByte(data[end-1:], sep)
	if i < 0 {
		return lo, len(data)
	}
	return lo, end + i
}

// splitBatch appends to lines, without their separators, the lines of
// data from p on, at most max of them, and returns them and where the next
// line starts. Each line ends with sep but the last one of data, which may
// end with data itself (an empty rest of data is no line).
func splitBatch(lines [][]byte, data []byte, p int, sep byte, max int) ([][]byte, int) {
	for len(lines) < max && p < len(data) {
		i := bytes.IndexByte(data[p:], sep)
		if i < 0 {
			return append(lines, data[p:len(data):len(data)]), len(data)
		}
		lines = append(lines, data[p:p+i:p+i])
		p += i + 1
	}
	return lines, p
}

// scanner looks up the lines of inputs for bloom query and adds up what
// it selected.
type scanner struct {
	l               *lookup
	sep             byte
	invert, count   bool
	selected, total uint64
	// pieceBytes and GOMAXPROCS when 0; tests set them to cut small
	// inputs into many pieces, and to use one goroutine or several.
	pieceSize, workers int
}

// scanState is one goroutine's buffers.
type scanState struct {
	lines [][]byte
	out   []bool
}

// piece is the range data[lo:end] of a mapped input and, once done is
// closed, what its lines selected (see pieceLines): their number, and
// unless counting, their bytes each ended by sep.
type piece struct {
	lo, end         int
	selected, lines uint64
	out             []byte
	err             error
	done            chan struct{}
}

// filterFault is a fault in reading the mapped filter while looking up a
// mapped input: the filter is gone, not the input.
type filterFault struct{ err error }

func (e filterFault) Error() string { return e.err.Error() }

// look looks up the lines of the piece p of data, the mapped input name, and
// sets p's results. A fault in reading the input (truncated while mapped)
// is an inputError; one in reading the filter is the filter's error.
func (s *scanner) look(st *scanState, name string, data []byte, p *piece, buf []byte) {
	err := guardMapped(data, true, name, func() error {
		err := guardMapped(s.l.mem, s.l.mapped, s.l.name, func() error {
			start, hi := pieceLines(data, p.lo, p.end, s.sep)
			chunk := data[start:hi]
			for q := 0; q < len(chunk); {
				st.lines, q = splitBatch(st.lines[:0], chunk, q, s.sep, scanBatch)
				found := s.l.f.HasAll(st.lines, st.out[:len(st.lines)])
				p.lines += uint64(len(st.lines))
				if s.invert {
					found = len(st.lines) - found
				}
				p.selected += uint64(found)
				if s.count || found == 0 {
					continue
				}
				for i, line := range st.lines {
					if st.out[i] != s.invert {
						buf = append(append(buf, line...), s.sep)
					}
				}
			}
			return nil
		})
		if err != nil {
			return filterFault{err}
		}
		return nil
	})
	p.out = buf
	var ff filterFault
	if errors.As(err, &ff) {
		p.err = ff.err
	} else if err != nil {
		p.err = inputError{err}
	}
}

// scanMapped looks up the lines of data, the mapped bytes of the input
// name, on up to GOMAXPROCS goroutines, and writes what is selected to
// write in input order. It returns the first error: of a piece (see look)
// or of write, after which the rest of data is not looked up.
func (s *scanner) scanMapped(name string, data []byte, write func([]byte) error) error {
	size, workers := pieceBytes, min(runtime.GOMAXPROCS(0), maxScanWorkers)
	if s.pieceSize > 0 {
		size = s.pieceSize
	}
	if s.workers > 0 {
		workers = s.workers
	}
	n := (len(data) + size - 1) / size
	workers = min(workers, n)
	free := make(chan []byte, 3*workers) // output buffers to reuse
	newState := func() *scanState { return &scanState{out: make([]bool, scanBatch)} }
	getBuf := func() []byte {
		select {
		case b := <-free:
			return b[:0]
		default:
			return nil
		}
	}
	cut := func(i int) *piece {
		return &piece{lo: i * size, end: min((i+1)*size, len(data)), done: make(chan struct{})}
	}
	finish := func(p *piece) error {
		if p.err != nil {
			return p.err
		}
		s.selected += p.selected
		s.total += p.lines
		if len(p.out) > 0 {
			if err := write(p.out); err != nil {
				return err
			}
		}
		select {
		case free <- p.out:
		default:
		}
		return nil
	}
	if workers <= 1 {
		st := newState()
		for i := range n {
			p := cut(i)
			s.look(st, name, data, p, getBuf())
			if err := finish(p); err != nil {
				return err
			}
		}
		return nil
	}
	var stop atomic.Bool
	jobs := make(chan *piece, workers)
	order := make(chan *piece, 2*workers) // bounds the pieces in flight
	go func() {
		defer close(order)
		defer close(jobs)
		for i := 0; i < n && !stop.Load(); i++ {
			p := cut(i)
			order <- p
			jobs <- p
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := newState()
			for p := range jobs {
				if !stop.Load() {
					s.look(st, name, data, p, getBuf())
				}
				close(p.done)
			}
		}()
	}
	var err error
	for p := range order {
		<-p.done
		if err == nil {
			if err = finish(p); err != nil {
				stop.Store(true) // and drain the pieces in flight
			}
		}
	}
	wg.Wait()
	return err
}

// mappedInput maps r when it is a regular file with bytes left to read
// from its offset, and returns those bytes and a function that unmaps them
// and moves the offset to the end (as reading it would). ok is false when
// r is to be read instead (a pipe, a device, an empty file, a platform
// without mmap).
func mappedInput(r any) (data []byte, done func(), ok bool) {
	f, isFile := r.(*os.File)
	if !isFile {
		return nil, nil, false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil, false
	}
	off, err := f.Seek(0, 1)
	if err != nil || off >= st.Size() {
		return nil, nil, false
	}
	b, unmap, ok := mapFile(f, st.Size())
	if !ok {
		return nil, nil, false
	}
	return b[off:], func() {
		unmap()
		f.Seek(st.Size(), 0)
	}, true
}

// splitAhead calls fn with the lines of data, the mapped bytes of the
// input name, in input order, in batches of at most splitBatchLines; a
// second goroutine cuts the next batches while fn works on one. fn's lines
// are valid until it returns; end is where the bytes of its last line end.
// It returns fn's first error, or the error that the input was truncated
// or changed while read (a fault in reading data, in either goroutine),
// and cuts no further after either.
func splitAhead(name string, data []byte, sep byte, fn func(lines [][]byte, end int) error) error {
	type batch struct {
		lines [][]byte
		end   int
	}
	const batches = 3 // one with fn, one waiting for it, one being cut
	free := make(chan *batch, batches)
	for range batches {
		free <- &batch{lines: make([][]byte, 0, splitBatchLines)}
	}
	full := make(chan *batch, batches-2)
	stop := make(chan struct{})
	var cutErr error
	go func() {
		defer close(full)
		cutErr = guardMapped(data, true, name, func() error {
			for p := 0; p < len(data); {
				var b *batch
				select {
				case b = <-free:
				case <-stop:
					return nil
				}
				b.lines, p = splitBatch(b.lines[:0], data, p, sep, splitBatchLines)
				b.end = p
				select {
				case full <- b:
				case <-stop:
					return nil
				}
			}
			return nil
		})
	}()
	var err error
	for b := range full {
		if err == nil {
			err = guardMapped(data, true, name, func() error { return fn(b.lines, b.end) })
			if err != nil {
				close(stop) // and drain what was cut
			}
		}
		free <- b
	}
	if err != nil {
		return err
	}
	return cutErr
}
