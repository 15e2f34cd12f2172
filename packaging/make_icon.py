#!/usr/bin/env python3
"""Rasterises duels-companion.svg's shapes into duels-companion.png (128x128, 4x4 supersampled).
Plain Python (zlib + struct), so it runs anywhere; rerun after changing the SVG's shapes."""
import math, struct, zlib

N, SS = 128, 4
BG, RIM, BASE = (0x1d, 0x23, 0x30), (0xc9, 0xd1, 0xe0), (0x3a, 0x42, 0x54)
RED, YEL, BLUE, WHITE = (0xd8, 0x46, 0x3c), (0xe8, 0xc2, 0x3a), (0x3f, 0x7f, 0xd8), (0xf4,) * 3

def colour(x, y):
    # rounded square 4..124, radius 22
    cx, cy = min(max(x, 26), 102), min(max(y, 26), 102)
    if x < 4 or y < 4 or x > 124 or y > 124 or math.hypot(x - cx, y - cy) > 22:
        return None
    r = math.hypot(x - 64, y - 64)
    if r > 52: return BG
    if r > 48: return RIM
    if r <= 5: return BG
    if r <= 14.5: return WHITE
    if r <= 17.5: return BG
    if r > 44: return BASE
    a = math.degrees(math.atan2(x - 64, 64 - y)) % 360  # 0 = up, clockwise
    return RED if a < 120 else YEL if a < 240 else BLUE

rows = []
for py in range(N):
    row = bytearray([0])
    for px in range(N):
        acc, cover = [0, 0, 0], 0
        for sy in range(SS):
            for sx in range(SS):
                c = colour(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS)
                if c:
                    cover += 1
                    for i in range(3): acc[i] += c[i]
        if cover:
            row += bytes([acc[0] // cover, acc[1] // cover, acc[2] // cover, 255 * cover // SS ** 2])
        else:
            row += bytes(4)
    rows.append(bytes(row))

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 8, 6, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
open(__file__.rsplit("/", 1)[0] + "/duels-companion.png" if "/" in __file__ else "duels-companion.png", "wb").write(png)
