"""Game end and draws (Articles 5, 6.9, 9; docs/rules.md §4, §6.6): announced to both sides."""

from __future__ import annotations

from session_scripts import (
    SCRIPTS,
    clock_at,
    final_board,
    moves,
    pgn_game,
    pgn_text,
    refused,
    results,
    run,
    run_text,
    says,
)

from voice.config import Settings


def _ended(out: list[dict], result: str, reason: str, t: float) -> None:
    assert results(out) == [{"t": t, "result": result, "reason": reason}]
    assert clock_at(out, t)["running"] is None  # the clocks stop
    assert pgn_game(out).headers["Result"] == result


def test_5_1_checkmate_ends_the_game_and_both_sides_hear_it(settings: Settings) -> None:
    out = run("sighted_move_announced_and_refused", settings)
    _ended(out, "1-0", "checkmate", 15.0)
    assert "Weiß gewinnt: Schachmatt." in says(out, "all", 15.0)


def test_5_2_1_stalemate_ends_the_game_at_once(settings: Settings) -> None:
    out = run("r9_stalemate", settings)
    _ended(out, "1/2-1/2", "stalemate", 2.0)
    assert says(out, "all", 2.0)[-1] == "Remis: Patt."
    assert refused(out) == [{"t": 3.0, "by": "black", "reason": "game_over"}]
    assert moves(out) == ["f1f7"]


def test_5_2_2_dead_position_ends_the_game_at_once(settings: Settings) -> None:
    out = run("r522_dead_position", settings)
    _ended(out, "1/2-1/2", "dead_position", 2.0)


def test_5_2_2_a_locked_pawn_wall_ends_the_game_at_the_move_that_locks_it(
    settings: Settings,
) -> None:
    # Kc2 leaves the wall open (g2 and g4 may still move): play goes on. g2-g3 locks it and no
    # king can cross: drawn at that move, before Black's next move, which is refused.
    out = run("r522_locked_pawn_wall", settings)
    assert moves(out) == ["b1c2", "b5b6", "g2g3"]
    _ended(out, "1/2-1/2", "dead_position", 6.0)
    assert says(out, "all", 6.0)[-1] == "Remis: keine Seite kann mehr mattsetzen."
    assert refused(out) == [{"t": 8.0, "by": "black", "reason": "game_over"}]


def test_9_6_1_fivefold_repetition_ends_the_game_without_a_claim(settings: Settings) -> None:
    out = run("r961_fivefold_repetition", settings)
    _ended(out, "1/2-1/2", "fivefold_repetition", 16.0)


def test_9_6_2_seventyfive_moves_end_the_game_without_a_claim(settings: Settings) -> None:
    out = run("r962_seventyfive_moves", settings)
    _ended(out, "1/2-1/2", "seventyfive_moves", 2.0)


def test_9_2_threefold_repetition_by_claim_of_the_player_to_move(settings: Settings) -> None:
    out = run("r921_threefold_claim", settings)
    _ended(out, "1/2-1/2", "threefold_repetition", 9.0)
    assert says(out, "all", 9.0) == [
        "Remis: dreifache Stellungswiederholung, berechtigt beansprucht."
    ]


def test_9_3_fifty_moves_claim_with_the_intended_move(settings: Settings) -> None:
    out = run("r93_fifty_moves_claim", settings)
    # "Remis" alone at 49½ moves is no claim, and nothing is penalised; nor an offer, in a game
    # set up where the opponent has made no move yet.
    assert says(out, "blind", 2.0) == [
        "Remis ist erst möglich, wenn beide Seiten einen Zug gemacht haben."
    ]
    assert clock_at(out, 2.0)["running"] == "white"
    # "Remis Turm Anna zwei": the intended move completes fifty moves; it is written down.
    _ended(out, "1/2-1/2", "fifty_moves", 3.0)
    assert moves(out) == ["a1a2"]
    assert final_board(out).halfmove_clock == 100


