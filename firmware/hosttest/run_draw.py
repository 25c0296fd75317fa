# Counts the faces drawn by shaker_draw.draw for one CONFIG (argv[1], e.g.
# "kind=dice n=2 sides=6") over argv[2] draws, with a seeded byte source injected;
# prints {"outcome": count} as JSON, an outcome being the faces= text.

import json
import random
import sys

from shaker_draw import draw
from shaker_proto import Config

random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
used = [0]


def urandom(k):
    used[0] += k
    return bytes(random.getrandbits(8) for _ in range(k))


config = Config(dict(pair.split("=", 1) for pair in sys.argv[1].split(" ")))
counts = {}
for _ in range(int(sys.argv[2])):
    key = config.faces_text(draw(config, urandom))
    counts[key] = counts.get(key, 0) + 1
print(json.dumps({"counts": counts, "bytes": used[0]}))
