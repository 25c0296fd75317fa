"""The project's own files: the licence as a user and a packager read it, and the
Makefile's install step as `make demo`'s first run prints it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_licence_is_mit_of_the_board_companion_authors() -> None:
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License")
    assert re.search(r"^Copyright \(c\) \d{4} The board-companion authors$", text, re.M)
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_the_package_declares_the_licence_as_an_spdx_expression() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["license"] == "MIT"
    # what pip and PyPI see (setuptools >= 77 writes PEP 639's field)
    assert metadata.metadata("board-companion")["License-Expression"] == "MIT"


def test_the_readme_names_the_licence() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "[LICENSE](LICENSE)" in readme
    assert "MIT" in readme.split("## Licence", 1)[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on PATH")
def test_make_installs_without_the_editable_installation_banner() -> None:
    """The pip line of the Makefile's install step filters setuptools' banner (a
    warning whose message starts "Editable installation."): that filter, given to a
    Python that raises the banner's warning, prints nothing, and leaves others."""
    plan = subprocess.run(
        ["make", "-n", "-B", ".venv/.installed"], cwd=ROOT, capture_output=True, text=True,
        check=True,
    ).stdout
    install = next(line for line in plan.splitlines() if re.search(r"pip install .*-e \.$", line))
    found = re.match(r"PYTHONWARNINGS='([^']*)' ", install)
    assert found, f"the install line does not filter the banner: {install}"
    banner = (
        "import warnings\n"
        "class BuildBackendWarning(UserWarning): pass\n"
        "warnings.warn('Editable installation.\\n!!\\n  Please be careful', BuildBackendWarning)\n"
        "warnings.warn('another warning', UserWarning)\n"
    )
    env = {**os.environ, "PYTHONWARNINGS": found.group(1)}
    err = subprocess.run([sys.executable, "-c", banner], env=env, capture_output=True,
                         text=True, check=True).stderr
    assert "Editable installation" not in err
    assert "another warning" in err
