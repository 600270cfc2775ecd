"""Grimoire: a rules language and a generic, event-driven interpreter for tabletop games."""
from .api import load_program, check_path

__all__ = ["load_program", "check_path"]
__version__ = "0.1.0"
