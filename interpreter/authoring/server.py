"""`grimoire lsp`: a language server over stdio (pygls) for `.rules` files and card YAML.

The protocol side only: which ruleset a document belongs to, when to check it (at once on open
and save, after a pause in typing on change), and which files' diagnostics to publish. What the
answers say comes from `features.py`.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from .edits import RenameRefused, formatting, prepare_rename, rename
from .features import (Analysis, analyse, completion, definition, hover, path_of, references, ruleset_root, symbols,
                       to_lsp_diagnostics)

__all__ = ["GrimoireServer", "make_server", "DEBOUNCE_S"]

REQUEST_FAILED = -32803  # LSP's error code for a request that was valid but could not be done
DEBOUNCE_S = 0.1  # a pause in typing this long starts a check: no check per keystroke. A check after an edit
                  # takes tens of milliseconds (only what changed is parsed), so diagnostics follow
                  # within 200 ms of the last keystroke (benchmarks/lsp_latency.py)


class Utf16Protocol(LanguageServerProtocol):
    """LSP's default column unit, UTF-16, whatever else the client offers: the features convert
    Grimoire's character columns to UTF-16 and to nothing else."""

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams):
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = [lsp.PositionEncodingKind.Utf16]
        return (yield from super().lsp_initialize(params))


class GrimoireServer(LanguageServer):
    """A language server that remembers the last check of each ruleset and the files it published to."""

    def __init__(self, version: str) -> None:
        super().__init__("grimoire", version, text_document_sync_kind=lsp.TextDocumentSyncKind.Full,
                         protocol_cls=Utf16Protocol)
        self.analyses: dict[Path, Analysis] = {}
        self.published: dict[Path, set[Path]] = {}
        self.edits: dict[Path, int] = {}  # ruleset → edits seen, so a debounced check knows it is stale
        self.parsed: dict = {}  # rule files parsed by earlier checks: an edit re-parses its own file only

    def open_texts(self) -> dict[Path, str]:
        """The editor's texts of every open document, by resolved path."""
        return {path: self.workspace.text_documents[uri].source for path, uri in self.open_uris().items()}

    def open_uris(self) -> dict[Path, str]:
        """Each open document's URI as the editor wrote it, by resolved path (a folder reached
        through a link has two names: diagnostics go to the one the editor knows)."""
        out = {}
        for uri in self.workspace.text_documents:
            fs = to_fs_path(uri)
            if fs:
                out[Path(fs).resolve()] = uri
        return out

    def check(self, uri: str) -> Analysis | None:
        """Check the ruleset `uri` belongs to and publish every file's diagnostics (clearing the
        ones fixed since the last check)."""
        fs = to_fs_path(uri)
        root = ruleset_root(Path(fs)) if fs else None
        if root is None:
            return None
        texts = self.open_texts()
        try:
            analysis = analyse(root, texts, self.parsed)
        except Exception as e:  # a bug of ours: say so where the author looks, and keep serving
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[lsp.Diagnostic(
                range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), severity=lsp.DiagnosticSeverity.Error,
                source="grimoire", code="internal",
                message=f"grimoire could not check this ruleset (an internal error: {type(e).__name__}: {e}); "
                        "`grimoire --traceback validate` shows where")]))
            return None
        self.analyses[root] = analysis
        doc_path = Path(fs).resolve()
        files = dict(analysis.by_file)
        if analysis.unplaced:
            files[doc_path] = files.get(doc_path, []) + analysis.unplaced
        for path in self.published.get(root, set()) - set(files):
            files[path] = []
        sources = {path_of(name): text for name, text in analysis.content.sources.items()}
        uris = self.open_uris()
        for path, diags in files.items():
            text = texts.get(path, sources.get(path))
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uris.get(path, path.as_uri()), diagnostics=to_lsp_diagnostics(diags, text)))
        self.published[root] = set(files)
        return analysis

    def analysis_for(self, uri: str) -> Analysis | None:
        """The last check of the document's ruleset, made now if there is none yet."""
        fs = to_fs_path(uri)
        root = ruleset_root(Path(fs)) if fs else None
        if root is None:
            return None
        return self.analyses.get(root) or self.check(uri)


def make_server(version: str) -> GrimoireServer:
    """A server with the features registered: diagnostics, hover, completion, definition, references,
    rename, document symbols, formatting."""
    server = GrimoireServer(version)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: GrimoireServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: GrimoireServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: GrimoireServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.check(params.text_document.uri)  # unsaved edits are gone: the saved file speaks again

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: GrimoireServer, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        fs = to_fs_path(uri)
        root = ruleset_root(Path(fs)) if fs else None
        if root is None:
            return
        ls.edits[root] = seen = ls.edits.get(root, 0) + 1
        ls.analyses.pop(root, None)
        await asyncio.sleep(DEBOUNCE_S)
        if ls.edits.get(root) == seen:  # no newer edit arrived while waiting
            ls.check(uri)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: GrimoireServer, params: lsp.HoverParams) -> lsp.Hover | None:
        uri = params.text_document.uri
        analysis = ls.analysis_for(uri)
        if analysis is None:
            return None
        doc = ls.workspace.get_text_document(uri)
        return hover(analysis, Path(to_fs_path(uri)).resolve(), doc.source, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls: GrimoireServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        uri = params.text_document.uri
        return completion(ls.analysis_for(uri), ls.workspace.get_text_document(uri).source, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: GrimoireServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        uri = params.text_document.uri
        analysis = ls.analysis_for(uri)
        if analysis is None:
            return None
        return definition(analysis, ls.workspace.get_text_document(uri).source, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: GrimoireServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        uri = params.text_document.uri
        analysis = ls.analysis_for(uri)
        if analysis is None:
            return []
        return references(analysis, ls.workspace.get_text_document(uri).source, params.position,
                          params.context.include_declaration)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def on_formatting(ls: GrimoireServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        uri = params.text_document.uri
        if not uri.endswith(".rules"):
            return []
        return formatting(ls.workspace.get_text_document(uri).source, to_fs_path(uri) or uri)

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def on_prepare_rename(ls: GrimoireServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
        uri = params.text_document.uri
        analysis = ls.analysis_for(uri)
        if analysis is None:
            return None
        return prepare_rename(analysis, ls.workspace.get_text_document(uri).source, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    def on_rename(ls: GrimoireServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        uri = params.text_document.uri
        analysis = ls.analysis_for(uri)
        if analysis is None:
            return None
        try:
            return rename(analysis, ls.workspace.get_text_document(uri).source, params.position, params.new_name)
        except RenameRefused as e:  # LSP's RequestFailed: the editor shows the message
            raise JsonRpcException(str(e), code=REQUEST_FAILED) from None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: GrimoireServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        uri = params.text_document.uri
        analysis = ls.analysis_for(uri)
        return symbols(analysis, Path(to_fs_path(uri)).resolve()) if analysis is not None else []

    return server


def serve(version: str) -> None:
    """Speak LSP on stdin/stdout until the client says `exit`."""
    make_server(version).start_io()
