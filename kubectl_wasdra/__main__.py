"""`python -m kubectl_wasdra` runs the CLI."""

from kubectl_wasdra.cli import main

main()
