"""Loading manifests: files, directories, globs and stdin into Documents with lazily computed positions."""

from kubectl_wasdra.load.document import Document, LoadProblem, LoadResult, Path, PathElement, ProblemKind
from kubectl_wasdra.load.files import DEFAULT_MAX_BYTES, expand_paths, load_file, load_paths, load_text

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Document",
    "LoadProblem",
    "LoadResult",
    "Path",
    "PathElement",
    "ProblemKind",
    "expand_paths",
    "load_file",
    "load_paths",
    "load_text",
]
