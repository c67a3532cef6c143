"""Square-root cases for core/src/interp/fparith/vectors.txt, computed
exactly with Python integers (see tools/fp128_vectors.c for the format):

    python3 tools/fp128_sqrt_vectors.py >> core/src/interp/fparith/vectors.txt

A binary128 square root is never subnormal and never overflows, so the
rounding is to 113 significant bits, to nearest; a square root is never
exactly halfway between two of them.
"""

import random
from math import isqrt

BIAS = 16383
FRAC = 112
QNAN = "nan"


def sqrt128(bits):
    sign, biased, frac = bits >> 127, (bits >> FRAC) & 0x7FFF, bits & ((1 << FRAC) - 1)
    if biased == 0x7FFF:
        return QNAN if frac or sign else bits
    if biased == 0 and frac == 0:
        return bits  # sqrt(±0) = ±0
    if sign:
        return QNAN
    mant, exp = (frac, 1 - BIAS - FRAC) if biased == 0 else (frac | 1 << FRAC, biased - BIAS - FRAC)
    # mant·2^exp = (mant·2^shift)·2^(exp-shift) with exp - shift even and
    # enough bits for a root of 115 bits.
    shift = 2 * 116 - mant.bit_length()
    if (exp - shift) % 2:
        shift += 1
    n = mant << shift
    root, e = isqrt(n), (exp - shift) // 2
    drop = root.bit_length() - (FRAC + 1)
    kept, rest = root >> drop, root & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    inexact = root * root != n
    if rest > half or (rest == half and (inexact or kept & 1)):
        kept += 1
    e += drop
    if kept >> (FRAC + 1):
        kept >>= 1
        e += 1
    return (e + FRAC + BIAS) << FRAC | (kept & ((1 << FRAC) - 1))


def show(x):
    return x if x == QNAN else f"{x:032x}"


def main():
    rng = random.Random(0x5EED)
    cases = [
        0, 1 << 127, BIAS << FRAC, (BIAS + 1) << FRAC, (BIAS + 2) << FRAC,  # 0, -0, 1, 2, 4
        1, (1 << FRAC) - 1, 1 << FRAC, (0x7FFE << FRAC) | ((1 << FRAC) - 1),  # subnormals, min, max
        0x7FFF << FRAC, (0xFFFF << FRAC), 0x7FFF8 << 108, (BIAS << FRAC) | 1 << 127,
    ]
    for i in range(80):
        sign = 1 if i % 9 == 0 else 0
        biased = 0 if i % 5 == 0 else rng.randrange(1, 0x7FFF)
        cases.append(sign << 127 | biased << FRAC | rng.getrandbits(FRAC))
    for c in cases:
        print(f"sqrt {c:032x} {show(sqrt128(c))}")


if __name__ == "__main__":
    main()
