"""Stage 1: the rule language itself — grammar loading, the parser, the typed syntax tree, diagnostics.

Imports nothing else of Grimoire: every later stage reads what this one produces.
"""
