// version_set.go (Go 1.25 and later): the Validator is told the reader's version, as
// oracle.go's readTrace does.
package main

import (
	"reflect"

	trace "gtrold"
	"gtrold/testtrace"
	"gtrold/version"
)

func setGoVersion(v *testtrace.Validator, r *trace.Reader) {
	v.GoVersion = version.Version(reflect.ValueOf(r).Elem().FieldByName("version").Uint())
}
