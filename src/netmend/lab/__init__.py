"""The live lab: a cluster's pods as network namespaces, policies enforced by nftables."""
