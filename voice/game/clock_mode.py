"""The talking clock (Appendix D.2.6.1): a chess clock that says the time and the move count.

Pure: events in, events out, no audio, threads or wall clock. The terminal adapter
(``voice/cli/clock.py``) turns keys into :class:`~voice.rules.events.KeyPress` events carrying the
*action* ("press", "time", "moves", "pause", "help", "quit"), asks :meth:`ClockSession.
next_wakeup_ms` when time alone will cause output and sends a :class:`~voice.rules.events.Tick`
then;
``voice-chess simulate`` feeds scripts through the same methods. Spoken requests ("Zeit", "Uhr",
"Züge", "Pause") arrive as :class:`~voice.rules.events.Ask` or :class:`~voice.rules.events.Pause`
events.

What is said, and when (docs/rules.md §2 and §6.4):

- both times and the move count only on request (D.2.10.4);
- a flag fall at once, at its own instant, in every profile: the assistant claims it (D.2.10.5);
  with no board the clock cannot apply 6.9, so it says that the time is up, not who won; a
  second flag (only where the game went on after the first: see below) names the first
  (Guideline III.3.1), or, in rapid play under the 2001 Laws (B.8), says that the game is drawn;
- low-time warnings for the blind player's own clock in the home profile only, at each
  configured threshold, never in the tournament profile;
- confirmations of the user's own actions (start, pause, resume, quit, help mode).

A clock brought back from its journal after an interruption stands until a press (or P) starts
the side to move again (:meth:`ClockSession.leftovers`, the input ``hold``): the players sit
down again and the arbiter restarts the clock (6.11), as a new clock waits for its first press;
that press starts the clock, it completes no move.

Once a flag has fallen the game is decided (6.9: lost, or drawn when the opponent cannot mate)
and the clock stands, as a clock does that shows a fallen flag: a press neither switches it nor
adds an increment, and says that the time is up and the clock stands; the time and the moves are
still answered, and the arbiter's corrections still taken (time given to the side whose flag
fell lets the clock go on). Under the 2001 Laws in rapid play a flag counts only when claimed
(B.6), so there the game, and the clock, go on until the second flag (B.8). A journal of an
older clock replays as it was played (:data:`REVISION`).

An arbiter's correction the clock cannot make (a malformed action, one that needs a board, one
that would leave a player no time) is refused with a sentence and changes nothing; so is every
input but a request for the time or the moves once the clock was ended (Q twice: its times stand
still from then on). :meth:`ClockSession.screen` says so before the input is journaled, so
that what changes nothing is not written down: a resume never meets it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass

from voice.config import Settings
from voice.game.announcements import side_name
from voice.rules.arbiter import (
    ALIASES,
    AddTime,
    ArbiterCommand,
    ArbiterError,
    Increment,
    Malformed,
    Penalty,
    SetMoves,
    SetTime,
    leaves_time,
)
from voice.rules.clock import SIDES, Clock, ClockError, FlagFall, Side
from voice.rules.events import (
    ArbiterAction,
    Ask,
    ClockPress,
    ClockState,
    Flag,
    InputEvent,
    KeyPress,
    OutputEvent,
    Pause,
    Resume,
    Say,
    ScriptError,
    Setup,
    Tick,
)
from voice.rules.laws import EditionError, laws_for
from voice.rules.timecontrol import Period, TimeControl, TimeControlError, parse_time_control
from voice.words.messages import message
from voice.words.spoken_time import count_words, duration_words

ACTIONS = ("press", "time", "moves", "pause", "help", "quit")
CLOCK_ACTIONS = ("add_time", "set_time", "set_moves", "penalty", "increment")
"""The arbiter's actions a clock alone can carry out (the game's others need a board)."""
ASKS = ("time", "moves", "pause")
"""What a script's ``ask`` (and the clock's microphone) may ask of the clock."""
REQUESTS = ("time", "moves")
"""What an ended clock still answers: its final times and moves."""
WHYS = ("missing", "value", "no_time_left", "has_increment")
"""The faults of an arbiter's action that the clock says in the player's words
(``clock.why.{reason}``); any other is ``clock.why.cannot``."""


@dataclass(frozen=True)
class _Request:
    """One input reduced to what the clock should do."""

    action: str
    side: Side | None = None


class ClockSession:
    """The talking clock's state machine around a :class:`~voice.rules.clock.Clock`.

    ``start_ms`` starts White's clock at that instant (scripts start at 0, as 6.6 says);
    ``None`` waits for the first press, so a player can set up the board first.
    """

    def __init__(self, setup: Setup, settings: Settings, *, start_ms: int | None = 0) -> None:
        self.control: TimeControl = parse_time_control(
            setup.time_control or settings.clock.time_control, settings.clock.presets
        )
        try:
            self.laws = laws_for(setup.laws or settings.rules.edition)
        except EditionError as error:
            raise ScriptError(str(error)) from None
        self.clock = Clock(self.control, penalty_ms=self.laws.penalty_ms(self.control))
        self.blind: Side = setup.blind
        self.profile = setup.profile
        self.language = setup.language or settings.language.blind
        self.keys = settings.clock.keys
        self.help_mode = False
        self.finished = False
        self._quit_pending = False
        self._held = False  # resumed: the next press starts the side to move (``hold``)
        self._now = 0
        self._warn = self.profile == "home" and settings.clock.warn_low_time
        self._thresholds_ms = sorted({s * 1000 for s in settings.clock.low_time_warnings})
        self._armed: set[int] = set()
        self.bounce_ms = _bounce_ms(setup.extra)
        self.revision = revision_of(setup.extra)
        self._last_press: int | None = None
        if start_ms is not None:
            self.clock.start(start_ms)
            self._now = start_ms
        self._rearm()

    # -- the Core protocol --------------------------------------------------------------------

    def handle(self, event: InputEvent) -> list[OutputEvent]:
        """Apply one event at its instant; return what to say plus the clock state."""
        t = event.t_ms
        if t < self._now:
            raise ScriptError(f"time went backwards: {t} ms after {self._now} ms")
        self._now = t
        out = self._time_passed(t)
        refusal = self.screen(event)
        if refusal is not None:  # nothing changes
            out.append(Say(t, refusal))
        elif (request := self._request(event)) is not None:
            out += self._act(request, event)
            out += self._time_passed(t)  # an arbiter may have set a clock to zero
        out.append(self.state(t))
        return out

    def screen(self, event: InputEvent) -> str | None:
        """The sentence with which the clock refuses ``event``, changing nothing, or ``None``
        when it takes it. Asked before the input is journaled (``voice-chess simulate``): what
        is refused is not written, so a resume never meets it. An ``ask`` the clock has no
        answer for raises :class:`ScriptError` (the run stops, before the line is written)."""
        why = self._why_refused(event)
        if why is None:
            return None
        if isinstance(event, ArbiterAction) and not self.finished:
            return message(self.language, "clock.arbiter_refused", action=event.action, why=why)
        return why  # "Diese Uhr wurde beendet …"

    def passed_over(self, line: int, event: InputEvent) -> list[OutputEvent]:
        """What a resume says about line ``line`` of the journal, which it passed over: an
        input :meth:`screen` keeps out of a journal now, written by an older version (there it
        stopped the run, and every resume after it). Nothing for an input after the end: the
        resumed clock says that it was ended."""
        if self.finished:
            return []
        try:
            why = self._why_refused(event)
        except ScriptError:
            assert isinstance(event, Ask)
            why = self._value_words("ask", event.what, ", ".join(ASKS))
        if why is None:
            return []
        action = event.action if isinstance(event, ArbiterAction) else "ask"
        text = message(self.language, "clock.line_skipped", line=line, action=action, why=why)
        return [Say(event.t_ms, text)]

    def next_wakeup_ms(self) -> int | None:
        """The next flag fall or low-time warning if nobody acts; ``None`` if none is due."""
        flag_at = self.clock.next_event_ms(self._now)
        if flag_at is None:
            return None
        instants = [flag_at]
        if self._warn and self.clock.running == self.blind:
            instants += [flag_at - threshold for threshold in self._armed]
        return min(instants)

    def time_runs(self) -> bool:
        """Whether a side's clock is running (started, not paused, not ended, and the running
        side's flag not down: its display stands at zero)."""
        running = self.clock.running
        if self.finished or running is None or self.clock.paused:
            return False
        return not self.clock.is_down(running)

    # -- what to say without being asked ------------------------------------------------------

    def resume_announcement(self) -> list[OutputEvent]:
        """A clock brought back from its journal (``voice-chess clock --resume``, ``simulate
        --resume``): both times and the moves, as asked for with the time key, whether it was
        ended, and the displays."""
        t = self._now
        running = self.clock.running
        if self.finished:  # said first: nothing goes on
            text = message(self.language, "clock.ended") + " " + self._time_report(t)
        elif running is None:
            text = self._time_report(t)
        else:  # the game on the board goes on: whose clock runs (or will), as a game says it
            text = message(
                self.language,
                "game.resume.game",
                side=side_name(running, self.language),
                white=duration_words(self.clock.remaining_ms("white", t), self.language),
                black=duration_words(self.clock.remaining_ms("black", t), self.language),
            )
            text += " " + self._moves_report()
            if self._held:
                text += " " + self._held_words()
            elif self.clock.paused:
                text += " " + message(self.language, "clock.is_paused")
            text += self._flags_report()  # said when it fell; the restarted clock says it again
        return [Say(t, text), self.state(t)]

    def leftovers(self, t_ms: int) -> list[InputEvent]:
        """The inputs that end what a clock brought back from its journal should not still be
        in, and hold it (fed to it and journaled like any other, so that a later resume
        replays them): help mode, where every key only says what it does while the player's
        time runs, and a quit asked for but not confirmed, where the next Q would end the clock
        at once; and a running clock, which stands until a press starts it again (6.11: the
        players sit down again, the arbiter restarts the clock; it ran again at once, and the
        time taken to sit down was the player's, a new user's trial)."""
        if self.finished:
            return []  # nothing goes on
        inputs: list[InputEvent] = []
        if self.help_mode:
            inputs.append(KeyPress(t_ms, "help"))  # also forgets a quit asked for
        elif self._quit_pending:
            inputs.append(KeyPress(t_ms, "none"))  # "any other key goes on"
        if self.time_runs():
            inputs.append(KeyPress(t_ms, "hold"))
        return inputs

    def welcome(self, t_ms: int) -> list[OutputEvent]:
        """The first announcement of the interactive clock: the control and how to start."""
        text = message(
            self.language,
            "clock.ready",
            control=describe_control(self.control, self.language),
            press_keys=self._key_words("press"),
            help_key=self._key_words("help"),
        )
        laws = message(
            self.language, f"app.laws.{self.laws.appendix.lower()}", edition=self.laws.edition
        )
        return [Say(t_ms, f"{text} {laws}.")]

    def state(self, t_ms: int) -> ClockState:
        """Both displays; ``moves`` is the number of moves White completed (the move number)."""
        running = None if self.clock.paused else self.clock.running
        return ClockState(
            t_ms,
            white_ms=self.clock.remaining_ms("white", t_ms),
            black_ms=self.clock.remaining_ms("black", t_ms),
            running=running,
            moves=self.clock.moves_completed("white"),
        )

    def _time_passed(self, t: int) -> list[OutputEvent]:
        out: list[OutputEvent] = []
        for fall in self.clock.check_flags(t):
            out += self._flag_fell(fall)
        out += self._warnings(t)
        return out

    def _flag_fell(self, fall: FlagFall) -> list[OutputEvent]:
        side = self._side_word(fall.side)
        flags = self.clock.flags
        opponent_first = [
            f
            for f in flags[: flags.index(fall)]
            if f.side != fall.side and self.clock.is_down(f.side)
        ]
        if opponent_first and self.laws.flag_needs_claim(self.control):
            # 2001 B.8: in rapid play both flags down is a draw, whichever fell first.
            text = message(self.language, "clock.flag_both_draw", side=side)
        elif opponent_first:  # Guideline III.3.1: the order of the flags is known, so say it
            first = self._side_word(opponent_first[0].side)
            text = message(self.language, "clock.flag_second", side=side, first=first)
        else:
            text = message(self.language, "clock.flag", side=side)
        required = self.control.control_after(fall.period_index)
        if fall.moves_required_met:
            text += " " + message(self.language, "clock.flag_moves_met")
        elif required is not None:  # 6.4: were the period's moves completed?
            text += " " + message(
                self.language,
                "clock.flag_moves",
                done=count_words(self.clock.moves_completed(fall.side), "move", self.language),
                required=count_words(required, "move", self.language),
            )
        return [Flag(fall.t_ms, fall.side), Say(fall.t_ms, text)]

    def _warnings(self, t: int) -> list[OutputEvent]:
        if not self._warn or self.clock.running != self.blind or self.clock.is_down(self.blind):
            return []
        left = self.clock.remaining_ms(self.blind, t)
        crossed = sorted(threshold for threshold in self._armed if left <= threshold)
        if not crossed:
            return []
        self._armed -= set(crossed)
        time = duration_words(crossed[0], self.language)
        return [Say(t, message(self.language, "clock.warning", time=time))]

    def _rearm(self) -> None:
        """Warn again for thresholds below the blind player's time after time was given."""
        left = self.clock.remaining_ms(self.blind, self._now)
        self._armed = {threshold for threshold in self._thresholds_ms if threshold < left}

    # -- requests -------------------------------------------------------------------------------

    def _request(self, event: InputEvent) -> _Request | None:
        match event:
            case KeyPress(key=key):
                return _Request(key)
            case ClockPress(side=side):
                return _Request("press", side)
            case Ask(what=what):
                if what not in ASKS:
                    raise ScriptError(f"the clock is asked for time, moves or pause, not {what!r}")
                return _Request(what)
            case Pause():
                return _Request("pause_on")
            case Resume():
                return _Request("pause_off")
            case Tick():
                return None
            case ArbiterAction():
                return _Request("arbiter")
        return _Request("unknown")

    def _why_refused(self, event: InputEvent) -> str | None:
        """Why the clock refuses ``event``, in the player's words, or ``None``."""
        request = self._request(event)  # an ask it has no answer for raises
        if self.finished:
            if request is None or request.action in REQUESTS:
                return None
            return message(self.language, "clock.ended")
        if isinstance(event, ArbiterAction):
            return self._arbiter_refusal(event)
        return None

    def _arbiter_refusal(self, event: ArbiterAction) -> str | None:
        """Why an arbiter's action cannot be carried out, or ``None``: read as the game reads
        it (:mod:`voice.rules.arbiter`), and tried on a copy of the clock, so that what is
        refused is exactly what carrying it out would refuse."""
        command = event.command
        if ALIASES.get(event.action, event.action) not in CLOCK_ACTIONS:
            actions = ", ".join(CLOCK_ACTIONS)
            return message(self.language, "clock.why.not_clock", actions=actions)
        if isinstance(command, Malformed):
            return self._why_words(command.reason, command.params)
        if isinstance(command, SetMoves) and command.side is None and self.revision < 2:
            # Older clocks corrected one side's counter only (their journals replay so).
            return self._why_words("missing", {"name": "side", "allowed": "white, black"})
        try:
            self._correct(command, event.t_ms, copy.deepcopy(self.clock))
        except (ClockError, ArbiterError) as error:
            return self._why_words(error.reason, error.params)
        return None

    def _why_words(self, reason: str, params: Mapping[str, str | int]) -> str:
        if reason not in WHYS:
            return message(self.language, "clock.why.cannot")
        filled: dict[str, object] = dict(params)
        if reason == "no_time_left" and params.get("side") in ("white", "black"):
            filled["side"] = message(self.language, f"clock.{params['side']}")
        return message(self.language, f"clock.why.{reason}", **filled)

    def _value_words(self, name: str, value: object, allowed: str) -> str:
        given = json.dumps(value, ensure_ascii=False, default=str)
        return message(self.language, "clock.why.value", name=name, given=given, allowed=allowed)

    def _act(self, request: _Request, event: InputEvent) -> list[OutputEvent]:
        t = event.t_ms
        action = request.action
        if self.help_mode and isinstance(event, KeyPress) and action != "help":
            return [Say(t, self._describe_key(action))]
        if self._quit_pending and action != "quit":
            self._quit_pending = False
        match action:
            case "press":
                return self._press(t, request.side)
            case "time":
                return [Say(t, self._time_report(t))]
            case "moves":
                return [Say(t, self._moves_report())]
            case "pause":
                return self._pause(t, on=not self.clock.paused)
            case "pause_on" | "pause_off":
                return self._pause(t, on=action == "pause_on")
            case "help":
                return self._toggle_help(t)
            case "quit":
                return self._quit(t)
            case "hold" if self.time_runs():
                self.clock.pause(t)
                self._held = True
                # Game time stood still while the program was down: the next press may come
                # within the bounce time of the last one before, and is no bounce of it.
                self._last_press = None
                return [Say(t, self._held_words())]
            case "hold":  # nothing runs that could stand
                return []
            case "arbiter":
                assert isinstance(event, ArbiterAction)
                return self._arbiter(event)
            case "none":
                return []
        return [Say(t, message(self.language, "not_understood"))]

    def _press(self, t: int, side: Side | None) -> list[OutputEvent]:
        last, self._last_press = self._last_press, t
        if side is None and last is not None and t - last < self.bounce_ms:
            # One key for both sides: a second press this soon is the key or a foot switch
            # bouncing, or a double tap, never the opponent's move; counted, it ran a move
            # and an increment that nobody made (a new user's trial).
            return []
        if not self.clock.started:
            # 6.6: whoever presses first, it is White's clock that starts.
            self.clock.start(t)
            self._rearm()
            return [Say(t, message(self.language, "clock.started"))]
        if side is not None and side != self.clock.running:
            return []  # a stopped side's button does nothing, as on a real clock
        if self.flag_stands():
            return [Say(t, self._stands_words())]
        if self._held:  # resumed: this press starts the side to move again
            self._held = False
            self.clock.resume(t)
            mover = self._side_word(self.clock.running or "white")
            return [Say(t, message(self.language, "clock.restarted", side=mover))]
        if self.clock.paused:
            return [Say(t, message(self.language, "clock.is_paused"))]
        presser = self.clock.running
        period = self.clock.period_index(self.blind)
        self.clock.press(t)
        if presser == self.blind and self.clock.period_index(self.blind) != period:
            self._rearm()  # a new period's time was added
        return []

    def _pause(self, t: int, *, on: bool) -> list[OutputEvent]:
        if not self.clock.started:
            return [Say(t, message(self.language, "clock.not_started"))]
        if self.flag_stands():  # nothing runs that a pause could stop, or a resume restart
            return [Say(t, self._stands_words())]
        if on and self._held:  # the arbiter's pause: from now on only P restarts it
            self._held = False
            return [Say(t, message(self.language, "clock.paused"))]
        if on == self.clock.paused:
            key = "clock.is_paused" if on else "clock.resumed"
            return [Say(t, message(self.language, key))]
        if on:
            self.clock.pause(t)
            return [Say(t, message(self.language, "clock.paused"))]
        self._held = False
        self.clock.resume(t)
        return [Say(t, message(self.language, "clock.resumed"))]

    def flag_stands(self) -> bool:
        """Whether a fallen flag has decided the game, so that the clock stands (6.9): not
        where a flag counts only when claimed (2001 B.6, rapid), and not in the journal of an
        older clock, where a press after the flag still switched it (revision 1)."""
        if self.revision < 2 or self.laws.flag_needs_claim(self.control):
            return False
        return any(self.clock.is_down(side) for side in SIDES)

    def _held_words(self) -> str:
        """ "Die Uhr steht. Leertaste oder Eingabetaste startet die Uhr für Schwarz." """
        side = self._side_word(self.clock.running or "white")
        return message(self.language, "clock.held", press_keys=self._key_words("press"), side=side)

    def _stands_words(self) -> str:
        """ "Zeit abgelaufen für Weiß. Die Uhr steht.": what a press meets after the flag."""
        return self._flags_report().strip() + " " + message(self.language, "clock.stands")

    def _toggle_help(self, t: int) -> list[OutputEvent]:
        self.help_mode = not self.help_mode
        if self.help_mode:
            text = message(self.language, "clock.help_on", keys=self._key_words("help"))
        else:
            text = message(self.language, "clock.help_off")
        return [Say(t, text)]

    def _quit(self, t: int) -> list[OutputEvent]:
        if self._quit_pending:
            # Ended: its times stand still, and only requests for them are still answered.
            self.finished = True
            self._quit_pending = False
            if self.clock.started and not self.clock.paused:
                self.clock.pause(t)
            return [Say(t, message(self.language, "clock.quit"))]
        self._quit_pending = True
        text = message(self.language, "clock.quit_confirm", keys=self._key_words("quit"))
        return [Say(t, text)]

    def _arbiter(self, event: ArbiterAction) -> list[OutputEvent]:
        """Arbiter corrections from a script (6.10.2, 7.1, 7.5.5), read as the game reads
        them (:mod:`voice.rules.arbiter`): the same names and bounds; ``add_time`` takes time
        away with a negative number here too. Only an action :meth:`screen` let through comes
        here."""
        t, command = event.t_ms, event.command
        assert not isinstance(command, Malformed)
        self._correct(command, t, self.clock)
        match command:
            case Increment(ms=ms):  # Guideline III.4: for both, from the next move
                time = duration_words(ms, self.language)
                return [Say(t, message(self.language, "clock.arbiter_increment", time=time))]
            case SetMoves(side=side, moves=moves) if side is not None:
                text = message(
                    self.language,
                    "clock.arbiter_moves",
                    side=self._side_word(side),
                    moves=count_words(moves, "move", self.language),
                )
                return [Say(t, text)]
            case SetMoves():  # both: the moves played, as the time key says them
                text = message(self.language, "clock.arbiter_moves_both")
                return [Say(t, f"{text} {self._moves_report()}")]
            case AddTime(side=side) | SetTime(side=side) | Penalty(side=side):
                self._rearm()
                time = duration_words(self.clock.remaining_ms(side, t), self.language)
                text = message(
                    self.language, "clock.arbiter_time", side=self._side_word(side), time=time
                )
                return [Say(t, text)]
        raise _not_a_clock_action(event.action)

    @staticmethod
    def _correct(command: ArbiterCommand, t: int, clock: Clock) -> None:
        """Carry out a clock action on ``clock``: the clock's own, or a copy to learn whether
        it can be done (ArbiterError or ClockError when not)."""
        match command:
            case Increment(ms=ms):
                clock.introduce_increment(ms, t)
            case AddTime(side=side, ms=ms):
                leaves_time(side, clock.remaining_ms(side, t) + ms)
                clock.add_time(side, ms, t)
            case SetTime(side=side, ms=ms):
                leaves_time(side, ms)
                clock.set_time(side, ms, t)
            case Penalty(side=side):
                clock.apply_penalty(side, t)
            case SetMoves(side=side, moves=moves) if side is not None:
                clock.set_moves(side, moves)
            case SetMoves(moves=moves):
                # 6.10.2: the arbiter corrects the move counter, one number as the clock shows
                # it (the moves White completed); Black has completed one fewer while it is
                # Black's move, as a game counts (session revision 23).
                clock.set_moves("white", moves)
                behind = 1 if clock.running == "black" else 0
                clock.set_moves("black", max(0, moves - behind))
            case _:  # a clock action the match above does not name yet
                raise ArbiterError(f"arbiter {command.name!r} is no action of the talking clock")

    # -- words ----------------------------------------------------------------------------------

    def _time_report(self, t: int) -> str:
        """D.2.10.4: both players' time and the number of moves completed."""
        text = message(
            self.language,
            "clock.time",
            white_side=self._side_word("white"),
            white=duration_words(self.clock.remaining_ms("white", t), self.language),
            black_side=self._side_word("black"),
            black=duration_words(self.clock.remaining_ms("black", t), self.language),
        )
        text += " " + self._moves_report() + self._flags_report()
        if not self.clock.started:
            text += " " + message(self.language, "clock.not_started")
        elif self._held:
            text += " " + self._held_words()
        elif self.clock.paused and not self.finished:
            text += " " + message(self.language, "clock.is_paused")
        return text

    def _flags_report(self) -> str:
        """The flags still down, in the order they fell: a time said as "null Sekunden" alone
        would leave a player who missed the flag's announcement to work out that it fell."""
        down = dict.fromkeys(f.side for f in self.clock.flags if self.clock.is_down(f.side))
        return "".join(
            " " + message(self.language, "clock.flag", side=self._side_word(side)) for side in down
        )

    def _moves_report(self) -> str:
        """The blind player's completed moves and, in a period with a move count, those left."""
        done = self.clock.moves_completed(self.blind)
        text = message(self.language, "clock.moves", moves=count_words(done, "move", self.language))
        left = self.clock.moves_to_control(self.blind)
        if left is not None:
            moves = count_words(left, "move", self.language)
            text += " " + message(self.language, "clock.to_control", moves=moves)
        return text

    def _side_word(self, side: Side) -> str:
        return message(self.language, f"clock.{side}")

    def _key_words(self, action: str) -> str:
        keys: list[str] = getattr(self.keys, action)
        return message(self.language, "clock.or").join(self._key_name(key) for key in keys)

    def _key_name(self, key: str) -> str:
        return key_name(self.language, key)

    def _describe_key(self, action: str) -> str:
        if action not in ACTIONS:
            return message(self.language, "clock.no_function")
        return message(
            self.language,
            "clock.help_key",
            keys=self._key_words(action),
            action=message(self.language, f"clock.action.{action}"),
        )


