"""Makes the helpers of tests/lint (fixture_runner) importable by bare name from the test files of every sub-directory."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
