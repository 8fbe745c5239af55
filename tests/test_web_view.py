"""What the pages are told, read from the session: clocks, legal moves, who sees what."""

from __future__ import annotations

from pathlib import Path

from web_harness import LiveGame, live_game, page_socket, receive_until

from voice.config import Settings, override
from voice.rules.events import ArbiterAction
from voice.web.pairing import Role
from voice.web.protocol import View
from voice.web.view import GameView


def view_of(game: LiveGame, role: Role) -> View:
    builder = GameView(game.host, game.settings, "de")
    return game.call(lambda: builder.view_for(role))


def test_in_delay_mode_the_page_learns_how_long_the_running_display_stands_still(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, time_control="300d5") as game:
        clock = view_of(game, "opponent").clock
        assert clock.running == "white" and 0 < clock.delay_ms <= 5000
        assert clock.white_ms == 300_000  # nothing is charged during the delay
        game.submit(lambda t: ArbiterAction(t, "pause", {}))
        assert view_of(game, "opponent").clock.delay_ms == 0


def test_only_the_opponent_gets_legal_moves_and_only_on_its_turn(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path) as game:
        assert view_of(game, "opponent").legal == []  # White (blind) to move
        game.blind_plays("e2e4")
        opponent = view_of(game, "opponent")
        assert opponent.me == "black" and opponent.legal is not None
        assert len(opponent.legal) == 20 and "e7e5" in opponent.legal
        assert view_of(game, "spectator").legal is None
        assert view_of(game, "arbiter").legal is None


def test_the_arbiter_s_panel_lists_a_refused_analysis_request(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, profile="tournament") as game:
        game.blind_says("wer greift David fünf an")  # an analysis aid (11.3.1): refused, logged
        arbiter = view_of(game, "arbiter")
        assert arbiter.log is not None and arbiter.log[-1].kind == "request_refused"
        assert "Abgelehnte Anfrage (Turnier)" in arbiter.log[-1].text
        assert "wer greift David fünf an" in arbiter.log[-1].text
        assert arbiter.illegal_attempts == {"white": 0, "black": 0}  # not a move attempt


def test_only_the_arbiter_gets_the_log_and_the_counts(settings: Settings, tmp_path: Path) -> None:
    with live_game(settings, tmp_path, profile="tournament") as game:
        game.blind_says("Springer Anna fünf")  # no knight can go there: logged, counted
        arbiter = view_of(game, "arbiter")
        assert arbiter.illegal_attempts == {"white": 1, "black": 0}
        assert arbiter.log is not None and arbiter.log[-1].kind == "illegal_attempt"
        assert "Abgelehnter Zugversuch" in arbiter.log[-1].text
        for role in ("opponent", "spectator"):
            other = view_of(game, role)
            assert other.log is None and other.illegal_attempts is None and other.pending is None


def test_the_arbiters_panel_shows_the_laws_edition(settings: Settings, tmp_path: Path) -> None:
    with live_game(settings, tmp_path, laws="2001") as game:
        assert view_of(game, "arbiter").laws == "2001"
        assert view_of(game, "opponent").laws is None


def test_under_the_2001_laws_the_pages_say_the_controller_decided(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, laws="2001") as game:
        game.submit(lambda t: ArbiterAction(t, "declare_result", {"result": "1/2-1/2"}))
        result = view_of(game, "opponent").result
        assert result is not None and result.text == "Entscheidung des Turnierleiters."


def test_a_choice_between_two_moves_is_pending_with_both_in_notation(
    settings: Settings, tmp_path: Path
) -> None:
    two_knights = "4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1"  # both knights reach f3
    with live_game(settings, tmp_path, fen=two_knights) as game:
        game.blind_says("Springer Felix drei")
        for role in ("opponent", "arbiter"):
            pending = view_of(game, role).pending
            assert pending is not None and pending.kind == "choose"
            assert pending.san == ["Ndf3", "Ngf3"] or pending.san == ["Ngf3", "Ndf3"]
            assert pending.text == f"Weiß wählt zwischen {', '.join(pending.san)}"
            assert pending.squares == []  # two moves: no single pair of squares to frame
        assert view_of(game, "spectator").pending is None


