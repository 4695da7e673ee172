"""catalog/validator_import.py: jsonschema-rs is imported without email.utils, validates as usual, leaves no stand-in
behind, and falls back to a plain import when the stand-in is refused. Each case runs in a fresh interpreter (the
test process has imported both modules already)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
{setup}
from kubectl_wasdra.catalog.validator_import import load_jsonschema_rs
module = load_jsonschema_rs()
before = {{name: name in sys.modules for name in ("email.utils", "socket")}}
validator = module.Draft202012Validator({{"type": "object", "properties": {{"a": {{"type": "integer", "maximum": 3}}}}}})
errors = [error.message for error in validator.iter_errors({{"a": 5}})]
import email.utils
print(json.dumps({{"loaded": before, "errors": errors, "real": email.utils.__file__ is not None and
                  email.utils.parsedate_to_datetime("Thu, 12 Nov 2026 07:50:16 +0000").year == 2026,
                  "same": load_jsonschema_rs() is module}}))
"""


def _probe(setup: str = "") -> dict:
    result = subprocess.run([sys.executable, "-c", PROBE.format(setup=setup)], capture_output=True, text=True,
                            cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_import_leaves_email_utils_unloaded_and_validates_as_usual() -> None:
    found = _probe()
    assert found["loaded"] == {"email.utils": False, "socket": False}
    assert found["errors"] == ["5 is greater than the maximum of 3"]
    assert found["real"] and found["same"]   # a later import gets the real email.utils


def test_a_refused_stand_in_falls_back_to_the_plain_import() -> None:
    """A release that wanted more of email.utils than the stand-in has: simulated by a stand-in with nothing."""
    setup = ("import kubectl_wasdra.catalog.validator_import as v\n"
             "class Refusing(type(sys)):\n"
             "    def __setattr__(self, name, value): pass\n"
             "v.ModuleType = lambda name, doc: Refusing(name)")
    found = _probe(setup)
    assert found["loaded"]["email.utils"] is True and found["errors"] == ["5 is greater than the maximum of 3"]
    assert found["real"] and found["same"]


def test_with_email_utils_already_imported_nothing_is_replaced() -> None:
    found = _probe("import email.utils; real = email.utils")
    assert found["loaded"]["email.utils"] is True and found["real"]
