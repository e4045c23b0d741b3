"""Phases and action kinds are compared as enums, never as bare strings (issue 27).

`Phase`, `ActionKind`, `MeldKind` and `ResultKind` (games/engine/kinds.py) are `StrEnum`s whose
members equal today's strings, so `state.phase == "tunr"` would still run and silently be False.
These scans fail when such a comparison comes back: in Python, any comparison (`==`, `!=`, `in`,
`not in`) between something named like a phase or a kind and a string literal that is one of the
enums' values, and a table of kinds read with such a literal (`kinds["pass"]`); in the templates,
`phase`/`kind` compared with a quoted value.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from games.engine.kinds import ActionKind, MeldKind, Phase, ResultKind

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "history", "calc", "ledger", "accounts", "shmj_site", "bench")
VALUES = {str(member) for enum in (Phase, ActionKind, MeldKind, ResultKind) for member in enum}
NAMES = {"phase", "kind", "kinds"}


def _name(node: ast.expr) -> str | None:
    """The identifier an operand is known by: `phase`, `state.phase`, `x["kind"]`, `x.get("kind")`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value
    is_get = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
    if is_get and node.args and isinstance(node.args[0], ast.Constant):
        return node.args[0].value
    return None


def _phase_or_kind(node: ast.expr) -> bool:
    name = _name(node)
    return isinstance(name, str) and (name in NAMES or name.endswith(("_phase", "_kind")))


def _enum_literals(node: ast.expr) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in VALUES]


def _looked_up_by_string(node: ast.AST) -> bool:
    """`kinds["pass"]`, `kinds.get("pong", ())`, `for kind in ("self_win", "win")`: a table of kinds
    read with a bare string, or a loop naming kinds as strings."""
    if isinstance(node, ast.Subscript):
        return _phase_or_kind(node.value) and bool(_enum_literals(node.slice))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return _phase_or_kind(node.func.value) and bool(node.args) and bool(_enum_literals(node.args[0]))
    if isinstance(node, ast.For):
        return _phase_or_kind(node.target) and bool(_enum_literals(node.iter))
    return False


def string_comparisons(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(map(_phase_or_kind, operands)) and any(_enum_literals(o) for o in operands):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif _looked_up_by_string(node):
            found.append(f"{node.lineno}: {ast.unparse(node).splitlines()[0]}")
    return found


def _python_files():
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


TEMPLATE_COMPARISON = re.compile(r"""\b(?:phase|kind)\s*(?:==|!=|(?:not\s+)?in)\s*\(?\s*["']""")


def test_the_scan_finds_what_it_looks_for():
    bad = [
        "state.phase == 'ended'",
        "phase != 'swap'",
        "a.kind in ('win', 'self_win')",
        "'exposed_kong' not in kinds",
        "result.get('kind') != 'win'",
        "meld.kind == 'kong_concealed'",
        "previous_phase == 'turn'",
        "kinds['pass'][0]",
        "kinds.get('pong', ())",
        "for kind in ('self_win', 'win'):\n    pass",
    ]
    for line in bad:
        assert string_comparisons(line), line
    fine = [
        "state.phase == Phase.ENDED",
        "w.win == 'discard'",
        "option.kind == 'flag'",
        "command == 'swap'",
        "kinds[ActionKind.PASS][0]",
        "PLAIN_COMMANDS['start']",
    ]
    for line in fine:
        assert not string_comparisons(line), line
    assert TEMPLATE_COMPARISON.search('{% if phase == "turn" %}')
    assert TEMPLATE_COMPARISON.search("{% elif phase in ('claims', 'rob') %}")
    assert not TEMPLATE_COMPARISON.search("{% if phase in (Phase.CLAIMS, Phase.ROB) %}")


def test_no_bare_string_comparison_of_a_phase_or_kind_in_the_code():
    found = [
        f"{path.relative_to(REPO)}:{hit}"
        for path in _python_files()
        for hit in string_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_bare_string_comparison_of_a_phase_or_kind_in_the_templates():
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in sorted((REPO / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TEMPLATE_COMPARISON.search(line)
    ]
    assert found == []
