"""The `grimoire` command: validate, explain, cards, play, simulate, sweep, scenario, replay, and the
authoring commands (lsp, schema, new, fmt)."""
from __future__ import annotations

from .language import reforms  # first: the regular expressions that the imports below compile, kept compiled

_WARMED = reforms.warm()

import argparse  # noqa: E402 - after `reforms.warm` (and so below)
import atexit
import contextlib
import gc
import os
import re
import sys
from pathlib import Path

from .language.diagnostics import ContentError, format_all  # light: the rest is imported when a command runs
from .language.untrusted import printable

__all__ = ["main"]

EPILOG = """examples:
  grimoire validate rulesets/my_game
  grimoire explain rulesets/my_game "Card name"
  grimoire cards rulesets/my_game --pdf sheets.pdf --backs
  grimoire simulate rulesets/my_game -n 500 --players 4 --seed 7
  grimoire simulate rulesets/my_game -n 2000 --workers 2 --plot charts/ --json report.json
  grimoire sweep rulesets/my_game --players 2,3,4 --param hand_size=4,5,6 -n 300
  grimoire play rulesets/my_game --players 3 --seat 1=human
  grimoire serve rulesets/my_game --players 3 --seat 3=bot --designer
  grimoire simulate rulesets/my_game --with ../mods/my_expansion,../mods/house_rules -n 200
  grimoire scenario tests/scenarios/my_game/*.yaml
  grimoire replay game.jsonl
  grimoire new expansion my_expansion --extends my_game
  grimoire fmt --check rulesets/
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="grimoire", description="Run, check and simulate tabletop games written in the Grimoire rule language.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--traceback", action="store_true", help="show Python tracebacks of internal errors")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Command)

    v = sub.add_parser("validate", help="check rule and card files; exit 1 on errors",
                       description="Check rulesets (folders of .rules files with their cards). Reports every problem "
                                   "with file:line:col, the source line and a hint. Exit 0 when there are no errors.")
    v.add_argument("paths", nargs="+", metavar="PATH",
                   help="ruleset folders or .rules files; `-` reads one rule file from standard input")
    v.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors")
    _add_with(v)

    x = sub.add_parser("explain", help="print the rules, a card or a named rule in plain English",
                       description="Print what the rules say, in plain English, as a designer would read them: "
                                   "the whole ruleset, one card (by name: its fields and its effect), or one "
                                   "named rule (a procedure, phase, zone, stat, constant, event, card type...). "
                                   "The words come from the rules themselves, so they cannot drift from the game.")
    x.add_argument("ruleset", help="ruleset folder")
    x.add_argument("subject", nargs="?", help="a card name or the name of a rule (default: everything)")
    _add_with(x)

    cd = sub.add_parser("cards", help="draw the cards: SVG per card, print-and-play PDF, PNG previews",
                        description="Draw every card of a ruleset by its layout (layout.yaml in the ruleset "
                                    "folder; a readable default face when there is none). The text on each card "
                                    "is its hand-written `text:` or its effect in English, from the rules. "
                                    "See docs/cards.md.",
                        epilog="examples:\n  grimoire cards rulesets/my_game --svg faces/\n"
                               "  grimoire cards rulesets/my_game --pdf sheets.pdf --backs --bleed 3\n"
                               "  grimoire cards rulesets/my_game --pdf sheets.pdf --paper letter --png previews/",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    cd.add_argument("ruleset", help="ruleset folder")
    cd.add_argument("--svg", metavar="DIR", help="write one SVG per distinct card (and back.svg) here")
    cd.add_argument("--pdf", metavar="FILE", help="write print-and-play sheets: every copy of every card, in a "
                                                  "grid with crop marks")
    cd.add_argument("--png", metavar="DIR", help="write one PNG preview per distinct card here")
    cd.add_argument("--paper", choices=("a4", "letter"), default="a4", help="sheet size (default a4: 3x3 poker cards)")
    cd.add_argument("--bleed", type=float, default=0.0, metavar="MM",
                    help="extend each card's background this many mm past its cut line (default 0)")
    cd.add_argument("--backs", action="store_true",
                    help="follow each page of fronts with a page of backs, mirrored for long-edge duplex")
    cd.add_argument("--check-text", action="store_true",
                    help="warn where a card's hand-written text: leaves out a number its effect uses "
                         "(the printed card may have drifted from the rules)")

    s = sub.add_parser("simulate", help="play many games with bots and summarise them",
                       description="Play N games with agents and report win rates by seat (with 95% intervals), "
                                   "score and length distributions, first-player advantage, which cards seats "
                                   "take and play, and errors (with seeds). Same seed, same games, whatever the "
                                   "backend and worker count. See docs/simulation.md.")
    s.add_argument("ruleset", help="ruleset folder")
    s.add_argument("-n", "--games", type=_positive_int, default=100, help="number of games (default 100)")
    s.add_argument("--players", type=int, default=None, help="player count (default: the ruleset's minimum)")
    s.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    s.add_argument("--agents", default="guided", help="agent per seat, comma-separated: guided (default: random "
                                                      "play that follows the ruleset's `prefer` rule; without one, "
                                                      "exactly random), random, first, greedy, mcts "
                                                      "(one name applies to all seats)")
    s.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    s.add_argument("--json", metavar="OUT", help="write the full report as JSON ('-' for stdout)")
    s.add_argument("--max-steps", type=_positive_int, default=None, help="statement limit per game")
    s.add_argument("--max-turns", type=_positive_int, default=None, help="turn limit per game")
    s.add_argument("--max-depth", type=_positive_int, default=None,
                   help="nesting limit per game: procedure calls and triggers (default 64)")
    s.add_argument("--max-decisions", type=_positive_int, default=None, help="answered decisions limit per game")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument("--failed-logs", metavar="DIR", help="write a replayable event log of every failed game here")
    _add_batch_args(s, own_limits=True)
    _add_with(s)
    s.add_argument("--plot", metavar="DIR", help="write PNG charts here: win rates per seat, score and game "
                                                 "length distributions, per-card win rates")
    s.add_argument("--per-game", action="store_true", help="with --json: include every game's own result")
    s.add_argument("--no-card-stats", dest="card_stats", action="store_false",
                   help="skip per-card statistics (which cards seats take, play and hold at the end): faster")
    s.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="play a variant: a constant, or Card.field of every card of that name, set to VALUE "
                        "(repeatable)")

    w = sub.add_parser("sweep", help="run a batch per parameter value and tabulate the outcomes",
                       description="Run one simulation batch for every combination of ruleset (variants: give\n"
                                   "several folders), player count and parameter values, all with the same\n"
                                   "master seed, and print one table row per batch. See docs/simulation.md.",
                       epilog="examples:\n  grimoire sweep rulesets/my_game --players 2,3,4 -n 300\n"
                              "  grimoire sweep rulesets/my_game --players 4 --param hand_size=4,5,6\n"
                              "  grimoire sweep rulesets/my_game --param Widget.cost=3,4,5 --json sweep.json\n"
                              "  grimoire sweep rulesets/my_game rulesets/my_game_variant --players 3",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    w.add_argument("rulesets", nargs="+", metavar="RULESET", help="ruleset folder(s); several are compared as variants")
    w.add_argument("--players", default=None, help="player counts, comma-separated, e.g. 2,3,4 "
                                                   "(default: each ruleset's minimum)")
    w.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="sweep a constant, or Card.field of every card of that name, over these values "
                        "(repeatable: every combination is run)")
    w.add_argument("-n", "--games", type=_positive_int, default=100, help="games per batch (default 100)")
    w.add_argument("--seed", type=int, default=0, help="master seed, the same for every batch (default 0)")
    w.add_argument("--agents", default="guided", help="agent per seat, comma-separated (one name: all seats; "
                                                      "default guided, see simulate --help)")
    w.add_argument("--json", metavar="OUT", help="write every batch's full report as JSON ('-' for stdout)")
    w.add_argument("--quiet", action="store_true", help="no progress bar")
    w.add_argument("--plot", metavar="DIR", help="write sweep.png here: every batch's seat win rates with 95%% "
                                                 "intervals, against the fair share")
    _add_batch_args(w)
    _add_with(w)

    p = sub.add_parser("play", help="play a game in the terminal, every turn told",
                       description="Play one game. Seats are bots unless marked human; a human sees only what "
                                   "their seat may see. Every turn is told as it happens, the bots' too: what "
                                   "each decided, which cards moved, which stats changed, the rules' `log` lines. "
                                   "At a decision: a number answers, `cards` shows every visible card's text, "
                                   "`stats` every stat, `q` quits (saving with --save). See docs/play.md.")
    p.add_argument("ruleset", nargs="?", default=None,
                   help="ruleset folder (with --resume: optional, overrides the saved path)")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--seed", type=int, default=0, help="game seed (bots are seeded from it too)")
    p.add_argument("--seat", action="append", default=[], metavar="N=KIND",
                   help="agent for seat N (1-based): human, random, first, greedy, mcts; `--seat human` makes seat 1 human")
    p.add_argument("--log", metavar="FILE", help="write the game's event log (JSON lines), at the end or on quitting")
    p.add_argument("--save", metavar="FILE", help="on quitting (answer `q`), save the game here to resume later "
                                                  "(from any folder)")
    p.add_argument("--resume", metavar="FILE", help="resume a saved game; every seat keeps its kind (human or "
                                                    "bot) unless --seat changes it")
    _add_with(p)

    sc = sub.add_parser("scenario", help="run rule scenarios (YAML); exit 1 if any fails",
                        description="Run scenario files: each sets up a game, scripts choices and states "
                                    "expectations. See docs/scenarios.md.")
    sc.add_argument("files", nargs="+", metavar="FILE",
                    help="scenario files; a folder stands for every .yaml file below it")
    sc.add_argument("-v", "--verbose", action="store_true", help="list passing scenarios too")

    r = sub.add_parser("replay", help="re-run a logged game and confirm it ends the same",
                       description="Re-run a game log written by `play --log` or `simulate`; each step's state "
                                   "digest must match. Exit 1 naming the first step that differs. With --step, "
                                   "walk the game decision by decision (Enter: next, t: the table, c: run on, "
                                   "q: stop), every card shown, and see the state where the log and the rules "
                                   "part ways.")
    r.add_argument("log")
    r.add_argument("--ruleset", help="override the ruleset path in the log")
    r.add_argument("--step", action="store_true",
                   help="tell each decision and what it led to, pausing after each; show the state at a mismatch")

    _add_authoring_commands(sub)
    _add_serve_command(sub)

    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    _stack_mods(args)
    try:
        rc = {"validate": _validate, "explain": _explain, "simulate": _simulate, "play": _play, "scenario": _scenario,
              "replay": _replay, "sweep": _sweep, "lsp": _lsp, "schema": _schema, "new": _new, "cards": _cards,
              "serve": _serve, "fmt": _fmt}[args.command](args)
        if argv is None and args.command == "validate":  # the command line's own run (tests pass `argv`)
            _end_process(rc)
        return rc
    except ContentError as e:
        print(format_all(e.diagnostics), file=sys.stderr)
        return 1
    except BrokenPipeError:  # `grimoire validate ... | head`: the reader left, nothing to say
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as e:
        print(f"grimoire: {printable(e, keep=chr(10))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # an internal error: say so plainly, traceback only on request
        if args.traceback:
            raise
        print(f"grimoire: internal error: {type(e).__name__}: {printable(e)} (run with --traceback for details)",
              file=sys.stderr)
        return 3


class _Command(argparse.ArgumentParser):
    """A command's parser whose arguments are made only when it is used: when it parses (its
    command was named) or shows its help. Why: argparse makes each argument at once, asking for
    the terminal's size and the translation of its words each time, and one run uses one of the
    fourteen commands (about a hundred arguments): ~2% of `validate`'s start-up."""

    def __init__(self, *args, **kwargs) -> None:
        self._pending: list[tuple[tuple, dict]] | None = []
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs) -> None:  # type: ignore[override]
        if self._pending is None:  # made: as argparse's own
            super().add_argument(*args, **kwargs)
        else:
            self._pending.append((args, kwargs))

    def _made(self) -> None:
        pending, self._pending = self._pending, None
        for args, kwargs in pending or ():
            super().add_argument(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        self._made()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._made()
        return super().format_usage()

    def format_help(self) -> str:
        self._made()
        return super().format_help()


def _end_process(rc: int) -> None:
    """End the process now with status `rc`, without Python's finalisation. Why: finalising frees
    every module and object of the run one by one (the syntax trees and card data of every ruleset):
    about 29 M instructions, 1.7% of validating the seven games. `validate` holds no file, thread or
    child process at its end, so only what the normal exit would still do is done: the exit functions
    registered with `atexit` (a coverage tool's, say) and flushing the output. A flush that fails (the
    reader of the output left) raises, and the caller's handling and the normal exit apply as before."""
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)  # CPython's, what the normal exit calls
    if run_exit_functions is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    run_exit_functions()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


