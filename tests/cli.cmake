# Tests of the cli component.
