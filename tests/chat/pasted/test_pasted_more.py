"""Question text → facts for pasted output seen in real threads: NCCL's job-shape lines, RoCE devices, an
NCCL_IB_DISABLE the log shows was not obeyed, iblinkinfo/ibstatus rates and narrow links, an nccl-tests
table beside an older figure, two training logs (single node and multi-node), and notes in the reader's language.
Line shapes follow NCCL's, rdma-core's and nccl-tests' own format strings."""

from bwdoctor.chat.pasted import parse_pasted
from bwdoctor.chat.understanding import understand


def facts(question: str) -> dict:
    return {u.fact: u.value for u in understand(question).understood}


def test_nccl_comm_line_gives_nodes_and_gpus_per_node():
    got = facts("Two-node training is slow, NCCL_DEBUG=INFO says:\n"
                "node1:2313:2313 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
                "node1:2313:2313 [0] NCCL INFO comm 0x55d1c8a0b2f0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 "
                "MNNVL 0\n"
                "node1:2313:2313 [0] NCCL INFO Using network IB\n")
    assert got["job.nodes"] == 2 and got["job.gpus_per_node"] == 8 and got["nccl.transport"] == "ib"


def test_init_complete_lines_of_every_rank_give_the_shape():
    lines = "".join(f"gpu-{r // 2}:{100 + r}:{100 + r} [{r % 2}] NCCL INFO comm 0x7f3c1c000e0{r} rank {r} nranks 4 "
                    f"cudaDev {r % 2} busId 18000 - Init COMPLETE\n" for r in range(4))
    got = facts("allreduce is slow:\n" + lines)
    assert got["job.nodes"] == 2 and got["job.gpus_per_node"] == 2


def test_roce_device_in_the_nccl_log_is_roce_not_infiniband():
    # NCCL names RoCE ports "NET/IB" too; the device's "/RoCE" is the link layer. (Words saying "IB 网卡" still win
    # over it in understanding.py's merge, where only nccl.* from a tool outranks words.)
    got = facts("多机训练很慢：\n"
                "node1:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE [RO]; OOB eth0:10.0.0.1<0>\n"
                "node1:1234:1234 [0] NCCL INFO Using network IB\n")
    assert got["nic.kind"] == "roce" and got["nccl.transport"] == "ib"


def test_ib_disable_echoed_but_ibext_used_is_not_in_effect():
    question = ("I set NCCL_IB_DISABLE=1 but it is still slow.\n"
                "node1:1234:1234 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
                "node1:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>\n"
                "node1:1234:1234 [0] NCCL INFO Using network IBext\n")
    got = facts(question)
    assert got["nccl.transport"] == "ib" and got["nccl.ib_disabled"] is False
    _, pasted = parse_pasted(question)
    assert "nccl_log.ib_disable_ignored" in [n.code for n in pasted.coded]


def test_iblinkinfo_rate_is_width_times_lane():
    got = facts("iblinkinfo on the node:\n"
                "CA: node1 mlx5_0:\n"
                "      0x0c42a1030096a4f4     12    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>"
                "       3   17[  ] \"switch1\" ( )\n")
    assert got["nic.speed_gbps"] == 100.0 and got["nic.kind"] == "infiniband"


def test_ibstatus_1x_link_is_negotiated_below_its_rating():
    got = facts("ibstatus:\n"
                "Infiniband device 'mlx5_0' port 1 status:\n"
                "\tdefault gid:\t fe80:0000:0000:0000:0c42:a103:0096:a4f4\n"
                "\tbase lid:\t 0xc\n"
                "\tsm lid:\t\t 0x1\n"
                "\tstate:\t\t 4: ACTIVE\n"
                "\tphys state:\t 5: LinkUp\n"
                "\trate:\t\t 50 Gb/sec (1X HDR)\n"
                "\tlink_layer:\t InfiniBand\n")
    assert got["nic.speed_gbps"] == 50.0 and got["nic.max_speed_gbps"] == 200.0