# ---- authoring: the language server, the card schema, scaffolds --------------------------------
class _VersionAction(argparse.Action):
    """`--version`, looked up only when asked: reading the package metadata costs about 20 ms,
    which every other command would pay at start-up."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0,
                         help="show program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"grimoire {_version()}")
        parser.exit()


def _version() -> str:
    """The installed package's version (the one in pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("grimoire")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _add_authoring_commands(sub) -> None:
    """`lsp`, `schema`, `new` and `fmt`: what an author's editor and first steps use (docs/authoring.md)."""
    sub.add_parser("lsp", help="run the language server on stdin/stdout (for editors)",
                   description="Speak the Language Server Protocol on stdin/stdout for .rules files and card "
                               "YAML: diagnostics as you type (the same as `validate`), hover, completion, "
                               "go to definition, references and rename across `extends`, outline and "
                               "formatting (as `fmt`). Editors start it; see docs/authoring.md.")
    sm = sub.add_parser("schema", help="print the JSON Schema of a ruleset's card files",
                        description="Print a JSON Schema (draft-07) of the card files of RULESET, made from its "
                                    "declared card types, for YAML editors to validate and complete cards with.")
    sm.add_argument("ruleset", help="ruleset folder")
    n = sub.add_parser("new", help="create a tiny playable game, or an expansion of one, to start from",
                       description="`new game NAME` (or `new NAME`) writes a small game that validates, plays and "
                                   "passes its scenario: DIR/rulesets/NAME/game.rules, DIR/cards/NAME/gems.yaml and "
                                   "DIR/rulesets/NAME/scenarios/first_turn.yaml. `new expansion NAME --extends BASE` "
                                   "writes a mod of DIR/rulesets/BASE beside it (DIR/rulesets/NAME/game.rules and "
                                   "scenarios/starts.yaml) that validates, plays and passes its scenario too.")
    n.add_argument("what", metavar="[game|expansion] NAME", nargs="+",
                   help="what to create and the ruleset's folder name (letters, digits, _)")
    n.add_argument("--extends", metavar="BASE", help="the base ruleset an expansion extends (a folder in DIR/rulesets)")
    n.add_argument("--dir", default=".", help="where to create rulesets/NAME and cards/NAME (default: here)")
    f = sub.add_parser("fmt", help="put .rules files in the canonical layout (--check: only report)",
                       description="Rewrite .rules files in the canonical layout: 4-space indentation, one space "
                                   "around operators and after commas, none inside brackets, comments kept. Lines "
                                   "never move, so file:line references stay valid. With `-` read stdin and write "
                                   "the result to stdout. Exit 1 when --check finds a file to reformat or a file "
                                   "does not parse.")
    f.add_argument("paths", nargs="+", metavar="PATH", help=".rules files or folders (searched for .rules files), or -")
    f.add_argument("--check", action="store_true", help="change nothing; list the files fmt would change")


