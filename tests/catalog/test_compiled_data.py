"""The compiled twins of the YAML data files (rules/compiled/, catalog/data.py read_yaml) are fresh, hold the YAML's
value, and are never read for bytes they were not made from."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kubectl_wasdra.catalog import data

ROOT = Path(__file__).resolve().parents[2]
DATA_FILES = sorted(f"rules/{path.name}" for path in (ROOT / "rules").glob("*.yaml"))


def test_every_compiled_twin_is_fresh() -> None:
    """Fails after a data file changed: rerun `python tools/gen_compiled_data.py`."""
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_compiled_data.py"), "--check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (ROOT / "rules" / "compiled").iterdir()) == sorted(
        Path(name).stem + ".json" for name in DATA_FILES)


@pytest.mark.parametrize("name", DATA_FILES)
def test_a_twin_holds_the_yaml_value_and_is_read(name: str) -> None:
    source = (ROOT / name).read_bytes()
    compiled = data._read_compiled(name, source)
    assert compiled is not None
    assert compiled["value"] == data.parse_yaml_data(source)


def test_a_twin_made_from_other_bytes_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rules" / "compiled").mkdir(parents=True)
    (tmp_path / "rules" / "x.yaml").write_bytes(b"a: 1\n")
    (tmp_path / "rules" / "compiled" / "x.json").write_text(data.render_compiled(b"a: 2\n"))
    monkeypatch.setattr(data, "_CANDIDATE_ROOTS", (tmp_path,))
    data.data_path.cache_clear()
    data.read_yaml.cache_clear()
    try:
        assert data.read_yaml("rules/x.yaml") == {"a": 1}  # stale twin: the YAML wins
        twin = {"source": data.source_stamp(b"a: 1\n"), "value": {"a": "from the twin"}}
        (tmp_path / "rules" / "compiled" / "x.json").write_text(json.dumps(twin))
        data.read_yaml.cache_clear()
        assert data.read_yaml("rules/x.yaml") == {"a": "from the twin"}  # made from these bytes: read instead
        (tmp_path / "rules" / "compiled" / "x.json").write_text("{not json")
        data.read_yaml.cache_clear()
        assert data.read_yaml("rules/x.yaml") == {"a": 1}  # unreadable twin: the YAML
    finally:
        data.data_path.cache_clear()
        data.read_yaml.cache_clear()
