"""Stage 6: checked rules become executable form — closures, generated Python and the tasks of the game's stack.
"""
