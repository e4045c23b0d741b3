"""The harness itself: two daphne processes share one fresh PostgreSQL database and survive kill -9."""

import urllib.request

from tests.multiprocess.cluster import port_open


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status


def test_two_processes_serve_the_site_from_one_postgres_database(cluster, servers):
    assert len({server.pid for server in servers}) == 2
    for server in servers:
        assert _get(server.http_url + "/") == 200
    applied = cluster.database.query("SELECT count(*) FROM django_migrations WHERE app = 'auth'")
    assert applied[0][0] >= 1


def test_killed_process_is_gone_and_comes_back(cluster, servers):
    victim = servers[0]
    old_port = victim.port
    victim.kill()
    assert not victim.alive()
    assert not port_open("127.0.0.1", old_port)
    assert _get(servers[1].http_url + "/") == 200
    cluster.ensure_running()
    assert victim.alive()
    assert _get(victim.http_url + "/") == 200
