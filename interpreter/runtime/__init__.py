"""Stage 3: what a running game is made of — plain-data state, zones, values, run-time errors,
field reading and card tracking. Compiled rules and the builtins operate on these.
"""
