"""FIDE's Tournament Report File (TRF-16): read one into ``results.Player`` values, write one back.

Every pairing engine and checker (JaVaFo, bbpPairings, caissify-pairings,
FIDE's own rating upload) reads this format, so a Swiss kept in these terms
can be checked against them and downloaded by arbiters. No Django.

What is read (columns are 1-based, as in FIDE's description):

- ``012 name`` the tournament's name; ``XXR n`` the number of rounds and
  ``XXC white1``/``black1`` the initial colour (JaVaFo's and bbpPairings'
  extensions); other header lines are kept as they are and written back.
- ``001`` player lines: pairing number (5-8), sex (10), title (11-13), name
  (15-47), rating (49-52), federation (54-56), FIDE id (58-68), birth
  (70-79), points (81-84), rank (86-89), then a 10-character block a round
  from column 92: opponent (4 digits, ``0000`` for none), colour
  (``w``/``b``/``-``) and the result code. Points and rank are worked out
  from the rounds on writing, and not trusted on reading.
- A blank block is a round the player was not paired in (``" "``). A bye
  written with a game's code (``0000 - +``, ``0000 - 1``) is read as the bye
  it means (``F``; ``=`` as ``H``, ``-`` or ``0`` as ``Z``), since
  ``results.Round`` gives a bye no opponent.

The round to pair next is the first that nobody has been paired in. An
entry already written for it (``0000 - Z``, ``H``, ``F``, or an explicit
``0000 -  ``) marks a player who is not to be paired in it: withdrawn, or
absent with the organiser's bye. This is how bbpPairings reads such files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.results import BLACK, RED, Colour, Player, Round

_BYE_FROM_GAME_CODE = {"+": "F", "1": "F", "W": "F", "=": "H", "D": "H", "-": "Z", "0": "Z", "L": "Z"}
_ROUNDS_FROM = 91  # 0-based column of the first round block
_BLOCK = 10


@dataclass(frozen=True)
class Details:
    """The columns of a player line that the pairing does not use, kept for writing back."""

    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""


@dataclass(frozen=True)
class Tournament:
    name: str
    players: tuple[Player, ...]
    total_rounds: int | None = None
    initial: Colour = RED
    details: dict[int, Details] = field(default_factory=dict)  # only players who have any
    header: tuple[str, ...] = ()  # other lines (022 place, 042 dates, ...) as read
    # Each pairing number's rank as the standings give it (points, then the
    # tournament's tiebreaks); None: by points, then pairing number.
    ranks: Mapping[int, int] | None = None


def read(text: str) -> Tournament:
    """The tournament a TRF-16 file describes."""
    name, total, initial = "", None, RED
    players: list[Player] = []
    details: dict[int, Details] = {}
    header: list[str] = []
    for line in text.splitlines():
        code = line[:3]
        if code == "001":
            player, detail = _read_player(line)
            players.append(player)
            if detail != Details():
                details[player.number] = detail
        elif code == "012":
            name = line[4:].strip()
        elif code == "XXR":
            total = int(line[4:].split()[0])
        elif code == "XXC":
            initial = BLACK if "black1" in line[4:].split() else RED
        elif line.strip():
            header.append(line.rstrip())
    return Tournament(name, tuple(sorted(players, key=lambda p: p.number)), total, initial, details, tuple(header))


def _read_player(line: str) -> tuple[Player, Details]:
    line = line.rstrip("\n")
    number = int(line[4:8])
    rating_text = line[48:52].strip()
    rating = int(rating_text) if rating_text.isdigit() else 0
    details = Details(line[9:10].strip(), line[10:13].strip(), line[53:56].strip(),
                      line[57:68].strip(), line[69:79].strip())
    blocks = line[_ROUNDS_FROM:].rstrip()
    count = (len(blocks) + _BLOCK - 1) // _BLOCK
    rounds = tuple(_read_round(blocks[k * _BLOCK:(k + 1) * _BLOCK], number) for k in range(count))
    return Player(number, line[14:47].strip(), rating, rounds), details


def _read_round(block: str, number: int) -> Round:
    block = block.ljust(_BLOCK)
    opponent_text, colour_text, code = block[0:4].strip(), block[5].lower(), block[7]
    opponent = int(opponent_text) if opponent_text.isdigit() else 0
    if opponent == 0:
        return Round(None, None, _BYE_FROM_GAME_CODE.get(code, code))
    if opponent == number:
        raise ValueError(f"player {number} is paired against himself")
    colour: Colour | None = RED if colour_text == "w" else BLACK if colour_text == "b" else None
    return Round(opponent, colour, code)


def write(tournament: Tournament) -> str:
    """The TRF-16 text of a tournament; ``read(write(t)) == t``."""
    lines = [f"012 {tournament.name}", *tournament.header]
    if tournament.total_rounds is not None:
        lines.append(f"XXR {tournament.total_rounds}")
    lines.append(f"XXC {'white1' if tournament.initial == RED else 'black1'}")
    ranks = tournament.ranks if tournament.ranks is not None else _ranks(tournament.players)
    for player in tournament.players:
        detail = tournament.details.get(player.number, Details())
        lines.append(_player_line(player, detail, ranks[player.number]))
    return "\n".join(lines) + "\n"


def _ranks(players: Sequence[Player]) -> dict[int, int]:
    """Without the standings' tiebreaks (a file read from elsewhere): by points, then pairing number."""
    order = sorted(players, key=lambda p: (-p.points, p.number))
    return {p.number: index + 1 for index, p in enumerate(order)}


def _player_line(player: Player, detail: Details, rank: int) -> str:
    rating = f"{player.rating:>4}" if player.rating else "    "
    head = (f"001 {player.number:>4} {detail.sex:1}{detail.title:>3} {player.name[:33]:<33} {rating} "
            f"{detail.federation:<3} {detail.fide_id:>11} {detail.birth:<10} {player.points:>4.1f} {rank:>4}")
    assert len(head) == 89, head
    return (head + "  " + "".join(_round_block(r) for r in player.rounds)).rstrip()


def _round_block(played: Round) -> str:
    if played.opponent is None:
        return f"0000 - {played.result}  "
    colour = played.colour or "-"
    return f"{played.opponent:>4} {colour} {played.result}  "


def next_round(players: Sequence[Player]) -> int:
    """The first round (1-based) in which nobody has been paired or given the pairing bye."""
    longest = max((len(p.rounds) for p in players), default=0)
    for index in range(longest):
        if not any(index < len(p.rounds) and (p.rounds[index].paired or p.rounds[index].result == "U")
                   for p in players):
            return index + 1
    return longest + 1


def before_round(player: Player, round_number: int) -> Player:
    """The player's record up to (not including) ``round_number``."""
    return Player(player.number, player.name, player.rating, player.rounds[:round_number - 1])
