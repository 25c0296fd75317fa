# Runs the firmware's framing over the shared test vectors (argv[1]) on the unix port
# and prints what it made of each as one JSON object; tests/firmware compares.

import json
import sys

from shaker_proto import Config, ProtoError, crc16, format_frame, parse_frame

with open(sys.argv[1]) as f:
    vectors = json.load(f)


def parse(line):
    try:
        type_, seq, boot, fields = parse_frame(line.encode() + b"\r\n")
    except ProtoError as exc:
        return {"reason": exc.reason}
    return {"type": type_, "seq": seq, "boot": boot, "fields": [list(p) for p in fields]}


def config(text):
    fields = dict(pair.split("=", 1) for pair in text.split(" "))
    try:
        c = Config(fields)
    except ProtoError as exc:
        return {"reason": exc.reason}
    return {"slots": [list(s) for s in c.slots], "echo": [list(p) for p in c.echo]}


def could_send(config_text, line):
    # True when the firmware, configured with config_text, could send exactly this
    # THROW: the same implement fields (its echo) and faces it can draw, written as
    # Config.faces_text writes them. Never raises.
    try:
        c = Config(dict(pair.split("=", 1) for pair in config_text.split(" ")))
        type_, _seq, _boot, fields = parse_frame(line.encode() + b"\r\n")
    except ProtoError:
        return False
    if type_ != "THROW":
        return False
    echo = [p for p in fields if p[0] in ("kind", "n", "sides", "sticks")]
    if echo != c.echo:
        return False
    faces = dict(fields).get("faces", "")
    chosen = list(faces) if c.kind == "sticks" else faces.split(",")
    if len(chosen) != len(c.slots):
        return False
    for token, slot in zip(chosen, c.slots):
        if token not in slot:
            return False
    return c.faces_text(chosen) == faces


result = {
    "crc": ["%04X" % crc16(v["data"].encode()) for v in vectors["crc"]],
    "valid": [parse(v["line"]) for v in vectors["valid"]],
    "formatted": [
        format_frame(v["type"], v["seq"], [tuple(p) for p in v["fields"]], v["boot"]).decode()
        for v in vectors["valid"]
    ],
    "invalid": [parse(v["line"]) for v in vectors["invalid"]],
    "configs": [config(v["fields"]) for v in vectors["configs"]],
    "throws": [could_send(v["config"], v["line"]) for v in vectors["throws"]],
}
print(json.dumps(result))
