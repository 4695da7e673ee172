"""`python -m kubectl_wasdra` runs the CLI."""

from kubectl_wasdra.entry import main

main()
