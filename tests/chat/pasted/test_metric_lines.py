"""Pasted blocks: step times in detectron2 / fast-reid metric lines, a step timed by hand, ms-swift's
train_speed, blocks labelled by a launcher's node count (nnodes=1 / trainer.nnodes=2), and perftest's banner and
command line telling RoCE and its GID index. Shapes are those of the real threads the corpus cites."""

from bwdoctor.chat.pasted import parse_pasted
from bwdoctor.chat.understanding import understand


def facts(question: str) -> dict:
    return {u.fact: u.value for u in understand(question).understood}


def test_nnodes_labels_tell_the_single_node_baseline_from_the_job():
    question = ("verl 训 GRPO，nnodes=1 时：\n```\n"
                "Training Progress:   0%|          | 1/540 [09:09<82:13:02, 549.13s/it]\n"
                "Training Progress:   0%|          | 2/540 [17:52<79:50:22, 534.24s/it]\n```\n"
                "换成 trainer.nnodes=2，其他配置完全一样：\n```\n"
                "Training Progress:   0%|          | 1/540 [11:50<106:20:42, 710.28s/it]\n```\n"
                "为什么两台反而每步更慢？")
    _, pasted = parse_pasted(question)
    assert pasted.facts["job.step_time_s"] == 710.28
    assert abs(pasted.facts["job.step_time_baseline_s"] - 541.685) < 0.01


def test_a_multi_node_count_is_not_a_baseline_label():
    question = ("Two nodes are slow. With --nnodes 2:\n```\n"
                " 10%|#         | 10/100 [00:20<03:00,  2.00s/it]\n```\n")
    _, pasted = parse_pasted(question)
    assert pasted.facts["job.step_time_s"] == 2.0 and "job.step_time_baseline_s" not in pasted.facts


def test_ms_swift_train_speed_after_a_single_node_label_is_the_baseline():
    question = ("Multiple node training is much slower than single node. Script for 2 nodes:\n```\n"
                "NNODES=2 NPROC_PER_NODE=8 swift sft --model Qwen2.5-VL-7B-Instruct --deepspeed zero2\n```\n"
                "Single node log for comparison:\n```\n"
                "{'loss': 0.42228584, 'memory(GiB)': 76.72, 'train_speed(iter/s)': 0.194334, "
                "'global_step/max_steps': '300/4491', 'elapsed_time': '25m 38s'}\n```\n"
                "The multi-node log is extremely slower than this.")
    got = facts(question)
    assert abs(got["job.step_time_baseline_s"] - 5.1458) < 0.001 and "job.step_time_s" not in got


def test_detectron2_metric_line_gives_the_step_time_not_data_time():
    question = ("Across multiple nodes the iteration time explodes:\n```\n"
                "(head, rank=0, pid=8259) [01/09 10:46:29 d2.utils.events]:  eta: 4333 days, 21:08:17  iter: 19  "
                "total_loss: 60.84  time: 1386.3151  last_time: 1380.1  data_time: 0.1655  last_data_time: 0.2  "
                "lr: 0.0001  max_mem: 5871M\n```\n")
    _, pasted = parse_pasted(question)
    assert abs(pasted.facts["job.step_time_s"] - 1386.3151) < 0.1
    assert pasted.facts["job.data_wait_pct"] < 1


def test_a_step_timed_by_hand_and_fastreid_lines_under_single_and_multi_machine_labels():
    question = ("相同条件下，多机单卡比单机单卡慢了 66 倍。在 train 函数里打了耗时，单机单卡：\n```\n"
                "****self.run_step()=0.12989151704823598\n"
                "[04/26 09:58:40 fastreid.utils.events]:  eta: 0:01:01  epoch/iter: 0/24  total_loss: 0.6677  "
                "time: 0.1291  data_time: 0.0008  lr: 1.22e-03  max_mem: 5871M\n```\n"
                "多机单卡：\n```\n****self.run_step()=10.933831950998865\n****self.run_step()=8.259477029030677\n```\n")
    _, pasted = parse_pasted(question)
    assert abs(pasted.facts["job.step_time_baseline_s"] - 0.13) < 0.002
    assert abs(pasted.facts["job.step_time_s"] - 9.5967) < 0.001


def test_perftest_banner_without_a_table_gives_roce_and_the_gid_index():
    question = ("ib_send_bw between the machines is slow:\n```\n"
                "                    Send BW Test\n"
                " Dual-port       : OFF          Device         : mlx5_0\n"
                " Number of qps   : 1            Transport type : IB\n"
                " Mtu             : 1024[B]\n Link type       : Ethernet\n GID index       : 3\n```\n"
                "Why would RDMA be slower than TCP?")
    _, pasted = parse_pasted(question)
    assert pasted.facts["nic.kind"] == "roce" and pasted.facts["nic.gid_index"] == 3


def test_perftest_command_line_gives_the_gid_index():
    _, pasted = parse_pasted("结果 ib_write_bw 的吞吐非常差：\n```\n"
                             "$ sudo ib_write_bw 172.17.1.106 -d mlx5_0 -q 1 -x 3 -n 5 -s 100000000 --report_gbits -R\n"
                             "```\n有没有办法调大？")
    assert pasted.facts["nic.gid_index"] == 3


def test_infiniband_banner_gives_no_gid_index():
    _, pasted = parse_pasted("ib_write_bw:\n```\n                    RDMA_Write BW Test\n"
                             " Link type       : IB\n GID index       : 0\n```\n")
    assert pasted.facts.get("nic.kind") == "infiniband" and "nic.gid_index" not in pasted.facts


def test_inline_tool_lines_labelled_expected_and_actual():
    question = ("Testing throughput on a 100G interface between two hosts, iperf3 reports much less than iperf2.\n"
                "Expected (iperf2): `[SUM] 0.0000-10.0083 sec  92.5 GBytes  87.2 Gbits/sec`\n"
                "Actual (iperf3):   `[SUM] 0.0000-10.0012 sec  72.1 GBytes  61.9 Gbits/sec`\n"
                "Are there more CPU tweaks I'm missing?")
    prose, pasted = parse_pasted(question)
    assert pasted.facts["net.iperf3_gbps"] == 61.9
    assert "87.2" not in prose and "Expected (iperf2):" in prose
    assert any(item.code == "pasted.reference_block" for item in pasted.coded)


def test_inline_code_that_is_no_measurement_stays_prose():
    question = "I set `NCCL_IB_DISABLE=1` and ran `iperf3 -c 10.0.0.2 -P 8`; it gives 9.4 Gbits/sec."
    prose, pasted = parse_pasted(question)
    assert prose == question and not pasted.spans


def test_indented_ibstatus_gives_the_fastest_active_port():
    question = ("Two machines connected with 200Gb/s InfiniBand. ibstatus:\n"
                "  Infiniband device 'mlx5_0' port 1 status:\n"
                "          state:           4: ACTIVE\n"
                "          rate:            200 Gb/sec (4X HDR)\n"
                "  Infiniband device 'mlx5_3' port 1 status:\n"
                "          rate:            40 Gb/sec (4X QDR)\n"
                "I excluded the slow ports.")
    _, pasted = parse_pasted(question)
    assert pasted.facts["nic.speed_gbps"] == 200


def test_a_prime_rl_step_line_gives_the_step_time():
    _, pasted = parse_pasted("One training step logs:\n```\n19:18:53 SUCCESS Step 702 | Time: 22.84s | Loss: -0.0000 | "
                             "Throughput: 4932 tokens/s | MFU: 0.3%\n```\nWhy?")
    assert pasted.facts["job.step_time_s"] == 22.84