def _lsp(args) -> int:
    from .authoring.server import serve
    serve(_version())
    return 0


def _schema(args) -> int:
    import json
    from .authoring.schema import card_schema
    print(json.dumps(card_schema(args.ruleset), indent=2))
    return 0


def _new(args) -> int:
    from .authoring.scaffold import scaffold, scaffold_expansion
    words = args.what
    if len(words) == 1 and words[0] not in ("game", "expansion"):
        words = ["game", *words]
    if len(words) != 2 or words[0] not in ("game", "expansion"):
        raise ValueError("write `grimoire new game NAME` or `grimoire new expansion NAME --extends BASE`")
    kind, name = words
    if kind == "expansion" and not args.extends:
        raise ValueError("an expansion needs its base: `grimoire new expansion NAME --extends BASE`")
    if kind == "game" and args.extends:
        raise ValueError("--extends goes with `new expansion`; a new game extends nothing")
    where = Path(args.dir)
    made = scaffold(name, where) if kind == "game" else scaffold_expansion(name, args.extends, where)
    for f in made:
        print(f"created {f}")
    print(f"try: grimoire play {where / 'rulesets' / name}")
    return 0


def _fmt(args) -> int:
    from .authoring.formatting import format_files, rules_files, summary
    from .language.formatter import format_rules
    if args.paths == ["-"]:
        text = sys.stdin.read()
        result = format_rules(text, "<stdin>")
        if not args.check:
            sys.stdout.write(result)
        return 1 if args.check and result != text else 0
    rep = format_files(rules_files(args.paths), args.check)
    print(summary(rep, args.check))
    return 0 if rep.ok and not (args.check and rep.changed) else 1


