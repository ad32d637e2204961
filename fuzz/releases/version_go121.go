// version_go121.go (Go 1.23, 1.24): the Validator is told whether the trace is of an old
// format (go 1.11 - 1.21), as these releases' own tests do (oldtrace_test.go sets
// v.Go121): it is then lenient with the thread of an old trace's GoUndetermined->GoSyscall.
// The Validator has no GoVersion yet (1.25 replaced Go121 with it, version_set.go), and the
// Reader no version: an old trace is one the Reader converts (go121Events).
package main

import (
	"reflect"

	trace "gtrold"
	"gtrold/testtrace"
)

func setGoVersion(v *testtrace.Validator, r *trace.Reader) {
	v.Go121 = !reflect.ValueOf(r).Elem().FieldByName("go121Events").IsNil()
}
