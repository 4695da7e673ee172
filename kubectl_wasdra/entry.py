"""The console entry point. `--version` and `--help` are answered before click and the command modules are imported
(they cost more than the interpreter's own start-up); everything else goes to cli.main."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 1 and args[0] in ("--version", "--help", "-h"):
        text = quick_answer(args[0])
        if text is not None:
            sys.stdout.write(text)
            sys.stdout.flush()
            sys.exit(0)
    import gc

    gc.disable()  # start-up makes only lasting objects (modules, classes): a collection there frees nothing
    from kubectl_wasdra.codecache import install

    install()  # before the command modules define their dataclasses
    from kubectl_wasdra.cli import main as cli_main

    gc.freeze()  # and no later collection rescans them
    gc.enable()
    cli_main(argv)


def quick_answer(flag: str) -> str | None:
    """What click would print for `flag` alone, when it is known without click: the version, or the top-level help
    precomputed (kubectl_wasdra/help_text.py) for the width click would use; None otherwise."""
    from kubectl_wasdra.cli_output import PROG  # no click there

    if flag == "--version":
        from kubectl_wasdra import __version__

        return f"{PROG} {__version__}\n"
    from kubectl_wasdra.help_text import HELP

    text = HELP.get(help_width())
    usage = "Usage: kubectl-wasdra "
    return f"Usage: {PROG} {text.removeprefix(usage)}" if text is not None and text.startswith(usage) else None


def help_width() -> int:
    """click's HelpFormatter width for the top-level group (max_content_width 110): terminal columns - 2, 50 to 108."""
    import shutil

    return max(min(shutil.get_terminal_size().columns, 110) - 2, 50)
