# Tests of the testgen component.
