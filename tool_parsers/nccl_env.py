"""``NCCL_*`` settings as people paste them → the facts they decide.

The same variable shows up in many shapes: an ``env | grep NCCL`` dump (``NCCL_IB_HCA=mlx5_0``),
shell lines (``export NCCL_IB_DISABLE=1``), mpirun flags (``-x NCCL_SOCKET_IFNAME=eth0``),
Python (``os.environ["NCCL_P2P_DISABLE"] = "1"``), YAML/JSON (``NCCL_DEBUG: INFO``,
``"NCCL_SOCKET_IFNAME": "eth0"``), a Kubernetes pod's env list (``- name: NCCL_SOCKET_IFNAME`` then ``value: "eth0"``,
or ``{"name": "NCCL_IB_DISABLE", "value": "1"}``), a Dockerfile (``ENV NCCL_SOCKET_IFNAME eth0``), Slurm's
``--export=ALL,NCCL_IB_DISABLE=1`` and NCCL's own echo (``NCCL_IB_HCA set to mlx5_0``,
``NCCL_SOCKET_IFNAME set by environment to eth0.``). A bare ``-x NCCL_FOO`` passes a value
that is not shown, so it names the variable without a value. The last assignment wins, as in a shell.
A value taken from a shell variable (``-x NCCL_IB_HCA=$ibcards``) is that variable's value where the text
assigns it (``export ibcards="mlx5_0:1,mlx5_2:1"``), and no value at all where it does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_NAME = r"(?P<name>NCCL_[A-Z0-9_]+)"
# (a list goes on after a comma: 'mlx5_0,mlx5_1'; another variable's assignment after one does not)
_VALUE = r"""(?P<q>["']?)(?P<value>\$\{\w+\}|[^"'\s,;)}]*(?:,(?![A-Za-z_]\w*=)[^"'\s,;)}]+)*)(?P=q)"""
_PATTERNS = (
    # NCCL's echo of its settings (NCCL_DEBUG=INFO), old "set to" and new "set by environment to".
    # (quoted in a sentence it ends at its closing quote: "`NCCL_IB_DISABLE set by environment to 1.`")
    re.compile(rf"\b{_NAME} set (?:by environment )?to (?P<value>[^\s'\"`‘’“”]+?)\.?\s*(?:['\"`‘’“”]|$)"),
    # a Kubernetes env entry on one line: '{"name": "NCCL_X", "value": "1"}', '- {name: NCCL_X, value: "1"}'
    re.compile(rf"""\bname["']?\s*:\s*["']?{_NAME}["']?\s*,\s*["']?value["']?\s*:\s*{_VALUE}"""),
    # a row of a markdown table of settings: '| NCCL_SOCKET_IFNAME | eth0 |', '| `NCCL_IB_GID_INDEX` | `3` | RoCE v2 |'
    re.compile(rf"""^\s*\|?\s*`?{_NAME}`?\s*\|\s*`?(?P<value>[^\s|`]+)`?\s*\|"""),
    # a Dockerfile's legacy form, name and value apart: 'ENV NCCL_SOCKET_IFNAME eth0'
    re.compile(rf"""^\s*ENV\s+{_NAME}\s+{_VALUE}\s*$"""),
    # os.environ["NCCL_X"] = "1" / os.environ.setdefault("NCCL_X", "1") / env={"NCCL_X": "1"} / NCCL_X: 1
    re.compile(rf"""["']{_NAME}["']\s*\]?\s*(?:=|:|,)\s*{_VALUE}"""),
    # (after a comma or '=' too: Slurm's '#SBATCH --export=ALL,NCCL_SOCKET_IFNAME=ib0')
    re.compile(rf"""(?:^|[\s;&(,=])(?:export\s+|-x\s+|--env\s+|-e\s+|ENV\s+|set\s+)?{_NAME}\s*(?:=|:\s)\s*{_VALUE}"""),
)
# A Kubernetes env entry over two lines: '- name: NCCL_SOCKET_IFNAME' then 'value: "eth0"'.
_K8S_NAME = re.compile(rf"""^\s*-?\s*name\s*:\s*["']?{_NAME}["']?\s*$""")
_K8S_VALUE = re.compile(rf"""^\s*value\s*:\s*{_VALUE}\s*$""")
# A shell variable assigned in the pasted lines: 'export ibcards="mlx5_0:1,mlx5_2:1"', 'HCAS=mlx5_0,mlx5_1'.
_SHELL_ASSIGN = re.compile(r"""(?:^|[\s;&])(?:export\s+|declare\s+(?:-x\s+)?|local\s+)?"""
                           r"""(?P<var>[A-Za-z_][A-Za-z0-9_]*)=(?P<q>["']?)(?P<value>[^"'\s;]*)(?P=q)"""
                           r"""(?=$|[\s;&])""", re.M)
_SHELL_REF = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))$")
_BARE_X = re.compile(rf"(?:^|\s)-x\s+{_NAME}(?=\s|$)")
_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def truthy(value: str | None) -> bool | None:
    """``"1"``/``"true"`` → True, ``"0"``/``"false"`` → False, anything else → None."""
    if not isinstance(value, str):
        return None
    word = value.strip().strip("'\"").rstrip(".").lower()
    return True if word in _TRUE else False if word in _FALSE else None


