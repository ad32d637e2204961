// version_none.go (Go 1.22): the Validator has no GoVersion yet, and 1.22 reads no old format.
package main

import (
	trace "gtrold"
	"gtrold/testtrace"
)

func setGoVersion(*testtrace.Validator, *trace.Reader) {}
