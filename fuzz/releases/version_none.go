// version_none.go (Go 1.22, 1.23): the Validator has no GoVersion yet.
package main

import (
	trace "gtrold"
	"gtrold/testtrace"
)

func setGoVersion(*testtrace.Validator, *trace.Reader) {}