def _add_with(p: argparse.ArgumentParser) -> None:
    p.add_argument("--with", dest="mods", action="append", default=[], metavar="MOD[,MOD...]",
                   help="stack these mods (ruleset folders, anywhere) on the ruleset, in this order; a mod's "
                        "`after \"name\"` header moves it after that mod. See docs/modding.md")


def _stack_mods(args) -> None:
    """`--with A,B` turns each ruleset argument into the stack `BASE --with A,B` (one string, so it
    travels to simulation workers, reports and logs, and `replay` loads the same stack)."""
    mods = [m.strip() for group in getattr(args, "mods", []) for m in group.split(",") if m.strip()]
    if not mods:
        return
    from .content.stack import stack_path
    if getattr(args, "paths", None):
        args.paths = [stack_path(p, mods) for p in args.paths]
    elif getattr(args, "rulesets", None):  # sweep: every variant folder gets the same mods
        args.rulesets = [stack_path(p, mods) for p in args.rulesets]
    elif getattr(args, "ruleset", None):
        args.ruleset = stack_path(args.ruleset, mods)
    else:
        raise ValueError("--with stacks mods on a ruleset: give the ruleset too")


def _colour_wanted() -> bool:
    """Colours on a terminal only: plain text when piped, redirected, or NO_COLOR is set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


_DIAG_HEAD = re.compile(r"(?P<loc>\S+:\d+:\d+: )?(?P<sev>error|warning)(?P<rest>: .*)")


def _print_coloured(text: str) -> None:
    """Diagnostics with the severity, location, caret and hint coloured (rich `Text` objects:
    nothing in the content is read as markup)."""
    from rich.console import Console
    from rich.text import Text
    console = Console(highlight=False, soft_wrap=True)
    for line in text.split("\n"):
        m = _DIAG_HEAD.fullmatch(line)
        out = Text()
        if m:
            out.append(m["loc"] or "", style="bold")
            out.append(m["sev"], style="bold #d70000" if m["sev"] == "error" else "bold #d7af00")
            out.append(m["rest"])
        elif line.strip() and set(line.strip()) <= {"^"}:
            out.append(line, style="#d70000")
        elif line.lstrip().startswith("hint:"):
            out.append(line, style="#00afaf")
        else:
            out.append(line)
        console.print(out)


MAX_STDIN_CHARS = 1_000_000  # as a rule file read from disk (language/untrusted.py)


def _validate(args) -> int:
    # a short command that builds long-lived objects (modules, syntax trees, card data) and little
    # garbage: the cyclic collector would only walk over them, about a tenth of the time
    gc.disable()
    from .analysis.validate import check_path  # not `api`: validating needs no compiler
    reforms.keep(_WARMED)  # what this command's imports compiled, for the next run (language/reforms.py)
    all_diags = []
    stdin_file = None
    # a folder for standard input's text only when it is asked for (making and removing one costs)
    stdin_dir = contextlib.nullcontext()
    if "-" in args.paths:
        import tempfile  # only here: ~0.3% of a validation where nothing else imports it
        stdin_dir = tempfile.TemporaryDirectory(prefix="grimoire-stdin-")
    with stdin_dir as tmp:
        for path in args.paths:
            if path == "-":  # an editor's buffer on standard input: one rule file, shown as <stdin>
                stdin_file = str(Path(tmp) / "stdin.rules")
                Path(stdin_file).write_text(sys.stdin.read(MAX_STDIN_CHARS + 1)[:MAX_STDIN_CHARS + 1],
                                            encoding="utf-8", errors="replace")
                path = stdin_file
            _, content = check_path(path)
            all_diags += content.diagnostics
    errors = [d for d in all_diags if d.severity == "error" or args.strict]
    if args.format == "json":
        import json  # only here: a text report needs none (`json` costs ~0.2% of validating the seven games)
        text = json.dumps({"ok": not errors, "diagnostics": [d.to_json() for d in all_diags]}, indent=2)
    else:
        text = format_all(all_diags)
    text = text.replace(stdin_file, "<stdin>") if stdin_file else text
    if args.format == "text" and _colour_wanted():
        _print_coloured(text)
    else:
        print(text)
    if "lark" not in sys.modules:  # (Lark, when it builds the parser tables or words a syntax error,
        # compiles its terminals' patterns: a later run does not need them)
        reforms.keep(_WARMED)  # and what the command compiled since: the globs' and the YAML resolver's
    gc.freeze()  # the process ends now: no last collection over the parsed rulesets at exit
    return 1 if errors else 0


def _explain(args) -> int:
    from .analysis.explain import UnknownSubject, explain
    from .api import check_path
    rs, content = check_path(args.ruleset)
    errors = [d for d in content.diagnostics if d.severity == "error"]
    if rs is None or errors:
        raise ContentError(errors or content.diagnostics)
    try:
        print(explain(rs, args.subject))
    except UnknownSubject as e:
        print(f"grimoire: {e}", file=sys.stderr)
        return 2
    return 0


def _cards(args) -> int:
    from .api import check_path
    from .analysis.textdrift import text_drift
    from .printing import card_faces, write_pngs, write_sheets, write_svgs
    if not (args.svg or args.pdf or args.png or args.check_text):
        print("grimoire cards: say what to do: --svg DIR, --pdf FILE, --png DIR and/or --check-text", file=sys.stderr)
        return 2
    if not 0 <= args.bleed <= 10:
        print(f"grimoire cards: --bleed is 0 to 10 mm, not {args.bleed:g}", file=sys.stderr)
        return 2
    rs, content = check_path(args.ruleset)
    errors = [d for d in content.diagnostics if d.severity == "error"]
    if rs is None or errors:
        raise ContentError(errors or content.diagnostics)
    if args.check_text:
        drift = text_drift(content)
        print(format_all(drift) if drift else "every card's text mentions the numbers its effect uses")
    if not (args.svg or args.pdf or args.png):
        return 0
    cf = card_faces(args.ruleset, rs)
    copies = sum(n for _, n in cf.faces)
    if args.svg:
        print(f"{len(write_svgs(cf, Path(args.svg)))} SVG files in {args.svg}")
    if args.png:
        print(f"{len(write_pngs(cf, Path(args.png)))} PNG previews in {args.png}")
    if args.pdf:
        pages = write_sheets(cf, Path(args.pdf), args.paper, args.bleed, args.backs)
        print(f"{copies} cards on {pages} pages in {args.pdf}")
    for where in cf.overflow:
        print(f"warning: text cut to fit: {printable(where)}", file=sys.stderr)
    return 0


def _positive_int(text: str) -> int:
    """An argparse type for limits: a whole number above zero."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _non_negative_int(text: str) -> int:
    """An argparse type for `--max-memory`: a whole number of MB, 0 meaning no limit."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or more, not {value}")
    return value


def _positive_float(text: str) -> float:
    """An argparse type for a time limit: a number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text}")
    return value


