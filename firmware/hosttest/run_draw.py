# Draws faces with shaker_draw.draw on the unix port and prints JSON.
#   run_draw.py CONFIG N [SEED]   N draws for CONFIG (e.g. "kind=dice n=2 sides=6") from
#                                 a seeded byte source: {"counts": {faces: n}, "bytes": used}
#   run_draw.py CONFIG --bytes 6,7,255,2   one draw from exactly these bytes:
#                                 {"faces": [...], "bytes": used}

import json
import random
import sys

from shaker_draw import draw
from shaker_proto import Config

config = Config(dict(pair.split("=", 1) for pair in sys.argv[1].split(" ")))
used = [0]

if sys.argv[2] == "--bytes":
    script = [int(b) for b in sys.argv[3].split(",")]

    def urandom(k):
        chunk = bytes(script[used[0]:used[0] + k])
        used[0] += k
        if len(chunk) < k:
            raise ValueError("the scripted bytes ran out")
        return chunk

    print(json.dumps({"faces": draw(config, urandom), "bytes": used[0]}))
else:
    random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)

    def urandom(k):
        used[0] += k
        return bytes(random.getrandbits(8) for _ in range(k))

    counts = {}
    for _ in range(int(sys.argv[2])):
        key = config.faces_text(draw(config, urandom))
        counts[key] = counts.get(key, 0) + 1
    print(json.dumps({"counts": counts, "bytes": used[0]}))
