"""Importing jsonschema-rs without the standard library's email package.

When it is imported, jsonschema-rs records when it was built (its `__build__` metadata), converting the build date
with email.utils.parsedate_to_datetime. Importing email.utils pulls in socket, urllib.parse, calendar, random and half
of the email package: some 48 million instructions, about 11 ms and an eighth of a one-file `check`, for a date
nothing reads. So the import runs with a stand-in email.utils whose parsedate_to_datetime hands the text back. The
stand-in leaves sys.modules as soon as the import returns, so a later `import email.utils` gets the real module; if a
release of jsonschema-rs refuses the stand-in (it needs more of email.utils), the import is simply run again without.
Where email.utils is loaded already (a cluster read imports it with the Kubernetes client) nothing is replaced; the
first call comes from the thread that validates, never while another thread is importing.
"""

from __future__ import annotations

import sys
from types import ModuleType

_STAND_IN = "email.utils"


def load_jsonschema_rs() -> ModuleType:
    """The jsonschema_rs module, imported on first call."""
    loaded = sys.modules.get("jsonschema_rs")
    if loaded is not None:
        return loaded
    if _STAND_IN in sys.modules:  # already paid for: nothing to save
        return _plain_import()
    stand_in = ModuleType(_STAND_IN, "stand-in while jsonschema_rs is imported (kubectl_wasdra/catalog/validator_import.py)")
    stand_in.parsedate_to_datetime = str  # type: ignore[attr-defined]  # the build date stays text
    sys.modules[_STAND_IN] = stand_in
    try:
        import jsonschema_rs
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # a Rust panic is a BaseException; the plain import below reports anything real
        jsonschema_rs = None
    finally:
        if sys.modules.get(_STAND_IN) is stand_in:
            del sys.modules[_STAND_IN]
    return jsonschema_rs if jsonschema_rs is not None else _plain_import()


def _plain_import() -> ModuleType:
    import jsonschema_rs

    return jsonschema_rs
