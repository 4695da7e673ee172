"""Convert a YAML text in memory, or run the command line, for the conversion tests."""

from __future__ import annotations

import pytest

from kubectl_wasdra.catalog.apis import parse_runtime_config
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.engine import Converter, Note


def convert(text: str, release: str = "1.37", *runtime_config: str, name: str = "m.yaml") -> tuple[str, list[Note]]:
    result = Converter(Release.parse(release), parse_runtime_config(runtime_config)).file(name, text.encode())
    return result.converted.decode(), result.notes


def reported(text: str, release: str = "1.37", *runtime_config: str) -> Note:
    """Convert an object that cannot be converted: the text must come back unchanged and the first note say why."""
    converted, notes = convert(text, release, *runtime_config)
    assert converted == text
    assert notes[0].status == "failed" and notes[0].message and notes[0].hint
    return notes[0]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `kubectl-wasdra ARGV` run in this process."""
    from kubectl_wasdra.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err