def test_9_5_3_wrong_claim_home_profile_penalised_move_made_claim_counts_as_offer(
    settings: Settings,
) -> None:
    """A journal of revision 21 replays as it was played: "Remis Springer Felix drei" at home
    was a claim, and a wrong one was penalised at once."""
    out = run("r953_wrong_claim_home_penalised", settings)
    assert says(out, "all", 3.0)[0] == (
        "Der Remisanspruch von Weiß ist nicht berechtigt. Der Gegner erhält eine Minute. "
        "Die Partie geht weiter."
    )
    # The named move must be played (9.5.3); rapid: one minute to the opponent (A.3).
    assert moves(out) == ["e2e4", "e7e5", "g1f3"]
    assert clock_at(out, 3.0)["black"] == clock_at(out, 2.0)["black"] + 60
    # 9.1.2.3: the claim was a draw offer, which the opponent accepts.
    _ended(out, "1/2-1/2", "agreement", 4.0)
    assert "(=)" in pgn_text(out)


def test_9_1_2_2_remis_before_the_move_at_home_where_no_claim_is_right_offers_with_it(
    settings: Settings,
) -> None:
    """ "Remis Springer Felix drei" at home, where neither the position nor the move gives a
    claim: the offer made with that move (9.1.2.2), as "Springer Felix drei Remis" is. It was
    a wrong claim (9.2.1.1), and the opponent got a minute at once (9.5.3) for words a home
    player types to offer a draw with the move (a review)."""
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "sighted": "e5"}
        {"t": 3, "blind": "Remis Springer Felix drei"}
        {"t": 4, "key": "sighted:draw_accept"}
        """,
        settings,
    )
    assert says(out, "blind", 3.0) == ["Springer Felix drei", "Weiß bietet Remis an."]
    assert moves(out) == ["e2e4", "e7e5", "g1f3"]
    assert clock_at(out, 3.0)["black"] == clock_at(out, 2.0)["black"]  # no penalty time
    _ended(out, "1/2-1/2", "agreement", 4.0)


def test_9_2_1_1_remis_before_the_move_stays_a_claim_at_a_tournament_board(
    settings: Settings,
) -> None:
    """At a tournament board the words stay the claim with the intended move, for the arbiter
    to decide (D.2.10: the assistant passes the player's claim on)."""
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "900+10",
                   "profile": "tournament"}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "sighted": "e5"}
        {"t": 3, "blind": "Remis Springer Felix drei"}
        """.replace("\n                   ", " "),
        settings,
    )
    assert says(out, "all", 3.0)[0].startswith("Der Remisanspruch von Weiß ist nicht berechtigt.")


def test_9_5_3_wrong_claim_tournament_profile_logged_for_the_arbiter(settings: Settings) -> None:
    out = run("r953_wrong_claim_tournament_logged", settings)
    assert says(out, "arbiter", 3.0) == [
        "Falscher Remisanspruch von Weiß; Strafe nach 9.5.3 wäre eine Minute für den Gegner."
    ]
    assert clock_at(out, 3.0)["black"] == clock_at(out, 2.0)["black"]  # no penalty
    # The arbiter decides and applies it.
    assert clock_at(out, 5.0)["black"] == clock_at(out, 4.0)["black"] + 60
    assert results(out) == []


def test_9_1_draw_offer_declined_by_moving(settings: Settings) -> None:
    out = run("r912_draw_offer_declined_by_moving", settings)
    assert says(out, "blind", 1.0) == [
        "Remis ist erst möglich, wenn beide Seiten einen Zug gemacht haben."
    ]
    assert says(out, "blind", 3.0) == [
        "Remis ist erst möglich, wenn beide Seiten einen Zug gemacht haben."
    ]
    assert says(out, "all", 6.0) == ["Weiß bietet Remis an."]
    assert says(out, "blind", 7.0) == ["Ihr Remisangebot steht bereits."]
    assert "Das Remisangebot von Weiß ist durch den Zug abgelehnt." in says(out, "all", 8.0)
    assert results(out) == []
    # 9.1.2.2: the offer is marked "(=)" on the scoresheet, after the offerer's move.
    assert "2. Nf3\n{ [%clk 0:15:17] (=) }" in pgn_text(out)


HELD_OFFER = """
{"setup": {"mode": "game", "blind": "white", "time_control": "600"REVISION}}
{"t": 1, "blind": "Eva vier"}
{"t": 2, "sighted": "e5"}
{"t": 3, "blind": "Remis"}
{"t": 4, "blind": "Springer Felix drei"}
{"t": 5, "sighted": "Nc6"}
{"t": 6, "blind": "Läufer Bella fünf Remis"}
{"t": 7, "key": "sighted:draw_accept"}
"""


def test_9_1_2_2_a_draw_offer_said_before_or_with_the_move_is_made_with_it(
    settings: Settings,
) -> None:
    """9.1.2.2: a draw is offered after making one's move. Against the computer its reply comes
    at once, so "Remis" after the move never found the blind player's turn over: it was told
    "Remis bieten Sie nach Ihrem Zug an" and could not offer at all. Now "Remis" said on the
    player's move is held and made with the move, and "Läufer Bella fünf Remis" (the move,
    then the offer) makes the move and the offer: the trailing word was dropped without a
    word, and the move asked back for it."""
    out = run_text(HELD_OFFER.replace("REVISION", ""), settings)
    assert says(out, "blind", 3.0) == ["Ihr Remisangebot wird mit Ihrem Zug gemacht."]
    assert says(out, "all", 4.0) == ["Weiß bietet Remis an."]  # after the move, with it
    assert "Das Remisangebot von Weiß ist durch den Zug abgelehnt." in says(out, "all", 5.0)
    assert says(out, "blind", 6.0)[:1] == ["Läufer Bella fünf"]
    assert says(out, "all", 6.0) == ["Weiß bietet Remis an."]
    assert moves(out) == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    _ended(out, "1/2-1/2", "agreement", 7.0)
    assert "2. Nf3\n{ [%clk" in pgn_text(out) and pgn_text(out).count("(=)") == 2


def test_9_1_2_2_an_offer_said_with_a_move_goes_only_with_that_move(settings: Settings) -> None:
    """A review's cases: "Remis" after words that made no move (an illegal move, noise) holds
    no offer for the next move; "nein" to the move asked back drops the offer said with it;
    the move the player then makes carries none."""
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "600",
                   "always_confirm": true}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "blind": "ja"}
        {"t": 3, "sighted": "e5"}
        {"t": 4, "blind": "Dame Hector acht Remis"}
        {"t": 5, "blind": "hallo wie Remis"}
        {"t": 6, "blind": "Springer Felix drei Remis"}
        {"t": 7, "blind": "nein"}
        {"t": 8, "blind": "Springer Cesar drei"}
        {"t": 9, "blind": "ja"}
        """.replace("\n                   ", " "),
        settings,
    )
    assert says(out, "blind", 6.0) == [
        "Springer Felix drei?",
        "Ihr Remisangebot wird mit Ihrem Zug gemacht.",
    ]
    assert "Weiß bietet Remis an." not in says(out, "all")
    assert "(=)" not in pgn_text(out)
    assert moves(out)[-1] == "b1c3"


