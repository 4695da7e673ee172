"""kubectl-wasdra: will this group of pods, with its devices, be accepted and scheduled — and if not, why not."""

__version__ = "0.1.0"
