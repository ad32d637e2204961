// norm_none.go: no normalisation (Go 1.25, 1.26: their patches suffice).
package main

import trace "gtrold"

func normalize(_ trace.Event, s string) (string, bool) { return s, true }

func normalizeErr(err error) error { return err }
