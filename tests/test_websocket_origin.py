"""The websocket Origin check compares scheme, host and port (issue 24 item 6), as Django's CSRF check
does: a socket opens only from the site's own origin or one of CSRF_TRUSTED_ORIGINS."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from shmj_site.origins import origin_allowed

SITE = "mahjong.example.com"


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [SITE]
    settings.CSRF_TRUSTED_ORIGINS = [f"https://{SITE}", "https://*.friends.example"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


def scope(origin: str | None, host: str = SITE, proto: str | None = "https") -> dict:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if proto is not None:
        headers.append((b"x-forwarded-proto", proto.encode()))
    return {"type": "websocket", "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host", "proto"),
    [
        (f"https://{SITE}", SITE, "https"),
        (f"https://{SITE}:443", SITE, "https"),
        (f"http://{SITE}", SITE, None),  # the page and the socket both plain http: same origin
        ("https://www.friends.example", SITE, "https"),  # trusted, by wildcard
    ],
)
def test_the_sites_own_and_trusted_origins_are_allowed(production, origin, host, proto):
    assert origin_allowed(scope(origin, host, proto))


@pytest.mark.parametrize(
    ("origin", "host", "proto"),
    [
        (f"http://{SITE}", SITE, "https"),  # another scheme
        (f"https://{SITE}:8443", SITE, "https"),  # another port
        (f"https://{SITE}.evil.example", SITE, "https"),
        ("https://evil.example", SITE, "https"),
        ("https://evil.example", "evil.example", "https"),  # a Host the site does not serve
        ("null", SITE, "https"),
        (None, SITE, "https"),
        ("https://friends.example.evil", SITE, "https"),
        ("http://www.friends.example", SITE, "https"),  # trusted host, wrong scheme
    ],
)
def test_other_schemes_ports_and_hosts_are_refused(production, origin, host, proto):
    assert not origin_allowed(scope(origin, host, proto))


async def test_a_socket_from_another_port_of_the_same_host_is_refused():
    from shmj_site.asgi import application

    headers = [(b"origin", b"http://testserver:8080"), (b"host", b"testserver")]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected
