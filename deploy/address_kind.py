"""Print "loopback" when every URL given names this machine (127.0.0.0/8, ::1, localhost), else "public".

deploy/serve asks this before it lets a shop without a Stripe key take test cards: only a demo on loopback may."""

import ipaddress
import sys
from urllib.parse import urlsplit


def kind(url: str) -> str:
    host = (urlsplit(url).hostname or "").rstrip(".").lower()  # "http://0.0.0.0" (every interface) is public
    if host == "localhost":
        return "loopback"
    try:
        return "loopback" if ipaddress.ip_address(host).is_loopback else "public"
    except ValueError:  # a name: only "localhost" is known to be this machine
        return "public"


if __name__ == "__main__":
    urls = sys.argv[1:] or [""]
    print("loopback" if all(kind(url) == "loopback" for url in urls) else "public")
