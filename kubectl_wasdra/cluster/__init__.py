"""Cluster state: snapshots from files or a live cluster (read-only), indexed and immutable."""
