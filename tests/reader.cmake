# Tests of the reader component.
