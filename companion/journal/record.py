"""A game journal as a record the players can read: turns, throws, moves and their events.

This is what ``companion journal list / show / export`` print, and what a page that
shows a game (issue 15) is to show: :func:`read` turns a journal file into a
:class:`Record` (plain data: turns of steps, each with who made it and its events in
the games' own words), :func:`text_lines` formats it as text and :func:`to_json` as a
JSON-ready dictionary. :func:`summary` gives the one-line state for a list.

Reading never writes: the journal is checked with the companion's own loader
(:func:`companion.journal.store.load` with ``repair=False``), so a record ends where the
companion itself would stop reading, and nothing is repaired, renamed or created.

**Actions taken back are shown, marked "taken back", where they were made,** followed
by the undo that took them back: the record tells what happened at the table, in
order. (The position at the end counts only the actions in force.)

**Words** (the events, the players' names, the state, the head and the turns of
:func:`text_lines`) are in the language in use (:mod:`companion.i18n`): the process's
(``companion journal --language``) or :func:`companion.i18n.using`'s (a page answering
in its reader's language). Events are worded when the journal is read (:func:`read`),
the rest when it is formatted; read and format in the same language. The game's facts
(ids, options, the moves' notation, the reasons a journal is damaged) stay as written.

A damaged journal (a line cut short, a checksum that fails, an action the rules do not
allow there) gives the record of what could be read, and :attr:`Record.damage` says
on which line reading stopped and why; lines after it that still decode are kept as
:attr:`Record.after_damage`, marked as not checked against the rules (the first
:data:`AFTER_DAMAGE` lines after it are looked at). A file that is not a journal at all raises :class:`~companion.journal.store.JournalError`.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any, Final

from companion.i18n import N_, _, ngettext
from companion.journal.store import FORMAT as FORMAT_JOURNAL
from companion.journal.store import (
    NEWLINE,
    SUFFIX,
    JournalError,
    decode,
    iter_lines,
    load,
    parse_action,
    read_journal_bytes,
    replay,
)
from companion.journal.store import VERSION as VERSION_JOURNAL
from companion.rules import Action, Event, Game, Phase, RulesError, State, Throw
from companion.ui.events import and_list, computer_word, player_word, won_by, words_for
from companion.ui.rules_words import say

FORMAT: Final = "board-companion/record"
"""The ``format`` of :func:`to_json`'s dictionary (``version`` :data:`VERSION`)."""
VERSION: Final = 1
AFTER_DAMAGE: Final = 10_000
"""Lines after a journal's damage looked at for records that still decode (shown
unchecked); a real game has a few thousand lines, a hostile file millions."""
WIDTH: Final = 80
"""Columns of :func:`text_lines` (events are wrapped to fit)."""


class Standing(enum.Enum):
    """How a game stands at the end of what could be read."""

    UNFINISHED = "unfinished"
    WON = "won"
    ABANDONED = "abandoned"
    """Ended from the pause menu ("End game"), or by choosing "New game" over it."""


@dataclass(frozen=True, slots=True)
class Step:
    """One line of the journal after the first: a throw, a move or an undo.

    ``line``: its line number in the file (the first record is line 1); ``n``: the
    action number the companion gave it (``None`` for an undo); ``by``: the name of the
    player who made it (``""`` for an undo); ``kind``: ``"throw"``, ``"move"`` or
    ``"undo"``; ``text``: the action in the companion's notation (``"throw 4 (LLLL)"``,
    ``"enter 4"``, ``"card west"``) or, for an undo, what it took back; ``events``: what
    the action did, in the words the screen showed; ``taken_back``: an undo later took
    this action back; ``checked``: ``False`` for a line after the damage, read but not
    replayed.
    """

    line: int
    n: int | None
    by: str
    kind: str
    text: str
    events: tuple[str, ...] = ()
    taken_back: bool = False
    checked: bool = True
    facts: tuple[Event, ...] = ()
    """The events as data (:class:`companion.rules.Event`): what :attr:`events` words;
    empty for a line after the damage written before events were data."""


