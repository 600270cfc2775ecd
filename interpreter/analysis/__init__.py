"""Stage 5: static analysis of a built ruleset — names, kinds, flow — reported as diagnostics.
"""