def test_pasted_nccl_tests_table_is_the_jobs_figure_not_the_older_one():
    got = facts("Last month the same two nodes gave 190 GB/s busbw. Now all_reduce_perf prints:\n"
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                "   busbw #wrong\n"
                "  4294967296    1073741824     float     sum      -1    23012  186.64  349.94      0    23005  186.70"
                "  350.06      0\n"
                "  8589934592    2147483648     float     sum      -1    45990  186.78  350.21      0    46001  186.73"
                "  350.12      0\n"
                "# Avg bus bandwidth    : 327.981\n")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 350.21


def test_only_the_avg_line_is_the_fallback():
    got = facts("nccl-tests across 2 nodes ends with\n# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 42.5\n"
                "is that slow?")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 42.5


def test_two_training_logs_single_node_one_is_the_baseline():
    question = ("多机训练比单机慢很多。单机 8 卡的日志：\n"
                " 12/500 [00:10<07:00,  1.23it/s]\n"
                " 13/500 [00:11<07:00,  1.25it/s]\n"
                "两台机器 16 卡的日志：\n"
                "  3/100 [35:10<18:55:12, 710.28s/it]\n"
                "  4/100 [47:00<18:40:12, 705.10s/it]\n"
                "这正常吗？")
    got = facts(question)
    assert got["job.step_time_s"] == 707.69 and got["job.step_time_baseline_s"] == 0.8065


def test_two_unlabelled_training_logs_stay_one_job():
    _, pasted = parse_pasted("log:\n 12/500 [00:10<07:00,  1.23it/s]\nand then\n  3/100 [35:10<18:55:12, 710.28s/it]\n")
    assert "job.step_time_baseline_s" not in pasted.facts


def test_notes_are_said_in_the_readers_language():
    _, zh = parse_pasted("iperf3 结果如下：\n[  5]   0.00-1.00   sec  1.10 GBytes  9.42 Gbits/sec    0\n"
                         "[  5]   1.00-2.00   sec  1.10 GBytes  9.41 Gbits/sec    0\n")
    assert zh.language == "zh" and any("区间" in n for n in zh.notes)
    assert any("interval lines" in n for n in zh.notes_in("en"))
    _, en = parse_pasted("NCCL settings:\nNCCL_IB_HCA\nNCCL_SOCKET_IFNAME=eth0\n")
    assert all(n.isascii() for n in en.notes)


def test_topo_matrix_with_a_gpu_across_the_sockets_from_its_nic_gives_the_path():
    question = ("Two nodes, 2x A40 each, allreduce over 100G RoCE is slow. nvidia-smi topo -m:\n"
                "        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
                "GPU0     X      SYS     SYS     0-23,48-71      0               N/A\n"
                "GPU1    SYS      X      PIX     24-47,72-95     1               N/A\n"
                "NIC0    SYS     PIX      X\n\n"
                "NIC Legend:\n\n  NIC0: mlx5_0\n"
                "Is the placement the problem?")
    got = facts(question)
    assert got["gpu.nic_path"] == "sys" and got["gpu.nvlink"] is False
    assert got["job.nodes"] == 2  # the prose around the matrix is still read


def test_gdr_disabled_for_an_hca_keeps_the_nic_rdma_capable():
    # NCCL's net_ib line, alone among the asker's sentences (nccl#1939): GPUDirect is off, the HCA still does RDMA.
    question = ("`ib_write_bw -d mlx5_0 -x 3 --use_cuda=0 192.168.1.32` works, yet NCCL prints:\n"
                "  NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n"
                "Does that mean peermem is loaded but not registered?")
    got = facts(question)
    assert got["nccl.gdr_disabled"] is True and got["nic.rdma"] is True


def test_a_single_nccl_line_is_not_read_by_the_words():
    prose, pasted = parse_pasted("we see\nnode1:2313:2313 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 "
                                 "'mlx5_0'\nwhy?")
    assert "RDMA" not in prose and pasted.facts["nic.rdma"] is True


