"""`grimoire serve`: the browser table (Starlette routes over a `Table`, served by uvicorn).

Every address carries a token: a seat's page and its API answer only for that seat (table.py
builds the seat's view from the engine's visibility rule), the designer's token opens the
inspector. Updates reach the pages as server-sent events: each event is the table's version
number, and a page reloads its view when it moves. Every refusal is a JSON object
`{"error": "..."}` with a 4xx status; nothing the browser sends can raise a traceback or change the
game unless it is a valid answer.
"""
from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .table import Table, TableError

__all__ = ["make_app", "serve", "STATIC"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64_000_000  # a loaded save, at most (the size `play --resume` reads)
POLL_S = 0.1  # how often an event stream looks for a new version


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict:
    """The request's JSON object, or a refusal naming what is wrong with it."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise TableError("the request is too large", 413)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise TableError("the request body is not valid JSON", 400) from None
    if not isinstance(data, dict):
        raise TableError("the request body must be a JSON object", 400)
    return data


def _number(raw: str) -> int | str:
    """A path or query part as a number when it is one (ASCII digits only), else as given (refused later)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else raw


def make_app(table: Table) -> Starlette:
    """The web app of one table: pages, the JSON API, the event stream."""

    def page(request: Request) -> Response:
        table.who(request.path_params["token"])  # an unknown token gets the JSON refusal, not the app
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    def home(request: Request) -> Response:
        return PlainTextResponse(f"Grimoire: {table.program.rs.title}. Open the address of your seat "
                                 "(printed where `grimoire serve` was started).")

    def state(request: Request) -> Response:
        seat = request.query_params.get("seat")
        return JSONResponse(table.seat_view(request.path_params["token"], None if seat is None else _number(seat)))

    def view_of(request: Request) -> Response:
        return JSONResponse(table.seat_view(request.path_params["token"], _number(request.path_params["seat"])))

    async def answer(request: Request) -> Response:
        data = await _body(request)
        token = request.path_params["token"]
        await asyncio.to_thread(table.answer, token, data.get("option"), data.get("step"))
        return JSONResponse(await asyncio.to_thread(table.seat_view, token))

    async def events(request: Request) -> Response:
        table.who(request.path_params["token"])

        async def stream() -> AsyncIterator[str]:
            seen = None
            while not await request.is_disconnected():
                if table.version != seen:
                    seen = table.version
                    yield f"data: {seen}\n\n"
                await asyncio.sleep(POLL_S)
        return StreamingResponse(stream(), media_type="text/event-stream; charset=utf-8",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def designer_action(act: Callable[[str, dict], Any]) -> Callable:
        async def run(request: Request) -> Response:
            data = await _body(request)
            token = request.path_params["token"]
            await asyncio.to_thread(act, token, data)
            return JSONResponse(await asyncio.to_thread(table.seat_view, token))
        return run

    def save(request: Request) -> Response:
        text = table.save(request.path_params["token"])
        return Response(text, media_type="application/json; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="grimoire-save.json"'})

    def log(request: Request) -> Response:
        return Response(table.log_text(request.path_params["token"]),
                        media_type="application/x-ndjson; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="grimoire-log.jsonl"'})

    def face(request: Request) -> Response:
        svg = table.face(request.path_params["token"], _number(request.path_params["card"]))
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})

    async def load(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise TableError("the save is too large", 413)
        token = request.path_params["token"]
        await asyncio.to_thread(table.load, token, raw.decode("utf-8", errors="replace"))
        return JSONResponse(await asyncio.to_thread(table.seat_view, token))

    async def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, TableError):
            return _error(str(exc), exc.status)
        if isinstance(exc, HTTPException):
            return _error("no such page" if exc.status_code == 404 else str(exc.detail), exc.status_code)
        return _error("internal error: the game is unchanged; the server's terminal says more", 500)

    api = "/api/{token}"
    routes = [
        Route("/", home),
        Route("/seat/{token}", page),
        Route("/designer/{token}", page),
        Route(api + "/state", state),
        Route(api + "/view/{seat}", view_of),
        Route(api + "/answer", answer, methods=["POST"]),
        Route(api + "/events", events),
        Route(api + "/back", designer_action(lambda t, d: table.step(t, -1)), methods=["POST"]),
        Route(api + "/forward", designer_action(lambda t, d: table.step(t, +1)), methods=["POST"]),
        Route(api + "/resume", designer_action(lambda t, d: table.resume(t)), methods=["POST"]),
        Route(api + "/new", designer_action(lambda t, d: table.new_game(t, d.get("seed"))), methods=["POST"]),
        Route(api + "/seat", designer_action(lambda t, d: table.set_seat(t, d.get("player"), d.get("kind"))),
              methods=["POST"]),
        Route(api + "/save", save),
        Route(api + "/load", load, methods=["POST"]),
        Route(api + "/log", log),
        Route(api + "/face/{card}", face),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={TableError: refused, HTTPException: refused,
                                                        Exception: refused})


def addresses(table: Table, base: str) -> list[str]:
    """The lines `serve` prints: one address per person's seat, and the designer's."""
    out = [f"player {i + 1} ({s.kind}): " + (f"{base}/seat/{s.token}" if s.kind == "human" else "played by a bot")
           for i, s in enumerate(table.seats)]
    if table.designer_token:
        out.append(f"designer: {base}/designer/{table.designer_token}")
    return out


def serve(table: Table, host: str, port: int) -> None:
    """Print the seats' addresses and serve until interrupted."""
    try:  # a port in use is said before the addresses are printed (uvicorn would only log it)
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise ValueError(f"cannot listen on {host} port {port}: {e.strerror or e} "
                         "(is another program using it? choose one with --port)") from None
    shown = socket.gethostname() if host in ("0.0.0.0", "::") else host  # every interface: this machine's name
    base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}"
    print(f"{table.program.rs.title}: {table.players} players, seed {table.seed}")
    for line in addresses(table, base):
        print("  " + line)
    print("each address is that seat's key: give it only to the person who sits there. Ctrl-C stops.", flush=True)
    uvicorn.run(make_app(table), host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
