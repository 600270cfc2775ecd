"""Stage 8: playing games — agents, sessions (log, replay, save), rule scenarios, variants (`--set`),
the terminal screen.
"""