BOUNCE_MS = 300
"""A new clock's journal holds this (``setup.bounce_ms``): one key that presses for both sides
ignores a second press within it (a double tap or a bouncing foot switch). No move over the
board is made and pressed so fast. Scripts and older journals without it count every press."""


def _bounce_ms(extra: dict[str, object]) -> int:
    value = extra.get("bounce_ms", 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2000:
        raise ScriptError(f"setup.bounce_ms must be milliseconds from 0 to 2000, not {value!r}")
    return value


REVISION = 2
"""The rules the talking clock plays by, written into its journals (``setup.revision``): 1 is
every clock journal before it, where a press after a flag fall still switched the clock and
added the increment, and ``set_moves`` needed a side; 2 lets a fallen flag stand (6.9) and
corrects both counters with ``set_moves`` without a side (6.10.2). A set-up with ``"start":
"press"`` (the interactive clock's journal) and no revision is revision 1; scripts without it
play by the current rules."""


def revision_of(extra: dict[str, object]) -> int:
    """The clock revision of a set-up's extra keys (:data:`REVISION`)."""
    value = extra.get("revision", 1 if extra.get("start") == FIRST_PRESS else REVISION)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= REVISION:
        raise ScriptError(f"setup.revision of a clock must be 1 to {REVISION}, not {value!r}")
    return value


FIRST_PRESS = "press"
"""``setup.start`` of a clock that waits for its first press (the interactive clock's journal);
without it White's clock starts at ``t = 0``, as a script's does (6.6)."""


def start_ms(setup: Setup) -> int | None:
    """When White's clock starts: at 0, or (``None``) at the first press."""
    start = setup.extra.get("start")
    if start is None:
        return 0
    if start != FIRST_PRESS:
        raise ScriptError(f"setup.start must be {FIRST_PRESS!r} (the first press), not {start!r}")
    return None


def describe_control(control: TimeControl, language: str) -> str:
    """A time control in words: "fünfzehn Minuten für die ganze Partie, plus zehn Sekunden …"."""
    only = len(control.periods) == 1
    parts = [_describe_period(period, language, only=only) for period in control.periods]
    return message(language, "clock.then").join(parts)


def describe_fault(error: TimeControlError, language: str) -> str:
    """Why a time control cannot be used, in the player's words ("0+5: eine Periode …"); the
    error's own message is English, for scripts and logs."""
    params: dict[str, object] = dict(error.params)
    if error.reason in ("too_long", "extra_too_long"):
        params["limit"] = duration_words(int(error.params["limit"]) * 1000, language)
    return message(language, f"time_control.{error.reason}", **params)


def control_refused(error: TimeControlError, language: str) -> str:
    """A refused ``--control`` in one sentence: a text that cannot be read says so ("nicht
    lesbar"), one that is read but no game can use ("0+5": no base time) says that it does not
    go (a review: it said "nicht lesbar" too), for a game and the talking clock alike."""
    unreadable = error.reason == "unreadable"
    key = "app.fail.time_control" if unreadable else "app.fail.time_control_invalid"
    return message(language, key, error=describe_fault(error, language))


def _describe_period(period: Period, language: str, *, only: bool) -> str:
    time = duration_words(period.base_ms, language)
    if period.moves is not None:
        moves = count_words(period.moves, "move", language)
        text = message(language, "clock.period_moves", time=time, moves=moves)
    else:
        text = message(language, "clock.period_all" if only else "clock.period_rest", time=time)
    if period.increment_ms:
        inc = duration_words(period.increment_ms, language)
        text = message(language, "clock.increment", period=text, time=inc)
    if period.delay_ms:
        delay = duration_words(period.delay_ms, language)
        text = message(language, "clock.delay", period=text, time=delay)
    return text


def _not_a_clock_action(action: str) -> RuntimeError:
    """An arbiter's action the talking clock cannot carry out (one that needs a board), past
    :meth:`ClockSession.screen`: a fault of the program, never of a script."""
    return RuntimeError(
        f"arbiter {action!r} is no action of the talking clock "
        f"(it knows {', '.join(CLOCK_ACTIONS)})"
    )


def key_name(language: str, key: str) -> str:
    """A key as it is said: "Leertaste", "Eingabetaste", "T", "f5"."""
    if key in ("space", "enter"):
        return message(language, f"clock.key.{key}")
    return key.upper() if len(key) == 1 else key
