"""Import of a club's own seating table (*tabela rozstawienia*) from CSV.

One row per seat: ``round,table,seat,player``, e.g. ``1,3,2,17`` puts player
17 in seat 2 of table 3 in round 1. Rules:

* a header row is optional; if present it names the four columns, in any
  order, in English (``round,table,seat,player``) or Polish
  (``runda,stół,miejsce,gracz``);
* the separator is a comma, a semicolon (what a Polish spreadsheet writes) or
  a tab, whichever the first line uses most; a byte-order mark, blank lines
  and empty trailing cells are ignored;
* all values are whole numbers; seats are 1..4; every table has each of the
  four seats exactly once; table numbers give the order of the tables in the
  round (they need not be contiguous);
* a player who sits out a round is written with the table ``bye`` (or
  ``pauza``) and the seat left empty, e.g. ``2,bye,,17``;
* every player number is registered, nobody appears twice in a round, and
  every registered player is seated or sits out in every round: one left out
  is an error naming him;
* rounds are numbered 1..R without gaps, R at most ``MAX_ROUNDS``;
* a cell holds at most ``csv.field_size_limit()`` characters (128 KiB): a longer one
  is a problem on its line, as is any other text the CSV reader cannot split.

Every problem found is reported, one line each, in a single
``SeatingImportError`` (``problems``).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Collection, Iterator

from .errors import SeatingError, SeatingImportError
from .schedule import ImportedSeating, Table, is_player_number

_COLUMNS = ("round", "table", "seat", "player")
_NAMES = {
    "round": "round",
    "runda": "round",
    "table": "table",
    "stół": "table",
    "stol": "table",
    "seat": "seat",
    "miejsce": "seat",
    "player": "player",
    "gracz": "player",
    "zawodnik": "player",
}
_BYE = {"bye", "pauza"}
#: More rounds than any tournament plays; also keeps the gap check below short.
MAX_ROUNDS = 99


def _rows(lines: list[str], delimiter: str, problems: list[str]) -> Iterator[tuple[int, list[str]]]:
    """``(line number, cells)``; a line the CSV reader refuses ends the reading as a problem."""
    reader = csv.reader(lines, delimiter=delimiter)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append(f"line {reader.line_num}: {exc}")
            raise SeatingImportError(problems) from None
        yield reader.line_num, row


def parse_seating_csv(text: str, registered: Collection[int]) -> ImportedSeating:
    """Read and check a seating table; see the module docstring for the format."""
    players = sorted(set(registered))
    if not all(is_player_number(p) for p in players):
        raise SeatingError("registered player numbers must be whole numbers from 1")
    lines = text.lstrip("\ufeff").splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = max(",;\t", key=first.count)
    problems: list[str] = []
    columns: tuple[str, ...] = _COLUMNS
    seats: dict[int, dict[int, dict[int, list[int]]]] = defaultdict(lambda: defaultdict(dict))
    byes: dict[int, list[int]] = defaultdict(list)
    where: dict[tuple[int, int], list[str]] = defaultdict(list)
    known = set(players)
    header_possible = True
    for number, row in _rows(lines, delimiter, problems):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        while len(cells) > 4 and not cells[-1]:
            cells.pop()
        if header_possible and not cells[0].lstrip("-").isdigit():
            header_possible = False
            named = tuple(_NAMES.get(cell.lower(), "") for cell in cells)
            if sorted(named) != sorted(_COLUMNS):
                problems.append(
                    f"line {number}: the header must name the columns round, table, seat "
                    f"and player, not {','.join(cells)}"
                )
                raise SeatingImportError(problems)
            columns = named
            continue
        header_possible = False
        if len(cells) != 4:
            problems.append(
                f"line {number}: expected 4 values (round, table, seat, player), got {len(cells)}"
            )
            continue
        value = dict(zip(columns, cells, strict=True))
        is_bye = value["table"].lower() in _BYE
        parsed: dict[str, int] = {}
        for column in _COLUMNS:
            if is_bye and column in ("table", "seat"):
                continue
            text_value = value[column]
            try:
                parsed[column] = int(text_value)
            except ValueError:
                problems.append(f"line {number}: {column} {text_value!r} is not a whole number")
        if len(parsed) != (2 if is_bye else 4):
            continue
        rnd, player = parsed["round"], parsed["player"]
        row_problems = []
        if rnd < 1:
            row_problems.append(f"line {number}: round {rnd} must be 1 or more")
        elif rnd > MAX_ROUNDS:
            row_problems.append(f"line {number}: round {rnd} is more than {MAX_ROUNDS}")
        if player not in known:
            row_problems.append(f"line {number}: player {player} is not registered")
        if not is_bye:
            if parsed["table"] < 1:
                row_problems.append(f"line {number}: table {parsed['table']} must be 1 or more")
            if not 1 <= parsed["seat"] <= 4:
                row_problems.append(f"line {number}: seat {parsed['seat']} is not between 1 and 4")
        if row_problems:
            problems.extend(row_problems)
            continue
        if is_bye:
            byes[rnd].append(player)
            where[rnd, player].append("sitting out")
        else:
            table, seat = parsed["table"], parsed["seat"]
            seats[rnd][table].setdefault(seat, []).append(player)
            where[rnd, player].append(f"table {table} seat {seat}")
    rounds_seen = sorted(set(seats) | set(byes))
    if not rounds_seen and not problems:
        problems.append("no seating rows found")
    for rnd in range(1, max(rounds_seen, default=0) + 1):
        if rnd not in rounds_seen:
            problems.append(
                f"rounds must be numbered 1 to {max(rounds_seen)} without gaps: "
                f"round {rnd} is missing"
            )
            continue
        for table, by_seat in sorted(seats[rnd].items()):
            for seat, sitters in sorted(by_seat.items()):
                if len(sitters) > 1:
                    problems.append(
                        f"round {rnd}, table {table}: seat {seat} is given "
                        f"{len(sitters)} times (players {', '.join(map(str, sitters))})"
                    )
            missing = [str(s) for s in range(1, 5) if s not in by_seat]
            if missing:
                problems.append(
                    f"round {rnd}, table {table}: seat{'s' if len(missing) > 1 else ''} "
                    f"{', '.join(missing)} {'are' if len(missing) > 1 else 'is'} missing"
                )
        for player in players:
            places = where.get((rnd, player), [])
            if not places:
                problems.append(f"player {player} is registered but not seated in round {rnd}")
            elif len(places) > 1:
                problems.append(
                    f"player {player} appears {len(places)} times in round {rnd} "
                    f"({', '.join(places)})"
                )
    if problems:
        raise SeatingImportError(problems)
    rounds: list[tuple[Table, ...]] = []
    for rnd in rounds_seen:
        tables = []
        for _, by_seat in sorted(seats[rnd].items()):
            tables.append((by_seat[1][0], by_seat[2][0], by_seat[3][0], by_seat[4][0]))
        rounds.append(tuple(tables))
    return ImportedSeating(
        players=tuple(players),
        rounds=tuple(rounds),
        byes=tuple(tuple(sorted(byes[rnd])) for rnd in rounds_seen),
    )
