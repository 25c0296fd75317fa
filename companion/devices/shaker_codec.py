"""The shaker's line protocol: parsing and formatting frames, pure (no I/O, no clocks).

The protocol is written down in ``docs/protocol.md``; the shared test vectors in
``tests/vectors/shaker_frames.json`` are checked against this module and against the
firmware's own framing (``firmware/shaker_proto.py``). A frame is one line of
printable ASCII::

    THROW 7 1a2b3c4d cfg=3 kind=dice n=2 sides=6 faces=3,5 *9202\\r\\n

``TYPE SEQ [BOOT] key=value ... *CRC``: the type, a sequence number 0..65535, the
device's boot id (device frames only: 8 lower-case hex digits), ``key=value`` fields,
and the CRC-16/CCITT-FALSE of everything before ``" *"`` as 4 upper-case hex digits.

>>> line = format_frame("QUERY", 5)
>>> line
b'QUERY 5 *9A8E\\r\\n'
>>> parse_frame(line).type
'QUERY'
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.errors import CompanionError
from companion.rules.errors import InvalidThrowError
from companion.rules.throws import (
    BinarySticks,
    ColouredSticks,
    Dice,
    Implement,
    StickFace,
    Throw,
)

MAX_LINE = 240
"""Longest frame in bytes, ``\\r\\n`` included; a longer line is garbage."""
SEQ_MODULUS = 65536
"""Sequence numbers count 0..65535 and wrap to 0."""
TERMINATOR = b"\r\n"
"""Every frame ends with CR LF (MicroPython's ``print`` turns ``\\n`` into ``\\r\\n``)."""

DEVICE_TYPES = frozenset({"HELLO", "SHAKING", "THROW", "ERROR", "HEARTBEAT", "STATUS"})
"""Frame types sent by the shaker; they carry the boot id."""
HOST_TYPES = frozenset({"CONFIG", "ACK", "QUERY"})
"""Frame types sent by the companion; they carry no boot id."""

REQUIRED: Mapping[str, tuple[str, ...]] = {
    "HELLO": ("fw", "hw", "caps"),
    "SHAKING": (),
    "THROW": ("cfg", "kind", "faces"),
    "ERROR": ("code",),
    "HEARTBEAT": ("state", "armed"),
    "STATUS": ("ref", "state", "armed"),
    "CONFIG": ("kind",),
    "ACK": ("boot", "ref"),
    "QUERY": (),
}
"""The fields each frame type must carry (others may follow; unknown ones are ignored)."""

_TYPE = re.compile(rb"[A-Z]{1,12}\Z")
_SEQ = re.compile(rb"(0|[1-9][0-9]{0,4})\Z")
_BOOT = re.compile(rb"[0-9a-f]{8}\Z")
_KEY = re.compile(rb"[a-z][a-z0-9]{0,11}\Z")
_VALUE = re.compile(rb"[!-)+-~]+\Z")  # printable, no space and no '*'
_CRC = re.compile(rb"\*[0-9A-F]{4}\Z")
_WORD = re.compile(r"[a-z0-9-]{1,16}\Z")
_WORST_THROW = "THROW 65535 ffffffff cfg=65535 %s faces=%s *FFFF\r\n"
_FACE_VALUE = re.compile(r"(0|[1-9][0-9]{0,2})\Z")


class FrameError(CompanionError, ValueError):
    """A line that is not a well-formed frame; ``reason`` is a short code for counting.

    Reasons: ``too-long``, ``not-ascii``, ``no-crc``, ``bad-crc``, ``bad-type``,
    ``bad-seq``, ``bad-boot``, ``bad-field``, ``missing-field``, ``duplicate-field``.
    """

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}: {detail}")


class ShakerProtocolError(CompanionError, ValueError):
    """A configuration the protocol cannot express (a deck, a colour with a space)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One parsed frame. ``boot`` is ``""`` for host frames; ``fields`` keeps wire order."""

    type: str
    seq: int
    boot: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    _index: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._index.update(self.fields)

    def get(self, key: str, default: str | None = None) -> str | None:
        """The value of field ``key``, or ``default``."""
        return self._index.get(key, default)

    def __getitem__(self, key: str) -> str:
        return self._index[key]

    @property
    def from_device(self) -> bool:
        """True for the shaker's frames (HELLO, THROW, ...), False for the companion's."""
        return self.type in DEVICE_TYPES


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def format_frame(
    type: str,
    seq: int,
    fields: Sequence[tuple[str, str]] | Mapping[str, str] = (),
    boot: str = "",
) -> bytes:
    """The bytes of one frame, ``\\r\\n`` included.

    :param type: a frame type from :data:`DEVICE_TYPES` or :data:`HOST_TYPES`.
    :param seq: sequence number, 0..65535.
    :param fields: ``(key, value)`` pairs in wire order.
    :param boot: the boot id, required for device frames and refused for host frames.
    :raises FrameError: when the result would not parse back to the same frame; in
        particular a value can never carry a space, ``*`` or a control byte, so a
        host frame never contains Ctrl-C (0x03) or Ctrl-D (0x04).
    """
    pairs = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
    parts = [type, str(seq)]
    if boot:
        parts.append(boot)
    parts += [f"{k}={v}" for k, v in pairs]
    try:
        body = " ".join(parts).encode("ascii")
    except UnicodeEncodeError:
        raise FrameError("not-ascii", f"{parts!r}") from None
    line = body + b" *%04X" % crc16(body) + TERMINATOR
    frame = parse_frame(line)  # the formatter never emits what the parser refuses
    if (frame.type, frame.seq, frame.boot, list(frame.fields)) != (type, seq, boot, pairs):
        raise FrameError("bad-field", f"{parts!r} does not round-trip")
    return line