def test_9_2_1_remis_said_with_a_move_where_a_claim_is_right_claims(settings: Settings) -> None:
    """ "Remis" said with a move where the position has just appeared a third time is the
    claim, not an offer the opponent may decline (a review)."""
    shuffle = [("Springer Felix drei", "Nf6"), ("Springer Gustav eins", "Ng8")] * 2
    lines = ['{"setup": {"mode": "game", "blind": "white", "time_control": "600"}}']
    t = 1
    for mine, theirs in shuffle:
        lines += [f'{{"t": {t}, "blind": "{mine}"}}', f'{{"t": {t + 1}, "sighted": "{theirs}"}}']
        t += 2
    lines.append(f'{{"t": {t}, "blind": "Springer Felix drei Remis"}}')
    out = run_text("\n".join(lines), settings)
    _ended(out, "1/2-1/2", "threefold_repetition", float(t))
    assert "Weiß bietet Remis an." not in says(out, "all")


def test_9_5_3_a_wrong_claim_with_its_move_is_the_offer_held_before_it(
    settings: Settings,
) -> None:
    """ "Remis", then a claim with the intended move (at a tournament board: at home these words
    offer with the move): the wrong claim makes the move and counts as the offer (9.1.2.3), so
    the offer held for that move is made; the next move carries none."""
    out = run_text(
        """
        {"setup": {"mode": "game", "time_control": "600", "profile": "tournament"}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "sighted": "e5"}
        {"t": 3, "blind": "Remis"}
        {"t": 4, "blind": "Remis Springer Felix drei"}
        {"t": 5, "key": "sighted:draw_decline"}
        {"t": 6, "sighted": "Nc6"}
        {"t": 7, "blind": "Läufer Bella fünf"}
        """,
        settings,
    )
    assert says(out, "all", 5.0) == ["Schwarz lehnt das Remisangebot ab."]
    assert says(out, "all", 7.0) == []
    assert pgn_text(out).count("(=)") == 1


