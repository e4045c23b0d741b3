"""games/services/policy.py only answers questions: no write, no lock, no transaction, no broadcast.

The verbs change state; the predicates they decide with live in policy.py (issue 27), and stay
free of side effects so that a rule of play can be read, and tested, without a database write.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games.services import policy

WRITES = {
    "save",
    "update",
    "create",
    "delete",
    "bulk_update",
    "bulk_create",
    "select_for_update",
    "bump",
    "notify",
}
FORBIDDEN_MODULES = {"django.db.transaction", "games.store", "games.services.broadcast"}


def test_policy_calls_nothing_that_writes():
    tree = ast.parse(Path(policy.__file__).read_text("utf-8"))
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    assert called & WRITES == set()


def test_policy_imports_no_transaction_store_or_broadcast():
    tree = ast.parse(Path(policy.__file__).read_text("utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = "games.services." + module if module else "games.services"
            imported |= {module, *(f"{module}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
    assert imported & FORBIDDEN_MODULES == set()
