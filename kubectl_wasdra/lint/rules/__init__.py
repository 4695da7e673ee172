"""Rule families, one module each, listed explicitly in check-pipeline order (the pipeline imports exactly these)."""

from typing import Final

FAMILIES: Final[tuple[str, ...]] = ("load", "api", "schema", "gates", "validation", "references", "gang", "fit", "autoscaling",
                                    "config", "duplicates")
