"""Throw implements: dice, two-sided casting sticks, coloured casting sticks, card decks.

An :class:`Implement` says what must be thrown now. It gives

* :meth:`~Implement.outcomes`: every :class:`Throw` it can show, with its exact
  probability as a :class:`fractions.Fraction` (they sum to exactly 1);
* :meth:`~Implement.draw`: a fair throw from an injected ``randbelow(n)`` (the rules
  themselves hold no randomness: the companion passes ``secrets.randbelow``);
* :meth:`~Implement.parse`: a throw typed by a person (the command line, manual entry);
* :meth:`~Implement.check`: validation of a throw reported by a device;
* :meth:`~Implement.search_outcomes`: the outcomes for a search, cached, with float
  weights beside the exact fractions, throws that differ only in the order of their
  dice or sticks merged.

A :class:`Throw` keeps the individual faces (each die, each stick light or dark, each
coloured stick's value and colour, the card) because the OLED draws them and the
serial shaker reports them, and the ``values`` the rules use.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, NamedTuple

from companion.rules.errors import InvalidThrowError
from companion.rules.kinds import DARK, LIGHT  # the face tokens of a casting stick

Randbelow = Callable[[int], int]



@dataclass(frozen=True, slots=True)
class Throw:
    """What lies on the table after a throw.

    ``implement`` is the :attr:`Implement.id` it was thrown with; ``faces`` one token
    per die / stick / card (``"5"``; ``"L"`` or ``"D"``; ``"3:red"``; a card id);
    ``values`` the numbers the rules use (each die; one score for two-sided sticks;
    each coloured stick's value; none for a card); ``colours`` one entry per value
    for coloured sticks (``None`` = a solid stick, usable by either player).
    """

    implement: str
    faces: tuple[str, ...]
    values: tuple[int, ...]
    colours: tuple[str | None, ...] = ()

    @property
    def card(self) -> str:
        """The card id of a card draw.

        :raises InvalidThrowError: for a throw that is not a card draw.
        """
        if not self.implement.startswith("deck:"):
            raise InvalidThrowError(f"{self} is not a card draw")
        return self.faces[0]

    def __str__(self) -> str:
        """The throw in words, read back by its implement's :meth:`Implement.parse`:
        ``"card 7"``, ``"2 (LLDD)"`` (score, then the sticks), ``"3 5"``, ``"3:red 2"``."""
        if self.implement.startswith("deck:"):
            return f"card {self.faces[0]}"
        if self.faces and self.faces[0] in (LIGHT, DARK):
            return f"{self.values[0]} ({''.join(self.faces)})"
        return " ".join(self.faces)


class ChanceOutcome(NamedTuple):
    """One outcome of a throw, for a search: the throw, its exact probability, and the
    same probability as a float (the search's arithmetic)."""

    throw: Throw
    probability: Fraction
    weight: float


class Implement(ABC):
    """Something thrown (or drawn): knows its outcomes and how to read a throw.

    ``kind`` names the implement's family for pictures and entry by hand:
    ``"sticks"`` (faces ``L``/``D``), ``"dice"``, ``"coloured"`` (faces ``"3:red"``),
    ``"card"`` or ``"faces"`` (anything else).
    """

    kind: ClassVar[str] = "faces"

    def search_outcomes(self) -> tuple[ChanceOutcome, ...]:
        """The outcomes for a search: :meth:`outcomes` with throws that have the same
        :meth:`order_free_key` merged (their probabilities added), each with its
        probability as a float too. The throw kept for a merged class is its first in
        :meth:`outcomes` (a throw this implement can really show).

        Computed once per implement (implements are immutable values) and cached: the
        same tuple comes back on every call. The likeliest outcomes come first (a search
        that prunes at chance nodes gets there sooner). Two dice give twenty-one outcomes (15
        pairs at 1/18, then 6 doubles at 1/36) where :meth:`outcomes` lists 36.

        :raises InvalidThrowError: as :meth:`outcomes` (an empty deck).
        """
        return _search_outcomes(self)

    def order_free_key(self, throw: Throw) -> Hashable:
        """What of ``throw`` matters when the order of its dice or sticks does not:
        throws with equal keys are merged by :meth:`search_outcomes`. Default: the
        throw itself (nothing merged)."""
        return throw

    @property
    @abstractmethod
    def id(self) -> str:
        """A short stable name: ``"2d6"``, ``"4 sticks"``, ``"deck:direction"``."""

    @abstractmethod
    def outcomes(self) -> list[tuple[Throw, Fraction]]:
        """Every distinct throw with its exact probability; probabilities sum to 1."""

    @abstractmethod
    def draw(self, randbelow: Randbelow) -> Throw:
        """A fair throw using ``randbelow(n)`` (uniform integer in ``0..n-1``)."""

    @abstractmethod
    def from_faces(self, faces: Sequence[str]) -> Throw:
        """The throw that shows ``faces`` (one token per die / stick / card).

        :raises InvalidThrowError: wrong number of faces or a face this implement lacks.
        """

    def parse(self, text: str) -> Throw:
        """A throw typed by a person: faces separated by spaces or commas.

        :raises InvalidThrowError: when the text does not describe a possible throw.
        """
        tokens = [t for t in text.replace(",", " ").split() if t]
        return self.from_faces(tokens)

    def check(self, throw: Throw) -> None:
        """Validate a throw reported from elsewhere (a device, a journal).

        :raises InvalidThrowError: when it could not have come from this implement.
        """
        if throw.implement != self.id:
            raise InvalidThrowError(
                f"throw {throw} was made with {throw.implement!r}, expected {self.id!r}"
            )
        expected = self.from_faces(throw.faces)
        if expected != throw:
            raise InvalidThrowError(f"throw {throw} does not match its faces ({expected})")

    def describe(self) -> str:
        """Words for the screen: ``"two dice"``, ``"4 casting sticks"``."""
        return self.id

    def entry_slots(self) -> tuple[tuple[str, ...], ...]:
        """How a person enters a throw of this implement by hand: one slot per die or
        stick, set one after the other, each slot the face tokens it can show in the
        order offered. Default: one slot listing every possible throw (its faces
        joined by spaces), in the order of :meth:`outcomes`."""
        return ((*(" ".join(t.faces) for t, _ in self.outcomes()),),)

    def entry_words(self, token: str) -> str:
        """A token of :meth:`entry_slots` in words for the screen (default: itself)."""
        return token

    def from_slots(self, chosen: Sequence[int]) -> Throw:
        """The throw entered by choosing, in each of :meth:`entry_slots`, the face at
        index ``chosen[i]``.

        :raises InvalidThrowError: a wrong number of choices or an index out of range.
        """
        slots = self.entry_slots()
        if len(chosen) != len(slots) or any(
            not 0 <= c < len(slot) for c, slot in zip(chosen, slots, strict=False)
        ):
            raise InvalidThrowError(
                f"{self.id}: {len(slots)} choice(s) expected, got {list(chosen)}"
            )
        if len(slots) == 1 and self.kind in ("faces", "card"):
            return self.outcomes()[chosen[0]][0]
        return self.from_faces([slot[c] for slot, c in zip(slots, chosen, strict=True)])


@dataclass(frozen=True, slots=True)
class Dice(Implement):
    """``count`` dice with ``sides`` faces numbered 1..sides; each die is one value."""

    count: int = 2
    sides: int = 6
    kind: ClassVar[str] = "dice"
    _throws: tuple[Throw, ...] = field(default=(), init=False, repr=False, compare=False)
    """Every throw in the order the faces are drawn (first die slowest), when there are
    at most 64: a draw picks one instead of making it."""

    def __post_init__(self) -> None:
        if not 1 <= self.count <= 8 or not 2 <= self.sides <= 100:
            raise InvalidThrowError(f"unsupported dice: {self.count}d{self.sides}")
        if self.sides**self.count <= 64:
            faces = range(1, self.sides + 1)
            made = tuple(self._make(v) for v in itertools.product(faces, repeat=self.count))
            object.__setattr__(self, "_throws", made)

    @property
    def id(self) -> str:
        return f"{self.count}d{self.sides}"

    def outcomes(self) -> list[tuple[Throw, Fraction]]:
        p = Fraction(1, self.sides**self.count)
        faces = range(1, self.sides + 1)
        return [
            (self._make(combo), p)
            for combo in itertools.product(faces, repeat=self.count)
        ]

    def _make(self, values: Sequence[int]) -> Throw:
        return Throw(self.id, tuple(map(str, values)), tuple(values))

    def order_free_key(self, throw: Throw) -> Hashable:
        """The values as a sorted tuple: ``3 5`` and ``5 3`` are one outcome."""
        return tuple(sorted(throw.values))

    def draw(self, randbelow: Randbelow) -> Throw:
        throws = self._throws
        if throws:
            sides = self.sides
            index = 0
            for _ in range(self.count):  # one randbelow per die, the first die first
                index = index * sides + randbelow(sides)
            return throws[index]
        return self._make([randbelow(self.sides) + 1 for _ in range(self.count)])

    def from_faces(self, faces: Sequence[str]) -> Throw:
        if len(faces) != self.count:
            raise InvalidThrowError(
                f"{self.id} shows {self.count} value(s), got {len(faces)}: {' '.join(faces)!r}"
            )
        values = []
        for face in faces:
            if not (face.isascii() and face.isdigit()) or not 1 <= int(face) <= self.sides:
                raise InvalidThrowError(
                    f"a die of {self.id} shows 1 to {self.sides}, not {face!r}"
                )
            values.append(int(face))
        return self._make(values)

    def entry_slots(self) -> tuple[tuple[str, ...], ...]:
        """One slot per die, its pips ``"1"`` to ``"<sides>"``."""
        return ((*(str(v) for v in range(1, self.sides + 1)),),) * self.count

    def describe(self) -> str:
        if self.count == 1:
            return "one die"
        return f"{self.count} dice" if self.count > 2 else "two dice"


@dataclass(frozen=True, slots=True)
class BinarySticks(Implement):
    """``count`` two-sided casting sticks scored by the number of light sides.

    ``scores[k]`` is the score when ``k`` light sides show (``k`` in ``0..count``);
    the default is Tait's: ``k`` light sides score ``k``, none scores 6. Each stick
    falls light or dark with probability 1/2, so ``P(k) = C(count, k) / 2**count``.
    """

    count: int = 4
    scores: tuple[int, ...] = ()
    kind: ClassVar[str] = "sticks"

    def __post_init__(self) -> None:
        if not 1 <= self.count <= 8:
            raise InvalidThrowError(f"unsupported number of sticks: {self.count}")
        if not self.scores:
            object.__setattr__(
                self, "scores", (6, *range(1, self.count + 1))
            )
        if len(self.scores) != self.count + 1:
            raise InvalidThrowError(
                f"{self.count} sticks need {self.count + 1} scores, got {self.scores}"
            )

    @property
    def id(self) -> str:
        return f"{self.count} sticks"

    def _make(self, faces: Sequence[str]) -> Throw:
        lights = sum(1 for f in faces if f == LIGHT)
        return Throw(self.id, tuple(faces), (self.scores[lights],))

    def outcomes(self) -> list[tuple[Throw, Fraction]]:
        total = 2**self.count
        return [
            (
                self._make([LIGHT] * k + [DARK] * (self.count - k)),
                Fraction(math.comb(self.count, k), total),
            )
            for k in range(self.count + 1)
        ]

    def draw(self, randbelow: Randbelow) -> Throw:
        # One uniform number of ``count`` bits: bit i is stick i (1 = light).
        return _stick_table(self)[randbelow(1 << self.count)]

    def from_faces(self, faces: Sequence[str]) -> Throw:
        cleaned = [f.upper() for f in faces]
        if len(cleaned) == 1 and len(cleaned[0]) == self.count and set(cleaned[0]) <= {LIGHT, DARK}:
            cleaned = list(cleaned[0])
        if len(cleaned) != self.count or not set(cleaned) <= {LIGHT, DARK}:
            raise InvalidThrowError(
                f"{self.id}: give {self.count} faces, each L (light) or D (dark), "
                f"or the score; got {' '.join(faces)!r}"
            )
        return self._make(cleaned)

    def entry_slots(self) -> tuple[tuple[str, ...], ...]:
        """One slot: the scores these sticks can show, lowest first. Players enter the
        score they count, not each stick: which stick shows which side does not matter
        to the rules (the throw is made with the light sides first)."""
        return (tuple(str(v) for v in sorted(set(self.scores))),)

    def from_slots(self, chosen: Sequence[int]) -> Throw:
        slot = self.entry_slots()[0]
        if len(chosen) != 1 or not 0 <= chosen[0] < len(slot):
            raise InvalidThrowError(f"{self.id}: one score to choose, got {list(chosen)}")
        return self.parse(slot[chosen[0]])

    def entry_words(self, token: str) -> str:
        """``"6 (no light side)"``, ``"2 (2 light sides)"``."""
        lights = self.scores.index(int(token))
        sides = "no light side" if lights == 0 else (
            f"{lights} light side" + ("s" if lights > 1 else "")
        )
        return f"{token} ({sides})"

    def parse(self, text: str) -> Throw:
        """``"LLDD"``, ``"L L D D"``, a score such as ``"6"`` (light sides first), or
        the text form ``"2 (LLDD)"`` of :class:`Throw` (the score must match the faces).

        :raises InvalidThrowError: for a score these sticks cannot show.
        """
        stripped = text.strip()
        written = _SCORED.fullmatch(stripped)
        if written is not None:
            throw = self.from_faces([written.group(2)])
            if throw.values[0] != int(written.group(1)):
                raise InvalidThrowError(
                    f"{stripped!r}: the faces {written.group(2)} score {throw.values[0]}, "
                    f"not {written.group(1)}"
                )
            return throw
        if stripped.isascii() and stripped.isdigit():  # int() refuses "²", reads "٣"
            score = int(stripped)
            if score not in self.scores:
                possible = ", ".join(map(str, sorted(set(self.scores))))
                raise InvalidThrowError(
                    f"{self.id} cannot score {score}; possible scores: {possible}"
                )
            lights = self.scores.index(score)
            return self._make([LIGHT] * lights + [DARK] * (self.count - lights))
        return super(BinarySticks, self).parse(text)

    def describe(self) -> str:
        return f"{self.count} casting sticks"


_SCORED = re.compile(r"(\d+)\s*\(\s*([A-Za-z]+)\s*\)")
"""The text form of a throw of two-sided sticks: its score, then its faces in brackets."""
_CARD_DRAWS: dict[tuple[str, str], Throw] = {}
"""The draw of each card of each deck name, made once (draws recur with every turn)."""


@functools.lru_cache(maxsize=4096)
def _search_outcomes(implement: Implement) -> tuple[ChanceOutcome, ...]:
    """:meth:`Implement.search_outcomes`, cached per implement (decks change with every
    card drawn, hence room for a few thousand)."""
    first: dict[Hashable, Throw] = {}
    total: dict[Hashable, Fraction] = {}
    for throw, p in implement.outcomes():
        key = implement.order_free_key(throw)
        if key in total:
            total[key] += p
        else:
            first[key] = throw
            total[key] = p
    merged = [ChanceOutcome(first[k], p, float(p)) for k, p in total.items()]
    merged.sort(key=lambda o: -o.probability)  # likeliest first; ties in outcomes() order
    return tuple(merged)


@functools.lru_cache(maxsize=64)
def _coloured_table(sticks: ColouredSticks) -> tuple[Throw, ...]:
    """Every throw of coloured ``sticks``, indexed by the bits of the faces shown."""
    count = len(sticks.sticks)
    return tuple(
        sticks._make([pair[bits >> i & 1] for i, pair in enumerate(sticks.sticks)])
        for bits in range(1 << count)
    )


@functools.lru_cache(maxsize=64)
def _stick_table(sticks: BinarySticks) -> tuple[Throw, ...]:
    """Every face combination of ``sticks`` as a throw, indexed by its bit pattern."""
    return tuple(
        sticks._make([LIGHT if bits >> i & 1 else DARK for i in range(sticks.count)])
        for bits in range(1 << sticks.count)
    )


@dataclass(frozen=True, slots=True)
class StickFace:
    """One face of a coloured casting stick: its value and colour (``None`` = solid)."""

    value: int
    colour: str | None = None

    @property
    def token(self) -> str:
        """``"3:red"``, or ``"3"`` for a solid stick's face."""
        return f"{self.value}:{self.colour}" if self.colour else str(self.value)


@dataclass(frozen=True, slots=True)
class ColouredSticks(Implement):
    """Casting sticks whose two faces each carry a value and a colour.

    ``sticks`` holds, per stick, its two faces; each face falls with probability 1/2.
    A throw's ``values`` are the shown values, ``colours`` their colours.
    """

    sticks: tuple[tuple[StickFace, StickFace], ...]
    name: str = "coloured sticks"
    kind: ClassVar[str] = "coloured"
    _hash: int = field(default=-1, init=False, repr=False, compare=False)
    """The hash once computed (-1 until then): the sticks are hashed at every chance
    node of a search (its outcomes are cached by implement)."""

    def __hash__(self) -> int:
        known = self._hash
        if known == -1:
            known = hash((self.sticks, self.name))
            object.__setattr__(self, "_hash", known)
        return known

    @property
    def id(self) -> str:
        return f"{len(self.sticks)} {self.name}"

    def _make(self, chosen: Sequence[StickFace]) -> Throw:
        return Throw(
            self.id,
            tuple(f.token for f in chosen),
            tuple(f.value for f in chosen),
            tuple(f.colour for f in chosen),
        )

    def outcomes(self) -> list[tuple[Throw, Fraction]]:
        weights: Counter[Throw] = Counter()
        for combo in itertools.product(*self.sticks):
            weights[self._make(combo)] += 1
        total = 2 ** len(self.sticks)
        return [(t, Fraction(n, total)) for t, n in weights.items()]

    def draw(self, randbelow: Randbelow) -> Throw:
        index = 0  # bit i: the face stick i shows (one randbelow(2) per stick, in order)
        for i in range(len(self.sticks)):
            index |= randbelow(2) << i
        return _coloured_table(self)[index]

    def order_free_key(self, throw: Throw) -> Hashable:
        """The (value, colour) pairs shown, sorted: which stick shows them does not matter."""
        return tuple(sorted(zip(throw.values, (c or "" for c in throw.colours), strict=True)))

    def from_faces(self, faces: Sequence[str]) -> Throw:
        if len(faces) != len(self.sticks):
            raise InvalidThrowError(
                f"{self.id}: give one face per stick ({len(self.sticks)}), got {' '.join(faces)!r}"
            )
        chosen = []
        for i, (face, pair) in enumerate(zip(faces, self.sticks, strict=True)):
            match = [f for f in pair if f.token.lower() == face.lower()]
            if not match:
                options = " or ".join(f.token for f in pair)
                raise InvalidThrowError(f"stick {i + 1} shows {options}, not {face!r}")
            chosen.append(match[0])
        return self._make(chosen)

    def entry_slots(self) -> tuple[tuple[str, ...], ...]:
        """One slot per stick: its two faces' tokens (``"3:red"``)."""
        return tuple((pair[0].token, pair[1].token) for pair in self.sticks)

    def describe(self) -> str:
        return f"{len(self.sticks)} {self.name}"


@dataclass(frozen=True, slots=True)
class Deck(Implement):
    """A deck of cards: drawing the top card.

    ``unseen`` are the cards not yet drawn since the shuffle (each equally likely to be
    on top, duplicates counted); ``returned`` are cards put back at the bottom, in
    order, drawn only once ``unseen`` is empty. An empty deck cannot be drawn from.
    """

    name: str
    unseen: tuple[str, ...]
    returned: tuple[str, ...] = ()
    kind: ClassVar[str] = "card"
    _hash: int = field(default=-1, init=False, repr=False, compare=False)
    """The hash once computed (-1, which no hash is, until then): a deck is hashed in
    every position key and outcome cache of a search."""

    def __hash__(self) -> int:
        known = self._hash
        if known == -1:
            known = hash((self.name, self.unseen, self.returned))
            object.__setattr__(self, "_hash", known)
        return known

    @property
    def id(self) -> str:
        return f"deck:{self.name}"

    def _make(self, card: str) -> Throw:
        key = (self.name, card)
        throw = _CARD_DRAWS.get(key)
        if throw is None:
            throw = _CARD_DRAWS[key] = Throw(self.id, (card,), ())
        return throw

    def outcomes(self) -> list[tuple[Throw, Fraction]]:
        if self.unseen:
            counts = Counter(self.unseen)
            return [
                (self._make(card), Fraction(n, len(self.unseen)))
                for card, n in sorted(counts.items())
            ]
        if self.returned:
            return [(self._make(self.returned[0]), Fraction(1))]
        raise InvalidThrowError(f"the {self.name} deck is empty")

    def draw(self, randbelow: Randbelow) -> Throw:
        if self.unseen:
            return self._make(self.unseen[randbelow(len(self.unseen))])
        if self.returned:
            return self._make(self.returned[0])
        raise InvalidThrowError(f"the {self.name} deck is empty")

    def from_faces(self, faces: Sequence[str]) -> Throw:
        if len(faces) != 1:
            raise InvalidThrowError(f"a draw from the {self.name} deck is one card")
        card = faces[0]
        if self.unseen:
            possible = card in self.unseen
        elif self.returned:
            possible = card == self.returned[0]
        else:
            raise InvalidThrowError(f"the {self.name} deck is empty")
        if not possible:
            raise InvalidThrowError(
                f"{card!r} cannot be drawn from the {self.name} deck now"
            )
        return self._make(card)

    def parse(self, text: str) -> Throw:
        """A card id, or the text form ``"card <id>"`` of :class:`Throw`."""
        card = text.strip()
        if card.startswith("card ") and card not in self.unseen and card not in self.returned:
            card = card[len("card "):].strip()
        return self.from_faces([card])

    def describe(self) -> str:
        return f"a {self.name} card"


__all__ = [
    "DARK",
    "LIGHT",
    "BinarySticks",
    "ChanceOutcome",
    "ColouredSticks",
    "Deck",
    "Dice",
    "Implement",
    "Randbelow",
    "StickFace",
    "Throw",
]
