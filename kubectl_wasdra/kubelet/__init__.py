"""Node admission after binding: the kubelet's Topology Manager with its CPU, memory and device hint providers, fed by
NodeResourceTopology objects and kubelet configuration facts (DESIGN.md layout: sched and explain call it)."""
