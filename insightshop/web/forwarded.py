"""Who the client is, decided once for the whole WSGI application (the shop and /mcp alike).

The TCP peer (REMOTE_ADDR) is the client, unless the peer is one of TRUSTED_PROXIES and TRUSTED_PROXY_HOPS is set:
then the address (and scheme) that proxy forwarded is. Anyone else's X-Forwarded-For is ignored, so a caller who
reaches an app server directly cannot pick the address every per-client limit counts.

Every per-client limit (login, order lookups, guest tokens, stock holds, /mcp, Flask-Limiter) counts under the
client's key, decided here once: an IPv6 client is its /64 (the least one subscriber is given: keying on the full
address would give anyone with a /64 2^64 "clients"), an IPv4-mapped IPv6 address is its IPv4 address. REMOTE_ADDR
keeps the full address for the logs.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping

from werkzeug.middleware.proxy_fix import ProxyFix

RESOLVED = "insightshop.client_resolved"  # set once the outermost layer has decided; inner layers leave it be
CLIENT_KEY = "insightshop.client_key"  # the key per-client limits count under (client_key of the decided address)
IPV6_CLIENT_PREFIX = 64
DEFAULT_TRUSTED_PROXIES = ("127.0.0.1", "::1")


def parse_networks(entries: Iterable[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """TRUSTED_PROXIES' addresses and CIDR ranges; a malformed entry raises ValueError."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def client_key(address: str | None) -> str:
    """The key per-client limits count `address` under: an IPv4 address as it is (an IPv4-mapped IPv6 address as
    its IPv4 address), an IPv6 address as its /64 network, anything unparsable as given."""
    raw = (address or "").strip()
    try:
        ip = ipaddress.ip_address(raw.split("%")[0])
    except ValueError:
        return raw or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_CLIENT_PREFIX), strict=False))
    return str(ip)


def client_key_of(environ: Mapping) -> str:
    """The client key of a WSGI request: as TrustedProxies decided it, else from REMOTE_ADDR."""
    return environ.get(CLIENT_KEY) or client_key(environ.get("REMOTE_ADDR"))


def is_trusted_peer(peer: str | None, networks) -> bool:
    """Whether the TCP peer is one of the trusted proxies (an IPv4-mapped IPv6 peer counts as its IPv4 address)."""
    try:
        address = ipaddress.ip_address((peer or "").split("%")[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


class TrustedProxies:
    """WSGI middleware: believe X-Forwarded-For/-Proto (TRUSTED_PROXY_HOPS of them) only from TRUSTED_PROXIES.
    Settings are read per request from `config` (the Flask config), so a test may change them on a built app."""

    def __init__(self, wsgi_app, config: Mapping):
        self.wsgi_app = wsgi_app
        self.config = config
        self._networks: tuple[tuple, tuple] = ((), ())

    def __call__(self, environ, start_response):
        if environ.get(RESOLVED):
            return self.wsgi_app(environ, start_response)
        environ[RESOLVED] = True
        hops = int(self.config.get("TRUSTED_PROXY_HOPS") or 0)
        if hops and is_trusted_peer(environ.get("REMOTE_ADDR"), self.networks()):
            return ProxyFix(self._keyed, x_for=hops, x_proto=hops)(environ, start_response)
        return self._keyed(environ, start_response)

    def _keyed(self, environ, start_response):
        # Inside ProxyFix, if any: REMOTE_ADDR is the client's address by now.
        environ[CLIENT_KEY] = client_key(environ.get("REMOTE_ADDR"))
        return self.wsgi_app(environ, start_response)

    def networks(self):
        entries = tuple(self.config.get("TRUSTED_PROXIES") or DEFAULT_TRUSTED_PROXIES)
        if self._networks[0] != entries:
            self._networks = (entries, parse_networks(entries))
        return self._networks[1]