def test_a_collective_benchmarks_result_lines_are_not_iperf3():
    # alpa/cupy's profile_communication lines (FastChat#9): GB/s of an all-reduce group, not a TCP measurement.
    question = ("在 GCP 上把训练从一台 A100-80G:4 扩到两台 A100-80G:4，完全没有加速。用 cupy 测了一下通信：\n"
                "AllReduce: [[0, 1, 2, 3, 4, 5, 6, 7]]  Bytes: 2.00000 GB  Time: 0.68834 s  Bandwidth: 5.08 GB/s\n"
                "AllReduce: [[0, 1, 2, 3]]  Bytes: 2.00000 GB  Time: 0.01403 s  Bandwidth: 213.81 GB/s\n"
                "SendRecv: [[0, 1]]  Bytes: 2.00000 GB  Time: 0.00814 s  Bandwidth: 245.77 GB/s\n"
                "是跨机带宽的问题吗？")
    got = facts(question)
    assert "net.iperf3_gbps" not in got and got.get("nccl.allreduce_busbw_gbytes_per_s") != 213.81
    assert got["job.nodes"] == 2


def test_an_alltoall_table_is_not_an_allreduce_busbw():
    question = ("alltoall_perf on 2 nodes, each 8x A100 and 4x 200Gbps NICs:\n"
                "# Collective test starting: alltoall_perf\n"
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                "   busbw #wrong\n"
                "  4294967296      67108864     float    none      -1   207380   20.71   19.42      0   207102   20.74"
                "   19.44    N/A\n"
                "Why doesn't alltoall reach peak?")
    got = facts(question)
    assert "nccl.allreduce_busbw_gbytes_per_s" not in got and "nccl.allreduce_algbw_gbytes_per_s" not in got


def test_bare_rows_that_reduce_nothing_are_not_an_allreduce_busbw():
    question = ("2 GPUs on one node, NCCL 2.19:\n"
                "    16777216       4194304  bfloat16    none      -1    108.8  154.20   77.10      0\n"
                "   100663296      25165824  bfloat16    none      -1    400.9  251.11  125.56      0\n"
                "GPU0-GPU1 is much slower than GPU6-GPU7, why?")
    assert "nccl.allreduce_busbw_gbytes_per_s" not in facts(question)


def test_indented_iblinkinfo_ca_sections_are_one_paste_read_as_100g():
    # nccl-tests#71: each '==( 4X 25.78125 Gbps' line alone would be left to the words, which read its lane rate.
    question = ("4 nodes with V100 GPUs, interconnected with a 100Gb network (Mellanox MQM8700 switch). iblinkinfo:\n"
                "  CA: gpu-v100-3 HCA-1:\n"
                "        0xb88303ffff7f61c4      6    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>"
                "       3    3[  ]"
                " \"MF0;ibswitch254:MQM8700/U1\"\n"
                "  CA: gpu-v100-0 HCA-1:\n"
                "        0xb88303ffff9f4f6c      1    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>"
                "       3    1[  ]"
                " \"MF0;ibswitch254:MQM8700/U1\"\n"
                "all_reduce_perf across the four nodes prints '# Avg bus bandwidth : 0'. Why zero?")
    got = facts(question)
    assert got["nic.speed_gbps"] == 100 and got["job.nodes"] == 4 and got.get("nic.count", 1) == 1


# Several blocks of one tool, told apart by the words before each (pasted.py's _blocks).
_ROW = "{size}    {count}   float     sum    -1    {time}  {algbw}  {busbw}\n"
_HEADER = "      size         count    type   redop  root     time   algbw   busbw\n"


