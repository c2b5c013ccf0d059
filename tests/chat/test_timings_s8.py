"""Step times, run comparisons and communication shares in the shapes real threads say them (session 8)."""

import pytest

from bwdoctor.chat import understand


# --------------------------------------------------------------------------- communication's share, said otherwise
@pytest.mark.parametrize(("text", "pct"), [
    ("Two V100s with DDP: per step, compute 20.1 ms and communication 14.9 ms, i.e. 42.6 % communication overhead.",
     42.6),
    ("The profile says 85% comms time per iteration on 4 machines. Where do we start?", 85.0),
    ("多机训练时 profile 一下，`send_op` 占了每个 mini-batch 90% 的时间，参数服务器模式。", 90.0),
    ("看 timeline，recv_op 占每个 step 的 60% 左右，带宽只有 10G。", 60.0),
    ("On 8 nodes the send op takes 70% of every mini-batch in the profile.", 70.0),
])
def test_the_share_of_the_step_spent_communicating_is_read(text: str, pct: float) -> None:
    assert understand(text).facts.get("job.comm_time_pct") == pct


@pytest.mark.parametrize("text", [
    "Is 40% communication overhead normal for 2 nodes?",
    "send_op 占每个 step 的 60% 带宽，正常吗",
    "NCCL reaches 85% of line rate, communication time is fine.",
])
def test_a_share_asked_about_or_of_bandwidth_is_no_share_of_time(text: str) -> None:
    assert "job.comm_time_pct" not in understand(text).facts
