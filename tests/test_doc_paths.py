"""Every repository path the documents name exists.

README.md, docs/ and hardware/ cite benchmarks, modules, tests and pictures by path
(`benchmarks/cretan_playouts.py`, `tests/ui/reference/labyrinth-*.png`); a file renamed
or never written leaves a reader with a figure nobody can reproduce. Two kinds of
names are checked: a path starting with a top-level folder of the repository, and the
target of a Markdown link, relative to the document.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = sorted(
    p.name for p in ROOT.iterdir()
    if p.is_dir() and not p.name.startswith(".") and not p.name.endswith(".egg-info")
)
"""The repository's top-level folders (companion, docs, tests, benchmarks, ...)."""

PLACEHOLDERS = {"GAME", "NAME", "ID", "DIR", "PATH", "FILE", "N"}
"""Words that stand for any name in a documented path (``docs/rules/GAME.md``)."""

NAMED = re.compile(r"(?<![\w/.~$-])(?:" + "|".join(map(re.escape, TOP)) + r")/[\w./*-]*")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def documents() -> list[Path]:
    found = [ROOT / "README.md"]
    for folder in ("docs", "hardware"):
        found += sorted((ROOT / folder).rglob("*.md"))
    return found


def named_paths(doc: Path) -> set[str]:
    """Repository paths named in ``doc``, relative to the repository."""
    text = doc.read_text(encoding="utf-8")
    paths = {m.group(0).rstrip(".,:;") for m in NAMED.finditer(text)}
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("/"):
            continue  # a URL, or a path on the Pi
        resolved = (doc.parent / target).resolve()
        if resolved.is_relative_to(ROOT):
            paths.add(resolved.relative_to(ROOT).as_posix())
    return {p for p in paths if not any(part.split(".")[0] in PLACEHOLDERS for part in p.split("/"))}


def exists(path: str) -> bool:
    if any(c in path for c in "*?["):
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


def test_the_documents_name_paths() -> None:
    named = set().union(*(named_paths(doc) for doc in documents()))
    assert "benchmarks/cretan_playouts.py" in named  # the check sees the citations


@pytest.mark.parametrize("doc", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_document_names_exists(doc: Path) -> None:
    missing = sorted(p for p in named_paths(doc) if not exists(p))
    assert not missing, f"{doc.relative_to(ROOT)} names paths that do not exist: {missing}"
