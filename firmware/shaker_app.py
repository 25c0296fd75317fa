# The shaker's behaviour: protocol state, throws, resends, heartbeats. Hardware-free:
# the main loop (main.py) hands it bytes from USB, activity samples and the time, and
# it writes frames through the write(bytes) function it was given.

import binascii

from shaker_detect import SETTLING, SHAKING, ShakeDetector
from shaker_draw import draw
from shaker_proto import MAX_LINE, SEQ_MODULUS, Config, ProtoError, format_frame, parse_frame

try:
    from time import ticks_diff
except ImportError:  # CPython

    def ticks_diff(a, b):
        return a - b


VERSION = "1.0.0"
CAPS = "dice,sticks,coloured"


class Shaker:
    """One boot of the shaker.

    write(bytes): sends to the companion. urandom(k): k random bytes. hw: the hardware
    kind for HELLO ("lis3dh", "mpu6050", "switch", "sim"). Times are ms (ticks_ms).
    """

    def __init__(self, write, urandom, hw, detector=None, heartbeat_ms=2000, resend_ms=1000):
        self.write = write
        self.urandom = urandom
        self.hw = hw
        self.detector = detector or ShakeDetector()
        self.heartbeat_ms = heartbeat_ms
        self.resend_ms = resend_ms
        self.boot = binascii.hexlify(urandom(4)).decode()
        self.seq = 0
        self.config = None  # armed for one throw when not None
        self.cfg_ref = None  # seq of the CONFIG frame it came from
        self.pending = None  # (seq, frame bytes) of the throw awaiting its ACK
        self.pending_sent = 0
        self.last_sent = 0
        self.started = 0
        self.rx = bytearray()
        self.rx_overflow = False
        self.counts = {"bad": 0, "throws": 0, "resends": 0}

    # --- sending ---------------------------------------------------------------

    def _next_seq(self):
        seq = self.seq
        self.seq = (seq + 1) % SEQ_MODULUS
        return seq

    def send(self, now, type_, fields=()):
        seq = self._next_seq()
        frame = format_frame(type_, seq, fields, self.boot)
        self.write(frame)
        self.last_sent = now
        return seq, frame

    def start(self, now):
        self.started = now
        self.send(now, "HELLO", [("fw", VERSION), ("hw", self.hw), ("caps", CAPS)])

    # --- receiving -------------------------------------------------------------

    def feed_bytes(self, data, now):
        """Bytes from USB. A line ends at CR or LF (a serial terminal sends either)."""
        for b in data:
            if b == 0x0D or b == 0x0A:
                if self.rx_overflow:
                    self.rx_overflow = False
                    self._error(now, "too-long")
                elif self.rx:
                    line = bytes(self.rx)
                    self.rx = bytearray()
                    self.handle_line(line, now)
                continue
            if self.rx_overflow:
                continue
            if len(self.rx) >= MAX_LINE:
                self.rx = bytearray()
                self.rx_overflow = True
                continue
            self.rx.append(b)

    def _error(self, now, code, ref=None):
        self.counts["bad"] += 1
        fields = [("code", code)]
        if ref is not None:
            fields.append(("ref", str(ref)))
        self.send(now, "ERROR", fields)

    def handle_line(self, line, now):
        try:
            type_, seq, boot, fields = parse_frame(line)
        except ProtoError as exc:
            self._error(now, exc.reason)
            return
        if type_ not in ("CONFIG", "ACK", "QUERY"):
            self._error(now, "bad-type", seq)
            return
        values = dict(fields)
        if type_ == "CONFIG":
            if values["kind"] == "none":
                self.config = None
            else:
                try:
                    self.config = Config(values)
                except ProtoError as exc:
                    self._error(now, exc.reason, seq)
                    return
            self.cfg_ref = seq
            self.status(now, seq)
        elif type_ == "ACK":
            if (
                self.pending is not None
                and values["boot"] == self.boot
                and values["ref"] == str(self.pending[0])
            ):
                self.pending = None
            # an ACK of an older throw or another boot changes nothing
        else:
            self.status(now, seq)

    def status(self, now, ref):
        pending = "-" if self.pending is None else str(self.pending[0])
        self.send(
            now,
            "STATUS",
            [
                ("ref", str(ref)),
                ("state", self.detector.state),
                ("armed", "0" if self.config is None else "1"),
                ("pending", pending),
            ],
        )

    # --- shaking and throwing --------------------------------------------------

    def sample(self, now, level):
        """One activity sample (mg) at time now."""
        event = self.detector.feed(now, level)
        if event == "shaking":
            self.send(now, "SHAKING")
        elif event == "thrown":
            self.throw(now)

    def throw(self, now):
        if self.pending is not None:
            self._error(now, "unacked", self.pending[0])  # the last throw still waits
            return
        if self.config is None:
            self._error(now, "not-armed")
            return
        faces = draw(self.config, self.urandom)
        fields = [("cfg", str(self.cfg_ref))] + self.config.echo
        fields.append(("faces", self.config.faces_text(faces)))
        self.pending = self.send(now, "THROW", fields)
        self.pending_sent = now
        self.config = None  # one throw per CONFIG
        self.counts["throws"] += 1

    def tick(self, now):
        """Resend an unacknowledged throw every resend_ms; heartbeat when quiet."""
        if self.pending is not None and ticks_diff(now, self.pending_sent) >= self.resend_ms:
            self.write(self.pending[1])  # the same frame: same boot, same seq
            self.pending_sent = now
            self.last_sent = now
            self.counts["resends"] += 1
        elif ticks_diff(now, self.last_sent) >= self.heartbeat_ms:
            up = ticks_diff(now, self.started) // 1000
            self.send(
                now,
                "HEARTBEAT",
                [
                    ("state", self.detector.state),
                    ("armed", "0" if self.config is None else "1"),
                    ("up", str(up)),
                ],
            )

    def led(self, now):
        """Whether the on-board LED is lit now.

        Shaking or settling: on. A throw waiting for its ACK: blinks 4 times a second.
        Armed (a throw is wanted): a short flash every second. Otherwise off.
        """
        state = self.detector.state
        if state == SHAKING or state == SETTLING:
            return True
        if self.pending is not None:
            return (now // 125) % 2 == 0
        if self.config is not None:
            return now % 1000 < 100
        return False
