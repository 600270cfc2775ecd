"""`grimoire lsp` end to end: a subprocess spoken to over stdio as an editor does (initialize,
didOpen a broken file, publishDiagnostics, didChange fixing it, hover, definition, completion,
shutdown, exit), each answer awaited with a time bound so a silent server fails the test instead
of hanging it."""
from __future__ import annotations

import json
import re
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from interpreter.authoring.scaffold import scaffold

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 30.0


class Client:
    """The client side of JSON-RPC over stdio with LSP's `Content-Length` framing."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                key, _, value = line.decode("ascii").partition(":")
                headers[key.strip().lower()] = value.strip()
            self.inbox.put(json.loads(out.read(int(headers["content-length"]))))

    def send(self, method: str, params: dict | None = None, request: bool = False) -> int | None:
        msg: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return msg.get("id")

    def wait_for(self, match) -> dict:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                msg = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if match(msg):
                return msg
        raise AssertionError(f"no answer in {WAIT_S}s; stderr: {self.proc.stderr.read1(4000) if self.proc.poll() is not None else ''}")

    def request(self, method: str, params: dict | None) -> dict:
        rid = self.send(method, params, request=True)
        return self.wait_for(lambda m: m.get("id") == rid and "method" not in m)


def test_lsp_over_stdio(tmp_path):
    scaffold("pebble_game", tmp_path)
    rules = (tmp_path / "rulesets" / "pebble_game" / "game.rules").resolve()
    uri = rules.as_uri()
    good = rules.read_text(encoding="utf-8")
    broken = good.replace("move g to your kept", "move g to your kep")
    client = Client(ROOT)
    try:
        init = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        caps = init["result"]["capabilities"]
        assert caps["hoverProvider"] and caps["definitionProvider"] and "completionProvider" in caps
        assert init["result"]["serverInfo"]["name"] == "grimoire"
        client.send("initialized", {})

        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "grimoire", "version": 1,
                                                              "text": broken}})
        diags = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                and m["params"]["uri"] == uri)["params"]["diagnostics"]
        errors = [d for d in diags if d["severity"] == 1]
        assert len(errors) == 1 and "kep" in errors[0]["message"] and errors[0]["code"] == "name/undefined"
        line = broken.split("\n").index("        move g to your kep")
        assert errors[0]["range"] == {"start": {"line": line, "character": 23}, "end": {"line": line, "character": 26}}
        # the zone `kept` is now unused: a warning, as `validate` gives
        assert any(d["severity"] == 2 and "kept" in d["message"] for d in diags)

        # two edits in quick succession (another mistake, then the fix): debounced, only the last is
        # checked, so the first diagnostics to arrive are already the cleared ones
        client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                               "contentChanges": [{"text": good.replace("shuffle bag", "shuffle bga")}]})
        client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                               "contentChanges": [{"text": good}]})
        cleared = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                  and m["params"]["uri"] == uri)
        assert cleared["params"]["diagnostics"] == []

        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": line, "character": 26}})
        assert "zone kept" in hover["result"]["contents"]["value"]
        where = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                            "position": {"line": line, "character": 26}})["result"]
        assert where["uri"] == uri and good.split("\n")[where["range"]["start"]["line"]].startswith("zone kept")
        offered = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                              "position": {"line": line, "character": 8}})["result"]
        labels = {i["label"] for i in offered["items"]}
        assert {"move", "bag", "kept", "Ruby", "count"} <= labels

        assert client.request("shutdown", None)["result"] is None
        client.send("exit")
        assert client.proc.wait(timeout=WAIT_S) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()


def _apply(text: str, edits: list[dict]) -> str:
    """A client applying TextEdits to a text (ASCII: UTF-16 columns are character columns)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    spans = [(offsets[e["range"]["start"]["line"]] + e["range"]["start"]["character"],
              offsets[e["range"]["end"]["line"]] + e["range"]["end"]["character"], e["newText"]) for e in edits]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def test_lsp_references_rename_and_formatting_across_extends(tmp_path):
    """A mod (made by `grimoire new expansion`) names its base's zone: references find it in both
    rule files, rename changes both (and a card type's name in the card file), the renamed pair still
    checks clean, and a name of the language is refused; formatting gives `grimoire fmt`'s layout."""
    from interpreter.api import check_path
    from interpreter.authoring.scaffold import scaffold_expansion
    from interpreter.language.formatter import format_rules

    scaffold("pebble_game", tmp_path)
    scaffold_expansion("shiny", "pebble_game", tmp_path)
    base = (tmp_path / "rulesets" / "pebble_game" / "game.rules").resolve()
    mod = (tmp_path / "rulesets" / "shiny" / "game.rules").resolve()
    cards = (tmp_path / "cards" / "pebble_game" / "gems.yaml").resolve()
    mod.write_text(mod.read_text() + "\nfunction kept_gems(p) = count(kept of p)\n", encoding="utf-8")
    texts = {p.as_uri(): p.read_text(encoding="utf-8") for p in (base, mod, cards)}
    mod_text = texts[mod.as_uri()]
    line = mod_text.split("\n").index("function kept_gems(p) = count(kept of p)")
    at_kept = {"line": line, "character": mod_text.split("\n")[line].index("kept of") + 1}
    client = Client(ROOT)
    try:
        caps = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {
            "textDocument": {"rename": {"prepareSupport": True}}}})["result"]["capabilities"]
        assert caps["referencesProvider"] and caps["documentFormattingProvider"]
        assert caps["renameProvider"] == {"prepareProvider": True}
        client.send("initialized", {})
        client.send("textDocument/didOpen", {"textDocument": {"uri": mod.as_uri(), "languageId": "grimoire",
                                                              "version": 1, "text": mod_text}})
        client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")

        refs = client.request("textDocument/references", {"textDocument": {"uri": mod.as_uri()}, "position": at_kept,
                                                          "context": {"includeDeclaration": True}})["result"]
        found = sorted((r["uri"], r["range"]["start"]["line"]) for r in refs)
        expected = sorted((uri, i) for uri, text in texts.items() if uri.endswith(".rules")
                          for i, ln in enumerate(text.split("\n")) if re.search(r"\bkept\b", ln.split("#")[0]))
        assert found == expected and {u for u, _ in found} == {base.as_uri(), mod.as_uri()}

        prepared = client.request("textDocument/prepareRename", {"textDocument": {"uri": mod.as_uri()},
                                                                 "position": at_kept})["result"]
        assert prepared["start"] == {"line": line, "character": at_kept["character"] - 1}
        assert prepared["end"]["character"] - prepared["start"]["character"] == len("kept")

        renamed = client.request("textDocument/rename", {"textDocument": {"uri": mod.as_uri()}, "position": at_kept,
                                                         "newName": "treasure"})["result"]["changes"]
        assert set(renamed) == {base.as_uri(), mod.as_uri()}
        base_text = texts[base.as_uri()]
        gem = base_text.split("\n").index("card type Gem:")
        by_type = client.request("textDocument/rename", {"textDocument": {"uri": base.as_uri()},
                                                         "position": {"line": gem, "character": 11},
                                                         "newName": "Jewel"})["result"]["changes"]
        assert len(by_type[cards.as_uri()]) == 3  # each card's `type: Gem`
        refused = client.request("textDocument/rename", {"textDocument": {"uri": mod.as_uri()}, "position": at_kept,
                                                         "newName": "move"})
        assert refused["error"]["code"] == -32803 and "word of the language" in refused["error"]["message"]

        messy = mod_text.replace("function kept_gems(p) = count(kept of p)", "function kept_gems( p )=count( kept of p )")
        client.send("textDocument/didChange", {"textDocument": {"uri": mod.as_uri(), "version": 2},
                                               "contentChanges": [{"text": messy}]})
        layout = client.request("textDocument/formatting", {"textDocument": {"uri": mod.as_uri()},
                                                            "options": {"tabSize": 4, "insertSpaces": True}})["result"]
        assert _apply(messy, layout) == format_rules(messy) == mod_text

        assert client.request("shutdown", None)["result"] is None
        client.send("exit")
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()

    edits: dict[str, list] = {}
    for changes in (renamed, by_type):
        for uri, es in changes.items():
            edits.setdefault(uri, []).extend(es)
    for path in (base, mod, cards):
        path.write_text(_apply(texts[path.as_uri()], edits.get(path.as_uri(), [])), encoding="utf-8")
    for folder in (base.parent, mod.parent):
        rs, content = check_path(folder)
        assert [d.message for d in content.diagnostics if d.severity == "error"] == []
    assert "zone treasure:" in base.read_text() and "count(treasure of p)" in mod.read_text()
    assert "card type Jewel:" in base.read_text() and cards.read_text().count("type: Jewel") == 3
    assert not re.search(r"\bkept\b|\bGem\b", "\n".join(ln.split("#")[0] for ln in base.read_text().split("\n")))
