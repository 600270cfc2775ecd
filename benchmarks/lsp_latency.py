"""How soon `grimoire lsp` publishes diagnostics after an edit in Talisman, through the real server.

    python benchmarks/lsp_latency.py                   # this tree, and baseline 9606a67 beside it
    python benchmarks/lsp_latency.py --baseline HEAD~2 -n 5 --json lsp.json

The server is started as an editor starts it (`python -m interpreter lsp`, a subprocess spoken to
over stdin/stdout with LSP's framing). It is initialized, every `.rules` file of rulesets/talisman is
opened (the first diagnostics: the cold check), then the same script of edits is typed into it:
for each rule file, a character typed at the end of a line in the middle of the file, a line added
at the top, a syntax error typed in the middle, and its fix. Each figure is the wall time from
sending `didChange` to receiving the `publishDiagnostics` of the edited file (so it includes the
server's debounce, the pause it waits for more typing), and the CPU time the server spent meanwhile
(read from /proc: on a shared machine the wall time also waits for a free core); debounce + CPU is
the latency on an idle machine.
Medians over `-n` rounds of the script (a fresh server per round); the baseline's `interpreter/`
and `grammar/` come from `git archive`, both serve the working tree's rulesets and cards.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "rulesets" / "talisman"
WAIT_S = 60.0


class Server:
    """A `grimoire lsp` subprocess and the client half of its JSON-RPC."""

    def __init__(self, code: Path, env: dict) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp"], cwd=code, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.ids = 0

    def send(self, method: str, params: dict | None, request: bool = False) -> None:
        msg: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.ids += 1
            msg["id"] = self.ids
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def _message(self, deadline: float) -> dict:
        fd = self.proc.stdout.fileno()
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length")))
                if len(rest) >= length:
                    self.buf = rest[length:]
                    return json.loads(rest[:length])
            if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                raise SystemExit(f"the server said nothing for {WAIT_S} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise SystemExit("the server stopped")
            self.buf += chunk

    def wait(self, match) -> dict:
        deadline = time.monotonic() + WAIT_S
        while True:
            msg = self._message(deadline)
            if match(msg):
                return msg

    def cpu(self) -> float:
        """CPU seconds the server has run so far, all its threads (/proc's schedstat, in nanoseconds):
        on a shared machine the wall time waits for a core, the CPU time does not."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):
                pass
        return total / 1e9

    def drain(self, quiet_s: float = 0.05) -> None:
        """Read what the last check still publishes (to the other files), until the server is quiet."""
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if not sep and not select.select([self.proc.stdout.fileno()], [], [], quiet_s)[0]:
                return
            self._message(time.monotonic() + WAIT_S)

    def published(self, uri: str) -> list:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri)["params"]["diagnostics"]

    def close(self) -> None:
        self.send("shutdown", None, request=True)
        self.send("exit", None)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _script(texts: dict[str, str]) -> list[tuple[str, str, str]]:
    """(kind, uri, new text) for every edit, in order; each file ends as it began."""
    edits = []
    for uri, text in texts.items():
        lines = text.split("\n")
        mid = len(lines) // 2
        while mid < len(lines) - 1 and (not lines[mid].strip() or lines[mid].lstrip().startswith("#")
                                        or lines[mid].rstrip().endswith("\\") or lines[mid - 1].rstrip().endswith("\\")):
            # a comment cannot follow a line continuation, nor a syntax error start a continued line
            mid += 1
        typed = "\n".join(lines[:mid] + [lines[mid] + "  # x"] + lines[mid + 1:])
        indent = len(lines[mid]) - len(lines[mid].lstrip())
        broken = "\n".join(lines[:mid] + [lines[mid][:indent] + ") " + lines[mid][indent:]] + lines[mid + 1:])
        edits += [("type a character", uri, typed), ("add a line at the top", uri, "\n" + typed),
                  ("type a syntax error", uri, broken), ("fix it", uri, text)]
    return edits