def parse_frame(line: bytes) -> Frame:
    """The frame in ``line`` (with or without its ``\\r\\n``).

    :raises FrameError: for anything that is not exactly one well-formed frame.
    """
    if line.endswith(TERMINATOR):
        line = line[:-2]
    if len(line) + 2 > MAX_LINE:
        raise FrameError("too-long", f"{len(line) + 2} bytes")
    if any(b < 0x20 or b > 0x7E for b in line):
        raise FrameError("not-ascii", repr(line[:40]))
    body, sep, crc = line.rpartition(b" ")
    if not sep or not _CRC.match(crc):
        raise FrameError("no-crc", repr(line[:40]))
    if int(crc[1:], 16) != crc16(body):
        raise FrameError("bad-crc", f"{crc.decode()} != *{crc16(body):04X}")
    tokens = body.split(b" ")
    if not _TYPE.match(tokens[0]) or tokens[0].decode() not in REQUIRED:
        raise FrameError("bad-type", repr(tokens[0][:20]))
    type = tokens[0].decode()
    if len(tokens) < 2 or not _SEQ.match(tokens[1]) or int(tokens[1]) >= SEQ_MODULUS:
        raise FrameError("bad-seq", repr(tokens[1][:20] if len(tokens) > 1 else b""))
    seq = int(tokens[1])
    rest = tokens[2:]
    boot = ""
    if type in DEVICE_TYPES:
        if not rest or not _BOOT.match(rest[0]):
            raise FrameError("bad-boot", repr(rest[0][:20] if rest else b""))
        boot = rest[0].decode()
        rest = rest[1:]
    pairs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for token in rest:
        key, eq, value = token.partition(b"=")
        if not eq or not _KEY.match(key) or not _VALUE.match(value):
            raise FrameError("bad-field", repr(token[:40]))
        k = key.decode()
        if k in seen:
            raise FrameError("duplicate-field", k)
        seen.add(k)
        pairs.append((k, value.decode()))
    for needed in REQUIRED[type]:
        if needed not in seen:
            raise FrameError("missing-field", f"{type} needs {needed}=")
    return Frame(type, seq, boot, tuple(pairs))


# --- implements <-> fields --------------------------------------------------


def _word(text: str, what: str) -> str:
    if not _WORD.match(text):
        raise ShakerProtocolError(
            f"{what} {text!r}: the shaker takes 1-16 characters a-z, 0-9 or '-'"
        )
    return text


def implement_fields(implement: Implement) -> list[tuple[str, str]]:
    """The CONFIG fields that ask the shaker for a throw of ``implement``.

    >>> implement_fields(Dice(2, 6))
    [('kind', 'dice'), ('n', '2'), ('sides', '6')]

    :raises ShakerProtocolError: for a deck (the shaker cannot draw cards) or a
        coloured stick whose colour is not a short lower-case word.
    """
    if isinstance(implement, Dice):
        return [("kind", "dice"), ("n", str(implement.count)), ("sides", str(implement.sides))]
    if isinstance(implement, BinarySticks):
        return [("kind", "sticks"), ("n", str(implement.count))]
    if isinstance(implement, ColouredSticks):
        if not 1 <= len(implement.sticks) <= 8:
            raise ShakerProtocolError(f"{implement.id}: the shaker throws 1 to 8 sticks")
        sticks = []
        for pair in implement.sticks:
            tokens = []
            for face in pair:
                if not 0 <= face.value <= 999:
                    raise ShakerProtocolError(f"stick value {face.value}: the shaker takes 0-999")
                colour = _word(face.colour, "colour") if face.colour else ""
                tokens.append(f"{face.value}:{colour}" if colour else str(face.value))
            sticks.append("/".join(tokens))
        fields = [("kind", "coloured"), ("sticks", ",".join(sticks))]
        longest = ",".join(max(s.split("/"), key=len) for s in sticks)
        worst = _WORST_THROW % (" ".join(f"{k}={v}" for k, v in fields), longest)
        if len(worst) > MAX_LINE:
            raise ShakerProtocolError(
                f"{implement.id}: a throw would be {len(worst)} bytes, over the shaker's "
                f"{MAX_LINE}; use fewer sticks or shorter colour names"
            )
        return fields
    raise ShakerProtocolError(f"the shaker cannot throw {implement.describe()} ({implement.id})")


