"""ASGI entry point: HTTP through Django, websockets through Channels.

Garbage collection is tuned for a long-running server: the objects made while starting (modules,
settings, templates) are frozen out of the collector's scans, and the youngest generation is
collected every `GC_GEN0_THRESHOLD` allocations (default 20000, CPython's own is 700), the older
ones 50 and 100 times less often (CPython: 10 and 10). Under load a
full collection walked every cached render, state and query and stalled all sockets for 100-300 ms;
with this, one process at 100 actions/s went from p95 86 ms / p99 261 ms to 27 / 53 ms
(bench/ws_load.py, docs/decisions/0005-garbage-collection.md). `GC_GEN0_THRESHOLD=0` keeps CPython's defaults.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shmj_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games import clock  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from shmj_site import stopping  # noqa: E402
from shmj_site.origins import SameOriginValidator  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_websockets  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + tournament_websockets))
        ),
    }
)


def _tune_garbage_collection() -> None:
    threshold = int(os.environ.get("GC_GEN0_THRESHOLD", "20000"))
    if threshold > 0:
        gc.freeze()
        gc.set_threshold(threshold, 50, 100)


_tune_garbage_collection()
clock.start_with_server()
stopping.arm_with_server()