def _players(args) -> int:
    from .api import load_program
    return args.players or load_program(args.ruleset).rs.min_players


def _simulate(args) -> int:
    from .sim.simulate import simulate
    players = _players(args)
    agents = [a.strip() for a in args.agents.split(",")]
    limits = {k: v for k, v in (("max_steps", args.max_steps), ("max_turns", args.max_turns),
                                ("max_depth", args.max_depth), ("max_decisions", args.max_decisions),
                                ("max_seconds", args.max_seconds)) if v}
    limits["max_memory_mb"] = args.max_memory  # None: simulate's default share; 0: no limit
    from .play.variants import parse_override
    overrides = tuple(parse_override(o) for o in args.set)
    with _progress_bar(args.games, args.quiet) as advance:
        report = simulate(args.ruleset, args.games, players, args.seed, agents, args.workers, progress=advance,
                          backend=args.backend, address=args.address, overrides=overrides,
                          per_game=args.per_game, card_stats=args.card_stats, **limits)
    _emit_report(report, args.json, _summary)
    if args.failed_logs and report["errors"] and overrides:
        print("  no replay logs for a variant (--set): a log names the ruleset folder, not its overrides")
    elif args.failed_logs and report["errors"]:
        _write_failed_logs(args, players, report, limits)
    if args.plot:
        from .sim.plots import write_plots
        files = write_plots(report, args.plot)
        print(f"charts: {', '.join(str(f) for f in files)}")
    return 1 if report["errors"] else 0


# ---- batches: backends, progress, sweeps ---------------------------------------------------
def _add_batch_args(p: argparse.ArgumentParser, own_limits: bool = False) -> None:
    """Options every batch command shares: where games run. `own_limits`: the command gives
    `--workers` and the per-game limits itself (in its own words)."""
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local: this machine's processes (default); ray: a Ray cluster (pip install 'grimoire[ray]'). "
                        "Same seeds give the same games on either")
    p.add_argument("--address", metavar="HOST:PORT", default=None,
                   help="with --backend ray: join the cluster at this address (default: start a private one "
                        "with --workers CPUs)")
    if not own_limits:
        p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
        for flag, text in (("--max-steps", "statement limit per game"), ("--max-turns", "turn limit per game"),
                           ("--max-depth", "nesting limit per game (default 64)"),
                           ("--max-decisions", "answered decisions limit per game")):
            p.add_argument(flag, type=_positive_int, default=None, help=text)
    p.add_argument("--max-seconds", type=_positive_float, default=None,
                   help="wall-clock limit per game in seconds (default 300): a game past it is reported "
                        "as an error with its seed and the batch goes on")
    p.add_argument("--max-memory", metavar="MB", type=_non_negative_int, default=None,
                   help="how much each process playing games may grow, in MB (default: half the machine's "
                        "memory shared by the workers, at least 1024; 0: no limit): a game past it is "
                        "reported as an error with its seed (\"the game ran out of memory\") and the batch "
                        "goes on")


def _emit_report(report: dict, json_to: str | None, readable) -> None:
    """`--json FILE` writes the report as JSON beside the readable text; `--json -` prints the JSON
    instead of the text (for pipes)."""
    if json_to:
        import json
        text = json.dumps(report, indent=2, sort_keys=True, default=str)
        if json_to == "-":
            print(text)
        else:
            Path(json_to).write_text(text + "\n", encoding="utf-8")
    if json_to != "-":
        print(readable(report))


