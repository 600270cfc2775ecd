"""Stage 7: the game — `Game` (decisions, answers, settling, clone) over compiled rules, and the direct engine.
"""
