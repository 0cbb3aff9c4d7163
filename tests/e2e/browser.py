"""A report as a person sees it: the page opened in headless Chromium (Debian's `chromium`), its screenshot
decoded without any imaging library, and whatever the browser's console said.

The page has no script, so anything on the console is a fault: a script error ("Uncaught ..."), a resource
the page tried to load (its content security policy blocks every load and Chromium logs the violation), or
any other console message. Chromium logs each console message on stderr as `...:CONSOLE:N] "text"` with
--enable-logging=stderr."""

import pathlib
import shutil
import struct
import subprocess
import zlib

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def _run(args, profile: pathlib.Path, timeout: int):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--force-device-scale-factor=1", "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def console_errors(stderr: str) -> list:
    """The console's messages in Chromium's log (every one is an error for a page without script)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def open_page(page: pathlib.Path, work: pathlib.Path, width: int = 1100, height: int = 1500, timeout: int = 120):
    """Screenshots `page` and dumps its DOM: (the PNG's path, the DOM as the browser built it, console lines)."""
    png = work / (page.stem + ".png")
    shot = _run([f"--screenshot={png}", f"--window-size={width},{height}", page.resolve().as_uri()],
                work / "chromium-profile", timeout)
    dom = _run(["--dump-dom", page.resolve().as_uri()], work / "chromium-profile", timeout)
    assert png.exists(), f"chromium wrote no screenshot (exit {shot.returncode}):\n{shot.stderr[-2000:]}"
    return png, dom.stdout, console_errors(shot.stderr) + console_errors(dom.stderr)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def png_rows(path: pathlib.Path):
    """The pixel rows of an 8-bit RGB or RGBA PNG (what Chromium writes): (width, bytes per pixel, rows)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat = 8, bytearray()
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    assert depth == 8 and colour in (2, 6) and interlace == 0, "an 8-bit RGB(A) PNG without interlacing"
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(bytes(idat)), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                corner = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, prev[i], corner)) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


def colours(path: pathlib.Path) -> dict:
    """Each distinct RGB colour of the screenshot with its pixel count."""
    width, bpp, rows = png_rows(path)
    counts = {}
    for row in rows:
        for x in range(0, width * bpp, bpp):
            rgb = row[x:x + 3]
            counts[rgb] = counts.get(rgb, 0) + 1
    return counts
