# Tests of the fuzz component.
