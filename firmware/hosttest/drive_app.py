# Drives shaker_app.Shaker through a scenario (JSON file given as argv[1]) on the unix
# port and prints every frame it writes as JSON lines [t_ms, "frame"]. Steps:
#   {"t": ms, "rx": "text"}      bytes from the companion (latin-1 text, \r\n included)
#   {"t": ms, "level": mg}       one activity sample
#   {"t": ms, "trace": "path"}   an accelerometer trace (t_ms,ax,ay,az), times offset by t
#   {"t": ms}                    only the clock advances (resends, heartbeats)
# tick() runs after every step and every trace sample. Random bytes come from a
# seeded generator, so runs repeat exactly.

import json
import random
import sys

from shaker_app import Shaker
from shaker_detect import activity

random.seed(7)
out = []
now = [0]


def write(frame):
    out.append((now[0], frame.decode()))


def urandom(k):
    return bytes(random.getrandbits(8) for _ in range(k))


with open(sys.argv[1]) as f:
    steps = json.load(f)
shaker = Shaker(write, urandom, "sim")
shaker.start(0)
for step in steps:
    now[0] = step["t"]
    if "rx" in step:
        shaker.feed_bytes(step["rx"].encode(), now[0])
    elif "level" in step:
        shaker.sample(now[0], step["level"])
    elif "trace" in step:
        with open(step["trace"]) as f:
            for line in f:
                if not line.strip() or line[0] in "#t":
                    continue
                t, ax, ay, az = (int(v) for v in line.split(","))
                now[0] = step["t"] + t
                shaker.sample(now[0], activity(ax, ay, az))
                shaker.tick(now[0])
    shaker.tick(now[0])
for t, frame in out:
    print(json.dumps([t, frame]))
