"""Settings in a question read as the job's only where they are: an echoed NCCL_SOCKET_IFNAME prefix is the
setting, a shell variable's value comes from its assignment, a setting used only for a one-device check beside the
job is not the job's, and an interface NCCL picked itself is no setting when the words say none was set."""

from bwdoctor.chat.commands import read_commands
from bwdoctor.chat.pasted import parse_pasted
from bwdoctor.chat.understanding import understand


def facts(question: str) -> dict:
    return {u.fact: u.value for u in understand(question).understood}


def test_an_echoed_prefix_is_the_setting():
    question = ("Forcing sockets works:\n```\n"
                "g1:9:9 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to en\n"
                "g1:9:9 [0] NCCL INFO Bootstrap : Using enp129s0f0:10.2.0.5<0>\n"
                "g1:9:9 [0] NCCL INFO NET/Socket : Using [0]enp129s0f0:10.2.0.5<0>\n"
                "g1:9:9 [0] NCCL INFO Using network Socket\n```\nWhat do I lose against IB?")
    got = facts(question)
    assert got["nccl.socket_ifname"] == "en" and got["nccl.transport"] == "socket"


def test_a_shell_variable_in_an_mpirun_line_takes_its_exported_value():
    question = ("两张 RoCE 卡一起用就失败：\n```\n"
                'export HCAS="mlx5_1:1,mlx5_3:1"\n'
                "mpirun -np 2 -H a:8,b:8 -x NCCL_IB_HCA=$HCAS -x NCCL_SOCKET_IFNAME=eth2 ./build/all_reduce_perf -g 8\n"
                "```\n为什么？")
    got = facts(question)
    assert got["nccl.ib_hca"] == "mlx5_1:1,mlx5_3:1" and got["nccl.socket_ifname"] == "eth2"
    assert read_commands(question).env["NCCL_IB_HCA"] == "mlx5_1:1,mlx5_3:1"


def test_an_unassigned_shell_variable_is_no_value():
    question = "We launch with `mpirun -np 16 -x NCCL_IB_HCA=$MY_HCAS ./all_reduce_perf -g 1` and get 20 GB/s."
    assert "nccl.ib_hca" not in facts(question)


def test_a_setting_for_a_one_nic_check_is_not_the_jobs_zh():
    question = ("两台机器，每台 4 张 200Gb IB 网卡，两机 all-reduce 只有 70 GB/s。"
                "另外只指定 NCCL_IB_HCA=mlx5_2 单卡测的时候能跑到 23 GB/s。")
    got = facts(question)
    assert "nccl.ib_hca" not in got and got["nccl.allreduce_busbw_gbytes_per_s"] == 70


def test_a_setting_for_a_one_nic_check_is_not_the_jobs_en():
    question = ("Two nodes, four 200G HCAs each; the two-node all-reduce gets 70 GB/s. "
                "When I pin NCCL_IB_HCA=mlx5_2 to test a single NIC, it reaches 23 GB/s.")
    assert "nccl.ib_hca" not in facts(question)


def test_the_jobs_own_setting_stays():
    question = ("Each node has a single NIC; we run with NCCL_IB_HCA=mlx5_0 and the all-reduce gets 20 GB/s. "
                "我们跑的时候设了 NCCL_SOCKET_IFNAME=eth0。")
    got = facts(question)
    assert got["nccl.ib_hca"] == "mlx5_0" and got["nccl.socket_ifname"] == "eth0"


SOCKET_PICKED_ITSELF = (
    "```\n"
    "w-7:21118:21340 [1] NCCL INFO Bootstrap : Using eno2:192.168.3.7<0>\n"
    "w-7:21118:21340 [1] NCCL INFO NET/IB : No device found.\n"
    "w-7:21118:21340 [1] NCCL INFO NET/Socket : Using [0]eno2:192.168.3.7<0> [1]veth91ac2f0:fe80::1c2a:5ff:fe11:9a%"
    "veth91ac2f0<0>\n"
    "w-7:21118:21340 [1] NCCL INFO Using network Socket\n"
    "```\n")


def test_an_interface_nccl_picked_itself_is_not_a_setting_the_user_says_is_unset():
    question = ("训练时 NCCL 日志：\n" + SOCKET_PICKED_ITSELF
                + "我没有设 NCCL_IB_DISABLE，也没设 NCCL_SOCKET_IFNAME。为什么走了 socket？")
    got = facts(question)
    assert got["nccl.transport"] == "socket" and "nccl.socket_ifname" not in got


def test_the_same_in_english():
    question = ("NCCL log during training:\n" + SOCKET_PICKED_ITSELF
                + "I did not set NCCL_SOCKET_IFNAME or NCCL_IB_DISABLE. Why sockets?")
    _, pasted = parse_pasted(question)
    assert pasted.facts["nccl.transport"] == "socket" and "nccl.socket_ifname" not in pasted.facts


def test_without_such_words_the_interface_nccl_uses_is_read():
    _, pasted = parse_pasted("Our NCCL log:\n" + SOCKET_PICKED_ITSELF + "Why is it on sockets?")
    assert pasted.facts["nccl.socket_ifname"] == "eno2"
