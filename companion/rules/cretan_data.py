"""Board and deck data of the Cretan Labyrinth (seed ``004_fc892f1937d88e90.txt``).

The seed gives no drawing of the board and no card texts, so both live in TOML files
that an owner of the printed game can copy and edit:

* ``companion/rules/data/cretan_labyrinth.toml``: the board as a text map (blank and
  coloured spaces, the palace, the gateways, walls inside the board);
* ``companion/rules/data/cretan_decks.toml``: the direction deck and the four coloured
  "do" decks, each card with its text and an effect from a small vocabulary.

:func:`load_board` / :func:`load_decks` read a file (the default when ``path`` is
empty); :func:`parse_board` / :func:`parse_decks` read text. Every problem raises
:class:`~companion.rules.errors.BoardDataError` naming the file, the line (when one
can be named) and the reason. This module reads files but holds no state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from companion.rules.datafile import TomlLines, packaged_path, parse_toml, read_text
from companion.rules.errors import BoardDataError

DEFAULT_BOARD: Final = "cretan_labyrinth.toml"
DEFAULT_DECKS: Final = "cretan_decks.toml"

ITEMS: Final = ("bow", "sword", "feather", "potion", "rope", "mirror", "head")
"""The seed's tools and weapons, in the order of its weapon table (numbers 1-7)."""

ITEM_NAMES: Final = {
    "bow": "Magic Bow and Arrow",
    "sword": "Magic Sword",
    "feather": "Magic Feather",
    "potion": "Shrinking Potion",
    "rope": "Rope",
    "mirror": "Mirror",
    "head": "Head of Medusa",
}

DIRECTIONS: Final = ("north", "east", "south", "west")
"""The four ways a direction card can send a piece; north is the top of the board map."""

STEP: Final = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}
"""(column, row) change of one step in each direction."""

EFFECTS: Final = frozenset(
    {
        "diamond",
        "item",
        "lose-diamonds",
        "lose-turns",
        "toward-goal",
        "away-from-goal",
        "nearest-gateway",
        "killed",
        "go-back",
        "swap",
        "pegasus",
        "nothing",
    }
)
"""The effects a coloured card may have (see the deck file's header)."""

DANGERS: Final = frozenset(
    {"lose-diamonds", "lose-turns", "away-from-goal", "nearest-gateway", "killed", "go-back", "swap"}
)
"""Effects that may carry ``helped-by`` (a danger that a tool or weapon averts)."""

MAX_SIDE: Final = 26
"""Columns are lettered a..z, so a board is at most 26 squares wide (and high)."""

_CELL_CHARS: Final = ".#P1234"


data_path = packaged_path
"""The path of a packaged data file (for messages and for copying)."""


def _read(path: str, default: str) -> tuple[str, str]:
    """The text of ``path`` (or the packaged ``default`` when empty) and its name."""
    name = path or packaged_path(default)
    return read_text(name), name


# -------------------------------------------------------------------------- board


@dataclass(frozen=True, slots=True)
class Rect:
    """Squares ``c0..c1`` x ``r0..r1`` (0-based column and row, row 0 is the south edge)."""

    c0: int
    r0: int
    c1: int
    r1: int

    def gaps(self, other: Rect) -> tuple[int, int]:
        """Squares between the two rectangles along columns and along rows (0 = touching/overlapping)."""
        dx = max(0, self.c0 - other.c1, other.c0 - self.c1)
        dy = max(0, self.r0 - other.r1, other.r0 - self.r1)
        return dx, dy


@dataclass(frozen=True, slots=True)
class Board:
    """A Cretan Labyrinth board read from a board file.

    A *node* is a place a piece can stand: one square, or the whole palace, or a whole
    gateway ("considered as one square"). Nodes are numbered ``0..len(names)-1``.

    ``names[n]`` is its notation (``"c4"``, ``"palace"``, ``"gate1"``); ``rects[n]`` the
    squares it covers; ``colours[n]`` the colour of a coloured space (``None`` otherwise);
    ``gateways[i]`` the node of the gateway of seat ``i + 1`` (clockwise order);
    ``succ[n][d]`` the nodes one step from ``n`` in direction ``DIRECTIONS[d]`` (several
    when leaving the palace or a gateway, none at a wall).
    """

    path: str
    name: str
    width: int
    height: int
    names: tuple[str, ...]
    rects: tuple[Rect, ...]
    colours: tuple[str | None, ...]
    palace: int
    gateways: tuple[int, ...]
    succ: tuple[tuple[tuple[int, ...], ...], ...]
    colour_names: tuple[str, ...]
    index: Mapping[str, int]

    def node(self, name: str) -> int:
        """The node called ``name``. :raises KeyError: for an unknown name."""
        return self.index[name.lower()]

    def gap(self, a: int, b: int) -> int:
        """Squares to walk from ``a`` to ``b`` ignoring walls (Manhattan distance between the nodes)."""
        dx, dy = self.rects[a].gaps(self.rects[b])
        return dx + dy

    def reach(self, a: int, b: int) -> int:
        """Squares between ``a`` and ``b`` counting diagonal steps (for 'within two spaces')."""
        dx, dy = self.rects[a].gaps(self.rects[b])
        return max(dx, dy)

    def gate_seat(self, node: int) -> int:
        """The seat (0-based) whose gateway ``node`` is, or -1."""
        try:
            return self.gateways.index(node)
        except ValueError:
            return -1


