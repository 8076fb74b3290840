"""``make serve`` prints where phones should go: the LAN address and a QR code of it.

Usage: ``python -m config.hall PORT``. The address is the one this machine uses to reach
the LAN (a UDP socket "connected" to a private address sends nothing); the QR code is
printed as text, so a phone can scan it off the terminal.
"""

from __future__ import annotations

import io
import os
import socket
import sys

import qrcode


def lan_address() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def hall_url(port: int, host: str | None = None) -> str:
    https = os.environ.get("DJANGO_HALL_HTTP", "").strip().lower() not in {"1", "true", "yes", "on"}
    debug = os.environ.get("DJANGO_DEBUG", "true").strip().lower() in {"1", "true", "yes", "on"}
    scheme = "https" if https and not debug else "http"
    return f"{scheme}://{host or lan_address()}:{port}/"


def qr_text(url: str) -> str:
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def main(argv: list[str]) -> int:
    port = int(argv[1]) if len(argv) > 1 else 8000
    address = lan_address()
    url = hall_url(port, address)
    print(f"\nPhones at the tables open: {url}\n")
    print(qr_text(url))
    allowed = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",")]
    if address not in allowed and "*" not in allowed:
        print(
            f"Note: add {address} to DJANGO_ALLOWED_HOSTS, or phones get 'Bad Request (400)'.",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
