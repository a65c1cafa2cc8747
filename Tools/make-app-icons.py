#!/usr/bin/env python3
"""Draws the web app's icons (the favicon's pin, white on the accent colour) as PNG files, with the
standard library only: `python3 Tools/make-app-icons.py`. The files are committed; run this again only
when the drawing changes."""
import struct
import zlib
from pathlib import Path

ACCENT = (0x1F, 0x5F, 0xBF)
WHITE = (0xFF, 0xFF, 0xFF)
OUT = Path(__file__).resolve().parents[1] / "Sources/LocifyServer/Resources/Public/icons"


def inside_pin(x: float, y: float) -> bool:
    """The favicon's pin in a unit square: a head, a point below it, and a hole in the head."""
    cx, cy, radius = 0.5, 0.43, 0.2
    head = (x - cx) ** 2 + (y - cy) ** 2 <= radius**2
    top, bottom, half = 0.54, 0.82, 0.155
    point = top <= y <= bottom and abs(x - cx) <= half * (bottom - y) / (bottom - top)
    hole = (x - cx) ** 2 + (y - cy) ** 2 <= 0.078**2
    return (head or point) and not hole


def inside_rounded_square(x: float, y: float, corner: float) -> bool:
    dx = max(corner - x, x - (1 - corner), 0)
    dy = max(corner - y, y - (1 - corner), 0)
    return dx * dx + dy * dy <= corner * corner


def draw(size: int, rounded: bool) -> bytes:
    samples = 4
    rows = []
    for row in range(size):
        line = bytearray([0])  # filter type: none
        for column in range(size):
            pin = background = 0
            for sy in range(samples):
                for sx in range(samples):
                    x = (column + (sx + 0.5) / samples) / size
                    y = (row + (sy + 0.5) / samples) / size
                    if rounded and not inside_rounded_square(x, y, 0.18):
                        continue
                    background += 1
                    pin += inside_pin(x, y)
            total = samples * samples
            alpha = background / total
            if background == 0:
                line += bytes((0, 0, 0, 0))
                continue
            share = pin / background
            colour = [round(a * (1 - share) + w * share) for a, w in zip(ACCENT, WHITE)]
            line += bytes(colour + [round(alpha * 255)])
        rows.append(bytes(line))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    # "any" icons keep rounded corners; the maskable one and Apple's fill the square (the system crops them).
    for name, size, rounded in [("icon-192.png", 192, True), ("icon-512.png", 512, True),
                                ("maskable-512.png", 512, False), ("apple-touch-icon.png", 180, False)]:
        (OUT / name).write_bytes(draw(size, rounded))
        print(OUT / name)
