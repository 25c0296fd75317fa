"""A script of ``benchmarks/`` imported by its path, for the tests that call its parts
(the scripts are not a package: they import each other by name, as ``python
benchmarks/X.py`` runs them)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_script(name: str, module: str | None = None) -> ModuleType:
    """``benchmarks/NAME.py`` executed as a fresh module named ``module`` (default
    ``NAME``) and entered in ``sys.modules`` under that name unless one is there already
    (its dataclasses look their module up by name; ``ai_strength`` imports ``baseline``)."""
    if str(BENCHMARKS) not in sys.path:
        # as `python benchmarks/NAME.py` has its folder first on the path: the scripts
        # import their siblings by name (calibration.py's `from baseline import ...`
        # failed when its test file ran alone)
        sys.path.append(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(module or name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, loaded)
    spec.loader.exec_module(loaded)
    return loaded
