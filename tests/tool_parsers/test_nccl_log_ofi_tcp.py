"""aws-ofi-nccl over libfabric's TCP provider is a socket transport: the plugin loaded, but no EFA carries the data."""

from __future__ import annotations

import pytest

from bwdoctor_parsers.nccl_log import parse_nccl_log


@pytest.mark.parametrize("line", [
    "ip-10-0-0-1:100:200 [0] NCCL INFO NET/OFI Selected Provider is tcp\n",
    "h:1:2 [0] NCCL INFO NET/OFI Selected provider is tcp;ofi_rxm, fabric is 10.0.0.0/24 (found 1 nics)\n",
    "ip-10-0-0-1:100:200 [0] NCCL INFO NET/OFI Selected Provider is sockets\n",
])
def test_the_tcp_provider_is_the_socket_transport(line: str) -> None:
    result = parse_nccl_log(line + "ip-10-0-0-1:100:200 [0] NCCL INFO Using network AWS Libfabric\n")
    facts = result.all_facts()
    assert facts["nccl.transport"] == "socket" and "nic.efa" not in facts


def test_the_efa_provider_stays_the_plugins_transport() -> None:
    facts = parse_nccl_log("h:1:2 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)\n"
                           "h:1:2 [0] NCCL INFO Using network AWS Libfabric\n").all_facts()
    assert facts["nccl.transport"] == "other" and facts["nic.efa"] is True