def square_name(col: int, row: int) -> str:
    """``(2, 3)`` -> ``"c4"`` (0-based column and row)."""
    return f"{chr(ord('a') + col)}{row + 1}"


def load_board(path: str = "") -> Board:
    """Read a board file (the packaged default when ``path`` is empty).

    :raises BoardDataError: naming the file, line and reason.
    """
    text, name = _read(path, DEFAULT_BOARD)
    return parse_board(text, name)


def parse_board(text: str, path: str = "<board>") -> Board:
    """Read a board file's text. ``path`` names it in messages.

    :raises BoardDataError: naming ``path``, the line and the reason.
    """
    data = parse_toml(text, path)
    lines = TomlLines(text)
    for key in data:
        if key not in ("name", "colours", "board"):
            raise BoardDataError(path, lines.of("", key, 0), f"unknown key {key!r} (known: name, colours, board)")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise BoardDataError(path, lines.of("", "name", 0), "name must be a string")
    colours = data.get("colours")
    if not isinstance(colours, dict) or not colours:
        raise BoardDataError(path, lines.header("colours"), "a [colours] table must give each coloured space's letter and colour, e.g. R = \"red\"")
    letter_colour: dict[str, str] = {}
    for letter, colour in colours.items():
        line = lines.of("colours", letter, 0)
        if len(letter) != 1 or not letter.isalpha() or letter != letter.upper() or letter in _CELL_CHARS:
            raise BoardDataError(path, line, f"colour letter {letter!r} must be one capital letter other than P")
        if not isinstance(colour, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", colour):
            raise BoardDataError(path, line, f"colour of {letter!r} must be a lower-case name such as \"red\", got {colour!r}")
        if colour in letter_colour.values():
            raise BoardDataError(path, line, f"colour {colour!r} is given to two letters")
        letter_colour[letter] = colour
    board = data.get("board")
    if not isinstance(board, dict) or "map" not in board:
        raise BoardDataError(path, lines.header("board"), "a [board] table with a map = \"\"\"...\"\"\" is required")
    for key in board:
        if key != "map":
            raise BoardDataError(path, lines.of("board", key, 0), f"unknown key {key!r} in [board] (known: map)")
    raw = board["map"]
    map_line = lines.of("board", "map", 0) or 1
    if not isinstance(raw, str):
        raise BoardDataError(path, map_line, "the map must be a multi-line string")
    # tomllib drops the newline right after the opening quotes: row 0 is on the next line.
    source_lines = text.splitlines()
    first = map_line + 1
    if map_line - 1 < len(source_lines):
        after = source_lines[map_line - 1].split('"""', 1)
        if len(after) == 2 and after[1].strip():
            first = map_line
    rows: list[tuple[int, list[str]]] = []
    for i, row_text in enumerate(raw.split("\n")):
        tokens = row_text.split()
        if not tokens:
            continue
        if len(tokens) == 1 and len(tokens[0]) > 1:
            tokens = list(tokens[0])
        rows.append((first + i, tokens))
    if len(rows) < 3:
        raise BoardDataError(path, map_line, "the map needs at least 3 rows")
    if len(rows) > MAX_SIDE:
        raise BoardDataError(path, map_line, f"the map has {len(rows)} rows; at most {MAX_SIDE}")
    width = len(rows[0][1])
    if not 3 <= width <= MAX_SIDE:
        raise BoardDataError(path, rows[0][0], f"a row needs 3 to {MAX_SIDE} squares, got {width}")
    height = len(rows)
    grid: dict[tuple[int, int], str] = {}
    for i, (lineno, tokens) in enumerate(rows):
        if len(tokens) != width:
            raise BoardDataError(path, lineno, f"this row has {len(tokens)} squares, the first row {width}")
        row = height - 1 - i  # the top row of the map is the north edge
        for col, ch in enumerate(tokens):
            if len(ch) != 1 or (ch not in _CELL_CHARS and ch not in letter_colour):
                known = ". # P 1 2 3 4 " + " ".join(letter_colour)
                raise BoardDataError(
                    path, lineno, f"square {square_name(col, row)} (column {col + 1}): unknown mark {ch!r} (known: {known})"
                )
            grid[col, row] = ch

    def row_line(row: int) -> int:
        return rows[height - 1 - row][0]

    def rect_of(ch: str, what: str) -> Rect | None:
        cells = [cr for cr, c in grid.items() if c == ch]
        if not cells:
            return None
        c0 = min(c for c, _ in cells)
        c1 = max(c for c, _ in cells)
        r0 = min(r for _, r in cells)
        r1 = max(r for _, r in cells)
        for c in range(c0, c1 + 1):
            for r in range(r0, r1 + 1):
                if grid[c, r] != ch:
                    raise BoardDataError(
                        path, row_line(r),
                        f"{what} must be one filled rectangle, but {square_name(c, r)} inside it is {grid[c, r]!r}",
                    )
        return Rect(c0, r0, c1, r1)

    palace = rect_of("P", "the palace (P)")
    if palace is None:
        raise BoardDataError(path, map_line, "the map has no palace (P)")
    gates: list[Rect] = []
    for seat in "1234":
        rect = rect_of(seat, f"gateway {seat}")
        if rect is None:
            break
        if not (rect.c0 == 0 or rect.r0 == 0 or rect.c1 == width - 1 or rect.r1 == height - 1):
            raise BoardDataError(path, row_line(rect.r1), f"gateway {seat} must touch the edge of the board")
        gates.append(rect)
    for seat in "1234"[len(gates):]:
        if any(c == seat for c in grid.values()):
            raise BoardDataError(
                path, map_line, f"gateway {seat} is drawn but gateway {len(gates) + 1} is missing; number them 1, 2, ... clockwise"
            )
    if len(gates) < 2:
        raise BoardDataError(path, map_line, "the map needs at least two gateways (1 and 2)")

    # Nodes: the palace, the gateways, then every other square that is not a wall.
    names: list[str] = ["palace"] + [f"gate{i + 1}" for i in range(len(gates))]
    rects: list[Rect] = [palace, *gates]
    node_colours: list[str | None] = [None] * len(names)
    cell_node: dict[tuple[int, int], int] = {}
    for n, rect in enumerate(rects):
        for c in range(rect.c0, rect.c1 + 1):
            for r in range(rect.r0, rect.r1 + 1):
                cell_node[c, r] = n
    for row in range(height):
        for col in range(width):
            ch = grid[col, row]
            if ch in ".":
                node_colours.append(None)
            elif ch in letter_colour:
                node_colours.append(letter_colour[ch])
            else:
                continue
            cell_node[col, row] = len(names)
            names.append(square_name(col, row))
            rects.append(Rect(col, row, col, row))
    succ: list[tuple[tuple[int, ...], ...]] = []
    for n, rect in enumerate(rects):
        per_dir: list[tuple[int, ...]] = []
        for d in DIRECTIONS:
            dc, dr = STEP[d]
            out: list[int] = []
            for c in range(rect.c0, rect.c1 + 1):
                for r in range(rect.r0, rect.r1 + 1):
                    nxt = cell_node.get((c + dc, r + dr))
                    if nxt is not None and nxt != n and nxt not in out:
                        out.append(nxt)
            per_dir.append(tuple(out))
        succ.append(tuple(per_dir))
    return Board(
        path=path,
        name=name,
        width=width,
        height=height,
        names=tuple(names),
        rects=tuple(rects),
        colours=tuple(node_colours),
        palace=0,
        gateways=tuple(range(1, len(gates) + 1)),
        succ=tuple(succ),
        colour_names=tuple(sorted(set(letter_colour.values()), key=list(letter_colour.values()).index)),
        index={nm: i for i, nm in enumerate(names)},
    )


# -------------------------------------------------------------------------- decks


@dataclass(frozen=True, slots=True)
class Card:
    """One card kind of a deck file (``count`` copies).

    ``deck`` is ``"direction"`` or a colour. A direction card has ``go`` (a direction or
    ``"any"``); a coloured card has ``effect`` and, as the effect needs, ``item``,
    ``turns``, ``spaces``; ``helped_by`` lists the items that avert it (rule 15).
    """

    id: str
    deck: str
    text: str
    count: int = 1
    go: str = ""
    effect: str = ""
    item: str = ""
    turns: int = 0
    spaces: int = 0
    helped_by: tuple[str, ...] = ()
    creature: str = ""

    @property
    def is_item(self) -> bool:
        """A tool or weapon: kept by the player who draws it (rule 6)."""
        return self.effect == "item"


@dataclass(frozen=True, slots=True)
class Decks:
    """The decks of a deck file: ``cards`` by id, ``contents[deck]`` every copy in file order."""

    path: str
    colours: tuple[str, ...]
    cards: Mapping[str, Card]
    contents: Mapping[str, tuple[str, ...]]

    def deck_of(self, card: str) -> str:
        """The deck (``"direction"`` or a colour) card ``card`` belongs to. :raises KeyError:"""
        return self.cards[card].deck


def load_decks(path: str = "") -> Decks:
    """Read a deck file (the packaged default when ``path`` is empty).

    :raises BoardDataError: naming the file, line and reason.
    """
    text, name = _read(path, DEFAULT_DECKS)
    return parse_decks(text, name)


_CARD_KEYS: Final = {
    "direction": {"id", "count", "text", "go"},
    "colour": {"id", "count", "text", "effect", "item", "turns", "spaces", "helped-by", "creature"},
}
_NEEDS: Final = {
    "item": "item",
    "lose-turns": "turns",
    "toward-goal": "spaces",
    "away-from-goal": "spaces",
}


def parse_decks(text: str, path: str = "<decks>") -> Decks:
    """Read a deck file's text. ``path`` names it in messages.

    :raises BoardDataError: naming ``path``, the line and the reason.
    """
    data = parse_toml(text, path)
    lines = TomlLines(text)
    colours = data.get("colours")
    if (
        not isinstance(colours, list)
        or not colours
        or not all(isinstance(c, str) and re.fullmatch(r"[a-z][a-z0-9-]*", c) for c in colours)
        or len(set(colours)) != len(colours)
        or "direction" in colours
    ):
        raise BoardDataError(
            path, lines.of("", "colours", 0),
            "colours must list the coloured decks' names, e.g. colours = [\"red\", \"green\", \"blue\", \"yellow\"]",
        )
    for key in data:
        if key not in ("colours", "direction", *colours):
            raise BoardDataError(
                path, lines.of("", key, 0) or lines.header(key),
                f"unknown deck or key {key!r} (decks: direction, {', '.join(colours)})",
            )
    cards: dict[str, Card] = {}
    contents: dict[str, tuple[str, ...]] = {}
    for deck in ("direction", *colours):
        entries = data.get(deck)
        if not isinstance(entries, list) or not entries:
            raise BoardDataError(path, lines.header(deck), f"the {deck} deck needs at least one [[{deck}]] card")
        copies: list[str] = []
        kind = "direction" if deck == "direction" else "colour"
        for i, entry in enumerate(entries):
            def fail(key: str, reason: str, deck: str = deck, i: int = i) -> BoardDataError:
                return BoardDataError(path, lines.of(deck, key, i), reason)

            if not isinstance(entry, dict):
                raise fail("id", f"each [[{deck}]] entry must be a table")
            card_id = entry.get("id")
            if not isinstance(card_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", card_id):
                raise fail("id", f"card {i + 1} of the {deck} deck needs an id of lower-case letters, digits and '-', got {card_id!r}")
            where = f"card {card_id!r}"
            for key in entry:
                if key not in _CARD_KEYS[kind]:
                    raise fail(key, f"{where}: unknown key {key!r} (known: {', '.join(sorted(_CARD_KEYS[kind]))})")
            if card_id in cards:
                raise fail("id", f"{where}: the id is used twice (ids are unique in the whole file)")
            count = entry.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
                raise fail("count", f"{where}: count must be a whole number 1 to 20, got {count!r}")
            card_text = entry.get("text")
            if not isinstance(card_text, str) or not card_text.strip():
                raise fail("text", f"{where}: text (what the card says) is required")
            if kind == "direction":
                go = entry.get("go")
                if go not in (*DIRECTIONS, "any"):
                    raise fail("go", f"{where}: go must be north, east, south, west or any, got {go!r}")
                card = Card(card_id, deck, card_text.strip(), count, go=str(go))
            else:
                effect = entry.get("effect")
                if not isinstance(effect, str) or effect not in EFFECTS:  # {} is unhashable
                    raise fail("effect", f"{where}: effect must be one of {', '.join(sorted(EFFECTS))}, got {effect!r}")
                assert isinstance(effect, str)
                need = _NEEDS.get(effect)
                for key in ("item", "turns", "spaces"):
                    if key in entry and key != need:
                        raise fail(key, f"{where}: {key} does not apply to effect {effect!r}")
                item = entry.get("item", "")
                turns = entry.get("turns", 0)
                spaces = entry.get("spaces", 0)
                if need == "item" and item not in ITEMS:
                    raise fail("item" if "item" in entry else "effect", f"{where}: item must be one of {', '.join(ITEMS)}, got {item!r}")
                if need == "turns" and (not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 9):
                    raise fail("turns" if "turns" in entry else "effect", f"{where}: turns must be a whole number 1 to 9, got {turns!r}")
                if need == "spaces" and (not isinstance(spaces, int) or isinstance(spaces, bool) or not 1 <= spaces <= 12):
                    raise fail("spaces" if "spaces" in entry else "effect", f"{where}: spaces must be a whole number 1 to 12, got {spaces!r}")
                helped = entry.get("helped-by", [])
                if not isinstance(helped, list) or not all(h in ITEMS for h in helped) or len(set(helped)) != len(helped):
                    raise fail("helped-by", f"{where}: helped-by must list distinct items of {', '.join(ITEMS)}, got {helped!r}")
                if helped and effect not in DANGERS:
                    raise fail("helped-by", f"{where}: effect {effect!r} is not a danger; only {', '.join(sorted(DANGERS))} can be averted")
                creature = entry.get("creature", "")
                if not isinstance(creature, str):
                    raise fail("creature", f"{where}: creature must be a name")
                card = Card(
                    card_id, deck, card_text.strip(), count, effect=effect, item=str(item),
                    turns=int(turns), spaces=int(spaces), helped_by=tuple(str(h) for h in helped),
                    creature=creature,
                )
            cards[card_id] = card
            copies += [card_id] * count
        if kind == "colour" and all(cards[c].is_item for c in copies):
            raise BoardDataError(path, lines.header(deck), f"the {deck} deck holds only tools and weapons; it would run out")
        contents[deck] = tuple(copies)
    return Decks(path, tuple(colours), cards, contents)


# --------------------------------------------------------------------- weapon table

WEAPON_TABLE: Final[dict[str, tuple[frozenset[int], frozenset[int]]]] = {
    # number: the seed's row; the two "Will Defeat" columns as printed.
    "bow": (frozenset({1, 3, 5, 6}), frozenset({2, 3, 4, 6, 7})),
    "sword": (frozenset({2, 4, 6}), frozenset({1, 4, 5, 6, 7})),
    "feather": (frozenset({2, 3, 4, 6}), frozenset({2, 4, 6})),
    "potion": (frozenset({1, 4, 6}), frozenset({1, 6})),
    "rope": (frozenset({3, 4, 5, 6}), frozenset({3, 4, 6})),
    "mirror": (frozenset({7}), frozenset({7})),
    "head": (frozenset({3, 4, 5, 6}), frozenset({1, 2, 3, 4, 5})),
}
"""The seed's table: ``WEAPON_TABLE[item] = (first column, second column)`` of item numbers 1-7."""


def battle_by_weapons(attacker: str, defender: str, columns: str = "attack-defend") -> bool:
    """Whether the attacker showing ``attacker`` beats the defender showing ``defender``.

    ``columns="attack-defend"`` (the default reading): the first "Will Defeat" column is
    what an item beats in the attacker's hand, the second what it beats in the
    defender's hand. The attacker wins when the first column of their item names the
    defender's item and the second column of the defender's item does not name theirs;
    otherwise (the defender's column claims the win, or neither column does) it is a
    tie or a defence, and "the tie goes to the defender". ``"defend-attack"`` swaps
    the columns. So every pair has exactly one winner.

    :raises KeyError: for an item not in :data:`ITEMS`.
    """
    a_col, d_col = (0, 1) if columns == "attack-defend" else (1, 0)
    att_no = ITEMS.index(attacker) + 1
    def_no = ITEMS.index(defender) + 1
    attacker_claims = def_no in WEAPON_TABLE[attacker][a_col]
    defender_claims = att_no in WEAPON_TABLE[defender][d_col]
    return attacker_claims and not defender_claims


__all__ = [
    "DIRECTIONS",
    "EFFECTS",
    "ITEMS",
    "ITEM_NAMES",
    "WEAPON_TABLE",
    "Board",
    "Card",
    "Decks",
    "Rect",
    "battle_by_weapons",
    "data_path",
    "load_board",
    "load_decks",
    "parse_board",
    "parse_decks",
    "square_name",
]
