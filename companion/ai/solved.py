"""What the solved endings tables of both Senets share: their file and their moves.

:mod:`companion.ai.race` (Tait's Senet) and :mod:`companion.ai.race_sticks`
(casting-stick Senet) each solve their own endings; both store them the same way and
answer a decision the same way from the values of the positions after each move.

**The file** (``companion/ai/data/race-GAME.f32.zlib``): a JSON header line (format,
game, options, layers, size, how it was built), then the values as little-endian
float32, the whole zlib-compressed (xz is 13% smaller but ten times slower to read:
0.08 CPU s here, most of a second on a Pi, at the first search of the game).
"""

from __future__ import annotations

import array
import json
import sys
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.rules import Move, Phase, State

if TYPE_CHECKING:
    import numpy as np

Values = tuple[float, ...]
"""Each player's chance to win, in seat order (as :data:`companion.ai.search.Values`,
not imported from there: the search imports the tables)."""


def file_name(game_id: str) -> str:
    """The shipped table's file name for ``game_id``, in ``companion/ai/data``."""
    return f"race-{game_id}.f32.zlib"


Config = tuple[int, tuple[int, ...]]
"""One side's pieces left in a table's position: how many wait off the board (on the
plinth, in the Abyss) and the squares of the others, sorted."""


class Layers:
    """The positions of a table: its ``layers`` (``(a, b)``: the side to throw has ``a``
    pieces left, the other ``b``) and an index of each position, laid out layer by
    layer, ``mine`` by ``theirs``. ``configs(k)``: every placement of ``k`` pieces left;
    ``needs(a, b)``: the layers play leads to from ``(a, b)``; ``most``: the pieces a
    side has; ``noun``: their name in a message.

    :raises ValueError: for a layer outside 1..``most`` or a set of layers not closed
        under play.
    """

    def __init__(self, layers: Iterable[tuple[int, int]], configs: Callable[[int], list[Config]],
                 needs: Callable[[int, int], list[tuple[int, int]]], most: int, noun: str) -> None:
        self.layers: tuple[tuple[int, int], ...] = tuple(sorted(set(layers)))
        have = set(self.layers)
        for a, b in self.layers:
            if not (1 <= a <= most and 1 <= b <= most):
                raise ValueError(f"layer {(a, b)}: {noun} left must be 1 to {most}")
            for n in needs(a, b):
                if n not in have:
                    raise ValueError(f"layers not closed under play: {(a, b)} needs {n}")
        top = max(max(a, b) for a, b in self.layers)
        self.configs: dict[int, list[Config]] = {k: configs(k) for k in range(1, top + 1)}
        self.index: dict[int, dict[Config, int]] = {
            k: {c: i for i, c in enumerate(cs)} for k, cs in self.configs.items()
        }
        self.offset: dict[tuple[int, int], int] = {}
        size = 0
        for a, b in self.layers:
            self.offset[a, b] = size
            size += len(self.configs[a]) * len(self.configs[b])
        self.size = size
        """The number of positions (pairs of placements, overlapping ones included and
        never used)."""

    def at(self, a: int, b: int, mine: Config, theirs: Config) -> int | None:
        """The index of the position of layer ``(a, b)`` where the side with ``mine`` is
        to throw (``None`` outside the domain)."""
        off = self.offset.get((a, b))
        if off is None:
            return None
        i = self.index[a].get(mine)
        j = self.index[b].get(theirs)
        if i is None or j is None:
            return None
        return off + i * len(self.configs[b]) + j

    def positions(self) -> Iterable[tuple[int, Config, Config]]:
        """Every ``(index, mine, theirs)``, in index order."""
        i = 0
        for a, b in self.layers:
            for mine in self.configs[a]:
                for theirs in self.configs[b]:
                    yield i, mine, theirs
                    i += 1


class Layered(Protocol):
    """A table's domain as the file's header names it: its layers and its size."""

    @property
    def layers(self) -> Sequence[tuple[int, int]]: ...

    @property
    def size(self) -> int: ...


def write(path: Path, values: Sequence[float] | np.ndarray, *, fmt: int, game_id: str,
          options: Mapping[str, Any], domain: Layered, build: Mapping[str, Any]) -> None:
    """Write a table to ``path`` (the module's file): its header names the format
    ``fmt``, the game, its ``options``, the ``domain``'s layers and size and how it was
    built (``build``: JSON-able; no time in it, so that one command writes the same
    bytes every time); then ``values`` as float32, little-endian."""
    import numpy as np

    header = {"format": fmt, "game": game_id, "options": dict(options),
              "layers": [list(layer) for layer in domain.layers], "size": domain.size, "build": dict(build)}
    body = np.asarray(values, dtype="<f4").tobytes()
    path.write_bytes(zlib.compress(json.dumps(header).encode() + b"\n" + body, 9))


def read(data: bytes, fmt: int, game_id: str) -> tuple[dict[str, Any], array.array[float]]:
    """The header and the values of a table file's bytes ``data`` of format ``fmt`` for
    ``game_id``, the values in this machine's byte order.

    :raises ValueError: for another format or game, or a header that is not JSON.
    :raises zlib.error: when ``data`` is not a zlib stream.
    :raises KeyError: for a header without its format or game.
    """
    raw = zlib.decompress(data)
    head, _, body = raw.partition(b"\n")
    header = json.loads(head)
    if header["format"] != fmt or header["game"] != game_id:
        raise ValueError(f"format {header['format']} of {header['game']}")
    values = array.array("f")
    values.frombytes(body)
    if sys.byteorder == "big":
        values.byteswap()
    return header, values


def as_array(values: np.ndarray) -> array.array[float]:
    """A solved table's ``values`` (numpy) as float32 in this machine's byte order, as
    :func:`read` gives them from a file."""
    arr = array.array("f")
    arr.frombytes(values.astype("<f4").tobytes())
    if sys.byteorder == "big":
        arr.byteswap()
    return arr


def shipped_bytes(game_id: str) -> bytes | None:
    """The shipped table file of ``game_id``, ``None`` when none ships."""
    try:
        return resources.files("companion.ai").joinpath("data", file_name(game_id)).read_bytes()
    except (FileNotFoundError, OSError):
        return None


class SolvedMoves:
    """A decision answered from a solved table: a subclass gives :meth:`covers` and
    :meth:`values` (each player's exact chance to win in a position of its domain)."""

    def covers(self, state: State) -> bool:  # pragma: no cover - every table gives it
        raise NotImplementedError

    def values(self, state: State) -> Values | None:  # pragma: no cover - every table gives it
        raise NotImplementedError

    def move_values(self, state: State) -> list[tuple[Move, float]]:
        """Every legal move of ``state`` (a decision of the domain) with the mover's
        exact chance to win after it, in the order of ``legal_moves``.

        :raises ValueError: when ``state`` is outside the domain or no move is due.
        """
        if not self.covers(state) or state.phase is not Phase.MOVE:
            raise ValueError(f"not a decision of the table's domain: {state.describe()}")
        me = state.current_player
        out = []
        for move in state.legal_moves():
            after = state.search_copy()
            after.play(move)
            found = self.values(after)
            assert found is not None
            out.append((move, found[me]))
        return out

    def best_move(self, state: State) -> Move:
        """The move with the highest exact value (the first listed of equal ones).

        :raises ValueError: as :meth:`move_values`.
        """
        valued = self.move_values(state)
        best = max(v for _m, v in valued)
        return next(m for m, v in valued if v == best)
