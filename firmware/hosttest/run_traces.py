# Feeds each accelerometer trace (argv[1:], CSV t_ms,ax,ay,az in milli-g) through a
# fresh ShakeDetector on the unix port; prints one JSON line per trace:
# {"trace": path, "events": [[t_ms, "shaking" | "thrown"], ...], "states": [...]}.

import json
import sys

from shaker_detect import ShakeDetector, activity

for path in sys.argv[1:]:
    detector = ShakeDetector()
    events = []
    states = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line[0] in "#t":
                continue
            t, ax, ay, az = (int(v) for v in line.split(","))
            event = detector.feed(t, activity(ax, ay, az))
            if event:
                events.append([t, event])
            if not states or states[-1] != detector.state:
                states.append(detector.state)
    print(json.dumps({"trace": path, "events": events, "states": states}))