def test_9_1_2_2_a_journal_of_the_rules_before_replays_without_the_held_offer(
    settings: Settings,
) -> None:
    """A journal of revision 20 replays as it was played: "Remis" before the move was only
    explained, and the move with "Remis" after it was asked back."""
    old = HELD_OFFER.replace("REVISION", ', "app": "play", "revision": 20')
    out = run_text(old, settings)
    assert says(out, "blind", 3.0)[0].startswith("Remis bieten Sie nach Ihrem Zug an.")
    assert says(out, "all", 4.0) == []
    assert says(out, "blind", 6.0) == ["Läufer Bella fünf?"]
    assert all(line["reason"] != "agreement" for line in results(out))


def test_9_1_draw_offers_both_ways_declined_by_word_and_accepted(settings: Settings) -> None:
    out = run("r912_draw_offers_both_ways", settings)
    assert says(out, "sighted", 2.0) == [
        "Remis ist erst möglich, wenn beide Seiten einen Zug gemacht haben."
    ]
    assert says(out, "sighted", 4.0) == ["Es gibt kein Remisangebot zu beantworten."]
    assert says(out, "all", 6.0) == ["Weiß bietet Remis an."]
    assert says(out, "blind", 7.0) == [
        "Sagen Sie Remis, um das Angebot anzunehmen, oder nein, um es abzulehnen."
    ]
    assert says(out, "all", 8.0) == ["Schwarz lehnt das Remisangebot ab."]
    assert says(out, "all", 10.0) == ["Schwarz bietet Remis an."]
    assert says(out, "all", 11.0) == ["Weiß lehnt das Remisangebot ab."]
    _ended(out, "1/2-1/2", "agreement", 14.0)


def test_5_1_2_resignation_asks_for_confirmation(settings: Settings) -> None:
    out = run("r51_resignation_confirmed", settings)
    assert says(out, "blind", 3.0) == ["Wirklich aufgeben? Sagen Sie ja oder nein."]
    assert says(out, "blind", 4.0) == ["Nicht aufgegeben. Die Partie geht weiter."]
    assert says(out, "blind", 6.0) == [
        "Mit ja geben Sie die Partie auf, mit nein spielen Sie weiter."
    ]
    _ended(out, "0-1", "resignation", 7.0)
    assert says(out, "blind", 8.0)[0].startswith("Die Partie ist beendet. Schwarz gewinnt: ")
    assert moves(out) == ["e2e4", "e7e5"]


def test_5_1_2_resignation_when_the_opponent_cannot_mate_is_a_draw(settings: Settings) -> None:
    out = run("r51_resignation_against_lone_king_is_draw", settings)
    _ended(out, "1/2-1/2", "resignation_draw", 2.0)
    sighted = run("r51_sighted_resigns", settings)
    _ended(sighted, "1-0", "resignation", 1.0)


