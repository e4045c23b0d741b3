#!/usr/bin/env bash
# The multi-process suite (tests/multiprocess/): two daphne processes, PostgreSQL and Redis.
# Runs as its own pytest invocation (the main run ignores that folder). Services are started if
# they are down (scripts/services.sh); if they still cannot be reached the suite FAILS when CI=true
# and is skipped, saying so, otherwise. Extra arguments go to pytest.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"

if ! bash scripts/services.sh; then
    if [ "${CI:-}" = "true" ]; then
        echo "multiprocess suite: FAILED — PostgreSQL and Redis are required in CI and could not be reached" >&2
        exit 1
    fi
    echo "multiprocess suite: SKIPPED — PostgreSQL/Redis not reachable (start them: bash scripts/services.sh)"
    exit 0
fi

echo "multiprocess suite: running tests/multiprocess against PostgreSQL + Redis"
# Replace pyproject's addopts (which ignore this folder in the main run).
exec "$PYTHON" -m pytest -q -o addopts="-p no:cacheprovider -p no:playwright" tests/multiprocess "$@"