@dataclass(frozen=True, slots=True)
class Turn:
    """A player's actions one after the other (``number`` counts from 1); an undo
    made during the turn is one of its :attr:`steps`."""

    number: int
    by: str
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Damage:
    """Where reading stopped: the file's ``line`` (1-based), the ``reason`` in words,
    and ``unread``: how many lines from there to the end of the file were not replayed."""

    line: int
    reason: str
    unread: int


@dataclass(frozen=True)
class Record:
    """A journal read for people. Build it with :func:`read`."""

    path: Path
    game: str
    """The game id (``"senet-tait"``)."""
    title: str
    """The game's own title (``"Senet (Tait's rules)"``)."""
    options: dict[str, Any]
    players: tuple[str, ...]
    """The players' names, in seat order (``("Black", "White")``)."""
    started: datetime | None
    """When the game began (timezone-aware; ``None`` when the journal does not say)."""
    state: Standing
    winners: tuple[str, ...] = ()
    reason: str = ""
    """Why the game was won, in words (``"all five pieces borne off"``)."""
    to_act: str = ""
    """For an unfinished game: who acts next and how, in words (``"Black to throw"``)."""
    next_player: str = ""
    """For an unfinished game: the name (as the rules give it) of who acts next."""
    next_phase: Phase | None = None
    """For an unfinished game: what :attr:`next_player` is to do."""
    actions: int = 0
    """The actions in force at the end (taken-back ones not counted)."""
    turns: tuple[Turn, ...] = ()
    damage: Damage | None = None
    after_damage: tuple[Step, ...] = field(default=())
    computer: dict[str, str] = field(default_factory=dict)
    """The players the computer played, by name, in seat order, with its level
    (``{"White": "normal"}``); empty when people played every seat."""

    @property
    def status(self) -> str:
        """The state in a few words, in the language in use: ``unfinished``, ``won by
        Black`` (:func:`companion.ui.events.won_by`), ``abandoned``, or ``damaged: line
        57: checksum mismatch``."""
        if self.damage is not None:
            return _("damaged: line {line}: {reason}").format(
                line=self.damage.line, reason=self.damage.reason)
        if self.state is Standing.WON:
            return won_by(self.winners)
        return _(_STANDING_WORDS[self.state])


_STANDING_WORDS: Final = {Standing.UNFINISHED: N_("unfinished"), Standing.WON: N_("won"),
                          Standing.ABANDONED: N_("abandoned")}


def journal_files(directory: Path) -> list[Path]:
    """The journals in ``directory``, newest first (their names sort in the order the
    games began); ``[]`` when it does not exist. Copies the companion set aside
    (``*.journal.damaged``, ``*.journal.unusable``) are not among them: see
    :func:`set_aside_files`."""
    if not directory.is_dir():
        return []
    return sorted((p for p in directory.glob("*" + SUFFIX) if p.is_file()), reverse=True)


