# Tests of the txtar component.
