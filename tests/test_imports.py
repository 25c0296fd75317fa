"""No import circles in ``companion/``, and no arrow running up: the modules' imports,
read from their source (every ``import``, also those under ``TYPE_CHECKING``, inside
functions and through ``importlib.import_module`` with a written name), form no cycle,
and each room imports only rooms on a lower floor (:data:`FLOORS`, the floors of
docs/architecture.md). A cycle makes a module's meaning depend on which side is
imported first and hides a missing room; an arrow up (the review importing the service
to read a journal) ties a low room to everything above it."""

from __future__ import annotations

import ast
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent


FLOORS: dict[str, int] = {
    "companion": 0, "companion.errors": 0, "companion.rules": 0,
    "companion.i18n": 1,
    "companion.ui": 2,
    "companion.journal": 3, "companion.devices": 3, "companion.speech": 3, "companion.camera": 3,
    "companion.ai": 4,
    "companion.app": 5, "companion.web": 5,
    "companion.sim": 6, "companion.club": 6,
    "companion.cli": 7,
    "companion.__main__": 8,
}
"""Each room's floor (a room: ``companion.<name>``, a package or a module). A room imports
only rooms of a lower floor; a new room gets its floor here and in docs/architecture.md."""


def room(module: str) -> str:
    """The room of a module: ``companion.app.screens.play`` is in ``companion.app``."""
    return ".".join(module.split(".")[:2])


def arrows_up(graph: dict[str, set[str]], floors: dict[str, int]) -> list[str]:
    """Every import from a room to another room not on a lower floor (or to or from a
    room without a floor), as ``"a -> b"``."""
    found = []
    for name, imported in sorted(graph.items()):
        for other in sorted(imported):
            a, b = room(name), room(other)
            if a != b and (a not in floors or b not in floors or floors[b] >= floors[a]):
                found.append(f"{name} -> {other}")
    return found


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    names: dict[str, Path] = {}
    for path in ROOT.rglob("*.py"):
        parts = ["companion", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules ``name`` imports (``from a import b``: ``a.b`` when that is
    a module, else ``a``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)  # importlib.import_module("companion.x")
    return {m for m in found if m in modules and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm),
    each sorted; a module importing itself is not a cycle here."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_the_walk_sees_the_imports_it_must_see() -> None:
    """The walk itself: plain imports, a function's import and importlib's count."""
    edges = graph()
    assert "companion.app.controller" in edges["companion.app.service"]
    assert "companion.app.screens" in edges["companion.app.controller"]  # from app import screens
    assert "companion.devices.shaker" in edges["companion.devices.sources"]  # in a function
    assert "companion.devices.serial_shaker" in edges["companion.devices.sources"]  # importlib
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles_in_companion() -> None:
    found = cycles(graph())
    assert found == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_rules_import_nothing_of_the_project_outside_themselves() -> None:
    """Why the rules keep their own error root (``RulesError``, not ``CompanionError``):
    ``companion.rules`` imports nothing of the project outside itself (docs/architecture.md)."""
    outside = {name: sorted(m for m in found if not m.startswith("companion.rules"))
               for name, found in graph().items() if name.startswith("companion.rules")}
    assert {name: found for name, found in outside.items() if found} == {}


def test_no_room_imports_a_room_on_its_floor_or_above() -> None:
    assert arrows_up({"companion.ui.x": {"companion.rules.y"}}, FLOORS) == []
    assert arrows_up({"companion.ai.review": {"companion.app.journal"}}, FLOORS) == [
        "companion.ai.review -> companion.app.journal"]  # the arrow issue 31 found
    assert arrows_up({"companion.new.x": {"companion.rules"}}, FLOORS) == [
        "companion.new.x -> companion.rules"]  # a room without a floor
    found = arrows_up(graph(), FLOORS)
    assert found == [], "imports running up (docs/architecture.md, floors):\n" + "\n".join(found)