def set_aside_files(directory: Path) -> list[Path]:
    """Copies the companion set aside in ``directory`` (a repaired journal's original,
    ``*.journal.damaged``, possibly numbered; a journal it could not use at all,
    ``*.journal.unusable``), by name."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob("*" + SUFFIX + ".*") if p.is_file())


def read(path: Path, *, tz: tzinfo | None = None) -> Record:
    """The record of the journal ``path``, read without writing anything.

    ``tz``: the zone :attr:`Record.started` is given in (default: the machine's local
    time).

    :raises JournalError: the file has no usable first record (not a journal, an
        unknown game, options the game refuses); the message names the file.
    :raises OSError: the file cannot be read.
    """
    data = read_journal_bytes(path)
    loaded = load(path, repair=False, data=data)
    intact: int | None = loaded.intact if loaded.intact is not None else len(data)
    first = next(iter_lines(data), None)
    if first is None:
        raise JournalError(f"{path}: line 1 {'was cut short' if data else 'is missing'}: "
                           "no usable first record")
    try:
        head = decode(first[1])
    except ValueError as exc:
        raise JournalError(f"{path}: line 1: {exc}: no usable first record") from None
    game, players = _header(path, head)
    return _Reader(path, game, players, head, tz).run(data, intact)


def _header(path: Path, head: dict[str, Any]) -> tuple[Game, int]:
    # The loader has checked the first record already; this gets the game back.
    from companion.rules import get_game

    if head.get("format") != FORMAT_JOURNAL or head.get("version") != VERSION_JOURNAL:
        raise JournalError(f"{path}: not a {FORMAT_JOURNAL} version {VERSION_JOURNAL} file")
    options = head.get("options", {})
    players = head.get("players")
    if not isinstance(options, dict) or not isinstance(players, int):
        raise JournalError(f"{path}: first record lacks options or players")
    try:
        game = get_game(str(head.get("game")), **options)
        game.check_players(players)
    except RulesError as exc:
        raise JournalError(f"{path}: {exc}") from None
    return game, players


class _Reader:
    """Walks the lines of one journal, as the loader does, keeping every step."""

    def __init__(self, path: Path, game: Game, players: int, head: dict[str, Any],
                 tz: tzinfo | None) -> None:
        self.path = path
        self.game = game
        self.players = players
        self.head = head
        self.tz = tz
        self.state: State = game.new_state(players)
        self.actions: list[Action] = []
        self.steps: list[Step] = []
        self.live: list[int] = []  # indices into steps of the actions in force
        self.end: dict[str, Any] | None = None

    def run(self, data: bytes, intact: int | None) -> Record:
        """The record of the journal ``data`` (its first line read already), taking
        the lines up to ``intact`` bytes as the loader did. Lines are walked one at a
        time (never a list of them all: a file of millions of empty lines costs none)."""
        damage: Damage | None = None
        count = data.count(NEWLINE)  # whole lines
        tail = data.rfind(NEWLINE) + 1 < len(data)
        stopped: tuple[int, memoryview, int] | None = None  # the first line not taken, its end
        for number, (start, line) in enumerate(iter_lines(data), start=1):
            if number == 1:
                continue
            end = start + len(line) + 1
            if intact is not None and end > intact:
                stopped = (number, line, end)
                break
            problem = self.take(number, line)
            if problem is not None:
                damage = Damage(number, problem, count - number + 1 + tail)
                stopped = (number, line, end)
                break
        else:
            if tail:
                damage = Damage(count + 1, "the line was cut short (a power cut "
                                "while it was written?)", 1)
        if damage is None and stopped is not None:
            damage = Damage(stopped[0], self.why(stopped[1]), count - stopped[0] + 1 + tail)
        after: list[Step] = []
        if stopped is not None:
            after = self.unchecked(data, stopped[0], stopped[2])
        return self.record(damage, after)

    def take(self, number: int, line: bytes | memoryview) -> str | None:
        """Apply one line; the reason in words when it cannot be taken."""
        try:
            record = decode(line)
        except ValueError as exc:
            return str(exc)
        try:
            if "undo" in record:
                self.undo(number, record["undo"])
            elif "end" in record:
                self.end = record
            else:
                if self.end is not None:
                    raise ValueError("an action after the end of the game")
                self.act(number, record)
        except (ValueError, RulesError) as exc:
            return str(exc)
        return None

    def why(self, line: bytes | memoryview) -> str:
        """Why the loader stopped at ``line``, found as :meth:`take` would but without
        taking it; when it would be taken (a limit of the loader's own, whose words are
        not at hand), what the line is."""
        try:
            record = decode(line)
        except ValueError as exc:
            return str(exc)
        try:
            if "undo" in record:
                count = record["undo"]
                if not isinstance(count, int) or not 0 < count <= len(self.actions):
                    raise ValueError(f"cannot undo {count!r} actions")
            elif "end" not in record:
                if self.end is not None:
                    raise ValueError("an action after the end of the game")
                self.state.copy().apply(parse_action(self.state, record))
        except (ValueError, RulesError) as exc:
            return str(exc)
        return f"a line the companion does not read ({len(line)} bytes)"

    def act(self, number: int, record: dict[str, Any]) -> None:
        action = parse_action(self.state, record)
        events = self.state.apply(action)
        self.actions.append(action)
        said = words_for(self.state).all(events)  # the rules' own facts, not the line's words
        n = record.get("n")
        self.live.append(len(self.steps))
        self.steps.append(Step(
            line=number, n=n if isinstance(n, int) else len(self.actions),
            by=str(record.get("by") or ""), kind="throw" if isinstance(action, Throw) else "move",
            text=action_text(action), events=said, facts=tuple(events),
        ))

    def undo(self, number: int, count: object) -> None:
        if not isinstance(count, int) or isinstance(count, bool) or not 0 < count <= len(self.actions):
            raise ValueError(f"cannot undo {count!r} actions")
        gone = self.live[-count:]
        for i in gone:
            step = self.steps[i]
            self.steps[i] = dataclasses.replace(step, taken_back=True)
        del self.live[-count:]
        del self.actions[-count:]
        self.state = replay(self.game, self.players, self.actions)
        self.end = None
        took = [self.steps[i] for i in gone]
        what = "; ".join(_("{player}: {what}").format(player=player_word(s.by), what=s.text)
                         for s in took)
        said = (_("takes back action {first} ({what})") if count == 1 else
                _("takes back actions {first}-{last} ({what})")).format(
            first=took[0].n, last=took[-1].n, what=what)
        self.steps.append(Step(line=number, n=None, by="", kind="undo", text=said))

    def unchecked(self, data: bytes, first: int, offset: int) -> list[Step]:
        """The action records after the damage (line ``first``, ending at byte
        ``offset``) that still decode (not replayed); at most :data:`AFTER_DAMAGE`
        lines are looked at (a real game has a few thousand)."""
        out: list[Step] = []
        lines = iter_lines(data, offset)
        for number, (_start, line) in enumerate(itertools.islice(lines, AFTER_DAMAGE), start=first + 1):
            try:
                record = decode(line)
            except ValueError:
                continue
            if "throw" in record and isinstance(record["throw"], dict):
                faces = record["throw"].get("faces")
                text = _("throw {throw}").format(
                    throw=" ".join(map(str, faces)) if isinstance(faces, list) else "?")
                kind = "throw"
            elif isinstance(record.get("move"), str):
                text, kind = record["move"], "move"
            else:
                continue
            facts, words = self.written_events(record.get("events"))
            n = record.get("n")
            out.append(Step(
                line=number, n=n if isinstance(n, int) else None, by=str(record.get("by") or ""),
                kind=kind, text=text, events=words, facts=facts, checked=False,
            ))
        return out

    def written_events(self, written: object) -> tuple[tuple[Event, ...], tuple[str, ...]]:
        """The events a line that is not replayed wrote, as data and in words (with the
        names of the last position replayed): event data as journals write it now, or
        the rules' English sentences of a journal written before events were data,
        shown as they are. What is neither is left out."""
        if not isinstance(written, list):
            return (), ()
        facts: list[Event] = []
        words: list[str] = []
        say = words_for(self.state)
        for item in written:
            if isinstance(item, str):
                words.append(item)
                continue
            try:
                event = Event.from_json(item)
            except ValueError:
                continue
            facts.append(event)
            words.append(say(event))
        return tuple(facts), tuple(words)

    def record(self, damage: Damage | None, after: list[Step]) -> Record:
        game, state = self.game, self.state
        names = tuple(game.player_name(i, self.players) for i in range(self.players))
        outcome = state.outcome
        winners: tuple[str, ...] = ()
        reason = to_act = next_player = ""
        next_phase: Phase | None = None
        if outcome is not None:
            kind = Standing.WON
            winners = tuple(game.player_name(w, self.players) for w in outcome.winners)
            reason = say(outcome.reason) if outcome.reason else ""
        elif self.end is not None and self.end.get("end") == "won":
            kind = Standing.WON  # an end record says so, though the replay does not
            raw = self.end.get("winners")
            winners = tuple(map(str, raw)) if isinstance(raw, list) else ()
        elif self.end is not None:
            kind = Standing.ABANDONED
        else:
            kind = Standing.UNFINISHED
            next_player, next_phase = state.player_to_act_name, state.phase
            to_act = _(_PHASE_WORDS.get(state.phase, N_("{player} to act"))).format(
                player=player_word(next_player))
        return Record(
            path=self.path, game=game.id, title=game.title,
            options=dict(self.head.get("options") or {}), players=names,
            started=_started(self.head, self.path, self.tz), state=kind, winners=winners,
            reason=reason, to_act=to_act, next_player=next_player, next_phase=next_phase,
            actions=len(self.actions),
            turns=tuple(turns(self.steps)), damage=damage, after_damage=tuple(after),
            computer=_computer_seats(self.head, names),
        )


def _computer_seats(head: dict[str, Any], names: tuple[str, ...]) -> dict[str, str]:
    """The header's ``"seats"`` (``{"1": "normal"}``: player index to level) by name,
    in seat order; a seat that is no player's is left out."""
    raw = head.get("seats")
    if not isinstance(raw, dict):
        return {}
    levels = {int(p): str(lv) for p, lv in raw.items()
              if isinstance(p, str) and p.isascii() and p.isdigit() and int(p) < len(names)}
    return {names[p]: levels[p] for p in sorted(levels)}