def test_6_9_flag_fall_where_the_opponent_has_a_lone_king_is_a_draw(settings: Settings) -> None:
    out = run("r69_flag_fall_against_lone_king_is_draw", settings)
    flag = [line for line in out if "flag" in line]
    assert flag == [{"t": 62.0, "flag": "black"}]  # at its own instant, before the next line
    assert "Zeit abgelaufen für Schwarz." in says(out, "all", 62.0)
    _ended(out, "1/2-1/2", "time_forfeit_draw", 62.0)
    assert (
        pgn_game(out)
        .end()
        .comment.endswith(
            "Remis: Schwarz: Zeitüberschreitung, aber der Gegner kann nicht mehr mattsetzen."
        )
    )


def test_the_pgn_closing_comment_is_in_the_games_language_as_it_reads(
    settings: Settings,
) -> None:
    """A Hebrew game's PGN says how it ended in Hebrew, without the points only the speech
    needs; the Termination tag stays the standard's English."""
    script = (SCRIPTS / "r64_flag_fall_loses.jsonl").read_text(encoding="utf-8")
    out = run_text(
        script.replace('"mode": "game",', '"mode": "game", "language": "he",', 1), settings
    )
    comment = pgn_game(out).end().comment
    assert pgn_game(out).headers["Termination"] == "time forfeit"
    assert "time forfeit" not in comment and "\u05b0" not in comment  # no sheva: no points
    assert any("\u05d0" <= letter <= "\u05ea" for letter in comment)


def test_6_9_flag_fall_where_the_opponent_is_walled_off_is_a_draw(settings: Settings) -> None:
    # Black has pawns and bishops, but only light-squared bishops behind a locked wall whose
    # light squares are all Black pawns: no series of legal moves lets Black mate White.
    out = run("r69_flag_fall_behind_a_locked_wall_is_draw", settings)
    assert [line for line in out if "flag" in line] == [{"t": 60.0, "flag": "white"}]
    _ended(out, "1/2-1/2", "time_forfeit_draw", 60.0)


def test_6_9_flag_fall_loses_when_a_helpmate_exists_behind_the_wall(settings: Settings) -> None:
    # The same position, Black's flag: White's dark bishop can mate with Black's help (the
    # Black bishops on g8 and h7, the king on h8), so the flag fall loses.
    out = run("r69_flag_fall_against_a_helpmate_loses", settings)
    assert [line for line in out if "flag" in line] == [{"t": 62.0, "flag": "black"}]
    _ended(out, "1-0", "time_forfeit", 62.0)


def test_6_9_flag_fall_loses(settings: Settings) -> None:
    out = run("r64_flag_fall_loses", settings)
    assert [line for line in out if "flag" in line] == [{"t": 63.0, "flag": "white"}]
    _ended(out, "0-1", "time_forfeit", 63.0)
    assert pgn_game(out).headers["Termination"] == "time forfeit"
    # The comment stands on Black's move: it names whose flag fell, in the game's words (it
    # was English, "time forfeit by White"; a review). The tag keeps the standard's English.
    assert pgn_game(out).end().comment.endswith("Schwarz gewinnt: Zeitüberschreitung.")
    assert moves(out) == ["e2e4", "e7e5"]


FIFTY_MOVES_SIGHTED_TO_MOVE = """
{"setup": {"mode": "game", "time_control": "300", "fen": "7k/8/8/8/8/8/R7/K7 b - - 100 80"}}
{"t": 1, "key": "sighted:draw_offer"}
"""


def test_9_3_the_opponents_draw_button_on_their_own_turn_claims_a_valid_draw(
    settings: Settings,
) -> None:
    """The page's one draw button does what "Remis" does for the blind player: fifty moves
    have passed and the opponent is to move, so it is a claim, not "offer after your move"."""
    out = run_text(FIFTY_MOVES_SIGHTED_TO_MOVE, settings)
    assert results(out) == [{"t": 1.0, "result": "1/2-1/2", "reason": "fifty_moves"}]


def test_9_3_the_page_may_claim_in_so_many_words(settings: Settings) -> None:
    out = run_text(FIFTY_MOVES_SIGHTED_TO_MOVE.replace("draw_offer", "draw_claim"), settings)
    assert results(out) == [{"t": 1.0, "result": "1/2-1/2", "reason": "fifty_moves"}]


