"""Fixtures for the multi-process suite: two daphne processes, one PostgreSQL database, one Redis.

This suite runs as its own pytest invocation (`bash scripts/multiprocess.sh`); the main run ignores
it. A missing service is an error here, never a skip: the script decides whether to run at all.
"""

from __future__ import annotations

import pytest

from tests.multiprocess.cluster import Cluster

# Test-only audit: which process (PostgreSQL application_name) inserted each Action row.
AUDIT_SQL = """
CREATE TABLE mp_audit (action_id bigint PRIMARY KEY, app text NOT NULL);
CREATE FUNCTION mp_audit_action() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO mp_audit (action_id, app) VALUES (NEW.id, current_setting('application_name'));
    RETURN NEW;
END $$;
CREATE TRIGGER mp_audit_action AFTER INSERT ON games_action FOR EACH ROW EXECUTE FUNCTION mp_audit_action();
"""


@pytest.fixture(scope="session")
def cluster(tmp_path_factory) -> Cluster:
    """Two daphne processes (each running the game clock) against a fresh database."""
    log_dir = tmp_path_factory.mktemp("daphne-logs")
    # Presence rounds every half second, a seat stale after two: test_presence.py sees a dead
    # process's seats swept in seconds. The scripted players answer at machine speed, far past the
    # per-socket rate limit meant for people (tested in tests/games/test_consumers.py).
    extra_env = {
        "GAME_CLOCK_INTERVAL": "0.05",
        "CLOCK_STEP_INTERVAL": "0.25",  # quick start and tournaments without waiting a second
        "PRESENCE_HEARTBEAT": "0.5",
        "PRESENCE_STALE": "2",
        "TABLE_SOCKET_BURST": "1000000",
        "TABLE_SOCKET_RATE": "1000000",
        # Every client here connects from 127.0.0.1 (tested in tests/games/test_live_limits.py).
        "SOCKETS_PER_ADDRESS": "0",
        "SPECTATORS_PER_ADDRESS_PER_TABLE": "0",
        # Hundreds of lobby sockets on two processes (test_pairing.py): a lobby render each every 2 s.
        "LOBBY_PUSH_INTERVAL": "2",
    }
    cluster = Cluster.create(size=2, log_dir=log_dir, extra_env=extra_env)
    cluster.database.query(AUDIT_SQL)
    yield cluster
    cluster.close()


@pytest.fixture
def servers(cluster: Cluster, request):
    """Both servers running at the start of the test (a test may kill one); logs shown on failure."""
    cluster.ensure_running()
    yield cluster.servers
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        for server in cluster.servers:
            print(f"--- {server.name} (port {server.port}) log tail ---\n{server.log_tail()}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.rep_call = report
    return report