def player_text(record: Record, name: str) -> str:
    """One player in words, the computer's with its level: ``"White (computer,
    normal)"`` (``name`` as the rules give it)."""
    if name in record.computer:
        return computer_word(name, record.computer[name])
    return player_word(name)


def players_text(record: Record) -> str:
    """The players in seat order, in words, the computer's with its level: ``"Black,
    White (computer, normal)"``."""
    return ", ".join(player_text(record, name) for name in record.players)


_PHASE_WORDS: Final = {Phase.THROW: N_("{player} to throw"), Phase.MOVE: N_("{player} to move"),
                       Phase.DECIDE: N_("{player} to decide")}


def to_act_text(record: Record) -> str:
    """Who acts next and how, the computer's seat with its level: ``"White (computer,
    normal) to throw"`` (``""`` for a game not unfinished)."""
    if not record.next_player or record.next_phase is None:
        return record.to_act
    return _(_PHASE_WORDS.get(record.next_phase, N_("{player} to act"))).format(
        player=player_text(record, record.next_player))


def action_text(action: Action) -> str:
    """An action in the companion's words (in the language in use): ``"throw 4
    (LLLL)"``, ``"throw 2 3"``, ``"card west"`` (a card drawn), or a move's notation
    (``"enter 4"``, ``"12-16"``: notation, the same in every language)."""
    if isinstance(action, Throw):
        text = str(action)
        return text if action.implement.startswith("deck:") else _("throw {throw}").format(throw=text)
    return action.notation


