"""Where each node sits, and which shared elements a test between two nodes passes through.

The fault model: an element is a node's NIC/port (`nic:<node>`), a leaf switch's uplink
(`uplink:<leaf>`), or a rail of a rail-optimised fabric (`rail:<rail>`). A test between two
nodes passes through both NICs, both nodes' rails, and, when the nodes hang off different
leaf switches, both leaves' uplinks. A degraded element slows every test through it; a test
at full speed proves every element on its path healthy. Faults are taken as symmetric (a
test in either direction passes the same elements).

Some elements no test can tell apart — with two leaf switches every path through one uplink
goes through the other (they are one spine link); a leaf with one node shares every path of
its uplink with that node's NIC. Such elements form one class and are reported together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

Pair = tuple[str, str]


def pair_key(a: str, b: str) -> Pair:
    """The unordered pair as a sorted tuple (a test in either direction measures the same path)."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Placement:
    """A node's place in the fabric, as its probe reported it (None: not known)."""

    leaf: str | None = None
    rail: str | None = None
    zone: str | None = None


def element_kind(element: str) -> str:
    """'nic', 'uplink', 'rail' or 'link' (two uplinks no test can separate)."""
    return element.split(":", 1)[0]


def element_name(element: str) -> str:
    return element.split(":", 1)[1]


class Topology:
    """The nodes taking part in tests and the elements between them."""

    def __init__(self, placements: Mapping[str, Placement]) -> None:
        self.placements = dict(sorted(placements.items()))
        self.nodes: list[str] = list(self.placements)
        self._leaf = {n: p.leaf for n, p in self.placements.items()}
        self._rail = {n: p.rail for n, p in self.placements.items()}

    @classmethod
    def from_facts(cls, facts_by_node: Mapping[str, Mapping[str, object]]) -> Topology:
        """From each node's latest facts (node.leaf_switch, node.rail, node.zone)."""

        def text(value: object) -> str | None:
            return value if isinstance(value, str) and value else None

        return cls(
            {
                n: Placement(text(f.get("node.leaf_switch")), text(f.get("node.rail")), text(f.get("node.zone")))
                for n, f in facts_by_node.items()
            }
        )

    def leaf(self, node: str) -> str | None:
        return self._leaf.get(node)

    def rail(self, node: str) -> str | None:
        return self._rail.get(node)

    @cached_property
    def leaves(self) -> dict[str, list[str]]:
        """Leaf switch -> its nodes (only nodes whose leaf is known)."""
        out: dict[str, list[str]] = {}
        for node, leaf in self._leaf.items():
            if leaf is not None:
                out.setdefault(leaf, []).append(node)
        return out

    @cached_property
    def rails(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for node, rail in self._rail.items():
            if rail is not None:
                out.setdefault(rail, []).append(node)
        return out

    def raw_path(self, a: str, b: str) -> frozenset[str]:
        """Every element a test between a and b passes through (before classes are merged)."""
        elements = {f"nic:{a}", f"nic:{b}"}
        la, lb = self._leaf.get(a), self._leaf.get(b)
        if la is not None and lb is not None and la != lb:
            elements.add(f"uplink:{la}")
            elements.add(f"uplink:{lb}")
        for rail in (self._rail.get(a), self._rail.get(b)):
            if rail is not None:
                elements.add(f"rail:{rail}")
        return frozenset(elements)

    def path(self, a: str, b: str) -> frozenset[str]:
        """The element classes a test between a and b passes through."""
        return frozenset(self.canonical(e) for e in self.raw_path(a, b))

    @cached_property
    def _classes(self) -> dict[str, str]:
        """Element -> the class it belongs to, for the elements no test can separate."""
        out: dict[str, str] = {}
        leaves = sorted(self.leaves)
        if len(leaves) == 2:
            link = f"link:{leaves[0]}|{leaves[1]}"
            out[f"uplink:{leaves[0]}"] = out[f"uplink:{leaves[1]}"] = link
        for members in self.leaves.values():
            if len(members) == 1 and len(leaves) > 2:
                # Every path through this leaf's uplink goes through its one node's NIC.
                out[f"uplink:{self._leaf[members[0]]}"] = f"nic:{members[0]}"
        for rail, members in self.rails.items():
            if len(members) == 1:
                out[f"rail:{rail}"] = f"nic:{members[0]}"
            elif len(self.rails) == 1:
                # One rail for everyone: it is on every path, so no test could ever clear it.
                out[f"rail:{rail}"] = "rail:*"
        return out

    def canonical(self, element: str) -> str:
        return self._classes.get(element, element)

    def members(self, element_class: str) -> list[str]:
        """The elements of a class (the class itself when it has no others)."""
        found = sorted(e for e, c in self._classes.items() if c == element_class)
        if element_class.startswith(("nic:", "uplink:", "rail:")) and element_class not in found:
            found.insert(0, element_class)
        return found

    def nodes_of(self, element_class: str) -> list[str]:
        """Nodes an element serves: a NIC's node, a leaf's or rail's nodes."""
        kind, name = element_class.split(":", 1)
        if kind == "nic":
            return [name]
        if kind == "uplink":
            return list(self.leaves.get(name, []))
        if kind == "rail":
            return list(self.rails.get(name, []))
        if kind == "link":
            return [n for leaf in name.split("|") for n in self.leaves.get(leaf, [])]
        return []

    def all_pairs(self) -> int:
        n = len(self.nodes)
        return n * (n - 1) // 2


def ring_order(topology: Topology, nodes: Iterable[str] | None = None) -> list[str]:
    """Nodes ordered so each leaf's (and within it each rail's) nodes are neighbours: a ring in
    this order crosses each leaf's uplink exactly twice and tests every NIC twice."""
    chosen = topology.nodes if nodes is None else sorted(nodes)
    return sorted(chosen, key=lambda n: (topology.leaf(n) or "", topology.rail(n) or "", n))
