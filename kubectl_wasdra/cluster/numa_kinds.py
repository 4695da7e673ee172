"""The snapshot kinds that carry node NUMA facts (read by kubelet/facts.py, written by cluster/live_numa.py)."""

from typing import Final

NRT_KIND: Final = "NodeResourceTopology"  # topology.node.k8s.io/v1alpha2, cluster-scoped, named after the node
# one node's GET /api/v1/nodes/{name}/proxy/configz answer, as {apiVersion, kind, metadata.name: node, kubeletconfig}
CONFIGZ_KIND: Final = "KubeletConfigz"
CONFIGZ_API_VERSION: Final = "wasdra.dev/v1alpha1"
