"""trf.py: TRF-16 files read into results.Player values and written back, column for column."""

from __future__ import annotations

import random

from caissify_pairings.trf import TRFParser

from tournaments import swiss, trf
from tournaments.results import Player, Round, check_symmetric

# Three rounds of a five-player Swiss, as JaVaFo and bbpPairings read it. Round 3 is
# being prepared: 5 is withdrawn ("0000 - Z" already written), the rest are to pair.
FILE = """\
012 Club Swiss
022 Aceville
XXR 5
XXC white1
001    1 m GM Alpha, Ann                        2400 ENG     1234567 1990/01/01  2.0    1     3 w 1     2 b 1
001    2 f    Beta, Bo                          2300 FRA             1995        0.0    4     4 b 0     1 w 0
001    3   IM Gamma, Cy                         2200                             0.0    5     1 b 0  0000 - Z
001    4      Delta, Di                         2100                             1.5    2     2 w 1     5 w =
001    5      Epsilon, Ed                                                        1.5    3  0000 - U     4 b =  0000 - Z
"""


def test_the_columns_are_trf16s() -> None:
    line = FILE.splitlines()[4]
    # 1-based columns 5-8 number, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
    # 54-56 federation, 58-68 id, 70-79 birth, 81-84 points, 86-89 rank, 92- rounds
    assert line[4:8] == "   1" and line[9] == "m" and line[10:13] == " GM"
    assert line[14:47].rstrip() == "Alpha, Ann" and line[48:52] == "2400" and line[53:56] == "ENG"
    assert line[57:68].strip() == "1234567" and line[69:79] == "1990/01/01"
    assert line[80:84] == " 2.0" and line[85:89] == "   1" and line[91:99] == "   3 w 1"


def test_a_player_line_is_read_column_by_column() -> None:
    tournament = trf.read(FILE)
    assert (tournament.name, tournament.total_rounds, tournament.initial) == ("Club Swiss", 5, "w")
    first = tournament.players[0]
    assert (first.number, first.name, first.rating) == (1, "Alpha, Ann", 2400)
    assert first.rounds == (Round(3, "w", "1"), Round(2, "b", "1"))
    assert tournament.details[1] == trf.Details("m", "GM", "ENG", "1234567", "1990/01/01")
    assert tournament.details[3].title == "IM"
    assert tournament.header == ("022 Aceville",)


def test_byes_absences_and_unrated_players_are_read() -> None:
    players = trf.read(FILE).players
    assert players[4].rating == 0
    assert players[4].rounds == (Round(None, None, "U"), Round(4, "b", "="), Round(None, None, "Z"))
    assert players[2].rounds[1] == Round(None, None, "Z")
    assert [p.points for p in players] == [2.0, 0.0, 0.0, 1.5, 1.5]
    check_symmetric([trf.before_round(p, 3) for p in players])


def test_a_file_written_back_is_the_file_read() -> None:
    assert trf.write(trf.read(FILE)) == FILE


def test_random_tournaments_survive_the_round_trip() -> None:
    rng = random.Random(5)
    players = [Player(n, f"Player {n}", 1500 + n) for n in range(1, 12)]
    for number in range(1, 6):
        boards = swiss.pair(players, number, 5)
        players = _played(players, boards, rng)
    tournament = trf.Tournament("Random", tuple(players), 5)
    assert trf.read(trf.write(tournament)) == tournament


def _played(players: list[Player], boards: list[swiss.Board], rng: random.Random) -> list[Player]:
    new: dict[int, Round] = {}
    for red, black in boards:
        if black is None:
            new[red] = Round(None, None, "U")
        else:
            result = rng.choice("10=+")
            other = {"1": "0", "0": "1", "=": "=", "+": "-"}[result]
            new[red], new[black] = Round(black, "w", result), Round(red, "b", other)
    return [Player(p.number, p.name, p.rating, p.rounds + (new[p.number],)) for p in players]


def test_caissify_pairings_reads_our_file_as_we_do() -> None:
    parsed = TRFParser(trf.write(trf.read(FILE))).parse()
    ours = trf.read(FILE).players
    for theirs, mine in zip(parsed["players"], ours):
        assert (theirs["starting_number"], theirs["name"], theirs["rating"]) == (mine.number, mine.name, mine.rating)
        assert theirs["score"] == mine.points
        games = {k: (r["opponent"], r["color"], r["result"]) for k, r in theirs["results"].items()
                 if r["opponent"] is not None}
        assert games == {k + 1: (r.opponent, r.colour, r.result) for k, r in enumerate(mine.rounds) if r.paired}


def test_a_bye_written_with_a_game_code_is_read_as_that_bye() -> None:
    line = "001    1       Solo" + " " * 72 + "0000 - +  0000 - =  0000 - -"
    player = trf.read("012 t\n" + line + "\n").players[0]
    assert [r.result for r in player.rounds] == ["F", "H", "Z"]


def test_the_next_round_is_the_first_nobody_was_paired_in() -> None:
    players = trf.read(FILE).players
    assert trf.next_round(players) == 3
    assert trf.next_round([Player(1, "a", 0), Player(2, "b", 0)]) == 1


def test_players_with_an_entry_for_the_next_round_are_not_paired() -> None:
    boards = swiss.pair_next(trf.read(FILE))
    seated = {n for board in boards for n in board if n is not None}
    assert seated == {1, 2, 3, 4}  # 5 is marked "0000 - Z" for round 3
    # 1 (2 points) meets 4 (1.5): 1 had Red then Black, 4 Red twice and must have Black
    assert boards[0] == (1, 4)
