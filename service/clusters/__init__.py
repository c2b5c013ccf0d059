"""Clusters: the nodes that share a `node.cluster`, diagnosed together."""
