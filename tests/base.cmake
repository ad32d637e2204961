# Tests of the base component.