@dataclass
class NcclEnvResult:
    """The ``NCCL_*`` variables found, last value wins; ``passed`` lists ``-x NAME`` without a value."""

    env: dict[str, str] = field(default_factory=dict)
    passed: list[str] = field(default_factory=list)

    def facts(self) -> dict[str, Any]:
        """See :func:`env_facts`."""
        return env_facts(self.env)


def env_facts(env: dict[str, str]) -> dict[str, Any]:
    """The facts some ``NCCL_*`` settings decide on their own.

    ``NCCL_IB_HCA`` → ``nccl.ib_hca``; ``NCCL_IB_DISABLE`` → ``nccl.ib_disabled``; ``NCCL_P2P_DISABLE``
    → ``nccl.p2p_disabled``; ``NCCL_IB_GID_INDEX`` → ``nic.gid_index``; ``NCCL_SOCKET_IFNAME`` naming
    an interface (not ``^docker`` exclusions) → ``nccl.socket_ifname``; ``NCCL_NET_GDR_LEVEL=LOC``
    (or 0) → ``nccl.gdr_disabled``.
    """
    out: dict[str, Any] = {}
    if hca := env.get("NCCL_IB_HCA", "").strip():
        out["nccl.ib_hca"] = hca
    for name, fact in (("NCCL_IB_DISABLE", "nccl.ib_disabled"), ("NCCL_P2P_DISABLE", "nccl.p2p_disabled")):
        flag = truthy(env.get(name))
        if flag is not None:
            out[fact] = flag
    gid = env.get("NCCL_IB_GID_INDEX", "").strip()
    if gid.isascii() and gid.isdigit() and int(gid) <= 255:
        out["nic.gid_index"] = int(gid)
    ifname = env.get("NCCL_SOCKET_IFNAME", "").strip()
    if ifname and not ifname.startswith("^"):
        out["nccl.socket_ifname"] = ifname.lstrip("=").split(",")[0]
    if env.get("NCCL_NET_GDR_LEVEL", "").strip().upper() in ("LOC", "0"):
        out["nccl.gdr_disabled"] = True
    return out


def shell_value(text: str, value: str) -> str | None:
    """`value` itself, or for a reference to a shell variable ('$ibcards', '${HCAS}') the value the text last assigns
    to it; None when the text does not assign it (the setting's value is then unknown, not the literal '$ibcards')."""
    ref = _SHELL_REF.fullmatch(value.strip())
    if ref is None:
        return None if value.startswith("$") else value
    var = ref["braced"] or ref["plain"]
    found = [m["value"] for m in _SHELL_ASSIGN.finditer(text) if m["var"] == var and m["value"]]
    return found[-1] if found and not found[-1].startswith("$") else None


def parse_nccl_env(text: str) -> NcclEnvResult:
    """Every ``NCCL_*`` assignment in ``text``; text without one gives an empty result."""
    result = NcclEnvResult()
    if not isinstance(text, str) or "NCCL_" not in text:
        return result
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        if "NCCL_" not in raw:
            continue
        line = raw.replace("\r", "").rstrip()
        if (named := _K8S_NAME.match(line)) and i + 1 < len(lines) and (valued := _K8S_VALUE.match(lines[i + 1])):
            if value := shell_value(text, valued.group("value").strip()):
                result.env[named.group("name")] = value
            continue
        for pattern in _PATTERNS:
            found = False
            for m in pattern.finditer(line):
                value = shell_value(text, m.group("value").strip().rstrip("."))
                if value:
                    result.env[m.group("name")] = value
                    found = True
            if found:
                break
        for m in _BARE_X.finditer(line):
            if m.group("name") not in result.env and m.group("name") not in result.passed:
                result.passed.append(m.group("name"))
    return result


# A comment line that labels the command after it ('# TCP', '# roce v1', '# 单机'): words, no setting, no shebang.
_RUN_LABEL = re.compile(r"^[ \t]*#(?![!#])[ \t]*(?P<label>[^\n=$`]*[A-Za-z\u4e00-\u9fff][^\n=$`]*?)[ \t]*:?[ \t]*$",
                        re.M)


@dataclass
class LabelledRun:
    """One launch command (or a few lines) after its own comment label, at body[start:end], and its NCCL settings."""

    label: str
    start: int
    end: int
    env: dict[str, str]

    def own(self, runs: list[LabelledRun]) -> set[tuple[str, str]]:
        """The settings of this run that some other run does not have with the same value."""
        return {(k, v) for k, v in self.env.items() if any(r.env.get(k) != v for r in runs if r is not self)}


def labelled_runs(body: str) -> list[LabelledRun]:
    """Each run of a block that holds several launch commands, each after its own comment label ('# TCP' /
    'mpirun … -x NCCL_IB_DISABLE=1 …', '# roce v1' / 'mpirun … -x NCCL_IB_HCA=mlx4_0:2 …'), when every run sets NCCL
    variables and their settings differ: two runs to compare, whose settings are not all the job's. [] for any other
    block (one command, labels with nothing but comments between, lines before the first label)."""
    labels = list(_RUN_LABEL.finditer(body))
    if len(labels) < 2 or body[:labels[0].start()].strip():
        return []
    runs = []
    for i, m in enumerate(labels):
        end = labels[i + 1].start() if i + 1 < len(labels) else len(body)
        runs.append(LabelledRun(m["label"].strip(), m.end(), end, parse_nccl_env(body[m.end():end]).env))
    if not all(r.env for r in runs) or all(r.env == runs[0].env for r in runs):
        return []
    return runs
