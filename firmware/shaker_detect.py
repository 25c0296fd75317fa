# Shake detection: a state machine over activity samples, hardware-free.
#
# Activity is how far a sample is from rest, in milli-g: for an accelerometer
# |magnitude - 1000 mg| (see activity()), so tilting the cup slowly changes nothing;
# for a vibration switch the hardware module reports JOLT_MG * 2 for a sample period
# with edges and 0 without.
#
#   idle --(SHAKE_JOLTS jolts within SHAKE_WINDOW_MS)--> shaking      event "shaking"
#   shaking --(activity < QUIET_MG)--> settling
#   settling --(activity >= JOLT_MG)--> shaking
#   settling --(quiet for SETTLE_MS)--> thrown                         event "thrown"
#   thrown --(COOLDOWN_MS)--> idle
#
# A jolt is activity rising through JOLT_MG at least JOLT_GAP_MS after the previous
# jolt began, so the ringing of one knock is one jolt. A bump of the table is one or
# two jolts: not a shake. The throw is drawn when the shaking stops, not at its start.

try:
    from time import ticks_diff
except ImportError:  # CPython

    def ticks_diff(a, b):
        return a - b


IDLE = "idle"
SHAKING = "shaking"
SETTLING = "settling"
THROWN = "thrown"

GRAVITY_MG = 1000


def activity(ax, ay, az):
    """|magnitude - 1 g| of one accelerometer sample, all in milli-g."""
    magnitude = (ax * ax + ay * ay + az * az) ** 0.5
    return int(abs(magnitude - GRAVITY_MG))


class ShakeDetector:
    """Feed it samples with feed(t_ms, activity_mg); it returns None or an event."""

    def __init__(
        self,
        jolt_mg=700,
        quiet_mg=200,
        jolt_gap_ms=60,
        shake_jolts=4,
        shake_window_ms=1200,
        settle_ms=500,
        cooldown_ms=800,
    ):
        self.jolt_mg = jolt_mg
        self.quiet_mg = quiet_mg
        self.jolt_gap_ms = jolt_gap_ms
        self.shake_jolts = shake_jolts
        self.shake_window_ms = shake_window_ms
        self.settle_ms = settle_ms
        self.cooldown_ms = cooldown_ms
        self.state = IDLE
        self.jolts = []  # start times of recent jolts (idle only)
        self.above = False  # the previous sample was at or above jolt_mg
        self.last_jolt = None
        self.since = 0  # when the current state (or quiet spell) began

    def _jolt(self, t, level):
        rising = level >= self.jolt_mg and not self.above
        self.above = level >= self.jolt_mg
        if not rising:
            return False
        if self.last_jolt is not None and ticks_diff(t, self.last_jolt) < self.jolt_gap_ms:
            return False
        self.last_jolt = t
        return True

    def feed(self, t, level):
        """Advance to time t (ms) with activity level (mg); returns "shaking", "thrown" or None."""
        jolt = self._jolt(t, level)
        state = self.state
        if state == IDLE:
            if jolt:
                self.jolts.append(t)
            window = self.shake_window_ms
            self.jolts = [j for j in self.jolts if ticks_diff(t, j) <= window]
            if len(self.jolts) >= self.shake_jolts:
                self.jolts = []
                self.state = SHAKING
                return "shaking"
        elif state == SHAKING:
            if level < self.quiet_mg:
                self.state = SETTLING
                self.since = t
        elif state == SETTLING:
            if level >= self.jolt_mg:
                self.state = SHAKING
            elif level >= self.quiet_mg:
                self.since = t  # still moving a little: the quiet spell starts again
            elif ticks_diff(t, self.since) >= self.settle_ms:
                self.state = THROWN
                self.since = t
                return "thrown"
        elif state == THROWN and ticks_diff(t, self.since) >= self.cooldown_ms:
            self.state = IDLE
            self.jolts = []
        return None
