"""``make serve`` and ``tablescore hall`` print where phones should go: the LAN address
and a QR code of it.

Usage: ``python -m config.hall PORT``. The address is the one this machine uses to reach
the LAN (a UDP socket "connected" to a private address sends nothing); the QR code is
printed as text, so a phone can scan it off the terminal.

``HallHosts`` is ``ALLOWED_HOSTS`` in hall mode when ``DJANGO_ALLOWED_HOSTS`` is not set.
"""

from __future__ import annotations

import io
import os
import socket
import sys
import time
from collections.abc import Iterator

import qrcode


def lan_address() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


class HallHosts(list[str]):
    """The host names a hall's phones may use: this machine's names and its LAN address
    as it is now, read again at most every few seconds, so a laptop that wakes up on
    another network (a new address from the hall's router) still answers its phones.

    A list because Django wants ``ALLOWED_HOSTS`` to be one; it is read only by iterating
    (``django.http.request.validate_host``), which gives the current names."""

    REFRESH_SECONDS = 5.0

    def __init__(self) -> None:
        super().__init__()
        self._hosts: list[str] = []
        self._read_at = float("-inf")

    def _current(self) -> list[str]:
        now = time.monotonic()
        if now - self._read_at > self.REFRESH_SECONDS:
            name = socket.gethostname()
            self._hosts = ["127.0.0.1", "localhost", "[::1]", name, f"{name}.local"]
            self._hosts.append(lan_address())
            self._read_at = now
        return self._hosts

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())

    def __contains__(self, host: object) -> bool:
        return host in self._current()

    def __repr__(self) -> str:
        return f"HallHosts({self._current()!r})"


def _flag(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in {"1", "true", "yes", "on"}


def hall_url(port: int, host: str | None = None) -> str:
    https = not _flag("DJANGO_HALL_HTTP", "false")
    debug = _flag("DJANGO_DEBUG", "true")
    scheme = "https" if https and not debug else "http"
    return f"{scheme}://{host or lan_address()}:{port}/"


def qr_text(url: str) -> str:
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def announce(port: int, host: str | None = None) -> None:
    """Print the address phones should open (``host``, else this machine's LAN address),
    its QR code, and what stops them reaching it."""
    address = host or lan_address()
    url = hall_url(port, address)
    print(f"\nPhones at the tables open: {url}\n")
    print(qr_text(url), flush=True)
    if "DJANGO_ALLOWED_HOSTS" not in os.environ and _flag("DJANGO_HALL_HTTP", "false"):
        return  # hall mode allows this machine's addresses (HallHosts)
    allowed = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",")]
    if address not in allowed and "*" not in allowed:
        print(
            f"Note: add {address} to DJANGO_ALLOWED_HOSTS, or phones get 'Bad Request (400)'.",
            flush=True,
        )


def main(argv: list[str]) -> int:
    announce(int(argv[1]) if len(argv) > 1 else 8000)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
