"""The import contracts cover the whole project: every package is a root of import-linter, and every
module lies in a layer of the allow-list contract (a module in no layer would be free to import
anything). `lint-imports` itself runs in `make test`."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOT_APPLICATION = {"tests"}  # test code may import any layer


def _config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]


def _layer_modules(config: dict) -> set[str]:
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return {name.strip() for layer in contract["layers"] for name in layer.replace(":", "|").split("|")}


def _packages() -> set[str]:
    return {p.parent.name for p in REPO.glob("*/__init__.py")} - NOT_APPLICATION


def _modules(package: str) -> set[str]:
    found = set()
    for path in (REPO / package).rglob("*.py"):
        parts = path.relative_to(REPO).with_suffix("").parts
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_every_package_is_a_root_of_the_contracts():
    assert sorted(_packages() - set(_config()["root_packages"])) == []


def test_every_module_is_in_a_layer():
    layers = _layer_modules(_config())
    packages = _packages()

    def placed(module: str) -> bool:
        return any(module == layer or module.startswith(layer + ".") for layer in layers)

    loose = sorted(m for p in packages for m in _modules(p) if m not in packages and not placed(m))
    assert loose == []
