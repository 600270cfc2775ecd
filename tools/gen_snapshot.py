"""Snapshot the generated code of every ruleset, to prove a refactoring of the code generator
changes nothing: the generated Python must stay byte-identical.

    python tools/gen_snapshot.py write /tmp/before        # dump every target's generated code
    python tools/gen_snapshot.py compare /tmp/before      # dump again and compare, file by file
    python tools/gen_snapshot.py compare /tmp/before --only talisman   # targets whose name has it

A target is each folder under rulesets/ and tests/fixtures/ that loads and checks clean, plus
the Talisman mod stacks of tests/games/test_talisman_stacks.py. For each target it writes one
text file holding the three forms of its generated module (engine/factory.py): the plain
module's source, its constants table and each line's rule location; the observed form's source;
the copyable (resumable) form, every generator lowered (`lower_whole`), as Python source; and
each bot rule (`value`, `prefer`) compiled on its own (engine/directeval.py) for a few bindings
of `it`. A form the generator refuses is written as its refusal, so a change in what compiles
shows too. `compare` exits 1 and names the first differing line of each target that changed.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.api import load_program  # noqa: E402
from interpreter.engine.direct import _Gen, compile_direct  # noqa: E402
from interpreter.engine.directeval import compile_expression  # noqa: E402
from interpreter.engine.directexpr import Unsupported  # noqa: E402
from interpreter.engine.directobserved import compile_observed  # noqa: E402
from interpreter.engine.resumablegame import _lowered_tree  # noqa: E402
from interpreter.language.diagnostics import ContentError  # noqa: E402

# the mod stacks tests/games/test_talisman_stacks.py compiles (every mod; the ordered chain)
_ORDERED = ["talisman_bloodmoon", "talisman_reaper", "talisman_souls", "talisman_harbinger", "talisman_regions",
            "talisman_highland", "talisman_dungeon", "talisman_city", "talisman_woodland", "talisman_dragon"]
# the kinds of `it` a bot rule is compiled for (directfacade._rule_value tries these)
_IT_KINDS = ("card", "player", "int", "str", "none", "item", "mixed")


def targets() -> dict[str, str]:
    """Target name -> the path `load_program` takes."""
    out: dict[str, str] = {}
    for base in (ROOT / "rulesets", ROOT / "tests" / "fixtures"):
        for game in sorted(base.rglob("game.rules")):
            out[str(game.parent.relative_to(ROOT)).replace("/", "_")] = str(game.parent)
    mods = sorted(p.name for p in (ROOT / "rulesets").iterdir()
                  if p.name.startswith("talisman_") and (p / "game.rules").is_file())
    for name, stack in (("stack_every_mod", mods[::-1]), ("stack_ordered", _ORDERED)):
        out[name] = f"{ROOT}/rulesets/talisman --with " + ",".join(f"{ROOT}/rulesets/{m}" for m in stack)
    return out


def snapshot(path: str) -> str:
    """The text of one target's generated code in every form (or why a form is refused)."""
    try:
        program = load_program(path)
    except (ContentError, OSError, ValueError) as why:
        return f"does not load: {type(why).__name__}\n"  # (a broken fixture, a mod alone)
    parts: list[str] = []
    try:
        dp = compile_direct(program)
    except Unsupported as why:
        return f"direct: unsupported: {why}\n"
    parts += ["== direct source", dp.source, "== constants", "\n".join(repr(k) for k in dp.K),
              "== lines", "\n".join(repr(loc) for loc in dp.lines), "== info", repr(sorted(dp.info))]
    try:
        parts += ["== observed source", compile_observed(dp).source]
    except Unsupported as why:
        parts += ["== observed: unsupported", str(why)]
    try:
        tree, meta = _lowered_tree(dp)
        parts += ["== resumable source", ast.unparse(tree), "== resumable meta", repr(sorted(meta))]
    except Unsupported as why:
        parts += ["== resumable: unsupported", str(why)]
    rs = program.rs
    for i, decl in enumerate(list(rs.values) + list(rs.prefers)):
        for it in _IT_KINDS:
            parts.append(f"== bot rule {i} with it: {it}")
            parts.append(_expression(dp, decl.expr, (("you", "player"), (decl.binder, "player"), ("it", it))))
    return ("\n".join(parts) + "\n").replace(str(ROOT), "<root>")  # the same wherever the checkout is


def _expression(dp, node, kinds) -> str:
    """One expression compiled on its own (directeval.py), its source captured."""
    got: list[str] = []

    def new_gen():
        gen = _Gen(dp.program)
        assemble = gen.assemble

        def keep(exported):
            out = assemble(exported)
            got.append(out[1])
            return out
        gen.assemble = keep
        return gen
    dp.__dict__.pop("_expressions", None)  # compiled anew (directeval caches it per program)
    try:
        _, K, kind = compile_expression(dp, new_gen, node, kinds)
    except Unsupported as why:
        return f"unsupported: {why}"
    return "\n".join(got) + f"\n-- kind {kind}; constants " + repr(K)


def write(out: Path, only: str | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, path in targets().items():
        if only and only not in name:
            continue
        (out / f"{name}.txt").write_text(snapshot(path))
        print(name, flush=True)


def compare(before: Path, only: str | None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        now = Path(tmp)
        write(now, only)
        changed = 0
        for f in sorted(before.glob("*.txt")):
            if only and only not in f.stem:
                continue
            other = now / f.name
            if not other.exists():
                print(f"MISSING {f.stem}")
                changed += 1
                continue
            a, b = f.read_text(), other.read_text()
            if a != b:
                changed += 1
                diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "before", "now", n=1, lineterm=""))
                print(f"CHANGED {f.stem}:\n" + "\n".join(diff[:40]))
        new = {f.name for f in now.glob("*.txt")} - {f.name for f in before.glob("*.txt")}
        for name in sorted(new):
            print(f"NEW {name}")
        print(f"{changed} target(s) changed" if changed else "byte-identical")
        return 1 if changed or new else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=("write", "compare"), help="write a snapshot, or compare with one")
    ap.add_argument("folder", type=Path, help="where the snapshot is (one .txt per target)")
    ap.add_argument("--only", help="only the targets whose name contains this text")
    args = ap.parse_args()
    if args.action == "write":
        write(args.folder, args.only)
        return 0
    return compare(args.folder, args.only)


if __name__ == "__main__":
    sys.exit(main())