class _progress_bar:
    """A rich progress bar on stderr (nothing when quiet); yields the `advance(k)` callback."""

    def __init__(self, total: int, quiet: bool, label: str = "simulating"):
        self.total, self.quiet, self.label, self.bar = total, quiet, label, None

    def __enter__(self):
        if self.quiet:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.bar = Progress(TextColumn(f"[bold]{self.label}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("games", total=self.total)
        return lambda k: self.bar.advance(task, k)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _sweep(args) -> int:
    from .api import load_program
    from .sim.sweep import format_table, parse_param, sweep
    params = [parse_param(p) for p in args.param]
    try:
        counts = [int(x) for x in args.players.split(",") if x.strip()] if args.players else []
    except ValueError:
        raise ValueError(f"--players {args.players}: give whole numbers separated by commas, e.g. 2,3,4") from None
    if not counts:
        counts = sorted({load_program(r).rs.min_players for r in args.rulesets})
    agents = [a.strip() for a in args.agents.split(",")]
    limits = {k: v for k, v in (("max_steps", args.max_steps), ("max_turns", args.max_turns),
                                ("max_depth", args.max_depth), ("max_decisions", args.max_decisions),
                                ("max_seconds", args.max_seconds)) if v}
    limits["max_memory_mb"] = args.max_memory  # None: simulate's default share; 0: no limit
    batches = len(args.rulesets) * len(counts)
    for _, values in params:
        batches *= len(values)
    with _progress_bar(batches * args.games, args.quiet, "sweeping") as advance:
        result = sweep(args.rulesets, counts, params, args.games, args.seed, agents, args.workers,
                       backend=args.backend, address=args.address, progress=advance, **limits)
    _emit_report(result, args.json, format_table)
    if args.plot:
        from .sim.plots import write_sweep_plot
        print(f"chart: {write_sweep_plot(result, args.plot)}")
    return 1 if any(b["report"]["errors"] for b in result["batches"]) else 0


def _write_failed_logs(args, players: int, report: dict, limits: dict) -> None:
    """One replayable event log per failed game (`grimoire replay FILE` walks it step by step)."""
    from .engine.game import Limits
    from .play.session import failure_log, write_log
    from .sim.oslimit import address_space_limit, default_max_memory
    out = Path(args.failed_logs)
    out.mkdir(parents=True, exist_ok=True)
    from .api import load_program
    program = load_program(args.ruleset)
    memory_mb = limits.get("max_memory_mb")
    if memory_mb is None:
        memory_mb = default_max_memory(args.workers)
    limits = {k: v for k, v in limits.items() if k not in ("max_seconds", "max_memory_mb")}
    for e in report["errors"]:
        if e.get("choices") is None:  # its worker died, or it overran before its first answer
            print(f"  no replay log of game {e['index']}: no answers were recorded ({printable(e['error'])})")
            continue
        path = out / f"game-{e['index']}-seed-{e['seed']}.jsonl"
        with address_space_limit(memory_mb):  # the rebuild may not grow further than the batch's games could
            log = failure_log(program, args.ruleset, players, e["seed"], e["choices"], Limits(**limits),
                              e["error"], args.max_seconds or 300.0)
        write_log(path, log)
        print(f"  replay log of game {e['index']}: {path}")


def _summary(r: dict) -> str:
    lines = [f"{r['games']} games of {r['ruleset']} with {r['players']} players, seed {r['seed']}, "
             f"agents {','.join(r['agents'])}",
             f"completed {r['completed']}, errors {len(r['errors'])}, shared wins {r['shared_wins']}"
             + (f", no winner {r['no_winner']}" if r.get("no_winner") else "")]
    for s in r["seats"]:
        lo, hi = s["win_rate_ci95"]
        sc = s["score"]
        lines.append(f"  seat {s['seat']}{' (dummy)' if s.get('dummy') else ''}: win rate {s['win_rate']:.3f} (95% {lo:.3f}-{hi:.3f}), "
                     f"mean score {sc.get('mean', 0)}")
    t = r["turns"]
    if t:
        lines.append(f"turns per game: mean {t['mean']}, median {t['median']}, range {t['min']}-{t['max']}")
        lines.append(f"decisions per game: mean {r['decisions']['mean']}; "
                     f"winning score: mean {r['winning_score'].get('mean', '-')}")
        fp = r["first_player"]
        lines.append(f"first player: win rate {fp['win_rate']:.3f} (95% {fp['win_rate_ci95'][0]:.3f}-"
                     f"{fp['win_rate_ci95'][1]:.3f}, fair share {fp['fair_share']:.3f}); "
                     f"decisions per turn: mean {r['decisions_per_turn'].get('mean')}")
    lines += _ending_lines(r)
    lines += _fairness_lines(r)
    lines += _card_lines(r)
    for e in r["errors"][:5]:
        lines.append(f"  error in game {e['index']} (seed {e['seed']}): {printable(e['error'])}")
    t = r["timing"]
    workers = t.get("workers", 1)
    lines.append(f"{t['games_per_second']} games/s ({t.get('backend', 'local')}, {workers} "
                 f"worker{'s' if workers != 1 else ''})")
    return "\n".join(lines)


def _ending_lines(r: dict) -> list[str]:
    """How the games ended: by the rules, at a cap the rules declare, at an engine limit (reports.py),
    per `end game "reason"`, and a warning when too many did not end by the rules."""
    e = r.get("endings")
    if not e:
        return []
    reasons = ", ".join(f"{printable(x['reason']) or '(no reason given)'}{' [cap]' if x['cap'] else ''} {x['games']}"
                        for x in e["reasons"])
    out = [f"endings: {e['natural']} by the rules, {e['capped']} at a cap, {e['engine_limit']} at an engine limit"
           + (f" (reasons: {reasons})" if any(x["reason"] for x in e["reasons"]) else "")]
    if e.get("warning"):
        out.append(f"WARNING: {e['warning']}")
    return out


def _fairness_lines(r: dict) -> list[str]:
    """The seat and first-player tests (reports.fairness), in words."""
    f = r.get("fairness") or {}
    out = []
    verdict = lambda x: "unlikely to be chance" if x["unfair"] else "no evidence of a difference"  # noqa: E731
    if "seats" in f:
        x = f["seats"]
        out.append(f"fairness of seats: chi-square p = {x['p_value']:.3f} over {x['games']} games ({verdict(x)})")
    if "first_player" in f:
        x = f["first_player"]
        lo, hi = x["win_rate_ci95"]
        out.append(f"first-player advantage: {x['wins']} of {x['games']} outright wins ({x['win_rate']:.3f}, 95% "
                   f"{lo:.3f}-{hi:.3f}) against {x['fair_share']:.3f}: binomial p = {x['p_value']:.3f} ({verdict(x)})")
    return out


def _card_lines(r: dict, top: int = 6) -> list[str]:
    """The cards moved in most games, with the seat-games behind each win rate and its 95% interval."""
    cards = r.get("cards") or {}
    if not cards:
        return []
    order = sorted(cards, key=lambda c: (-cards[c].get("games_moved", 0), -cards[c]["takers"], c))[:top]

    def fig(x: dict, who: str, label: str) -> str:
        n = x[who]
        if not n:
            return f"{label} 0"
        lo, hi = x[f"{who[:-1]}_win_rate_ci95"]
        return f"{label} {n} (win {x[f'{who[:-1]}_win_rate']:.2f}, 95% {lo:.2f}-{hi:.2f})"
    played = any(x.get("players") for x in cards.values())
    out = [f"cards moved in most games (of {len(cards)}; --json has all): seat-games taking / "
           f"{'playing / ' if played else ''}moving it, and their win rate"]
    for c in order:
        x = cards[c]
        out.append(f"  {printable(c)}: in {x['games_moved']} of {x['games']} games; {fig(x, 'takers', 'taken')}, "
                   + (f"{fig(x, 'players', 'played')}, " if played else "") + fig(x, "movers", "moved"))
    if not played:
        out.append("  (no card left a player's hidden zone for a public one, nor moved between a player's own "
                   "zones: nothing is 'played' in these games)")
    return out


def _play(args) -> int:
    from .play.agents import make_agent, share_copies
    from .engine.factory import new_game
    from .play.session import QuietObserver, ReplayMismatch, load_saved, restore_agent
    from .play.tui import HumanAgent, Narrator
    narrator = None
    lines: list[dict] = []  # the event log, from the first step even when resuming
    saved: list[dict] = []  # the saved seats (kind, random state) when resuming
    if args.resume:
        try:
            game, rpath = load_saved(args.resume, args.ruleset, lines, saved, confine=True,
                                     observer=QuietObserver())  # the narrator watches it from here
        except ReplayMismatch as e:
            print(f"grimoire: {printable(e)}", file=sys.stderr)
            return 1
    else:
        if args.ruleset is None:
            raise ValueError("give a ruleset (or --resume FILE)")
        from .api import load_program
        program = load_program(args.ruleset)
        rpath = args.ruleset
        narrator = Narrator(_human_view(args.seat, _players(args)))
        game = new_game(program, _players(args), args.seed, observer=narrator,
                        record_digests=True)  # told from the setup on
        narrator.attach(game)
    players = game.state.players
    # a resumed game keeps every seat's kind, a human seat too (--seat changes one)
    kinds = [saved[i]["kind"] if i < len(saved) else "random" for i in range(players)]
    for s in args.seat:
        seat, _, kind = s.rpartition("=")
        if not (seat or "1").isdigit() or not 1 <= int(seat or 1) <= players:
            raise ValueError(f"--seat {s}: seats are numbered 1 to {players}")
        kinds[int(seat or 1) - 1] = kind
    seed = game.state.seed if args.resume else args.seed  # bots are seeded from the game's seed
    agents = share_copies([HumanAgent() if k == "human" else make_agent(k, f"{seed}/{i}") for i, k in enumerate(kinds)])
    for i, agent in enumerate(agents):  # a bot resumes in the random state it was saved in
        if i < len(saved) and saved[i]["kind"] == kinds[i]:
            try:
                restore_agent(agent, saved[i].get("rng"))
            except ReplayMismatch as e:
                print(f"grimoire: {args.resume}: seat {i + 1}: {e}", file=sys.stderr)
                return 1
    humans = [i for i, k in enumerate(kinds) if k == "human"]
    view = humans[0] if len(humans) == 1 else None
    if narrator is None or narrator.seat != view:  # resumed (or the seats differ): told from now on
        narrator = Narrator(view, game=game)
    return _play_out(args, game, str(rpath), agents, kinds, lines, narrator)


def _human_view(seats: list[str], players: int) -> int | None:
    """The seat whose side the story is told from: the one human seat, else None (public only)."""
    humans = {int(s.rpartition("=")[0] or 1) - 1 for s in seats
              if s.rpartition("=")[2] == "human" and (s.rpartition("=")[0] or "1").isdigit()}
    return next(iter(humans)) if len(humans) == 1 and next(iter(humans)) < players else None


def _play_out(args, game, rpath: str, agents: list, kinds: list[str], lines: list[dict], narrator) -> int:
    """Play to the end or to `q`, telling the story from the human seat's side (all public when
    there is no human seat, or several); the log is written either way, the save on `q`."""
    from .play.session import end_line, header, save_game, step_line, write_log
    from .play.tui import QuitGame, show_result
    quit_ = False
    try:
        while not game.over:
            narrator.flush()
            d = game.decision
            i = agents[d.player].choose(game, d)
            narrator.decided(d, i, kinds[d.player])
            lines.append(step_line(game, i))
            game.answer(i)
        narrator.flush()
    except QuitGame:
        quit_ = True
    if args.log:
        write_log(args.log, [header(game.program, game.state.players, game.state.seed, rpath)]
                  + lines + [end_line(game)])
        print(f"event log written to {args.log}" + (" (up to the quit: replay shows where it stops)" if quit_ else ""))
    if quit_:
        if args.save:
            save_game(game, args.save, rpath, agents, kinds)
            print(f"saved to {args.save}; resume with: grimoire play --resume {args.save}")
        else:
            print("quit without saving (use --save FILE to keep the game)")
        return 0
    show_result(game)
    return 1 if game.error else 0


# ---- serve: the browser table (docs/playtesting.md) ---------------------------------------------
def _add_serve_command(sub) -> None:
    sv = sub.add_parser("serve", help="play in the browser: one address per person, bots for the rest",
                        description="Serve a game as a local web page: each person's seat has its own address "
                                    "(with a secret token, printed at start) and sees only what that seat may see; "
                                    "decisions are buttons, cards show their fields and text, and a narration says "
                                    "what happened since your last decision. --designer adds an inspector with "
                                    "rewinding, save/load, new seeds and bot seats. See docs/playtesting.md.")
    sv.add_argument("ruleset", help="ruleset folder")
    sv.add_argument("--players", type=int, default=None, help="number of players (default: the fewest the game allows)")
    sv.add_argument("--seat", action="append", default=[], metavar="N=KIND",
                    help="who plays seat N (1-based): human (the default for every seat), bot (a random bot), "
                         "or a bot kind: random, first, greedy, mcts")
    sv.add_argument("--seed", type=int, default=0, help="game seed (bots are seeded from it too)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the network)")
    sv.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    sv.add_argument("--designer", action="store_true",
                    help="also print a designer address: full state, step back/forward, save/load, new seed, "
                         "seats replaced by bots, the log to download")
    _add_with(sv)


def _serve(args) -> int:
    from .api import load_program
    from .play.table import SEAT_KINDS, Table
    from .play.web import serve
    program = load_program(args.ruleset)
    players = args.players or program.rs.min_players
    kinds = ["human"] * players
    for s in args.seat:
        seat, _, kind = s.rpartition("=")
        if not seat.isdigit() or not 1 <= int(seat) <= players:
            raise ValueError(f"--seat {s}: give N=KIND with N a seat from 1 to {players}")
        if kind not in SEAT_KINDS:
            raise ValueError(f"--seat {s}: KIND is one of {', '.join(SEAT_KINDS)}")
        kinds[int(seat) - 1] = kind
    if not 1 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: a port is a number from 1 to 65535")
    table = Table(program, args.ruleset, players, args.seed, kinds, designer=args.designer)
    table.run_bots()
    serve(table, args.host, args.port)
    return 0


def _scenario_files(folder: Path) -> list[Path]:
    """The scenarios a folder stands for: those in its `scenarios/` folder (a ruleset's), else its own."""
    inner = folder / "scenarios"
    return sorted((inner if inner.is_dir() else folder).glob("*.yaml"))


def _scenario(args) -> int:
    from .play.scenario import ScenarioResult, run_scenario
    failed = 0
    files = [str(y) for f in args.files for y in (_scenario_files(Path(f)) if Path(f).is_dir() else [f])]
    for f in files:
        try:
            res = run_scenario(f)
        except Exception as e:  # noqa: BLE001 - one scenario the runner cannot follow stops nothing
            res = ScenarioResult(str(f), "?", False, [f"internal error: {type(e).__name__}: {e}"])
        if not res.passed or args.verbose:
            print(printable(res.format(), keep="\n"))
        failed += not res.passed
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _replay(args) -> int:
    from .play.session import QuietObserver, ReplayMismatch, numbered_result, replay
    from .play.tui import QuitGame, Stepper
    stepper = Stepper() if args.step else None
    try:
        g = replay(args.log, args.ruleset, confine=True, on_step=stepper.step if stepper else None,
                   observer=QuietObserver() if stepper else None)  # --step narrates
    except ReplayMismatch as e:
        if stepper is not None and e.game is not None:
            stepper.mismatch(e.game, str(e))
        print(f"replay: {printable(e)}", file=sys.stderr)
        return 1
    except QuitGame:
        print("stopped")
        return 0
    if stepper is not None and stepper.narrator is not None:
        stepper.narrator.flush()
    if not g.over:
        end = f"the game was left at step {len(g.choices)} (player {g.decision.player + 1} to answer)"
    elif g.error:
        end = f"the same error: {printable(g.error)} (seed {g.state.seed}, step {len(g.choices)})"
    else:
        end = f"the same end: {printable(numbered_result(g.result))}"
    print(f"replayed {len(g.choices)} decisions: same states, {end}")
    return 0