def turns(steps: Iterable[Step]) -> list[Turn]:
    """``steps`` grouped into turns: a turn is the actions one player makes one after
    the other; an undo belongs to the turn it was made in."""
    out: list[Turn] = []
    current: list[Step] = []
    by = ""
    for step in steps:
        if step.kind != "undo" and current and step.by != by:
            out.append(Turn(len(out) + 1, by, tuple(current)))
            current = []
        if step.kind != "undo" and not current:
            by = step.by
        current.append(step)
    if current:
        out.append(Turn(len(out) + 1, by, tuple(current)))
    return out


def _started(head: dict[str, Any], path: Path, tz: tzinfo | None) -> datetime | None:
    raw = head.get("started")
    when: datetime | None = None
    if isinstance(raw, str):
        try:
            when = datetime.fromisoformat(raw)
        except ValueError:
            when = None
    if when is None:  # the name begins with the start time, UTC
        try:
            when = datetime.strptime(path.name[:15], "%Y%m%d-%H%M%S")
        except ValueError:
            return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(tz)


def when_text(record: Record) -> str:
    """The start as ``"2026-11-22 21:56"`` (``"?"`` when unknown)."""
    return record.started.strftime("%Y-%m-%d %H:%M") if record.started else "?"


# ---------------------------------------------------------------- text


def text_lines(record: Record, width: int = WIDTH) -> list[str]:
    """The whole game in words, for ``companion journal show``: a head (game, file,
    start, players, options, state), then each turn with its throws and moves and
    their events, taken-back actions marked, then how the game ended, or where the
    damage is and what could still be read after it. Lines fit ``width`` columns."""
    out = [say(record.title)]
    head = [
        (_("file"), record.path.name),
        (_("started"), when_text(record)),
        (_("players"), players_text(record)),
        (_("options"), ", ".join(f"{k}={_option(v)}" for k, v in record.options.items())
         or _("none")),
        (_("state"), _state_text(record)),
    ]
    keys = max(8, *(len(key) for key, _value in head))
    for key, value in head:
        out += _wrap(value, width, initial_indent=f"  {key:<{keys}} ",
                     subsequent_indent=" " * (keys + 3)) or [f"  {key}"]
    steps = [s for t in record.turns for s in t.steps] + list(record.after_damage)
    column = min(max((len(_what(s)) for s in steps), default=0), 24)
    for turn in record.turns:
        out += ["", turn_text(turn)]
        for step in turn.steps:
            out += _step_lines(step, column, width)
    out.append("")
    if record.damage is not None:
        d = record.damage
        out += _wrap(
            "!! " + _("Damaged at line {line}: {reason}. Reading stopped there: {unread} "
                      "line(s) from there on were not replayed; the record above is what "
                      "could be read ({actions} action(s) in force).").format(
                line=d.line, reason=d.reason, unread=d.unread, actions=record.actions),
            width, subsequent_indent="   ")
        if record.after_damage:
            out += ["", _("After the damage (read, but not checked against the rules):")]
            for step in record.after_damage:
                out += _step_lines(step, column, width)
    else:
        out += _wrap(_end_text(record), width)
    return out


