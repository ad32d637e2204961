# Tests of the order component.
