"""The connected pages and what each of them is sent.

Every batch of the core's outputs is answered by a fresh snapshot to every page (so a page that
missed something, or reconnects, is never out of date) plus the notices meant for its audience.
Each page has its own outgoing queue and sender task: a slow or vanished phone cannot hold up
the game loop, and a page whose queue overflows is disconnected, not waited for.

Each role has its own places (:class:`Slots`), so that spectators can never lock out the two
pages the game needs: the opponent's board and the arbiter's panel always connect, the newest
page taking over from the oldest when its role's places are taken (the older one is told why);
spectators beyond their cap are refused with a sentence and try again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

from voice.rules.events import OutputEvent, Refused, Say
from voice.web.pairing import Role
from voice.web.protocol import (
    ErrorCode,
    ErrorOut,
    Message,
    NoticeKind,
    NoticeOut,
    RateLimiter,
    StateOut,
    View,
)

log = logging.getLogger(__name__)

QUEUE_LIMIT = 256
"""Messages waiting for one page; beyond this the page is too slow or gone and is dropped."""

SENDER_GRACE = 2.0
"""Seconds a departing page's queue may take to drain before its sender is cancelled."""

CLOSE_REPLACED = 4001
"""Close code for a page another page of the same role took over from (it does not retry)."""
CLOSE_FULL = 4002
"""Close code for a spectator refused for want of a place (it tries again later)."""
CLOSE_TOO_SLOW = 1013
"""Close code for a page that did not read what it was sent (it reconnects and resyncs)."""


@dataclass(frozen=True)
class Slots:
    """Open pages per role: the newest opponent or arbiter page takes over from the oldest;
    a spectator beyond its cap is refused."""

    opponent: int = 1
    arbiter: int = 4
    spectator: int = 32

    def of(self, role: Role) -> int:
        return {"opponent": self.opponent, "arbiter": self.arbiter, "spectator": self.spectator}[
            role
        ]


ViewBuilder = Callable[[Role, str], View]
"""The state for a role's page, its texts in the page's language."""


