# Tests of the event component.
