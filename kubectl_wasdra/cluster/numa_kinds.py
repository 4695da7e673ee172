"""The snapshot kinds that carry node NUMA facts (read by kubelet/facts.py, written by cluster/live_numa.py)."""

from typing import Final

NRT_KIND: Final = "NodeResourceTopology"  # topology.node.k8s.io/v1alpha2, cluster-scoped, named after the node
# one node's GET /api/v1/nodes/{name}/proxy/configz answer, as {apiVersion, kind, metadata.name: node, kubeletconfig}
CONFIGZ_KIND: Final = "KubeletConfigz"
CONFIGZ_API_VERSION: Final = "wasdra.dev/v1alpha1"
# the KubeletConfiguration fields NUMA admission reads (kubelet/facts.py); the rest of configz (authentication, TLS file
# paths, static pod URL headers...) is never stored: not by the live read, not in a written snapshot
CONFIGZ_FIELDS: Final = ("cpuManagerPolicy", "cpuManagerPolicyOptions", "topologyManagerPolicy", "topologyManagerScope",
                         "topologyManagerPolicyOptions", "memoryManagerPolicy", "reservedSystemCPUs", "reservedMemory",
                         "systemReserved", "kubeReserved", "featureGates")
