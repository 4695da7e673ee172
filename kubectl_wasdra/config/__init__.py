"""Project configuration: `.wasdra.yaml` found upward from the working directory, validated with positions, and turned
into flag defaults (flags > WASDRA_* environment > config file > built-in defaults)."""
