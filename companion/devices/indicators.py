"""The buzzer and the LED of the bill of materials, driven with gpiozero.

* Buzzer (``buzzer.pin``, BCM): an **active** buzzer (``gpiozero.Buzzer``: one pitch,
  its own oscillator) tells the cues apart by rhythm; a **passive** piezo
  (``gpiozero.TonalBuzzer``, PWM) by pitch as well. The cues:

  ================  ==============================  =====================
  cue               active buzzer                   passive buzzer
  ================  ==============================  =====================
  ``THROW``         one short beep (50 ms)          E5, 60 ms
  ``TURN``          two short beeps                 C5 then G5, 80 ms each
  ``ERROR``         one long beep (400 ms)          A3, 400 ms (low)
  ================  ==============================  =====================

* LED (``led.pin``, BCM, through 330 ohm): lit while a throw is awaited, blinking
  (0.5 s on, 0.5 s off) while the throw source reports trouble (a shaker unplugged),
  off otherwise.

Both are optional (a pin of ``None``: not wired) and can be switched off from the
settings screen (``sound``, ``light``). The beeps and the blinking run on gpiozero's
own background threads; nothing here blocks the service's loop. A pin that cannot be
opened (a pin factory without PWM for a passive buzzer) leaves that part out, logged.
"""

from __future__ import annotations

import enum
import logging
from typing import Any

from companion.devices.clock import Scheduler

log = logging.getLogger(__name__)


class Cue(enum.Enum):
    """What the players hear about."""

    THROW = "throw"
    """A throw has arrived (drawn or reported)."""
    TURN = "turn"
    """A new turn: another player is to throw."""
    ERROR = "error"
    """Something was refused or failed (a throw rejected, a disk full, a source gone)."""


_BEEPS = {  # active buzzer: (on seconds, off seconds, count)
    Cue.THROW: (0.05, 0.05, 1),
    Cue.TURN: (0.05, 0.08, 2),
    Cue.ERROR: (0.4, 0.05, 1),
}
_TONES = {  # passive buzzer: (note, seconds) in order
    Cue.THROW: (("E5", 0.06),),
    Cue.TURN: (("C5", 0.08), ("G5", 0.08)),
    Cue.ERROR: (("A3", 0.4),),
}


class Indicators:
    """The buzzer and the LED. ``buzzer_pin`` / ``led_pin``: BCM numbers or ``None``;
    ``kind``: ``"active"`` or ``"passive"``; ``pin_factory``: gpiozero's (``None``: its
    default); ``scheduler``: the service's timers (to end a passive buzzer's tones)."""

    def __init__(
        self,
        *,
        buzzer_pin: int | None,
        led_pin: int | None,
        kind: str = "active",
        pin_factory: Any = None,
        scheduler: Scheduler | None = None,
    ) -> None:
        import gpiozero

        self.kind = kind
        self.sound = True
        self.light = True
        self._scheduler = scheduler
        self._led_mode = "off"
        self.buzzer: Any = None
        self.led: Any = None
        if buzzer_pin is not None:
            cls = gpiozero.TonalBuzzer if kind == "passive" else gpiozero.Buzzer
            try:
                self.buzzer = cls(buzzer_pin, pin_factory=pin_factory)
            except (gpiozero.GPIOZeroError, OSError) as exc:
                log.warning("buzzer on BCM %s left out: %s", buzzer_pin, exc)
        if led_pin is not None:
            try:
                self.led = gpiozero.LED(led_pin, pin_factory=pin_factory)
            except (gpiozero.GPIOZeroError, OSError) as exc:
                log.warning("LED on BCM %s left out: %s", led_pin, exc)

    def cue(self, cue: Cue) -> None:
        """Sound ``cue`` (nothing when the sound is off or no buzzer is wired)."""
        buzzer = self.buzzer
        if buzzer is None or not self.sound:
            return
        if self.kind != "passive":
            on, off, n = _BEEPS[cue]
            buzzer.beep(on_time=on, off_time=off, n=n, background=True)
            return
        self._play(list(_TONES[cue]))

    def _play(self, notes: list[tuple[str, float]]) -> None:
        if not notes or self.buzzer is None:
            return
        note, seconds = notes[0]
        self.buzzer.play(note)
        if self._scheduler is None:  # nothing to end the tone with: keep it short
            self.buzzer.stop()
            return

        def next_note() -> None:
            if self.buzzer is not None:
                self.buzzer.stop()
                self._play(notes[1:])

        self._scheduler.call_later(seconds, next_note)

    def show(self, *, awaiting: bool, trouble: bool) -> None:
        """Set the LED: blinking while ``trouble``, else lit while ``awaiting`` a throw."""
        led = self.led
        if led is None:
            return
        mode = "off" if not self.light else "blink" if trouble else "on" if awaiting else "off"
        if mode == self._led_mode:
            return
        self._led_mode = mode
        if mode == "blink":
            led.blink(on_time=0.5, off_time=0.5, background=True)
        elif mode == "on":
            led.on()
        else:
            led.off()

    def close(self) -> None:
        """Silence the buzzer, switch the LED off and release both pins (idempotent)."""
        for device in (self.buzzer, self.led):
            if device is not None:
                try:
                    device.stop() if self.kind == "passive" and device is self.buzzer else device.off()
                finally:
                    device.close()
        self.buzzer = self.led = None


__all__ = ["Cue", "Indicators"]