def throw_faces(frame: Frame) -> list[str]:
    """The face tokens of a THROW frame, as :meth:`Implement.from_faces` takes them.

    Dice ``faces=3,5`` -> ``["3", "5"]``; sticks ``faces=LDDL`` -> ``["L", "D", "D", "L"]``;
    coloured ``faces=2:red,3`` -> ``["2:red", "3"]``.
    """
    raw = frame.get("faces") or ""
    if frame.get("kind") == "sticks":
        return list(raw)
    return raw.split(",")


def faces_text(throw: Throw, kind: str) -> str:
    """The ``faces=`` value the protocol writes for ``throw`` of implement ``kind``:
    sticks ``LDDL``, dice ``3,5``, coloured sticks ``2:red,3`` (the one way to write it).

    >>> faces_text(BinarySticks(4).from_faces(list("LDDL")), "sticks")
    'LDDL'
    """
    return ("" if kind == "sticks" else ",").join(throw.faces)


def throw_from_frame(frame: Frame, implement: Implement) -> Throw:
    """The :class:`Throw` a THROW frame reports, checked against the requested implement.

    The faces must be written exactly as :func:`faces_text` writes them (as the
    firmware does): ``lddl``, a die ``06`` or a colour ``2:RED`` are refused, though a
    person typing a throw may write them so (``Implement.parse`` takes those).

    :raises InvalidThrowError: when the frame was thrown with another implement (a
        stale throw), shows faces the implement cannot show, or writes them in
        another way than the protocol's.
    """
    if frame.type != "THROW":
        raise InvalidThrowError(f"{frame.type} frame is not a throw")
    reported = [(k, v) for k, v in frame.fields if k in ("kind", "n", "sides", "sticks")]
    try:
        wanted = implement_fields(implement)
    except ShakerProtocolError as exc:
        raise InvalidThrowError(str(exc)) from None
    if sorted(reported) != sorted(wanted):
        shown = " ".join(f"{k}={v}" for k, v in reported)
        raise InvalidThrowError(f"throw of {shown!r} is not a throw of {implement.id}")
    throw = implement.from_faces(throw_faces(frame))
    written, canonical = frame.get("faces") or "", faces_text(throw, frame.get("kind") or "")
    if written != canonical:
        raise InvalidThrowError(
            f"faces={written} is not written as the protocol writes faces ({canonical})"
        )
    return throw


def _number(text: str) -> int:
    if not _FACE_VALUE.match(text):
        raise InvalidThrowError(f"{text!r} is not a number 0-999")
    return int(text)


def implement_from_fields(fields: Mapping[str, str]) -> Implement:
    """The implement a CONFIG frame describes (what the firmware draws from).

    :raises InvalidThrowError: for an unknown kind or impossible numbers.
    """
    kind = fields.get("kind")
    try:
        if kind == "dice":
            return Dice(_number(fields["n"]), _number(fields["sides"]))
        if kind == "sticks":
            return BinarySticks(_number(fields["n"]))
        if kind == "coloured":
            sticks = []
            for stick in fields["sticks"].split(","):
                faces = stick.split("/")
                if len(faces) != 2:
                    raise InvalidThrowError(f"a coloured stick has two faces: {stick!r}")
                pair = []
                for token in faces:
                    value, _, colour = token.partition(":")
                    if not _FACE_VALUE.match(value) or (colour and not _WORD.match(colour)):
                        raise InvalidThrowError(f"bad coloured stick face {token!r}")
                    pair.append(StickFace(int(value), colour or None))
                sticks.append((pair[0], pair[1]))
            if len(sticks) > 8:
                raise InvalidThrowError(f"the shaker throws 1 to 8 sticks, not {len(sticks)}")
            return ColouredSticks(tuple(sticks))
    except (KeyError, ValueError) as exc:
        if isinstance(exc, InvalidThrowError):
            raise
        raise InvalidThrowError(f"bad shaker configuration {dict(fields)!r}: {exc}") from None
    raise InvalidThrowError(f"unknown implement kind {kind!r}")


__all__ = [
    "DEVICE_TYPES",
    "HOST_TYPES",
    "MAX_LINE",
    "SEQ_MODULUS",
    "TERMINATOR",
    "Frame",
    "FrameError",
    "ShakerProtocolError",
    "crc16",
    "faces_text",
    "format_frame",
    "implement_fields",
    "implement_from_fields",
    "parse_frame",
    "throw_faces",
    "throw_from_frame",
]
