// Laid into Go's package internal/trace by tests/gen/gtrvec.sh (as zz_gtrvec.go): building
// Events over a fixed table needs the package's internals.
package trace

import (
	"time"

	"internal/trace/tracev2"
)

// VecEvent describes an Event over a fixed test table, mirrored in gotrace's C tests.
type VecEvent struct {
	Table          int // 0: nil table, 1: base table, 2: base table plus the clock snapshot below
	Type           uint8
	Time, G, P, M  int64
	Args           [4]uint64
	SnapTime, Mono uint64
	WallSec        uint64
	WallNsec       uint64
	Freq           float64
}

var vecBaseTable *evTable

// VecStrings, VecFrames and VecStacks define the base table.
var VecStrings = map[uint64]string{
	1: "main.main", 2: "/tmp/main.go", 3: "runtime.main", 4: "/usr/lib/go/src/runtime/proc.go",
	5: "chan receive", 6: "yield", 7: "GC sweep termination", 8: "mytask",
	9: "region\x00é\"q\\", 10: "cat", 11: "hello\tworld\n", 12: "foo\"bar", 13: "*main.T",
	14: "\xff\xfe bad utf8\x7f\u2028", 20: "sparse id 20",
}

type VecFrame struct{ PC, Func, File, Line uint64 }

var VecFrames = []VecFrame{
	{0x1234, 1, 2, 10}, {0x5678, 3, 4, 283}, {0x9abc, 0, 2, 7}, {0xabcd, 1, 2, 0},
}

var VecStacks = map[uint64][]uint64{
	1: {0x1234, 0x5678}, 2: {0x5678}, 3: {0x1234, 0x9abc}, 4: {}, 5: {0x1234, 0xdead},
	6: {0x1234, 0xabcd},
}

func vecTable() *evTable {
	t := &evTable{pcs: make(map[uint64]frame)}
	for id, s := range VecStrings {
		t.strings.insert(stringID(id), s)
	}
	for id, pcs := range VecStacks {
		t.stacks.insert(stackID(id), stack{pcs: pcs})
	}
	for _, f := range VecFrames {
		t.pcs[f.PC] = frame{pc: f.PC, funcID: stringID(f.Func), fileID: stringID(f.File), line: f.Line}
	}
	t.addExtraString("mytask")
	t.strings.compactify()
	t.stacks.compactify()
	t.freq = 1
	return t
}

// Event builds the Event.
func (v VecEvent) Event() Event {
	var t *evTable
	switch v.Table {
	case 1:
		if vecBaseTable == nil {
			vecBaseTable = vecTable()
		}
		t = vecBaseTable
	case 2:
		t = vecTable()
		t.freq = frequency(v.Freq)
		t.hasClockSnapshot = true
		t.snapTime = timestamp(v.SnapTime)
		t.snapMono = v.Mono
		t.snapWall = time.Unix(int64(v.WallSec), int64(v.WallNsec))
	}
	e := Event{table: t, ctx: schedCtx{G: GoID(v.G), P: ProcID(v.P), M: ThreadID(v.M)},
		base: baseEvent{typ: tracev2.EventType(v.Type), time: Time(v.Time)}}
	copy(e.base.args[:], v.Args[:])
	return e
}