def _table(algbw: float, busbw: float, size: int = 4294967296) -> str:
    return "```\n" + _HEADER + _ROW.format(size=size, count=size // 4, time=81146, algbw=algbw, busbw=busbw) + "```\n"


def test_block_after_the_fix_is_not_the_jobs_state():
    question = ("NCCL 2.19.3: NVLSTree all-reduce is slow on 8 P5 nodes. 4GB all-reduce:\n" + _table(52.93, 104.2)
                + "after the fix (NVIDIA/nccl#1112) is applied:\n" + _table(142.11, 279.78)
                + "Should we build NCCL from source with the fix?")
    got = facts(question)
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 104.2 and got["nccl.allreduce_algbw_gbytes_per_s"] == 52.93
    _, pasted = parse_pasted(question)
    assert any(n.code == "pasted.after_change_block" for n in pasted.coded)


def test_block_after_the_fix_in_chinese_and_before_it():
    question = ("两台机器 all_reduce_perf 很慢：\n" + _table(20.1, 37.69) + "改成 NCCL_ALGO=Ring 之后：\n"
                + _table(45.0, 84.38) + "为什么默认算法这么慢？")
    assert facts(question)["nccl.allreduce_busbw_gbytes_per_s"] == 37.69
    question = "修复后：\n" + _table(45.0, 84.38) + "修复前：\n" + _table(20.1, 37.69) + "两台机器，还有提升空间吗？"
    assert facts(question)["nccl.allreduce_busbw_gbytes_per_s"] == 37.69


def test_a_lone_block_after_a_change_is_the_job_state():
    # nothing else of that tool shows the state before: what was pasted is what the job does now
    question = "After applying the patch busbw on 2 nodes is still low:\n" + _table(20.1, 37.69) + "Why?"
    assert facts(question)["nccl.allreduce_busbw_gbytes_per_s"] == 37.69


def test_turning_on_the_debug_log_is_not_a_change():
    question = ("Two nodes, slow.\n" + _table(20.1, 37.69) + "After setting NCCL_DEBUG=INFO the run shows:\n"
                + _table(20.3, 38.06) + "What is wrong?")
    assert facts(question)["nccl.allreduce_busbw_gbytes_per_s"] == 38.06  # both the job's: the last one, as before


def test_within_one_node_block_is_a_baseline_in_a_multi_node_question():
    question = ("Average bus BW drops to essentially half when running multi-node NCCL tests on two H100 nodes\n"
                "(8 GPUs / 4 NICs per node). Within one node:\n" + _table(273.95, 479.41, 8589934592)
                + "Across the two nodes the average bus BW is essentially half. How do we fix it?")
    got = facts(question)
    assert "nccl.allreduce_busbw_gbytes_per_s" not in got and got["job.nodes"] == 2
    _, pasted = parse_pasted(question)
    assert any(n.code == "pasted.baseline_block" for n in pasted.coded)


def test_intra_node_and_cross_node_blocks_zh():
    question = ("两台 H800 训练慢。单机内：\n" + _table(240.0, 450.0) + "跨机：\n" + _table(50.0, 93.75)
                + "跨机 busbw 只有这么点，正常吗？")
    assert facts(question)["nccl.allreduce_busbw_gbytes_per_s"] == 93.75


def test_single_node_block_alone_in_a_single_node_question_is_the_job():
    question = "On a single node with 8 A100:\n" + _table(130.0, 230.0) + "Is this busbw normal?"
    assert facts(question)["nccl.allreduce_busbw_gbytes_per_s"] == 230.0


def test_part_of_the_output_marks_its_busbw_partial():
    rows = "".join(_ROW.format(size=s, count=s // 4, time=1000, algbw=a, busbw=b)
                   for s, a, b in ((134217728, 121.14, 227.14), (536870912, 166.8, 312.75)))
    question = ("2 nodes, 16 H20 GPUs, allreduce with NVLS reaches 343 GB/s busbw. Part of the output:\n"
                + _HEADER + rows + "Why the dip around 128 MB?")
    prose, pasted = parse_pasted(question)
    assert pasted.facts["nccl.allreduce_busbw_gbytes_per_s"] == 312.75
    assert "nccl.allreduce_busbw_gbytes_per_s" in pasted.partial_facts
    assert "redop" not in prose  # the header line without '#' is the tool's, not the asker's
    # the whole table, its sizes reaching what the words talk about: its figure is the run's
    _, whole = parse_pasted("2 nodes, busbw at 512MB messages:\n" + _HEADER + rows)
    assert not whole.partial_facts
    # rows stopping before the message size the words name
    _, short = parse_pasted("2 nodes, 4GB all-reduce gets 343 GB/s busbw:\n" + _HEADER + rows)
    assert "nccl.allreduce_busbw_gbytes_per_s" in short.partial_facts


def test_a_log_introduced_by_one_machine_is_still_the_jobs():
    question = ("两个节点，每个节点 8 张 GPU。看 NCCL 日志发现只有一台机器用上了 GDRDMA：\n"
                "```\n9[1a000] -> 2[6b000] [send] via NET/IB/0/GDRDMA\n"
                "9[1a000] -> 2[6b000] [receive] via NET/IB/1\n```\n"
                "这是什么原因？")
    assert facts(question)["nccl.transport"] == "ib"
