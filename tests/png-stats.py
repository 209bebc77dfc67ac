#!/usr/bin/env python3
"""png-stats.py PNG — print "WIDTHxHEIGHT COLOURS DARKPCT" for an 8-bit non-interlaced PNG
(RGB or RGBA, as Chromium's --screenshot writes), using only zlib: enough to tell a rendered
chart from a blank or black page. Exit 1 if the file is not such a PNG."""
import struct, sys, zlib

def main(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('not a PNG')
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit('unsupported PNG')
            bpp = 3 if ctype == 2 else 4
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    prev, colours, dark, i = bytearray(stride), set(), 0, 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 2):
            px = bytes(line[x:x + 3])
            colours.add(px)
            dark += sum(px) < 384
        prev = line
    print('%dx%d %d %.1f' % (w, h, len(colours), 100.0 * dark / max(1, w * h / 2)))

main(sys.argv[1])
