"""The web server: pages for the opponent, the arbiter and spectators, and their WebSockets.

Starlette on uvicorn, on the game host's own asyncio loop. A page is only served, and a
WebSocket only accepted, with the secret of its role in the URL (``/play?key=…``); everything
else is answered with HTTP 403. Each accepted message is validated (:mod:`voice.web.protocol`),
turned into one input event (:mod:`voice.web.inputs`) and submitted to the host, which journals
it before the session sees it; the session's outputs come back through :class:`Hub`. The one
message that is no input event is the arbiter's approval of a tournament board's set-up: it
answers the program's question (:mod:`voice.rules.approval`), which the terminal asks as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiEvent
from starlette.websockets import WebSocket, WebSocketDisconnect

from voice.config import Settings
from voice.rules.approval import SetupApproval
from voice.rules.events import OpponentLanguage
from voice.runtime.host import GameHost
from voice.web import inputs
from voice.web.hub import CLOSE_FULL, Client, Hub
from voice.web.logs import route_server_logs
from voice.web.pairing import PAGE_OF_ROLE, ROLE_OF_PAGE, Role, Secrets
from voice.web.protocol import (
    WS_MAX_BYTES,
    ApproveSetupIn,
    ErrorOut,
    ProtocolError,
    SyncIn,
    parse,
)
from voice.web.view import GameView
from voice.words.messages import FALLBACK, catalogue, display_text, languages, message

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
ASSETS = {"style.css", "common.js", "play.js", "arbiter.js", "watch.js"}
RIGHT_TO_LEFT = {"ar", "fa", "he"}
LIVE_PGN = "live.pgn"
"""The address of the game as live PGN, read with the spectators' key."""

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@cache
def _template(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def page_language(settings: Settings, role: Role = "opponent") -> str:
    """The language a role's page opens in: the arbiter's own when set, else the opponent's
    (or the fallback while its catalogue does not exist yet)."""
    wanted = settings.language.opponent
    if role == "arbiter" and settings.language.arbiter:
        wanted = settings.language.arbiter
    return wanted if wanted in languages() else FALLBACK


def page_texts(language: str) -> dict[str, str]:
    """The page's part of the message catalogue, the fallback language filling any gap, as
    it reads on a page (no Hebrew points, no Arabic vowel marks: those are for the voice)."""
    texts = {k: v for k, v in catalogue(FALLBACK).items() if k.startswith("web.")}
    if language != FALLBACK:
        texts.update(
            {
                k: display_text(v, language)
                for k, v in catalogue(language).items()
                if k.startswith("web.")
            }
        )
    return texts


def direction(language: str) -> str:
    """The writing direction of a language, for the page's ``dir`` attribute."""
    return "rtl" if language in RIGHT_TO_LEFT else "ltr"


def language_options(language: str) -> str:
    """The page's language chooser: each language named in its own words, ``language`` chosen."""
    options = []
    for code in languages():
        name = html.escape(display_text(message(code, "web.language.name"), code))
        chosen = " selected" if code == language else ""
        options.append(f'<option value="{code}" lang="{code}"{chosen}>{name}</option>')
    return "".join(options)


def chosen_language(query: Mapping[str, str], default: str) -> str:
    """The language a page asked for (``?lang=en``, chosen on the page), or ``default``."""
    wanted = query.get("lang", "")
    return wanted if wanted in languages() else default


def render_page(name: str, language: str) -> str:
    """Fill a page template: ``{{include:file}}`` with a shared part, ``{{t:key}}`` with escaped
    catalogue text, ``{{I18N}}`` with the page's catalogue as JSON (for texts made on the page),
    ``{{LANGUAGES}}`` with the language chooser's options."""
    texts = page_texts(language)
    data = json.dumps(texts, ensure_ascii=False).replace("<", "\\u003c")
    page = re.sub(r"\{\{include:([\w.]+)\}\}", lambda m: _template(m.group(1)), _template(name))
    page = re.sub(r"\{\{t:([\w.]+)\}\}", lambda m: html.escape(texts[m.group(1)]), page)
    page = page.replace("{{LANG}}", language)
    page = page.replace("{{DIR}}", direction(language))
    page = page.replace("{{LANGUAGES}}", language_options(language))
    return page.replace("{{I18N}}", data)


class SecurityHeaders:
    """Every HTTP answer: no framing, no sniffing, no referrer (the URL holds a secret)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(event: AsgiEvent) -> None:
            if event["type"] == "http.response.start":
                headers = list(event.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                event = {**event, "headers": headers}
            await send(event)

        await self.app(scope, receive, with_headers)


def origin_allowed(websocket: WebSocket) -> bool:
    """A browser always names the page that opens a WebSocket: it must be one of ours."""
    origin = websocket.headers.get("origin")
    if origin is None:  # not a browser; the secret still decides
        return True
    return origin == f"http://{websocket.headers.get('host', '')}"


def create_app(
    host: GameHost,
    settings: Settings,
    secrets: Secrets,
    *,
    journal_path: Path | None = None,
    allowed_hosts: list[str] | None = None,
    approval: SetupApproval | None = None,
) -> Starlette:
    """The application for one game: its pages, downloads and WebSockets; ``approval`` is the
    set-up the arbiter's page may approve before the game begins."""
    language = page_language(settings)
    game = GameView(host, settings, language, approval)
    hub = Hub(game.view_for, game.sighted, game.notice_text)
    host.subscribe(hub.publish)

    def text(key: str, in_language: str = language, **params: object) -> str:
        return display_text(message(in_language, f"web.{key}", **params), in_language)

    def forbidden() -> Response:
        return PlainTextResponse(text("error.forbidden"), status_code=403)

    def role_page(role: Role) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            if not secrets.allows(role, request.query_params.get("key")):
                return forbidden()
            shown = chosen_language(request.query_params, page_language(settings, role))
            page = render_page(f"{PAGE_OF_ROLE[role]}.html", shown)
            return Response(page, media_type="text/html; charset=utf-8")

        return endpoint

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(STATIC / name)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def download(request: Request) -> Response:
        if not secrets.allows("arbiter", request.query_params.get("key")):
            return forbidden()
        what = request.path_params["what"]
        if what == "pgn":
            return Response(
                game.pgn(),
                media_type="application/x-chess-pgn; charset=utf-8",
                headers={"Content-Disposition": 'attachment; filename="game.pgn"'},
            )
        if what == "journal" and journal_path is not None and journal_path.exists():
            return FileResponse(
                journal_path, media_type="application/x-ndjson", filename=journal_path.name
            )
        return PlainTextResponse(text("error.no_journal"), status_code=404)

    async def live_pgn(request: Request) -> Response:
        """The game so far as PGN with [%clk] comments, for broadcasts: Lichess and other
        tools poll such an address. Whoever may watch may read it (the spectators' key, or
        nobody's when spectators are open); it is never cached, and any site may fetch it."""
        if not secrets.allows("spectator", request.query_params.get("key")):
            return forbidden()
        return Response(
            game.pgn(),
            media_type="application/x-chess-pgn; charset=utf-8",
            headers={"Access-Control-Allow-Origin": "*"},
        )

    async def websocket_endpoint(websocket: WebSocket) -> None:
        role = ROLE_OF_PAGE.get(websocket.path_params["page"])
        allowed = (
            role is not None
            and origin_allowed(websocket)
            and secrets.allows(role, websocket.query_params.get("key"))
        )
        if role is None or not allowed:
            await websocket.close(code=1008)  # before accept: the client gets HTTP 403
            return
        await websocket.accept()
        shown = chosen_language(websocket.query_params, page_language(settings, role))
        if not hub.has_room(role):  # a spectator too many: told why, it tries again later
            refusal = ErrorOut(code="full", message=text("error.full", shown))
            await websocket.send_text(refusal.model_dump_json())
            await websocket.close(code=CLOSE_FULL)
            return
        client = hub.join(websocket, role, text("error.replaced", shown), shown)
        # Only a language the page really asked for (an unknown ?lang= shows the default).
        chose = websocket.query_params.get("lang") == shown != game.session.opponent_language
        if role == "opponent" and chose:
            # The opponent chose their page's language: what the game says to them follows it.
            await host.submit(partial(OpponentLanguage, language=shown))
        try:
            while not client.closing:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                await _handle(client, raw if raw is not None else frame.get("bytes") or b"")
        except WebSocketDisconnect:
            pass
        finally:
            await hub.leave(client)

    async def _handle(client: Client, raw: str | bytes) -> None:
        if not client.admit(text("error.rate_limited", client.language)):
            return
        try:
            incoming = parse(raw, client.role)
            if isinstance(incoming, SyncIn):
                hub.send_state(client)
                return
            if isinstance(incoming, ApproveSetupIn):
                # The program records the approval and starts the game; every page then gets
                # the new state. A second approval changes nothing.
                game.approve_setup()
                return
            make = inputs.to_event(incoming, game)
        except ProtocolError as error:
            client.refused(error.code, text(f"error.{error.code}", client.language))
            return
        except Exception:  # a check we did not foresee: refuse the message, keep the page
            log.exception("a message from the %s's page could not be read", client.role)
            client.refused("malformed", text("error.malformed", client.language))
            return
        try:
            await host.submit(make)
        except Exception:  # a bug behind the page must not cut the page off: say so, log it
            log.exception("the game could not handle a message from the %s's page", client.role)
            client.put(ErrorOut(code="refused", message=text("error.refused", client.language)))

    routes = [
        *(Route(f"/{PAGE_OF_ROLE[role]}", role_page(role)) for role in PAGE_OF_ROLE),
        Route("/static/{name}", asset),
        Route("/favicon.ico", no_icon),
        Route("/download/{what}", download),
        Route(f"/{LIVE_PGN}", live_pgn),
        WebSocketRoute("/ws/{page}", websocket_endpoint),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.hub = hub
    return app


# -- running it ---------------------------------------------------------------------------


def lan_address() -> str:
    """This computer's address on the local network (the interface a default route uses)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent for a UDP connect
        address: str = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


WILDCARDS = frozenset({"0.0.0.0", "::", ""})


class _EmbeddedServer(uvicorn.Server):
    """uvicorn inside the game's program: Ctrl-C belongs to the program, not to the server."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@dataclass
class WebServer:
    """uvicorn serving one game's app on a socket we bind ourselves (port 0 = any free one)."""

    host: GameHost
    settings: Settings
    secrets: Secrets
    bind: str = "127.0.0.1"
    port: int = 0
    journal_path: Path | None = None
    approval: SetupApproval | None = None
    log_path: Path | None = None  # None: web.log in the data folder (voice.web.logs)

    def __post_init__(self) -> None:
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self.app: Starlette | None = None

    async def start(self) -> None:
        """Bind, start serving, and return once the server accepts connections.

        Raises OSError (e.g. the port is taken) before anything is attached to the game.
        """
        family = socket.AF_INET6 if ":" in self.bind else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.bind, self.port))
        except OSError:
            sock.close()
            raise
        self.port = sock.getsockname()[1]
        names = {self.bind, self.public_host, "127.0.0.1", "localhost", "::1"}
        self.app = create_app(
            self.host,
            self.settings,
            self.secrets,
            journal_path=self.journal_path,
            allowed_hosts=sorted(names - WILDCARDS),
            approval=self.approval,
        )
        route_server_logs(self.log_path)
        config = uvicorn.Config(
            self.app,
            log_config=None,  # uvicorn's own set-up would print to the terminal
            log_level="warning",
            access_log=False,  # the URLs carry secrets
            lifespan="off",
            ws_max_size=WS_MAX_BYTES,
        )
        self._server = _EmbeddedServer(config)
        self._task = asyncio.get_running_loop().create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                self._task.result()  # raises what stopped it
            await asyncio.sleep(0.01)

    @property
    def public_host(self) -> str:
        """The address others reach us at: the bound one, or the LAN one for a wildcard."""
        return lan_address() if self.bind in WILDCARDS else self.bind

    def url(self, role: Role) -> str:
        """The address a role's page is opened with, its secret included where one is needed."""
        host = f"[{self.public_host}]" if ":" in self.public_host else self.public_host
        base = f"http://{host}:{self.port}/{PAGE_OF_ROLE[role]}"
        if role == "spectator" and self.secrets.open_spectators:
            return base
        return f"{base}?key={self.secrets.secret_of(role)}"

    def live_pgn_url(self) -> str:
        """The live PGN's address for broadcasts, with the spectators' key unless they are open."""
        watch = self.url("spectator")
        return watch.replace(f"/{PAGE_OF_ROLE['spectator']}", f"/{LIVE_PGN}", 1)

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task
