"""Stage 2: content on disk — ruleset folders, card YAML, mods (extends, replace, hooks) — built into a `Ruleset`.
"""
