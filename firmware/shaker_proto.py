# Framing of the shaker line protocol (docs/protocol.md), hardware-free.
#
# A frame is one line of printable ASCII ending in CR LF:
#     TYPE SEQ [BOOT] key=value ... *CRC
# The companion's twin of this module is companion/devices/shaker_codec.py; both are
# checked against tests/vectors/shaker_frames.json. Runs under MicroPython and CPython.

MAX_LINE = 240  # bytes, CR LF included
SEQ_MODULUS = 65536

DEVICE_TYPES = ("HELLO", "SHAKING", "THROW", "ERROR", "HEARTBEAT", "STATUS")
HOST_TYPES = ("CONFIG", "ACK", "QUERY")
REQUIRED = {
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

_HEX_UPPER = b"0123456789ABCDEF"
_HEX_LOWER = b"0123456789abcdef"
_DIGITS = b"0123456789"
_WORD = b"abcdefghijklmnopqrstuvwxyz0123456789-"


class ProtoError(ValueError):
    """A line that is not a frame; .reason is the short code of docs/protocol.md."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def crc16(data, crc=0xFFFF):
    # CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def format_frame(type_, seq, fields=(), boot=""):
    """bytes of one frame, CR LF included. fields: sequence of (key, value) str pairs."""
    parts = [type_, str(seq)]
    if boot:
        parts.append(boot)
    for key, value in fields:
        parts.append(key + "=" + str(value))
    body = " ".join(parts).encode()
    return body + (" *%04X\r\n" % crc16(body)).encode()


def _all_in(data, allowed):
    for b in data:
        if b not in allowed:
            return False
    return len(data) > 0


def _is_seq(token):
    if not _all_in(token, _DIGITS) or len(token) > 5:
        return False
    if len(token) > 1 and token[0] == 0x30:  # no leading zero
        return False
    return int(token) < SEQ_MODULUS


def _is_key(token):
    if not token or len(token) > 12 or not (0x61 <= token[0] <= 0x7A):
        return False
    for b in token:
        if not (0x61 <= b <= 0x7A or 0x30 <= b <= 0x39):
            return False
    return True


def _is_value(token):
    if not token:
        return False
    for b in token:
        if b <= 0x20 or b > 0x7E or b == 0x2A:  # no space, no '*'
            return False
    return True


def parse_frame(line):
    """(type, seq, boot, fields) of one line (bytes, CR LF optional).

    fields is a list of (key, value) str pairs in wire order; boot is "" for host
    frames. Raises ProtoError; the checks run in the order of docs/protocol.md.
    """
    if line[-2:] == b"\r\n":
        line = line[:-2]
    if len(line) + 2 > MAX_LINE:
        raise ProtoError("too-long")
    for b in line:
        if b < 0x20 or b > 0x7E:
            raise ProtoError("not-ascii")
    cut = line.rfind(b" ")
    crc = line[cut + 1:] if cut >= 0 else b""
    if cut < 0 or len(crc) != 5 or crc[0] != 0x2A or not _all_in(crc[1:], _HEX_UPPER):
        raise ProtoError("no-crc")
    body = line[:cut]
    if int(crc[1:], 16) != crc16(body):
        raise ProtoError("bad-crc")
    tokens = body.split(b" ")
    type_ = tokens[0].decode()
    if type_ not in REQUIRED:
        raise ProtoError("bad-type")
    if len(tokens) < 2 or not _is_seq(tokens[1]):
        raise ProtoError("bad-seq")
    seq = int(tokens[1])
    rest = tokens[2:]
    boot = ""
    if type_ in DEVICE_TYPES:
        if not rest or len(rest[0]) != 8 or not _all_in(rest[0], _HEX_LOWER):
            raise ProtoError("bad-boot")
        boot = rest[0].decode()
        rest = rest[1:]
    fields = []
    seen = []
    for token in rest:
        eq = token.find(b"=")
        if eq < 0 or not _is_key(token[:eq]) or not _is_value(token[eq + 1:]):
            raise ProtoError("bad-field")
        key = token[:eq].decode()
        if key in seen:
            raise ProtoError("duplicate-field")
        seen.append(key)
        fields.append((key, token[eq + 1:].decode()))
    for needed in REQUIRED[type_]:
        if needed not in seen:
            raise ProtoError("missing-field")
    return type_, seq, boot, fields


# --- what to throw -----------------------------------------------------------


def _number(text, low, high):
    raw = text.encode()
    if not _all_in(raw, _DIGITS) or len(raw) > 3 or (len(raw) > 1 and raw[0] == 0x30):
        raise ProtoError("bad-config")
    n = int(text)
    if not low <= n <= high:
        raise ProtoError("bad-config")
    return n


def _face_token(token):
    value, sep, colour = token.partition(":")
    _number(value, 0, 999)
    if sep and (not colour or len(colour) > 16 or not _all_in(colour.encode(), _WORD)):
        raise ProtoError("bad-config")
    return token


class Config:
    """What the next throw is: parsed from CONFIG fields (a dict of str).

    kind: "dice" (n 1-8, sides 2-100), "sticks" (n 1-8, each light L or dark D),
    "coloured" (1-8 sticks, each with two face tokens "value" or "value:colour").
    .slots is, per die / stick, the tuple of face tokens it can show, in order.
    .echo is the fields repeated in each THROW so the companion can tell what it was.
    """

    def __init__(self, fields):
        kind = fields.get("kind")
        try:
            if kind == "dice":
                n = _number(fields["n"], 1, 8)
                sides = _number(fields["sides"], 2, 100)
                faces = tuple(str(v) for v in range(1, sides + 1))
                self.slots = [faces] * n
                self.echo = [("kind", "dice"), ("n", str(n)), ("sides", str(sides))]
            elif kind == "sticks":
                n = _number(fields["n"], 1, 8)
                self.slots = [("D", "L")] * n
                self.echo = [("kind", "sticks"), ("n", str(n))]
            elif kind == "coloured":
                sticks = fields["sticks"].split(",")
                if not 1 <= len(sticks) <= 8:
                    raise ProtoError("bad-config")
                self.slots = []
                for stick in sticks:
                    pair = stick.split("/")
                    if len(pair) != 2:
                        raise ProtoError("bad-config")
                    self.slots.append((_face_token(pair[0]), _face_token(pair[1])))
                self.echo = [("kind", "coloured"), ("sticks", fields["sticks"])]
            else:
                raise ProtoError("bad-config")
        except KeyError:
            raise ProtoError("bad-config")
        self.kind = kind

    def faces_text(self, chosen):
        """The faces= value for the chosen token of each slot."""
        if self.kind == "sticks":
            return "".join(chosen)
        return ",".join(chosen)
