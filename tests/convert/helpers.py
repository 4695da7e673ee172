"""Convert a YAML text in memory for the conversion tests."""

from __future__ import annotations

from kubectl_wasdra.catalog.apis import parse_runtime_config
from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.convert.engine import Converter, Note


def convert(text: str, release: str = "1.37", *runtime_config: str, name: str = "m.yaml") -> tuple[str, list[Note]]:
    result = Converter(Release.parse(release), parse_runtime_config(runtime_config)).file(name, text.encode())
    return result.converted.decode(), result.notes