@dataclass(eq=False)
class Client:
    """One open page: its role, its rate limit and its outgoing queue."""

    websocket: WebSocket
    role: Role
    language: str = ""  # the page's language ("": the opponent's language of the game)
    order: int = 0  # when it joined: the oldest page of a role is the one taken over from
    limiter: RateLimiter = field(default_factory=RateLimiter)
    queue: asyncio.Queue[str | int | None] = field(  # text, a close code, or "stop"
        default_factory=lambda: asyncio.Queue(maxsize=QUEUE_LIMIT)
    )
    sender: asyncio.Task[None] | None = None
    closing: bool = False

    def put(self, message: Message) -> None:
        """Queue a message; a page that cannot keep up is closed instead of waited for."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(message.model_dump_json(exclude_none=True))
        except asyncio.QueueFull:
            self.close(CLOSE_TOO_SLOW)

    def refused(self, code: ErrorCode, text: str) -> None:
        """Answer a message that changed nothing; the page stays connected."""
        self.put(ErrorOut(code=code, message=text))

    def admit(self, text: str) -> bool:
        """Whether the rate limit lets this message through. A flood is answered (``text``) at
        most every 10 s (:meth:`RateLimiter.notice`) and otherwise dropped unanswered, so the
        replies cannot outgrow the rate. (Once per run of refused messages was told again
        whenever a slow flood on a loaded machine let one message through: CI saw it twice.)"""
        if self.limiter.allow():
            return True
        if self.limiter.notice():
            self.refused("rate_limited", text)
        return False

    def close(self, code: int) -> None:
        """Close after what is already queued (the page learns why it was cut off)."""
        if self.closing:
            return
        self.closing = True
        try:
            self.queue.put_nowait(code)
        except asyncio.QueueFull:  # it is not reading anyway: close at once
            asyncio.get_running_loop().create_task(self._close(code))

    def finish(self) -> None:
        """The page has gone: let the sender stop after what is queued."""
        if not self.closing:
            self.closing = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code)

    async def pump(self) -> None:
        """Send queued messages in order until told to stop or close, or the page is gone."""
        try:
            while (item := await self.queue.get()) is not None:
                if isinstance(item, int):
                    await self._close(item)
                    return
                await self.websocket.send_text(item)
        except Exception:  # the page went away: nothing to do, the game goes on
            log.debug("page %s stopped receiving", self.role)


# Which pages see a notice: the opponent's board, the arbiter's panel, the spectators' view.
# The session's own lines for the arbiter ("Logged: add_time (reason: -)") name its internal
# actions: the panel shows the same event from its log instead, in the arbiter's words.
AUDIENCE: dict[str, tuple[Role, ...]] = {
    "sighted": ("opponent", "arbiter"),
    "all": ("opponent", "arbiter", "spectator"),
    "arbiter": (),
    "blind": ("arbiter",),
}


class Hub:
    """All open pages; :meth:`publish` is the game host's output subscriber."""

    def __init__(
        self,
        view: ViewBuilder,
        sighted_side: str,
        display: Callable[[Say], str] | None = None,
        slots: Slots | None = None,
    ) -> None:
        self._view = view
        self._sighted = sighted_side
        # How a spoken sentence reads on a page (the session writes it for the voice).
        self._display = display or (lambda say: say.text)
        self.slots = slots or Slots()
        self.clients: set[Client] = set()
        self._joined = 0

    def pages(self, role: Role) -> list[Client]:
        """The open pages of ``role``, oldest first."""
        return sorted((c for c in self.clients if c.role == role), key=lambda c: c.order)

    def has_room(self, role: Role) -> bool:
        """Opponent and arbiter pages always get in (taking over); spectators while there is a
        place."""
        return role != "spectator" or len(self.pages(role)) < self.slots.of(role)

    def join(
        self, websocket: WebSocket, role: Role, replaced: str = "", language: str = ""
    ) -> Client:
        """A new page of ``role``; the oldest pages beyond the role's places get ``replaced``
        (the sentence telling them another page took over) and are closed."""
        pages = self.pages(role)
        for older in pages[: max(0, len(pages) + 1 - self.slots.of(role))]:
            self.clients.discard(older)
            older.put(ErrorOut(code="replaced", message=replaced))
            older.close(CLOSE_REPLACED)
        self._joined += 1
        client = Client(websocket, role, language=language, order=self._joined)
        client.sender = asyncio.get_running_loop().create_task(client.pump())
        self.clients.add(client)
        self.send_state(client)
        return client

    async def leave(self, client: Client) -> None:
        """Forget a page; its sender gets a moment to deliver a closing reason, no more."""
        self.clients.discard(client)
        client.finish()
        if client.sender is not None:
            try:
                await asyncio.wait_for(client.sender, SENDER_GRACE)
            except (TimeoutError, asyncio.CancelledError, Exception):
                client.sender.cancel()

    def send_state(self, client: Client) -> None:
        client.put(StateOut(view=self._view(client.role, client.language)))

    def publish(self, outputs: Sequence[OutputEvent]) -> None:
        """Notices to their audiences, then the new state to everybody."""
        notices = list(self._notices(outputs))
        views: dict[tuple[Role, str], View] = {}
        for client in list(self.clients):
            for roles, notice in notices:
                if client.role in roles:
                    client.put(notice)
            key = (client.role, client.language)
            if key not in views:
                views[key] = self._view(*key)
            client.put(StateOut(view=views[key]))

    def _notices(
        self, outputs: Sequence[OutputEvent]
    ) -> Iterator[tuple[tuple[Role, ...], NoticeOut]]:
        """What the session said, to the pages of its audience.

        The session follows a refusal of the sighted player's move with the sentence saying
        why; that sentence is marked as a refusal so the page can show it as an error.
        """
        refused = False
        for output in outputs:
            match output:
                case Refused(by=by):
                    refused = by == self._sighted
                case Say(to=to):
                    kind: NoticeKind = "refused" if refused and to != "blind" else "say"
                    refused = refused and to == "blind"
                    yield AUDIENCE[to], NoticeOut(kind=kind, text=self._display(output))