def test_the_king_in_check_is_named_for_every_page(settings: Settings, tmp_path: Path) -> None:
    with live_game(settings, tmp_path, fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1") as game:
        assert view_of(game, "spectator").check is None
        game.blind_plays("a1a8")
        for role in ("opponent", "arbiter", "spectator"):
            assert view_of(game, role).check == "e8"


def test_on_a_right_to_left_panel_a_clock_change_keeps_its_sign_in_front(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path) as game:
        game.submit(lambda t: ArbiterAction(t, "add_time", {"side": "white", "seconds": -30}))
        builder = GameView(game.host, game.settings, "de")
        hebrew = game.call(lambda: builder.view_for("arbiter", "he")).log
        assert hebrew is not None and "\u2066\u22120:30\u2069" in hebrew[-1].text
        german = game.call(lambda: builder.view_for("arbiter", "de")).log
        assert german is not None and german[-1].text == "Zeit gutgeschrieben · Weiß · \u22120:30"


def test_under_the_2001_laws_a_promotion_asked_for_its_piece_is_pending_as_a_choice(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, laws="2001", fen="7k/4P3/8/8/8/8/8/K7 w - - 0 1") as game:
        game.blind_says("Eva acht")
        pending = view_of(game, "opponent").pending
        assert pending is not None and pending.kind == "choose"
        assert sorted(pending.san) == sorted(["e8=Q+", "e8=R+", "e8=B", "e8=N"])


def test_under_the_2001_laws_the_opponent_claims_the_blind_players_fallen_flag_on_the_page(
    settings: Settings, tmp_path: Path
) -> None:
    """2001 B.6: in rapid play a fallen flag counts only when the opponent claims it. The page
    offers the claim (a button shown only then) and the claim wins the game on time."""
    import time

    from voice.web.inputs import to_event
    from voice.web.protocol import FlagClaimIn

    with live_game(settings, tmp_path, laws="2001", time_control="900") as game:
        assert not view_of(game, "opponent").flag_claim
        game.submit(lambda t: ArbiterAction(t, "set_time", {"side": "white", "seconds": 1}))
        time.sleep(1.3)
        assert view_of(game, "opponent").flag_claim
        builder = GameView(game.host, game.settings, "de")
        made = game.call(lambda: to_event(FlagClaimIn(type="flag_claim"), builder))
        game.submit(made)
        opponent = view_of(game, "opponent")
        assert opponent.result is not None and opponent.result.result == "0-1"
        assert not opponent.flag_claim


def test_the_arbiters_panel_says_why_an_action_was_refused_in_its_language(
    settings: Settings, tmp_path: Path
) -> None:
    """An arbiter at the panel must learn why a correction was not made (6.10.2: it would
    leave White no time), in the panel's language, not in the program's English."""
    with live_game(settings, tmp_path) as game:
        game.submit(lambda t: ArbiterAction(t, "add_time", {"side": "white", "seconds": -9000}))
        builder = GameView(game.host, game.settings, "de")
        german = game.call(lambda: builder.view_for("arbiter", "de")).log
        assert german is not None and german[-1].text == (
            "Nicht ausgeführt: Zeit gutgeschrieben · Weiß · \u22122:30:00 · Weiß hätte keine "
            "Zeit mehr; um die Partie zu beenden, das Ergebnis festlegen"
        )
        english = game.call(lambda: builder.view_for("arbiter", "en")).log
        assert english is not None and english[-1].text.endswith(
            "White would have no time left; to end the game, declare the result"
        )


def test_7_5_4_two_hands_recorded_on_the_panel_reach_the_journal_the_log_and_the_terminal(
    settings: Settings, tmp_path: Path
) -> None:
    """7.5.4: a move made with two hands counts as an illegal move. The panel's message carries
    the kind into the game's journal as the arbiter's action reads it; the panel's log and the
    terminal's line for the arbiter name it in the arbiter's words."""
    import json

    from voice.rules.events import Say
    from voice.web.inputs import to_event
    from voice.web.protocol import IllegalIn

    with live_game(settings, tmp_path, profile="tournament") as game:
        game.blind_plays("e2e4")
        builder = GameView(game.host, game.settings, "de")
        message = IllegalIn(type="illegal_move", side="black", kind="two_hands", reason="Rochade")
        made = game.call(lambda: to_event(message, builder))
        outputs = game.submit(made)
        told = [out.text for out in outputs if isinstance(out, Say) and out.to == "arbiter"]
        assert told == [
            "Protokolliert: Vollendeter regelwidriger Zug: zwei Hände (7.5.4) (Grund: Rochade)."
        ]
        arbiter = view_of(game, "arbiter")
        assert arbiter.illegal_moves == {"white": 0, "black": 1}
        assert arbiter.log is not None and arbiter.log[-1].text == (
            "Vollendeter regelwidriger Zug: zwei Hände (7.5.4) · Schwarz · „Rochade“"
        )
        english = game.call(lambda: builder.view_for("arbiter", "en")).log
        assert english is not None and english[-1].text.startswith(
            "Completed illegal move: two hands (7.5.4) · Black"
        )
        journal = [json.loads(line) for line in game.journal.path.read_text().splitlines()]
        actions = [line["arbiter"] for line in journal if "arbiter" in line]
        assert actions == [
            {"action": "illegal_move", "side": "black", "kind": "two_hands", "reason": "Rochade"}
        ]


def test_7_5_3_the_panel_offers_the_kinds_the_laws_count_and_2001_refuses_the_others_by_name(
    settings: Settings, tmp_path: Path
) -> None:
    """From 2018 on pressing the clock without a move (7.5.3) and two hands (7.5.4) count as
    illegal moves; the 2001 Laws (7.4) knew only the move itself. The panel is told which it
    may offer, and what the game refused reads with the kind the arbiter chose."""
    from voice.web.inputs import to_event
    from voice.web.protocol import IllegalIn

    with live_game(settings, tmp_path) as game:
        assert view_of(game, "arbiter").illegal_kinds == ["move", "two_hands", "clock_without_move"]
        assert view_of(game, "opponent").illegal_kinds is None
    with live_game(settings, tmp_path / "2001", laws="2001") as game:
        assert view_of(game, "arbiter").illegal_kinds == ["move"]
        builder = GameView(game.host, game.settings, "de")
        message = IllegalIn(type="illegal_move", side="white", kind="clock_without_move")
        game.submit(game.call(lambda: to_event(message, builder)))
        arbiter = view_of(game, "arbiter")
        assert arbiter.illegal_moves == {"white": 0, "black": 0}
        assert arbiter.log is not None and arbiter.log[-1].text.startswith(
            "Nicht ausgeführt: Vollendeter regelwidriger Zug: Uhr ohne Zug gedrückt (7.5.3) · Weiß"
            " · nach den FIDE-Regeln 2001 ist das kein regelwidriger Zug"
        )


def test_7_5_5_9_5_3_the_panel_is_sent_the_completed_illegal_moves_and_wrong_claims_per_side(
    settings: Settings, tmp_path: Path
) -> None:
    """After a penalty the arbiter must see what counts towards the next (7.5.5: the second
    completed illegal move loses; 9.5.3: each incorrect claim costs time): the counts per side
    go to the panel only."""
    with live_game(settings, tmp_path, profile="tournament") as game:
        arbiter = view_of(game, "arbiter")
        assert arbiter.illegal_moves == {"white": 0, "black": 0}
        assert arbiter.wrong_claims == {"white": 0, "black": 0}
        game.submit(lambda t: ArbiterAction(t, "illegal_move", {"side": "white"}))
        game.submit(lambda t: ArbiterAction(t, "wrong_claim", {"side": "black"}))
        arbiter = view_of(game, "arbiter")
        assert arbiter.illegal_moves == {"white": 1, "black": 0}
        assert arbiter.wrong_claims == {"white": 0, "black": 1}
        assert arbiter.illegal_attempts == {"white": 0, "black": 0}  # no refused attempt
        for role in ("opponent", "spectator"):
            other = view_of(game, role)
            assert other.illegal_moves is None and other.wrong_claims is None


def test_3_7_5_1_a_promotion_sent_without_its_piece_is_refused_on_the_page_asking_for_it(
    settings: Settings, tmp_path: Path
) -> None:
    """3.7.5.1: the new piece is part of the promotion. A client that sends the pawn's move
    without it (the page's own picker never does) is told, on the opponent's page and in its
    language, to choose the piece; the move is not made."""
    import json

    black_promotes = "3r2k1/4P3/8/8/8/8/6p1/4K2R b K - 0 1"
    english = override(settings, language={"opponent": "en"})
    with (
        live_game(english, tmp_path, fen=black_promotes) as game,
        page_socket(game, "play", game.secrets.opponent) as board,
    ):
        receive_until(board, "state")
        board.send(json.dumps({"type": "move", "uci": "g2g1", "ply": 0}))
        notice = receive_until(board, "notice")
        assert notice["kind"] == "refused"
        assert notice["text"] == (
            "Promotion on g1: choose the piece (queen, rook, bishop or knight)."
        )
        assert game.state_fen() == black_promotes
