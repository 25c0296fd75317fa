# Fair drawing of faces from a source of random bytes, hardware-free.
#
# On the Pico the source is os.urandom (the RP2040's hardware entropy, MicroPython
# >= 1.28 uses pico_rand). Bytes are mapped to a face by rejection sampling: take the
# fewest whole bytes, mask to the bit length of n - 1, and throw the number away when
# it is >= n. Never "% n", which would favour the low faces.


def randbelow(n, urandom):
    """A uniform integer in 0..n-1 (1 <= n <= 65536) from urandom(k) -> k bytes."""
    if n < 1 or n > 65536:
        raise ValueError("randbelow: n out of range")
    if n == 1:
        return 0
    bits = 0
    while (1 << bits) < n:
        bits += 1
    mask = (1 << bits) - 1
    size = 1 if bits <= 8 else 2
    while True:
        raw = urandom(size)
        value = raw[0] if size == 1 else (raw[0] << 8) | raw[1]
        value &= mask
        if value < n:
            return value


def draw(config, urandom):
    """One face token per slot of a shaker_proto.Config, each chosen uniformly."""
    return [faces[randbelow(len(faces), urandom)] for faces in config.slots]
