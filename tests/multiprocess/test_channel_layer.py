"""The channel layer internals the live path relies on (games/compat.py), on Redis itself."""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer

from tests.multiprocess.cluster import REDIS_HOST, REDIS_PORT
from tests.test_compat import sends_to_the_group_but_the_one_left_out


async def test_a_group_send_leaves_one_channel_out_on_redis():
    layer = RedisChannelLayer(hosts=[f"redis://{REDIS_HOST}:{REDIS_PORT}/0"], prefix="shmj-compat-test")
    try:
        await sends_to_the_group_but_the_one_left_out(layer)
    finally:
        await layer.flush()
        await layer.close_pools()