def turn_text(turn: Turn) -> str:
    """A turn's heading in words: ``"Turn 12: White"``."""
    return _("Turn {number}: {player}").format(number=turn.number, player=player_word(turn.by))


def _wrap(sentence: str, width: int, initial_indent: str = "",
          subsequent_indent: str = "") -> list[str]:
    """``sentence`` in lines of ``width``, never broken inside a word or at a hyphen
    (``combination-captures``, ``gate1-d2``)."""
    return textwrap.wrap(sentence, width, initial_indent=initial_indent,
                         subsequent_indent=subsequent_indent, break_on_hyphens=False,
                         break_long_words=False)


def text(record: Record, width: int = WIDTH) -> str:
    """:func:`text_lines` joined, with a final newline."""
    return "\n".join(text_lines(record, width)) + "\n"


def _option(value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value) if value != "" else _("(default)")


def _state_text(record: Record) -> str:
    base = won_by(record.winners) if record.state is Standing.WON else _(
        _STANDING_WORDS[record.state])
    if record.state is Standing.WON and record.reason:
        base = _("{state} ({reason})").format(state=base, reason=record.reason)
    if record.state is Standing.UNFINISHED and record.to_act:
        base = _("{state}: {to_act}").format(state=base, to_act=record.to_act)
    if record.damage is not None:
        return _("damaged at line {line}; what was read: {state}").format(
            line=record.damage.line, state=base)
    return base


def _end_text(record: Record) -> str:
    if record.state is Standing.WON:
        who = and_list([player_word(w) for w in record.winners]) or "?"
        if record.reason:
            return ngettext("{players} wins: {reason}.", "{players} win: {reason}.",
                            len(record.winners) or 1).format(players=who, reason=record.reason)
        return ngettext("{players} wins.", "{players} win.", len(record.winners) or 1).format(
            players=who)
    if record.state is Standing.ABANDONED:
        return _("Ended without a winner (End game in the pause menu, or a new game begun "
                 "instead of resuming this one).")
    if record.to_act:
        return _("The game is unfinished: {to_act}.").format(to_act=record.to_act)
    return _("Unfinished.")


def _what(step: Step) -> str:
    if step.kind == "undo":
        return _("undo")
    return _("{action} (taken back)").format(action=step.text) if step.taken_back else step.text


def _step_lines(step: Step, column: int, width: int) -> list[str]:
    number = f"{step.n:>6}" if step.n is not None and step.checked else (
        f"{'L' + str(step.line):>6}" if not step.checked else " " * 6)
    what = _what(step)
    said = [step.text] if step.kind == "undo" else list(step.events)
    if not step.checked and step.by:
        said = [_("by {player}").format(player=player_word(step.by)), *said]
    lead = f"{number}  {what:<{column}}  "
    indent = " " * len(lead)
    if len(what) > column:
        out = [f"{number}  {what}"]
        lead = indent
    else:
        out = []
    if not said:
        return out or [lead.rstrip()]
    for sentence in said:
        wrapped = _wrap(sentence, max(width - len(indent), 20)) or [""]
        out.append(lead + wrapped[0])
        out += [indent + w for w in wrapped[1:]]
        lead = indent
    return out


# ---------------------------------------------------------------- JSON