def _round(code: Path, env: dict) -> dict[str, dict[str, list[float]]]:
    server = Server(code, env)
    try:
        server.send("initialize", {"processId": None, "rootUri": ROOT.as_uri(), "capabilities": {}}, request=True)
        server.wait(lambda m: m.get("id") == 1)
        server.send("initialized", {})
        texts = {p.resolve().as_uri(): p.read_text(encoding="utf-8") for p in sorted(RULESET.glob("*.rules"))}
        times: dict[str, list[float]] = {"cold: open the first file": []}
        cpu: dict[str, list[float]] = {"cold: open the first file": []}
        start, cpu0 = time.perf_counter(), server.cpu()
        for i, (uri, text) in enumerate(texts.items()):
            server.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grimoire",
                                                                  "version": 1, "text": text}})
            server.published(uri)
            if i == 0:
                times["cold: open the first file"].append(time.perf_counter() - start)
                cpu["cold: open the first file"].append(server.cpu() - cpu0)
            server.drain()
        version = 1
        for kind, uri, text in _script(texts):
            version += 1
            start, cpu0 = time.perf_counter(), server.cpu()
            server.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"text": text}]})
            diags = server.published(uri)
            times.setdefault(kind, []).append(time.perf_counter() - start)
            cpu.setdefault(kind, []).append(server.cpu() - cpu0)
            server.drain()
            if (kind == "type a syntax error") != any(d.get("code") == "syntax" for d in diags):
                raise SystemExit(f"unexpected diagnostics after '{kind}' in {uri}: {diags[:2]}")
        return {"wall": times, "cpu": cpu}
    finally:
        server.close()


def _debounce(code: Path) -> float:
    out = subprocess.run([sys.executable, "-c", "from interpreter.authoring.server import DEBOUNCE_S; print(DEBOUNCE_S)"],
                         cwd=code, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(code)))
    return float(out.stdout.strip() or "nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="9606a67", help="commit to compare with (default 9606a67, before this work); "
                                                          "'none' for this tree only")
    ap.add_argument("-n", type=int, default=3, help="rounds, a fresh server each (default 3)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="lsp-latency-"))
    try:
        versions = {"new": ROOT}
        if args.baseline != "none":
            base = tmp / "baseline"
            base.mkdir()
            archive = subprocess.run(["git", "archive", args.baseline, "interpreter", "grammar"], cwd=ROOT,
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            versions = {"baseline": base, "new": ROOT}
        envs = {name: dict(os.environ, PYTHONPATH=str(where), XDG_CACHE_HOME=str(tmp / f"cache-{name}"))
                for name, where in versions.items()}
        results: dict[str, dict[str, dict[str, list[float]]]] = {v: {"wall": {}, "cpu": {}} for v in versions}
        for r in range(args.n):
            for name in (list(versions) if r % 2 == 0 else list(versions)[::-1]):
                for measure, by_kind in _round(versions[name], envs[name]).items():
                    for kind, ts in by_kind.items():
                        results[name][measure].setdefault(kind, []).extend(ts)
        print(f"grimoire lsp on rulesets/talisman, {args.n} rounds: from didChange to publishDiagnostics of the "
              "edited file, seconds (medians)")
        summary = {}
        for name, where in versions.items():
            debounce = _debounce(where)
            label = f"{name} ({args.baseline})" if name == "baseline" else name
            print(f"\n{label}: debounce {debounce:.2f} s")
            print(f"  {'edit':28} {'wall':>7} {'wall max':>9} {'server CPU':>11} {'debounce + CPU':>15}")
            summary[name] = {}
            for kind, ts in results[name]["wall"].items():
                med, cpu = statistics.median(ts), statistics.median(results[name]["cpu"][kind])
                idle = cpu if kind.startswith("cold") else debounce + cpu
                summary[name][kind] = {"wall": med, "wall_max": max(ts), "cpu": cpu, "debounce_plus_cpu": idle,
                                       "n": len(ts)}
                print(f"  {kind:28} {med:7.3f} {max(ts):9.3f} {cpu:11.3f} {idle:15.3f}")
        if args.json:
            Path(args.json).write_text(json.dumps({"baseline": args.baseline, "rounds": args.n, "summary": summary,
                                                   "times": results}, indent=2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
