"""The websocket Origin check: scheme, host and port, as Django's CSRF check compares a form's.

Channels' `AllowedHostsOriginValidator` compares the Origin's host with ALLOWED_HOSTS only, so a page
served from `http://mahjong.example.com:8080` (or over plain http) could open the site's sockets. A
socket is accepted here when its Origin is exactly the socket's own origin (the scheme it came in on,
`https` when the proxy says so through SECURE_PROXY_SSL_HEADER, and the Host header's host and
port, the host being one of ALLOWED_HOSTS), or one of CSRF_TRUSTED_ORIGINS (`https://*.example.com`
covers subdomains, as for Django).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


def _parts(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, or None when it is not an http(s) origin."""
    try:
        parsed = urlsplit(origin.strip().lower())
        port = parsed.port
    except ValueError:
        return None
    if parsed.scheme not in DEFAULT_PORTS or not parsed.hostname:
        return None
    return parsed.scheme, parsed.hostname, port or DEFAULT_PORTS[parsed.scheme]


def socket_scheme(scope) -> str:
    """`https` for a socket that came in over TLS, at the server or (SECURE_PROXY_SSL_HEADER) the proxy."""
    if scope.get("scheme") == "wss":
        return "https"
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, secure_value = proxy_header
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin-1")
        value = _header(scope, header)
        if value is not None and value.split(",")[0].strip() == secure_value:
            return "https"
    return "http"


def own_origin(scope) -> tuple[str, str, int] | None:
    """The socket's own origin, if its Host is one of ALLOWED_HOSTS."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, port = split_domain_port(host.lower())
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    scheme = socket_scheme(scope)
    return scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme]


def _trusted(candidate: tuple[str, str, int]) -> bool:
    scheme, host, port = candidate
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = _parts(entry.replace("://*.", "://", 1))
        if trusted is None or trusted[0] != scheme or trusted[2] != port:
            continue
        if host == trusted[1] or (wildcard and host.endswith("." + trusted[1])):
            return True
    return False


def origin_allowed(scope) -> bool:
    origin = _header(scope, b"origin")
    candidate = _parts(origin) if origin else None
    if candidate is None:
        return False
    return candidate == own_origin(scope) or _trusted(candidate)


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not allowed (`origin_allowed`) is refused (HTTP 403)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator is for websocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
