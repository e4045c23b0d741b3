#!/usr/bin/env bash
# Browser tests: a real daphne + Debian's chromium driven by Playwright, as their own pytest run
# (pytest-playwright and pytest-asyncio cannot share one). Screenshots land in test-results/.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "e2e: installing chromium and fonts-noto-cjk with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk >/dev/null \
      || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk >/dev/null; }
  else
    echo "e2e: /usr/bin/chromium is missing. Install it as root:" >&2
    echo "    apt-get install -y chromium fonts-noto-cjk" >&2
    exit 1
  fi
fi

mkdir -p test-results
# pytest-playwright empties its --output folder at start: give it its own, keep our screenshots.
# With test paths as arguments (`bash scripts/e2e.sh tests/e2e/test_x.py`) only those run.
targets=(tests/e2e)
if [ "$#" -gt 0 ] && [[ "$1" == tests/* ]]; then targets=(); fi
exec "$PY" -m pytest -q "${targets[@]}" -p no:asyncio -p no:cacheprovider -o addopts="" --output test-results/playwright "$@"
