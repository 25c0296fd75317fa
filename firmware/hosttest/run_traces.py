# Feeds each accelerometer trace (argv[1:], CSV t_ms,ax,ay,az in milli-g) through a
# fresh ShakeDetector (options such as --shake_jolts=1 set its parameters) on the unix port; prints one JSON line per trace:
# {"trace": path, "events": [[t_ms, "shaking" | "thrown"], ...], "states": [...]}.

import json
import sys

from shaker_detect import ShakeDetector, activity

options = {}
paths = []
for arg in sys.argv[1:]:
    if arg.startswith("--"):  # --shake_jolts=1 and the like: ShakeDetector's parameters
        key, value = arg[2:].split("=")
        options[key] = int(value)
    else:
        paths.append(arg)
for path in paths:
    detector = ShakeDetector(**options)
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
