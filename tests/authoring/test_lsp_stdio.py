"""`grimoire lsp` end to end: a subprocess spoken to over stdio as an editor does (initialize,
didOpen a broken file, publishDiagnostics, didChange fixing it, hover, definition, completion,
shutdown, exit), each answer awaited with a time bound so a silent server fails the test instead
of hanging it."""
from __future__ import annotations

import json
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
