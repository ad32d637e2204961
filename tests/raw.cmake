# Tests of the raw component.