def to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-ready dictionary (``json.dumps`` it): ``format``,
    ``version``, ``file``, ``game``, ``title``, ``options``, ``players``, ``started``
    (ISO 8601 or ``null``), ``computer`` (the players the computer played, by name,
    with its level: ``{"White": "normal"}``; ``{}`` when people played every seat),
    ``state`` (``unfinished`` / ``won`` / ``abandoned``),
    ``status`` (as :attr:`Record.status`), ``winners``, ``reason``, ``to_act``,
    ``actions``, ``turns`` (each ``{"turn", "by", "steps"}``, a step as
    :class:`Step`'s fields), ``damage`` (``null`` or ``{"line", "reason",
    "unread"}``) and ``after_damage`` (steps)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "file": record.path.name,
        "game": record.game,
        "title": record.title,
        "options": record.options,
        "players": list(record.players),
        "computer": dict(record.computer),
        "started": record.started.isoformat() if record.started else None,
        "state": record.state.value,
        "status": record.status,
        "winners": list(record.winners),
        "reason": record.reason,
        "to_act": record.to_act,
        "actions": record.actions,
        "turns": [
            {"turn": t.number, "by": t.by, "steps": [_step_json(s) for s in t.steps]}
            for t in record.turns
        ],
        "damage": None if record.damage is None else {
            "line": record.damage.line, "reason": record.damage.reason,
            "unread": record.damage.unread,
        },
        "after_damage": [_step_json(s) for s in record.after_damage],
    }


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "line": step.line, "n": step.n, "by": step.by, "kind": step.kind, "text": step.text,
        "events": list(step.events), "event_data": [e.to_json() for e in step.facts],
        "taken_back": step.taken_back, "checked": step.checked,
    }


# ---------------------------------------------------------------- list


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of ``companion journal list``: ``index`` (1 = the newest), the file,
    and either the :class:`Record` or, for a file that is no usable journal, the
    ``problem`` in words."""

    index: int
    path: Path
    record: Record | None
    problem: str = ""

    @property
    def status(self) -> str:
        """``unfinished``, ``won by X``, ``abandoned``, ``damaged: ...`` or ``unusable:
        ...``, in the language in use."""
        if self.record is not None:
            return self.record.status
        return _("unusable: {problem}").format(problem=self.problem)


def entries(directory: Path, *, tz: tzinfo | None = None) -> list[Entry]:
    """Every journal in ``directory``, newest first, each read with :func:`read`; a
    file that cannot be used is an entry with its problem, never an exception."""
    out: list[Entry] = []
    for index, path in enumerate(journal_files(directory), start=1):
        try:
            out.append(Entry(index, path, read(path, tz=tz)))
        except JournalError as exc:
            problem = str(exc)
            prefix = f"{path}: "
            out.append(Entry(index, path, None, problem.removeprefix(prefix)))
        except OSError as exc:
            out.append(Entry(index, path, None, f"cannot read: {exc.strerror or exc}"))
    return out


def list_lines(rows: list[Entry], *, tz: tzinfo | None = None) -> list[str]:
    """``rows`` as a table: index, start, game, players, state (one line each);
    ``tz`` as for :func:`read` (for a file whose start only its name gives)."""
    table = [("#", _("started"), _("game"), _("players"), _("state"))]
    for e in rows:
        r = e.record
        if r is None:
            table.append((str(e.index), _name_time(e.path, tz), "?", "?", e.status))
        else:
            table.append((str(e.index), when_text(r), say(r.title), players_text(r), e.status))
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    return [
        "  ".join([row[0].rjust(widths[0]), *(c.ljust(w) for c, w in zip(row[1:4], widths[1:], strict=True)), row[4]])
        for row in table
    ]


def _name_time(path: Path, tz: tzinfo | None) -> str:
    try:
        when = datetime.strptime(path.name[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return "?"
    return when.astimezone(tz).strftime("%Y-%m-%d %H:%M")


__all__ = [
    "FORMAT",
    "VERSION",
    "Damage",
    "Entry",
    "Record",
    "Standing",
    "Step",
    "Turn",
    "action_text",
    "entries",
    "journal_files",
    "list_lines",
    "player_text",
    "players_text",
    "read",
    "set_aside_files",
    "text",
    "text_lines",
    "to_act_text",
    "to_json",
    "turn_text",
    "turns",
]