def test_9_3_1_1_the_sighted_player_claims_with_the_intended_move(settings: Settings) -> None:
    """Black's move would complete fifty moves: declared with the claim (the page's claim
    with a move), the claim is right, the game drawn and the move written down; a move that
    completes nothing is a wrong claim (9.5.3): the move is made and the claim is logged."""
    setup = '{"setup": {"mode": "game", "time_control": "300", '
    right = setup + '"fen": "7k/8/8/8/8/8/R7/K7 b - - 99 80"}}\n{"t": 1, "sighted_claim": "h8g8"}'
    out = run_text(right, settings)
    assert results(out) == [{"t": 1.0, "result": "1/2-1/2", "reason": "fifty_moves"}]
    assert moves(out) == ["h8g8"]
    assert "König Gustav acht" in says(out, "blind", 1.0)  # to write down and to check
    wrong = setup + '"profile": "tournament", "fen": "7k/8/8/8/8/8/R7/K7 b - - 50 80"}}'
    out = run_text(wrong + '\n{"t": 1, "sighted_claim": "h8g8"}', settings)
    assert results(out)[0]["reason"] == "time_forfeit_draw" and moves(out) == ["h8g8"]  # later
    assert "Der Remisanspruch von Schwarz ist nicht berechtigt." in says(out, "all", 1.0)[0]
    illegal = setup + '"fen": "7k/8/8/8/8/8/R7/K7 b - - 99 80"}}\n{"t": 1, "sighted_claim": "h8h1"}'
    out = run_text(illegal, settings)
    assert results(out)[0]["t"] == 300.0 and moves(out) == []  # refused as the move would be


def test_the_pgn_ends_with_the_reason_in_words(settings: Settings) -> None:
    """A PGN reader sees the reason in the game's words, not the program's key
    ``fifty_moves``."""
    out = run_text(FIFTY_MOVES_SIGHTED_TO_MOVE, settings)
    assert (
        "{ Remis: fünfzig Züge ohne Bauernzug und ohne Schlagen, berechtigt beansprucht. }\n1/2-1/2"
    ) in pgn_text(out)


def test_a_journal_the_app_wrote_before_the_claim_button_replays_as_played(
    settings: Settings,
) -> None:
    """An older journal (the app's, without the settings it was played with): the draw button
    on the opponent's own move was refused then, so it is refused on replay too, and the game
    does not come back finished."""
    script = FIFTY_MOVES_SIGHTED_TO_MOVE.replace('"mode": "game"', '"mode": "game", "app": "play"')
    # The button is refused as an offer before the move; the game goes on (until the flag).
    assert [r["reason"] for r in results(run_text(script, settings))] == ["time_forfeit"]


def test_against_the_computer_the_player_is_spoken_to_and_its_replies_are_marked(
    settings: Settings,
) -> None:
    """Against the computer only the blind player listens: their own offer was announced in
    the third person ("Weiß bietet Remis an."), and the computer's reply came right after the
    player's move said back, unmarked (a review). With a person at the board both hear the
    loudspeaker, and the sentences name the sides (the other tests here)."""
    out = run_text(
        """
        {"setup": {"mode": "game", "time_control": "600", "opponent": "engine"}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "sighted": "e5"}
        {"t": 3, "blind": "Springer Felix drei Remis"}
        {"t": 4, "sighted": "Nc6"}
        {"t": 5, "key": "sighted:draw_offer"}
        {"t": 6, "blind": "nein"}
        """,
        settings,
    )
    assert says(out, "blind", 2.0) == ["Computer: Eva fünf"]
    assert says(out, "blind", 3.0) == ["Springer Felix drei", "Sie bieten Remis an."]
    assert says(out, "blind", 4.0) == [
        "Computer: Springer Cesar sechs",
        "Der Computer lehnt Ihr Remisangebot mit seinem Zug ab.",
    ]
    assert says(out, "blind", 5.0) == ["Der Computer bietet Remis an."]
    assert says(out, "blind", 6.0) == ["Sie lehnen das Remisangebot ab."]
    assert moves(out) == ["e2e4", "e7e5", "g1f3", "b8c6"]  # the move words are the same
