// norm_none.go: no normalisation (a release printing as Go 1.27.3 does).
package main

import trace "gtrold"

func normalize(_ trace.Event, s string) string { return s }

func normalizeErr(err error) error { return err }
