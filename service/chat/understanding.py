"""Understanding one turn: its language, its intent, the facts it states and the changes it proposes.

Rule-based and deterministic (no hosted model, no network): the same question always reads the same.
The evidence reader is a pipeline whose layers can be tested one by one:

1. segments   pasted tool output (`pasted`) and command lines / NCCL_* settings (`commands`) are read
              by their own parsers and blanked out of the prose, offsets kept;
2. entities   GPU models, versions, devices, addresses are masked (`entities`) so their digits are
              never quantities;
3. quantities and roles: the word readers (`extract`), the count grammar (`counts`) and the scaling
              comparisons (`comparisons`);
4. scopes     negation, hypothesis and reference (`scopes`);
5. sanity     impossible or contradictory values are set aside and asked about (`sanity`);
6. accounting every number of the prose is used or listed as not understood (`accounting`).
"""

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor.chat import text as tx
from bwdoctor.chat.accounting import unaccounted
from bwdoctor.chat.batches import batch_shares, batch_totals, splits_the_batch
from bwdoctor.chat.boxes import machines_compared
from bwdoctor.chat.commands import blank, read_commands
from bwdoctor.chat.comparisons import read_scaling, read_tables, run_sizes
from bwdoctor.chat.counts import read_counts, read_nic_count, read_several_machines
from bwdoctor.chat.entities import Entity, find_entities, mask_entities
from bwdoctor.chat.extract import (
    CPU_FAMILY,
    GPU_FAMILY,
    SHARE_OF_THE_RATE,
    Understood,
    bare_batch_sizes,
    config_settings,
    drop_auxiliary_models,
    extract_facts,
    instance_type,
    model_in_path,
    nodes_setting,
    prefer_exact_sizes,
    rating_in_brackets,
    resolve,
    runs_under_settings,
    step_time_swings,
)
from bwdoctor.chat.host_side import shm_size_after
from bwdoctor.chat.intents import Intent, classify, knowledge_topics
from bwdoctor.chat.knowledge import has_keyword_match
from bwdoctor.chat.language import detect_language, normalise_lang
from bwdoctor.chat.parts import drop_counts_of_a_part
from bwdoctor.chat.pasted import Pasted, parse_pasted
from bwdoctor.chat.pcie import read_pcie
from bwdoctor.chat.sanity import Conflict, reconcile
from bwdoctor.chat.scopes import (
    MEASUREMENTS,
    apply_negation,
    drop_alternatives,
    drop_references,
    is_negated,
    mark_hypothetical,
    other_party_spans,
    said_by_others,
)
from bwdoctor.chat.symptoms import figures_without_the_data, light_model_name
from bwdoctor.chat.text import soften_line_breaks
from bwdoctor.chat.units import cn_durations_as_digits

#: Longer questions are refused before any reading (the readers are linear, but a bound keeps them cheap).
MAX_QUESTION_CHARS = 20_000


@dataclass
class Understanding:
    """What one question says, ready for the answer composer and for storing with the turn."""

    question: str
    language: str
    intent: Intent
    understood: list[Understood] = field(default_factory=list)
    changes: list[Understood] = field(default_factory=list)
    pasted: Pasted = field(default_factory=Pasted)
    topics: list[str] = field(default_factory=list)
    not_understood: list[dict[str, Any]] = field(default_factory=list)
    references: list[Understood] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    accounted: list[tuple[int, int]] = field(default_factory=list)

    @property
    def facts(self) -> dict[str, Any]:
        """Facts stated in this turn (words and pasted output), one value each."""
        return {u.fact: u.value for u in self.understood}

    @property
    def change_facts(self) -> dict[str, Any]:
        """The what-if: facts to change for a hypothetical run."""
        return {u.fact: u.value for u in self.changes}


def understand(question: str, *, lang: str | None = None, previous_facts: dict[str, Any] | None = None,
               has_previous_findings: bool = False, knowledge: Any = ()) -> Understanding:
    """Read one turn. `previous_facts` only sharpens ambiguous corrections ('不对，是25G')."""
    previous_facts = previous_facts or {}
    # (spans and quotes refer to this text, which is the one the Understanding keeps)
    question = tx.normalise_apostrophes(tx.normalise_width(question[:MAX_QUESTION_CHARS]))
    raw_prose, pasted = parse_pasted(_mask_long_runs(question, _ABSURD_RUN), normalise_lang(lang))
    language = normalise_lang(lang) or detect_language(raw_prose if raw_prose.strip() else question)
    typed_breaks = [i for i, ch in enumerate(raw_prose) if ch == "\n"]  # tables are read line by line
    raw_prose = _mask_long_runs(soften_line_breaks(raw_prose), _LONG_RUN)
    # s30 '（维护者复现：… --nproc_per_node=2 --model_type internvl2-8b …）': a command in a reply is the replier's run
    commands = read_commands(raw_prose, set_aside=lambda pos: said_by_others(raw_prose, pos))
    unmasked = _tools_kept(raw_prose, blank(raw_prose, commands.spans), commands.spans)
    entities = find_entities(unmasked)
    prose = tx.gpu_words(mask_entities(unmasked, entities))  # cnt '3 graphics cards' are 3 GPUs
    lines = list(prose)
    for i in typed_breaks:
        lines[i] = "\n"
    # s13 thread: another party's words (a reply, a quote) are no side of the asker's own comparisons
    theirs = other_party_spans(prose)
    # s14 '单机一个 epoch 两个半小时，两机要四个小时': times in Chinese numerals compared as figures
    # (the same length, so the spans hold)
    scaling = read_scaling(cn_durations_as_digits(blank(prose, theirs)),
                           lines=cn_durations_as_digits(blank("".join(lines), theirs))) if theirs else read_scaling(
        cn_durations_as_digits(prose), lines=cn_durations_as_digits("".join(lines)))
    scaling.hits.extend(read_tables(question, pasted.spans).hits)  # a table of runs pasted in a code block
    hits = (extract_facts(prose) + read_counts(prose, unmasked) + read_nic_count(prose, unmasked) + scaling.hits
            + _entity_facts(entities, unmasked) + read_pcie(prose) + read_several_machines(prose))
    # a setting quoted as code ('`num_nodes: 2`') is blanked with the commands; its node count still describes the job
    hits += [h for h in nodes_setting(raw_prose) if not any(x.start == h.start for x in hits)]
    hits += config_settings(question)  # '[config] hidden=7168, num_topk=8' in a log: the model's shape
    # s13 'a 7B student distilled from a 70B teacher': the student's size; s14 '7.6B (Qwen2.5-7B)': the exact one
    hits = prefer_exact_sizes(drop_auxiliary_models(unmasked, hits))
    hits = drop_counts_of_a_part(prose, hits)  # s33 '把 vLLM 放到 2 张卡上' beside '8*A800': a share of the cards
    hits = _retool_measurements(raw_prose, hits, question)
    hits = _whole_batch_of_the_framework(question, prose, hits)
    hits = _batch_totals(question, hits)
    hits = runs_under_settings(blank(raw_prose, theirs) if theirs else raw_prose, hits)  # rr-s10 runs under settings
    hits = _was_and_now(prose, hits)
    hits = _parts_of_a_whole(prose, hits)
    hits = _averages_beside_a_figure(prose, hits)
    hits = _instance_caps(prose, hits, entities)
    hits = drop_alternatives(prose, apply_negation(prose, mark_hypothetical(prose, hits)))
    hits, references = drop_references(prose, hits)
    counted = hits  # the baseline's counts too: its machine's GPUs are the job's machines' ('单机8卡正常，两台就慢')
    hits = _drop_baseline_counts(hits, scaling.baseline_spans)
    hits = _one_machine_against_the_rest(prose, hits)
    hits = _steps_that_swing(prose, hits)
    hits = _tested_pairs_aside(prose, hits)
    hits = machines_compared(prose, entities, hits)  # fix31 'two servers, one 8×H100, one 8×A100': two runs
    hits = _largest_run_is_the_job(hits, prose)
    hits = _load_of_the_smaller_run(prose, hits)
    hits = figures_without_the_data(prose, hits)  # s30 the loads of a test with the data reading off are the test's
    stated = resolve([h for h in hits if not h.hypothetical])
    _instance_figures_of_the_job(stated, hits)
    proposed = resolve([h for h in hits if h.hypothetical])
    for key, value in commands.facts.items():
        a, b = commands.fact_spans[key]
        if key == "job.parallelism" and key in stated and {value, stated[key].value} - {"data", "fsdp"}:
            # 'tp=8 pp=4 dp=2': the degrees set as code say tensor and pipeline, the words around them data: all three
            value = "hybrid" if value != stated[key].value else value
        if key not in stated or stated[key].weak or key == "job.parallelism" and value == "hybrid" \
                or _machines_counted_by_the_launcher(stated.get(key), commands.facts, question) \
                or _launcher_picks_a_run(stated[key], value, hits):
            stated[key] = Understood(key, value, question[a:b].strip()[:80], a, b, source="command line")
    launch_blocks = [(a, b) for a, b in pasted.spans
                     if _LAUNCHER.search(question, a, b) or _SETTING_LINE.search(question, a, b)]
    boxed = read_commands(_only_spans(question, launch_blocks)) if launch_blocks else None
    for key, value in (boxed.facts if boxed else {}).items():
        # a launcher line inside a code block ('mpirun -np 16 -H node1:8,node2:8 … all_reduce_perf') describes the
        # job as much as one in a sentence; what the words or the output say comes first
        a, b = boxed.fact_spans[key] if boxed else (0, 0)
        if key not in stated or stated[key].weak:
            stated[key] = Understood(key, value, question[a:b].strip()[:80], a, b, source="command line")
    for key, value in commands.proposed.items():  # 'should I set --bf16?': a change to weigh, like a what-if in words
        a, b = commands.proposed_spans[key]
        proposed.setdefault(key, Understood(key, value, question[a:b].strip()[:80], a, b, source="command line",
                                            hypothetical=True))
    for key, value in pasted.facts.items():
        # What a tool printed outranks what words say about NCCL; words win elsewhere (they name the job), and over
        # a setting quoted in passing ('之前必须加 NCCL_NET_GDR_LEVEL=0', then 'GDR 也确认是开的').
        printed = pasted.sources.get(key) not in {"nccl-env", None}
        # what NCCL printed about the fabric ('mlx5_0:1/RoCE') outranks the word 'IB' said loosely
        # (s29 a load guessed from a word, 'GPU 利用率还是很低' taken as 50 %, gives way to the figure a tool printed)
        if key not in stated or stated[key].weak or (stated[key].inferred and printed and key.endswith("_pct")) \
                or ((key.startswith("nccl.") or key == "nic.kind") and printed
                                                    and key not in pasted.partial_facts):
            stated[key] = Understood(key, value, _pasted_label(pasted), pasted.start, pasted.end,
                                     source="pasted:" + "+".join(pasted.kinds))
    speed = stated.get("nic.speed_gbps")
    if speed is not None and speed.source == "words" and any(
            pasted.facts.get(k) is not None and abs(float(pasted.facts[k]) * scale - float(speed.value))
            <= 0.01 * float(speed.value) for k, scale in _PASTED_RATES.items()):
        # 'Is 7328 Mbit/s pod-to-pod what the overlay can do?': the words quote the pasted measurement, no link speed
        del stated["nic.speed_gbps"]
    _setting_the_log_overrules(stated, pasted)
    if not stated and not proposed and previous_facts:
        stated.update(_bare_correction(prose, previous_facts))
    _infer_baseline(stated, hits, prose)
    _baseline_machine_gpus(stated, counted)
    _per_nic_speed(stated, hits)
    _rated_and_negotiated(stated, hits, prose)
    _slowest_node_link(stated, hits, prose)
    _wanted_line_rate(stated, proposed, prose)
    _share_of_line_rate(stated, prose)
    _gpus_said_with_the_nodes(stated, hits, prose)
    _job_total_of_machines_like_the_baseline(stated)
    _gpu_of_the_job(stated, hits, unmasked)
    _one_machine_when_none_is_named(stated, question)
    _our_one_server(stated, prose)
    _gpus_the_machine_has(stated)
    _a_nic_for_each_gpu(stated, prose)  # cnt a NIC for each GPU
    _gpus_of_a_server_class_node(stated, prose, unmasked)
    _gpu_of_a_dgx_spark(stated, question)
    _total_over_the_machines(stated)
    _total_said_for_the_job(stated, prose)
    _measurement_of_the_job(stated, hits, blank(prose, theirs) if theirs else prose)  # (a reply's runs are no run here)
    _interface_in_use(stated, question)
    _ethernet_over_the_fabric(stated, question)  # en-s10
    _plugin_matters_on_efa(stated, question)
    _ib_retries_exceeded(stated, question)
    _peer_unreachable(stated, question)
    _precision_of_a_large_model(stated, question)
    _rdma_from_the_transport(stated)
    _rdma_from_gpudirect(stated, question)
    _rdma_hardware_named(stated, question)
    _fabric_from_its_tools(stated, question)
    _all_reduce_of_data_parallel(stated)
    _moe_from_expert_parallel(stated)
    _speedup_from_step_times(stated)
    stated = {k: _original_words(u, question) for k, u in stated.items()}
    proposed = {k: _original_words(u, question) for k, u in proposed.items()}
    references = [_original_words(u, question) for u in references]
    stated, conflicts = reconcile(stated)
    used = [(h.start, h.end) for h in hits] + [(h.start, h.end) for h in stated.values()]
    not_understood = unaccounted(prose, used, question)
    accounted = sorted(used + pasted.spans + commands.spans + [(e.start, e.end) for e in entities]
                       + [(n["start"], n["end"]) for n in not_understood])
    topics = knowledge_topics(prose)
    intent = classify(prose, has_facts=bool(stated), has_changes=bool(proposed), topics=topics,
                      has_previous_facts=bool(previous_facts), has_previous_findings=has_previous_findings)
    if intent is Intent.OUT_OF_SCOPE and pasted.kinds:
        intent = Intent.DIAGNOSE
    if intent is Intent.OUT_OF_SCOPE and has_keyword_match(prose, knowledge):
        intent = Intent.KNOWLEDGE
    return Understanding(
        question=question,
        language=language,
        intent=intent,
        understood=sorted(stated.values(), key=lambda u: (u.start, u.fact)),
        changes=sorted(proposed.values(), key=lambda u: (u.start, u.fact)),
        pasted=pasted,
        topics=topics,
        not_understood=not_understood,
        references=references,
        conflicts=conflicts,
        commands=commands.texts,
        accounted=accounted,
    )


_NCCL_VERSION = re.compile(r"(?:nvidia-|lib)?NCCL(?:2|-dev)?(?:-cu\d+)?[\s_=]*(?:version|版本|ver\.?)?\s*"
                           r"(?:is|为|是)?\s*[:：]?\s*v?(?:(?P<v>\d+\.\d+(?:\.\d+)?)|(?P<code>2\d{3,4})(?!\d|\.\d))",
                           re.IGNORECASE)


# s11 tool kept: a measuring tool a blanked command line runs ('用 `mpiexec … all_reduce_perf -b 1M …` 两两测：…
# 只有 25 GB/s') stays named in the prose, so the figures said after it are its own; its arguments stay blanked
_TOOL_IN_COMMAND = re.compile(r"(?<![\w-])(?:[a-z][a-z_]*_perf|iperf3?|ib_(?:write|read|send)_(?:bw|lat))(?![\w-])")


def _tools_kept(raw: str, blanked: str, spans: list[tuple[int, int]]) -> str:
    chars = list(blanked)
    for a, b in spans:
        for m in _TOOL_IN_COMMAND.finditer(raw, a, b):
            chars[m.start():m.end()] = raw[m.start():m.end()]
    return "".join(chars)


def _nccl_version(m: re.Match[str]) -> str:
    """'2.18.3' as said; NCCL's version code as torch prints it: 2708 is 2.7.8 (before 2.9), 21805 is 2.18.5."""
    if m["v"]:
        return m["v"]
    code = int(m["code"])
    major, rest = (code // 1000, code % 1000) if code < 10000 else (code // 10000, code % 10000)
    return f"{major}.{rest // 100}.{rest % 100}"


# 'NCCL 2.6.4 就没问题', '2.18.3 works fine', 'all versions < 2.23 are fine': a version said to work is a reference,
# not the one the job runs (when another is named)
_WORKS = re.compile(r"就?(?:没问题|没有问题|正常|好了|可以|不慢|很快)|(?:works?|worked|is fine|are fine|was fine|"
                    r"were fine|no (?:problem|issue)|runs? fine|is ok|are ok|is normal|are normal)(?![A-Za-z])",
                    re.IGNORECASE)
# '现在用的是 2.21.5', 'we are on 2.21.5': the version the job runs now, said without the word NCCL
_CURRENT_VERSION = re.compile(r"(?:现在|目前|当前)(?:用的是|用的|是|跑的是|装的是|版本是)\s*(?:NCCL\s*)?|"
                              r"(?:currently|now)\s+(?:on|using|running)\s+(?:NCCL\s*)?|"
                              r"(?:we're|we are|I'm|I am) on\s+",
                              re.IGNORECASE)


# No quantity has more than 15 digits or 8 Chinese numerals; longer runs are noise (or an attack on the readers'
# patterns, whose work grows with the run), so they are masked before any reading and reported as not understood.
_LONG_RUN = re.compile(r"\d{16,}|[零〇一二两俩三四五六七八九十百千万亿]{9,}")
# Before tool output is looked for, only what no tool prints (iperf3's JSON has 19-digit cookies and byte counts).
_ABSURD_RUN = re.compile(r"\d{64,}|[零〇一二两俩三四五六七八九十百千万亿]{64,}")


def _mask_long_runs(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: "·" * len(m.group(0)), text)


# zh-s10 NCCL's interface: an interface named as the one NCCL goes over ('NCCL 走了 docker0 网卡', 'NCCL 用的是 eth0',
# 'NCCL picked docker0') is its socket interface, as NCCL_SOCKET_IFNAME would set it
_NCCL_IFACE = re.compile(r"(?:eth|ens|enp|eno|em|bond|docker|virbr|veth|br|cni|flannel|cali|tunl|vxlan)"
                         r"[\w.-]*\d[\w.-]*", re.IGNORECASE)
_NCCL_USES = re.compile(r"NCCL[^，,。.;；\n]{0,12}?(?:走了|走的是|走的|走|用了|用的是|用的|使用了|"  # rr-s10 走的
                        r"使用的是|[:：]|"  # s12 as a label: 'NCCL: bond0 (TCP), IB disabled'
                        r"选了|选的是|选择了|绑定到|绑到|"
                        r"(?<![A-Za-z])(?:uses|using|used|picks|picked|chose|chooses|selects|selected|binds to|"
                        r"bound to|(?:goes|went|runs|is running|is going)\s+(?:over|via|through|on))(?![A-Za-z]))"
                        r"\s*(?:the\s+)?(?:interface\s+|网卡\s*|网口\s*)?$", re.IGNORECASE)
# zh-s10 NCCL's interface: 'how to make NCCL use eth1' is a wish
_NCCL_ASKED = re.compile(r"(?:让|使|要|想|应该|怎么|如何|强制|指定|设置|"
                         r"(?<![A-Za-z])(?:make|force|get|let|tell|want|should|how to))\s*$", re.IGNORECASE)


# zh-s12b NCCL named in the clause before, the verb's subject left out: 'NCCL 没走 IB，走的是 eth0'
_ELIDED_USES = re.compile(r"^\s*(?:而是?|但是?|只|却|还是|实际上?|其实)?\s*(?:走的是|走了|走的|用的是|用的|用了)\s*"
                          r"(?:网卡\s*|网口\s*)?$")


def _nccl_elided(text: str, pos: int) -> bool:
    """The interface at `pos` opens its clause after a use verb with no subject, and the clause before, in the same
    sentence, is NCCL's (not asked): NCCL is the one that goes over it."""
    a, _ = tx.clause_bounds(text, pos)
    sa, _ = tx.sentence_bounds(text, pos)
    if a <= sa or not _ELIDED_USES.match(text[a:pos]):
        return False
    pa, _ = tx.clause_bounds(text, a - 1)
    before = text[pa:a]
    return bool(re.search(r"(?<![A-Za-z_])NCCL(?![A-Za-z_])", before)) and not re.search(r"[?？吗]|怎么|如何", before)


# net-s12b our own hardware, named after a cloud instance's run: 'On our own local network with GTX 1080 machines',
# '在我们自己的机房/集群上': the job is on it; an instance type said in the sentences before is the run it is
# set against
_OWN_HARDWARE = re.compile(
    r"(?<![A-Za-z])(?:on|in|with|at)\s+our\s+own\s+(?:local\s+|on-?prem(?:ises)?\s+|in-?house\s+)?"
    r"(?:network|cluster|machines?|servers?|hardware|GPUs?|nodes|boxes|data ?cent(?:er|re)|lab)|"
    r"(?:在|用)?我们自己的\s*(?:本地|线下)?\s*(?:机房|集群|机器|服务器|网络|硬件|节点|GPU)", re.IGNORECASE)


_WE = re.compile(r"(?<![A-Za-z])(?:we|our|I|my|us)(?![A-Za-z])|我们|我的|咱们|(?<![自])我(?!们)", re.IGNORECASE)


def _entity_facts(entities: list[Entity], text: str) -> list[Understood]:
    """Facts a name carries: the GPU model (weak: a baseline GPU is a GPU too), the instance type and its
    known cap, the NCCL version."""
    hits: list[Understood] = []
    # net-s12b helper instances: beside a GPU instance, a CPU-only one ('8x p3.16xlarge workers plus 8x c5n.4xlarge
    # servers') holds the parameter servers, the data loaders or the head node: the job trains on the GPU ones
    gpu_instance = any(e.kind == "instance" and GPU_FAMILY.match(text[e.start:e.end]) for e in entities)
    own = _OWN_HARDWARE.search(text)
    own_from = tx.sentence_bounds(text, own.start())[0] if own else -1
    for e in entities:
        words = text[e.start:e.end]
        if e.kind == "instance" and gpu_instance and CPU_FAMILY.match(words):
            continue
        if e.kind == "instance" and e.end <= own_from and not _WE.search(tx.sentence(text, e.start)):
            continue  # net-s12b: 'On AWS g2.2xlarge it scales as expected. On our own GTX 1080 machines …'

        # what the name says of the hardware by itself ('ConnectX-6': an RDMA adapter); a statement in words outranks it
        hits.extend(Understood(fact, value, words, e.start, e.end, weak=True) for fact, value in e.facts)
        if e.kind == "gpu":
            if _GPUS_SUPPORTED.search(text, max(tx.sentence_bounds(text, e.start)[0], e.start - 40), e.start):
                continue  # s21 '平台兼容 V100、A100 这些主流 GPU': what a platform takes, not the job's GPU
            hits.append(Understood("gpu.model", e.name, words, e.start, e.end, weak=True))
        elif e.kind == "instance":
            # the name's own facts, at the name's place in the question (not the offsets inside the name)
            hits.extend(Understood(h.fact, h.value, h.text, h.start + e.start, h.end + e.start, h.source, h.inferred,
                                   h.weak) for h in instance_type(words))
        elif words.startswith("/") and (in_path := model_in_path(words)):  # s13 '/mnt/model/Llama-2-70b-hf/'
            hits.append(Understood("job.model_params_b", in_path[0], words[in_path[1]:in_path[2]],
                                   e.start + in_path[1], e.start + in_path[2]))
        elif words.lower() == "/dev/shm":  # sweep-s10 shm: '/dev/shm 只有 16MB', 'the /dev/shm is only 64MB'
            hits.extend(shm_size_after(text, e.start, e.end))
        elif light_model_name(words, text, e.start):  # 'resnet18 on 2 nodes': little compute per step
            hits.append(Understood("job.light_compute", True, words, e.start, e.end, weak=True))
        elif (version := _NCCL_VERSION.match(words)) and not re.match(  # rr-s10 version unit: 'nccl 0.6GB/s' is a rate
                r"\s*(?:[GMKT](?:B|b|bit|bps|/s)|%|倍)", words[version.end():] + text[e.end:e.end + 8]):
            hits.append(Understood("nccl.version", _nccl_version(version), words, e.start, e.end))
            if way := _VERSION_THEN_TRANSPORT.match(text, e.end):  # job-s11 version then transport
                value = "socket" if way["t"].lower().startswith(("socket", "tcp")) else "ib"
                hits.append(Understood("nccl.transport", value, way.group(0).strip(" ，,"), way.start("t"), way.end()))
        elif re.fullmatch(r"v?2\.\d{1,2}\.\d{1,2}", words) and re.search(r"NCCL", text, re.IGNORECASE) \
                and _CURRENT_VERSION.search(text, max(0, e.start - 14), e.start):
            hits.append(Understood("nccl.version", words.lstrip("v"), words, e.start, e.end))
        elif (driver := _DRIVER.search(text, max(0, e.start - 20), e.end)) and driver.start("v") >= e.start:
            said = text[driver.start():e.end]
            hits.append(Understood("gpu.driver_version", driver["v"], said, driver.start(), e.end))
    for m in _DRIVER.finditer(text):
        # fix31 a driver version that no name holds ('Driver Version: 455.28', '驱动版本 525.60': two parts, or the
        # word between): the words name it as much as 'driver 535.104.05'
        if not any(h.fact == "gpu.driver_version" and h.start < m.end() and m.start() < h.end for h in hits):
            hits.append(Understood("gpu.driver_version", m["v"], m.group(0), m.start(), m.end()))
    if re.search(r"NCCL", text, re.IGNORECASE):
        # 'NCCL 2.5 正常，升级到 2.18 之后变慢': the version moved to is the one the job runs now
        for m in _UPGRADED_TO.finditer(text):
            hits.append(Understood("nccl.version", m["v"], m.group(0), m.start(), m.end()))
        for m in _NCCL_VERSION_SAID.finditer(text):  # job-s11 version said
            said = m["v"] or m["v2"] or m["v3"] or f"{m['a']}.{m['b']}.{m['c']}"
            if not any(h.fact == "nccl.version" and h.start < m.end() and m.start() < h.end for h in hits) \
                    and not re.match(r"\s*(?:[GMKT](?:B|b|bit|bps|/s)|%|倍)", text[m.end():m.end() + 8]):
                hits.append(Understood("nccl.version", said, m.group(0), m.start(), m.end()))
    hits.extend(_named_model_sizes(text))  # job-s11 named models
    versions = [h for h in hits if h.fact == "nccl.version"]
    if len({h.value for h in versions}) > 1:
        works = [h for h in versions if _WORKS.search(text, h.end, tx.clause_bounds(text, h.start)[1])]
        hits = [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
                if h in works else h for h in hits]
    for e in entities:  # zh-s10 NCCL's interface (s12 'bond0' is read as a NIC too)
        words = text[e.start:e.end]
        if e.kind in ("name", "nic") and _NCCL_IFACE.fullmatch(words) and ((use := _NCCL_USES.search(
                text, max(tx.clause_bounds(text, e.start)[0], e.start - 30), e.start))
                and not _NCCL_ASKED.search(text, max(0, use.start() - 8), use.start()) or _nccl_elided(text, e.start)):
            hits.append(Understood("nccl.socket_ifname", words, words, e.start, e.end))
    return hits


# s21 the GPUs a platform or a server is compatible with, listed ('兼容 V100、A100', 'compatible with V100 and A100',
# 'supports GPUs such as V100, A100'): its offer, not what the job runs on
_GPUS_SUPPORTED = re.compile(r"(?:兼容|适配|(?<![A-Za-z])(?:compatible with|works with|"
                             r"supports? (?:GPUs? )?(?:like|such as)))"
                             r"\s*(?:(?:GPUs?|显卡|cards?)\s*(?:like|such as|如|包括|有)?\s*)?"
                             r"(?:[^，。,;；\s]{1,14}\s*(?:、|/|,|，|and|or|和|或|以及)\s*)*$", re.IGNORECASE)
# job-s11 version then transport: 'NCCL 2.18.1，走的 RoCE', 'NCCL 2.19.3 using IB': the NCCL named just before goes
# over it
_VERSION_THEN_TRANSPORT = re.compile(r"\s*[，,]?\s*(?:走的是|走了|走的|用的是|用了|用的|使用了?|"
                                     r"(?<![A-Za-z])(?:uses|using|over|via)\s+)\s*(?:the\s+)?"
                                     r"(?P<t>RoCE(?:\s*v2)?|IB|InfiniBand|RDMA|sockets?|TCP)(?![A-Za-z])"
                                     r"(?!\s*(?:吗|么|[?？]))", re.IGNORECASE)
# job-s11 version said: 'nccl版本 2.21.5', 'nccl 版本是 2.14.3', 'NCCL 是 2.18 的版本',
# 'torch.cuda.nccl.version() 返回 (2, 18, 1)'
_NCCL_VERSION_SAID = re.compile(r"NCCL\s*(?:的)?\s*(?:版本号?|versions?|ver\.?)\s*(?:号)?\s*"
                                # s22 version on every machine: 'NCCL 版本都是 2.8.4', 'NCCL versions are both 2.8.4'
                                r"(?:(?:都|也|均|全都|全部|统一)\s*(?:是|为|用的是|用的|装的是)|"
                                r"(?:on (?:both|all|every|each)"
                                r"(?: (?:of the )?(?:nodes?|machines?|servers?|hosts?))?\s+)?"
                                r"(?:are|is)(?:\s+(?:both|all))?(?![A-Za-z])|"
                                r"是|为|用的是|用的|装的是|:|：|=)?\s*v?(?P<v>2\.\d{1,2}(?:\.\d{1,2})?)(?![\d]|\.\d)|"
                                r"NCCL\s*(?:是|用的是|用的|装的是)\s*v?(?P<v2>2\.\d{1,2}(?:\.\d{1,2})?)(?![\d]|\.\d)\s*(?:的)?\s*版本|"
                                r"NCCL\s*(?:是|用的是|装的是)\s*v?(?P<v3>2\.\d{1,2}\.\d{1,2})(?![\d]|\.\d)|"
                                r"nccl\.version\(\)[^()\n]{0,24}?\(\s*(?P<a>2)\s*,\s*(?P<b>\d{1,2})\s*,\s*(?P<c>\d{1,2})\s*\)",
                                re.IGNORECASE)
# job-s11 named models: a well-known model named without its size in the name ('BERT-large', 'ViT-L/16', 'ResNet-50',
# 'gpt2-medium'): its published parameter count, in billions (weak: a size said in the question wins)
_NAMED_MODELS: list[tuple[re.Pattern[str], float]] = [
    (re.compile(r"(?<![A-Za-z0-9])" + p + r"(?![A-Za-z0-9])", re.IGNORECASE), size) for p, size in (
        (r"BERT[- _]?base", 0.11), (r"BERT[- _]?large", 0.34), (r"RoBERTa[- _]?base", 0.125),
        (r"RoBERTa[- _]?large", 0.355), (r"GPT-?2[- _]medium", 0.355), (r"GPT-?2[- _]large", 0.774),
        (r"GPT-?2[- _]xl", 1.5), (r"T5[- _]base", 0.22), (r"T5[- _]large", 0.77),
        (r"ViT[- _]?(?:B|Base)(?:/\d{1,2})?", 0.086), (r"ViT[- _]?(?:L|Large)(?:/\d{1,2})?", 0.304),
        (r"ViT[- _]?(?:H|Huge)(?:/\d{1,2})?", 0.632), (r"ResNet[- _]?50", 0.0256), (r"ResNet[- _]?101", 0.0445),
        (r"ResNet[- _]?152", 0.0602), (r"VGG[- _]?16", 0.138),
        (r"GPT-?2[- _]small", 0.124),  # s14
    )]


def _named_model_sizes(text: str) -> list[Understood]:
    """job-s11 named models: the size of a well-known model named, when the question says no other model beside it."""
    found = [(m, size) for pattern, size in _NAMED_MODELS for m in pattern.finditer(text)]
    if len({size for _, size in found}) != 1:
        return []  # none, or several models named (a comparison): no size taken from a name
    m, size = found[0]
    return [Understood("job.model_params_b", size, m.group(0), m.start(), m.end(), weak=True)]


_UPGRADED_TO = re.compile(r"(?:升级到|升到|换成|换到|更新到|upgraded to|updated to|moved to|switched to|bumped to|"
                          r"from\s+(?:NCCL\s*)?v?2\.\d{1,2}(?:\.\d{1,2})?\s+to)\s*"
                          r"(?:NCCL\s*)?"
                          r"v?(?P<v>2\.\d{1,2}(?:\.\d{1,2})?)(?![\d.]*\d)", re.IGNORECASE)


# 'driver 470.161.03', '驱动 570.124.04', 'Driver Version: 535.129.03'
_DRIVER = re.compile(r"(?:driver|驱动)\s*(?:version|版本|ver\.?)?\s*(?:is|为|是|:|：|=)?\s*v?"
                     r"(?P<v>\d{3}\.\d{2,3}(?:\.\d{2,3})?)(?!\d)(?!\.\d)", re.IGNORECASE)


# Which tool a measured figure came from, by the nearest tool named before it in its sentence.
_TOOLS = re.compile(r"(?P<rdma>ib_(?:write|read|send)_bw|perftest|ib_write|RDMA\s*(?:bandwidth|bw|带宽)(?: test)?)|"
                    r"(?P<busbw>nccl[-_ ]tests?|all_?reduce_perf|bus[ _]?bw|bus ?bandwidth|总线带宽)|"
                    r"(?P<algbw>alg(?:o|orithm)?[ _]?bw|algorithm bandwidth|算法带宽)|"
                    r"(?P<iperf>iperf3?|netperf|qperf)|(?P<traffic>nload|iftop|sar -n|bmon|ifstat|网卡流量|traffic)|"
                    r"(?P<collective>(?<![A-Za-z])(?:all[-_ ]?gather|reduce[-_ ]?scatter|all[-_ ]?to[-_ ]?all|"
                    r"broadcast|sendrecv)(?:_perf)?(?![A-Za-z]))",
                    re.IGNORECASE)


_NCCL_SAID = re.compile(r"(?<![\w-])(?:NCCL(?![_\w-])|all[-_ ]?reduce(?!_perf)(?![A-Za-z]))", re.IGNORECASE)  # en-s10


# Words that make a rate after a tool's name a rating again ('iperf3 on the 25G NIC', 'ib_write_bw over a 100G link').
_RATED_BETWEEN = re.compile(r"网卡|NICs?|link|port|rated|标称|额定|接口|interface|card|卡", re.IGNORECASE)
_RATED_AFTER = re.compile(r"\s*(?:的)?\s*(?:网卡|NICs?|links?|ports?|interfaces?|cards?|以太网|ethernet|IB|RoCE|网络|"
                          r"口|networks?|fabric|switch|GbE|uplinks?|(?-i:EDR|HDR|NDR|XDR)(?:100|200)?)", re.IGNORECASE)
# perftest's 'MB/sec' (and the 'MiB/sec' of newer builds) is 2^20 bytes a second (format_factor 0x100000)
_PERFTEST_MB = re.compile(r"(?<![A-Za-z])Mi?B(?:/s(?:ec)?|ps)?(?![A-Za-z])")


def _retool_measurements(text: str, hits: list[Understood], whole: str = "") -> list[Understood]:
    """A measured rate credited to the tool that measured it: iperf3, perftest (ib_write_bw) or nccl-tests.

    The tool named nearest the figure decides; failing that, the one measuring tool the whole question names
    ('nccl-tests on two hosts … after the BIOS change I get up to 9 GB/s')."""
    # the tools the question names, its pasted output included ('# nccl-tests version 2.17.6 …')
    named = {m.lastgroup for m in _TOOLS.finditer(whole or text)} - {"traffic", "algbw", "collective"}
    only_tool = named.pop() if len(named) == 1 else None
    out = []
    for h in hits:
        if h.fact == "nic.speed_gbps" and h.source == "words" and not h.weak:
            # '直接 `iperf3 -c …` 只有 11 Gbit/s': a rate right after a measuring command is what it measured (the
            # command was blanked before the rate was classified)
            ca, _ = tx.clause_bounds(text, h.start)
            tool = None
            for m in _TOOLS.finditer(text, max(ca, h.start - 60), h.start):
                tool = m.lastgroup
            measured = tool is None or any(x.fact in MEASUREMENTS and m.end() <= x.start < h.start for x in hits)
            if tool in {"iperf", "rdma"} and not measured and not _RATED_BETWEEN.search(text, m.end(), h.start) \
                    and not _RATED_AFTER.match(text, h.end) and not rating_in_brackets(text, h.start, h.end):
                fact = "net.iperf3_gbps" if tool == "iperf" else "net.rdma_bw_gbps"
                out.append(Understood(fact, h.value, h.text, h.start, h.end, h.source, h.inferred, h.weak,
                                      h.hypothetical))
                continue
        if h.fact not in MEASUREMENTS or h.source != "words":
            out.append(h)
            continue
        a, _ = tx.sentence_bounds(text, h.start)
        tool = None
        for m in _TOOLS.finditer(text, max(a, h.start - 120), h.start):
            # 'the algbw of nccl-tests was 104 Gbps': the figure's own name outranks the tool named after it
            if not (tool == "algbw" and m.lastgroup == "busbw" and "bus" not in m.group(0).lower()):
                tool = m.lastgroup
        if tool is None:  # '12 GB/s with nccl-tests': the tool named right after the figure
            ca, cb = tx.clause_bounds(text, h.end)
            after = _TOOLS.search(text, h.end, min(cb, h.end + 30))
            tool = after.lastgroup if after else only_tool
        # en-s10: 'ib_write_bw reports 97 Gb/sec but NCCL only gets 4 GB/s', 'NCCL all_reduce only hits ~10 Gbps … iperf
        # is fine': NCCL or its all-reduce named after any tool, in the figure's sentence, is what the figure measured
        last = max([m.end() for m in _TOOLS.finditer(text, a, h.start)], default=a)
        if tool not in {"busbw", "algbw", "collective", "traffic"} and h.fact.startswith("nccl.") \
                and _NCCL_SAID.search(text, last, h.start):
            tool = "busbw"
        gbps = h.value * 8 if h.fact.startswith("nccl.") else h.value
        if tool == "collective":  # 'all_gather 能到 40GB/s': another collective's bandwidth, no fact of ours
            continue
        if tool == "traffic":  # what the NIC carried during training, not what it can carry
            out.append(Understood("nic.rx_gbps", round(gbps, 6), h.text, h.start, h.end, h.source, h.inferred, h.weak,
                                  h.hypothetical))
            continue
        fact = {"rdma": "net.rdma_bw_gbps", "busbw": "nccl.allreduce_busbw_gbytes_per_s",
                "algbw": "nccl.allreduce_algbw_gbytes_per_s", "iperf": "net.iperf3_gbps"}.get(tool or "", h.fact)
        if fact == "net.rdma_bw_gbps" and _PERFTEST_MB.search(h.text):
            gbps *= 1.048576  # 'ib_write_bw shows 11000 MB/sec': perftest's MB is 2^20 bytes
        value = round(gbps / 8, 6) if fact.startswith("nccl.") else round(gbps, 6)
        out.append(Understood(fact, value, h.text, h.start, h.end, h.source, h.inferred, h.weak, h.hypothetical))
    return out


_WAS = re.compile(r"(?<![A-Za-z])(?:was|were|used to be|had been)(?![A-Za-z])|之前是?|以前是?|原来是?", re.IGNORECASE)
_NOW = re.compile(r"(?<![A-Za-z])(?:it is|it's|now|is now|drops? to|dropped to|fell to)(?![A-Za-z])|现在(?:是|只有)?|"
                  r"变成了?|降到了?|(?:之|以)后(?:只有|是|就)?|后来|(?:升级|更新|改|换)(?:了|完)?(?:之|以)?后",
                  re.IGNORECASE)
_GBPS_FACTS = {"nic.speed_gbps", "net.iperf3_gbps", "net.rdma_bw_gbps"}


_BATCHES = {"job.micro_batch_size", "job.global_batch_size"}


def _whole_batch_of_the_framework(question: str, text: str, hits: list[Understood]) -> list[Understood]:
    """job-s12b Under a framework that takes one batch for the step and splits it across the GPUs (YOLO, MXNet's ctx
    list, DataParallel: batches.py), a bare batch size ('YOLOv8 … batch size 246', 'mxnet Module … batch size 256')
    is the global batch, however large; the framework may be named only in a command line the prose has blanked."""
    if not splits_the_batch(question):
        return hits
    said = [h for h in hits if h.fact in _BATCHES and not h.weak]
    bare = {(h.start, h.end): h for h in bare_batch_sizes(text, said)}
    out = [h for h in hits if not (h.fact in _BATCHES and h.weak and (h.start, h.end) in bare)]
    out += [Understood("job.global_batch_size", h.value, h.text, h.start, h.end, weak=True) for h in bare.values()]
    return sorted(out, key=lambda h: h.start)


def _batch_totals(question: str, hits: list[Understood]) -> list[Understood]:
    """s34 '每个卡 batch_size = 16，共 64': the total after the GPUs' batch is the global batch (batches.batch_totals),
    unless a global batch was read already; and a bare batch that each GPU's share ('每个 GPU 只分到 16') divides was
    the whole step's."""
    shares = batch_shares(question)
    if shares:
        hits = [Understood("job.global_batch_size", h.value, h.text, h.start, h.end, weak=True)
                if h.fact == "job.micro_batch_size" and h.weak and any(h.value > n and h.value % n == 0 for n in shares)
                else h for h in hits]
    if any(h.fact == "job.global_batch_size" and not h.weak for h in hits):
        return hits
    said = [Understood("job.global_batch_size", total, question[a:b], a, b)
            for total, a, b in batch_totals(question)[:1]]
    return sorted(hits + said, key=lambda h: h.start) if said else hits


# job-s12b a load said in the sentence of the one-machine run, before the job's larger run is named: 'a single node
# gives 128 img/sec and GPU-Util at 99%, looks normal. When I use all 4 nodes … GPU-Util jumps around': the baseline's
_ONE_MACHINE_RUN = re.compile(r"单机|单节点|一台机器|一个节点|(?<![A-Za-z])(?:on (?:one|a single|1) (?:node|machine|"
                              r"server|computer|box)|(?:a )?single[- ](?:node|machine|server|computer)|one (?:node|"
                              r"machine|server|computer))(?![A-Za-z])", re.IGNORECASE)
# (and its per-GPU batch: '每卡 batch 32 时单机 2 卡甚至比 1 卡还慢', beside 2 machines' dist_sync at batch 64)
_LOADS_OF_A_RUN = {"gpu.util_pct", "cpu.util_pct", "job.micro_batch_size"}


def _load_of_the_smaller_run(text: str, hits: list[Understood]) -> list[Understood]:
    """Loads (and the per-GPU batch) said in a sentence about one machine are that run's when a larger run of the job
    is named after it."""
    larger = [h.start for h in hits if h.fact == "job.nodes" and isinstance(h.value, int) and h.value > 1
              and not h.weak] + [m.start() for m in _MULTI_NODE.finditer(text)]
    out = []
    for h in hits:
        if h.fact in _LOADS_OF_A_RUN and h.source == "words":
            a, b = tx.sentence_bounds(text, h.start)
            if _ONE_MACHINE_RUN.search(text, a, b) and any(x >= b for x in larger) \
                    and not any(a <= x < b for x in larger):
                continue
        out.append(h)
    return out


def _was_and_now(text: str, hits: list[Understood]) -> list[Understood]:
    """'The max algbw was 104 Gbps. With EFA 1.7.1 it is 65 Gbps': the figure now is the job's and the same kind of
    figure as the one it was; the past one is set aside."""
    out = list(hits)
    for h in hits:
        if h.fact not in MEASUREMENTS or h.source != "words" or not _WAS.search(text, max(0, h.start - 30), h.start):
            continue
        later = [x for x in out if x.source == "words" and (x.fact in MEASUREMENTS or x.fact in _GBPS_FACTS)
                 and h.end < x.start < h.end + 160 and _NOW.search(text, max(h.end, x.start - 30), x.start)]
        if not later:
            continue
        now = later[0]
        value = now.value
        if h.fact.startswith("nccl.") and now.fact in _GBPS_FACTS:
            value = round(value / 8, 6)
        elif not h.fact.startswith("nccl.") and now.fact.startswith("nccl."):
            value = round(value * 8, 6)
        out = [Understood(x.fact, x.value, x.text, x.start, x.end, x.source, x.inferred, True, x.hypothetical)
               if x is h else x for x in out if not (x.start == now.start and x.fact in _GBPS_FACTS | MEASUREMENTS)]
        out.append(Understood(h.fact, value, now.text, now.start, now.end, now.source, now.inferred, now.weak,
                              now.hypothetical))
    return out


_PART_AFTER = re.compile(r"^[^.;。；\n]{0,12}?(?:alone|by itself|on its own|单独|光是|"
                         r"\(?\s*\d+(?:\.\d+)?\s*%\s*of (?:the|that|it)(?:\s+(?:total|whole))?)", re.IGNORECASE)
_PART_BEFORE = re.compile(r"(?:其中|of which|of that|单是|光是|仅\S{0,6}就)[^，,。.]{0,20}$", re.IGNORECASE)
_DURATIONS = {"job.checkpoint_save_s", "job.step_time_s", "job.step_time_baseline_s"}


_AVERAGE_BEFORE = re.compile(r"(?:average|avg|mean|平均)[^.;。；\n]{0,40}$", re.IGNORECASE)


def _averages_beside_a_figure(text: str, hits: list[Understood]) -> list[Understood]:
    """'Peak busbw ≈ 387 GB/s; the average over the 1K→8G sweep is 134 GB/s': an average over a sweep of sizes is
    dragged down by the small ones — beside a figure said plainly, the plain one is the measurement."""
    plain = {h.fact for h in hits if h.fact in MEASUREMENTS and h.source == "words"
             and not _AVERAGE_BEFORE.search(text, max(0, h.start - 40), h.start)}
    return [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
            if h.fact in plain and h.source == "words" and _AVERAGE_BEFORE.search(text, max(0, h.start - 40), h.start)
            else h for h in hits]


def _parts_of_a_whole(text: str, hits: list[Understood]) -> list[Understood]:
    """'the whole save took 427 s, and create_checkpoint_file() alone took 373 s (87% of the total)': a part of a
    time said beside the whole is weak, so the whole is the job's figure."""
    out = []
    for h in hits:
        part = h.fact in _DURATIONS and h.source == "words" and (
            _PART_AFTER.search(text[h.end:h.end + 40]) or _PART_BEFORE.search(text, max(0, h.start - 30), h.start))
        others = any(x.fact == h.fact and x is not h for x in hits)
        out.append(Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
                   if part and others else h)
    return out


_COMPARES = re.compile(r"than|vs\.?|versus|compared|比|对比|相比|faster|slower|speed-?up|scal\w*|快|慢|效率|倍|"
                       r"之前|before|previously|原来|以前|drops?|dropped|falls?|fell|degrades?|掉到|降到|下降",
                       re.IGNORECASE)


def _original_words(u: Understood, question: str) -> Understood:
    """The words a fact came from as the user wrote them (readers see masked prose: 'ＧＧＧＧ' for 'A100')."""
    if u.source != "words" or not 0 <= u.start < u.end <= len(question):
        return u
    return Understood(u.fact, u.value, question[u.start:u.end], u.start, u.end, u.source, u.inferred, u.weak,
                      u.hypothetical)


_MULTI_NODE = re.compile(r"多机|多节点|多台|跨机|跨节点|两机|双机|multi-?node|multiple (?:nodes|machines|servers)|"
                         r"across (?:the )?(?:nodes|machines|servers)|inter-?node|cross-?node|"
                         r"separate (?:machines|nodes|servers)|"
                         r"different (?:machines|nodes|servers)|不同(?:的)?机器|a second (?:server|node|machine|box)|"
                         r"another (?:server|node|machine|box)|第二台|"
                         # job-s12b the machines of the job by their role: 'each worker node', '每个 worker 节点'
                         r"(?:每个|每台|各个)\s*worker\s*(?:节点|机器|服务器)|"
                         r"(?:each|every) worker (?:node|machine|server|host)",
                         re.IGNORECASE)


_ALSO_THE_SAME = re.compile(r"也(?:差不多|一样|类似|是这样|这样|很慢|慢)|同样(?:慢|的问题)|"
                            r"(?<![A-Za-z])(?:the )?same (?:thing |result |problem )?(?:with|on|at|for)|"
                            r"similar(?:ly)? (?:with|on|at|for)|as well|too\b", re.IGNORECASE)


def _largest_run_is_the_job(hits: list[Understood], text: str) -> list[Understood]:
    """'12机 > 6机 > 2机 > 1机', '2x8A100 or 4x8A100 is slow': in a question that compares runs, the largest is the job
    asked about (the others are its baselines), whatever order they are named in."""
    nodes = [h for h in hits if h.fact == "job.nodes" and not h.weak and not h.hypothetical]
    same_said: dict[tuple[int, int], bool] = {}  # one search per clause, however many counts it holds
    for h in nodes:
        bounds = tx.clause_bounds(text, h.start)
        if bounds not in same_said:
            same_said[bounds] = bool(_ALSO_THE_SAME.search(text, *bounds))
    also = [h for h in nodes if same_said[tx.clause_bounds(text, h.start)]]
    if also and len(also) < len(nodes):
        # '2 台 HGX … 跑得慢，4 台的时候也差不多': a run named to say it behaves the same is not the one asked about
        hits = [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
                if h in also else h for h in hits]
        nodes = [h for h in nodes if h not in also]
    if len({h.value for h in nodes}) < 2 or not _COMPARES.search(text) and not re.search(r"\bor\b|或", text):
        return _largest_gpu_run(hits, text) if not any(h.value > 1 for h in nodes) else hits
    largest = max(nodes, key=lambda h: (h.value, h.start))
    return [h for h in hits if not (h.fact == "job.nodes" and h in nodes and h is not largest)] + [
        Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
        for h in nodes if h is not largest]


def _largest_gpu_run(hits: list[Understood], text: str) -> list[Understood]:
    """s14 'on 8 GPUs an epoch takes 20 minutes longer than on a single GPU … with 4 cards one card stays at 0 %':
    on one machine, of runs on several GPU counts compared, the largest is the job asked about (the others are tried
    beside it)."""
    gpus = [h for h in hits if h.fact == "job.gpus_per_node" and h.source == "words" and not h.weak
            and not h.hypothetical]
    if len({h.value for h in gpus}) < 2 or not _COMPARES.search(text):
        return hits
    largest = max(gpus, key=lambda h: (h.value, -h.start))
    return [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
            if h in gpus and h.value != largest.value else h for h in hits]


# Several machines named as what is put aside or what there is ('除了多机多卡，还有什么办法', 'besides going
# multi-node', '有多台同配置节点', 'we have multiple nodes'): no run on them was said.
_NOT_A_RUN = re.compile(r"(?:除了|除去|除开|不考虑|(?<![没])有|拥有|(?<![A-Za-z])(?:there are|we have|we've got)|"
                        r"(?<![A-Za-z])(?:besides|apart from|other than|instead of|rather than|except(?: for)?)"
                        r"(?:\s+(?:going|moving|using|a|the|to))*)\s*$", re.IGNORECASE)


def _multi_node_run_said(text: str) -> bool:
    return any(not _NOT_A_RUN.search(text, max(0, m.start() - 24), m.start()) for m in _MULTI_NODE.finditer(text))


# cnt a baseline named as such: '基线是单机 3 卡', 'the baseline is one node with 8 GPUs', '对照组为 2 机 16 卡',
# 'baseline: 1 GPU' (never a baseline asked for or to be set: 'what baseline should I use')
_BASELINE_NAMED = re.compile(r"(?:基线|基准|对照组?|参照)\s*(?:配置|环境|实验)?\s*(?:是|为|用的是|:|：)\s*|"
                             r"(?<![A-Za-z])(?:(?:our|my|the)\s+)?baseline(?:\s+(?:run|setup|config(?:uration)?))?\s*"
                             r"(?:is|was|:|=|\(|-)\s*", re.IGNORECASE)


def _named_baseline(stated: dict[str, Understood], text: str) -> None:
    """The run sizes in a clause that names the baseline are the baseline's (baseline_nodes, baseline_gpus; its GPUs
    only on one machine, where they are all it has): the baseline said outright outranks one inferred (the job's
    counts read from the same words stay: the job often runs on the same machines)."""
    for m in _BASELINE_NAMED.finditer(text):
        end = tx.clause_bounds(text, m.end())[1]
        sizes = [sz for sz in run_sizes(text, m.end(), end) if sz[3] - m.end() <= 12 or sz[3] - m.end() <= 24 and
                 not re.search(r"[，,。；;]", text[m.end():sz[3]])]
        if not sizes:
            continue
        machines = [sz[0] for sz in sizes[:2] if sz[2] == "nodes"]
        for value, _, kind, a, b in sizes[:2]:
            if kind == "gpus" and machines and machines[0] > 1:
                continue  # 'baseline: 2 nodes x 8 GPUs': eight a machine, not the baseline's GPUs in all
            fact = "job.baseline_gpus" if kind == "gpus" else "job.baseline_nodes"
            old = stated.get(fact)
            if old is None or old.inferred or old.weak:
                stated[fact] = Understood(fact, value, text[a:b], a, b)
        return


# cnt one machine named right before the baseline's GPUs: '单机 4 卡', '单个 worker 4 张卡', 'one node with 8 GPUs'
_ONE_MACHINE_BEFORE = re.compile(r"(?:单机|单台(?:机器|服务器)?|单节点|单个\s*(?:worker|节点|机器|服务器)|"
                                 r"一台(?:机器|服务器)?|"
                                 r"(?<![A-Za-z])(?:a single|single|one|1)[- ](?:node|machine|server|box|host|worker)"
                                 r"(?:\s*(?:with|having|,))?)\s*(?:上)?\s*(?:的)?\s*$", re.IGNORECASE)


def _baseline_on_one_machine(stated: dict[str, Understood], text: str) -> None:
    """A baseline of several GPUs said on one machine ('单个 worker 4 张卡时每卡 156 img/s') is one machine's run too:
    baseline_nodes 1 beside the baseline's GPUs, where the job spans more machines."""
    base, job = stated.get("job.baseline_gpus"), stated.get("job.nodes")
    if base is None or "job.baseline_nodes" in stated or job is None or not isinstance(job.value, int) \
            or job.value <= 1:
        return
    if _ONE_MACHINE_BEFORE.search(text, max(0, base.start - 16), base.start):
        stated["job.baseline_nodes"] = Understood("job.baseline_nodes", 1, base.text, base.start, base.end,
                                                  inferred=True)


def _infer_baseline(stated: dict[str, Understood], hits: list[Understood], text: str) -> None:
    """A smaller run named beside the job ('单机 runs fine, 4 nodes crawl') is the baseline of the comparison.

    When the only machine count is a single one and the question is about a multi-machine run ('多机时每个 step 是单机的
    n 倍', 'adding GPUs from a second server'), that single machine is the baseline, not the job.
    """
    _named_baseline(stated, text)
    _baseline_on_one_machine(stated, text)
    job = stated.get("job.nodes")
    several = stated.get("job.multi_node")  # cnt '扩展到 4 或 8 个节点': a choice of sizes, each more than one machine
    if job is not None and job.value == 1 and job.weak and (_multi_node_run_said(text) or (
            several is not None and several.source == "choice" and not several.hypothetical)):
        stated.pop("job.nodes")
        stated.setdefault("job.baseline_nodes", Understood("job.baseline_nodes", 1, job.text, job.start, job.end))
        if re.search(r"a second (?:server|node|machine|box)|another (?:server|node|machine|box)|第二台|两机|双机", text,
                     re.IGNORECASE):
            stated["job.nodes"] = Understood("job.nodes", 2, job.text, job.start, job.end, weak=True)
        return
    if job is not None and isinstance(job.value, int) and job.value > 1 and "job.speedup" in stated and not (
            stated.keys() & {"job.baseline_nodes", "job.baseline_gpus"}) and not any(
                h.fact == "job.nodes" and h.value < job.value for h in hits):
        # '2 台机器，加速比 1.9', 'a speedup of only 2.1x on 4 nodes': a speed-up is against one machine unless said
        speedup = stated["job.speedup"]
        gpus = stated.get("job.gpus_per_node")
        if gpus is not None and isinstance(gpus.value, int) and job.value < speedup.value <= job.value * gpus.value:
            # s12 'With 16 GPUs I expected ~16x but got 9x' on 2 nodes: more than the machines could give, so the
            # speed-up is against one GPU
            stated["job.baseline_gpus"] = Understood("job.baseline_gpus", 1, speedup.text, speedup.start, speedup.end,
                                                     inferred=True)
            return
        stated["job.baseline_nodes"] = Understood("job.baseline_nodes", 1, speedup.text, speedup.start, speedup.end,
                                                  inferred=True)
        return
    gpus = stated.get("job.gpus_per_node")
    if (job is None or job.value == 1) and gpus is not None and isinstance(gpus.value, int) and gpus.value > 1 \
            and "job.speedup" in stated and not (stated.keys() & {"job.baseline_nodes", "job.baseline_gpus"}):
        speedup = stated["job.speedup"]  # '8 卡加速比只有 5.46': one machine's GPUs, against one GPU
        stated["job.baseline_gpus"] = Understood("job.baseline_gpus", 1, speedup.text, speedup.start, speedup.end,
                                                 inferred=True)
        return
    if job is None or "job.baseline_nodes" in stated or not isinstance(job.value, int) or job.value <= 1:
        return
    # s14 the machines of a parameter-server job's roles ('一台做 scheduler，一台是 server，两台是 worker') are its own
    roles = [h for h in hits if h.fact == "job.comm_pattern" and h.value == "parameter_server"]
    # a smaller count inside the job's own words ('One node in us-east-1 and the other node …' counts two) is no run
    # nor is one of the job's own machines ("one node's ib port keeps going down", 'one of the nodes')
    smaller = [h for h in hits if h.fact == "job.nodes" and not h.hypothetical and h.value < job.value
               and not job.start <= h.start < job.end
               and (_COMPARES.search(text) or h.value == 1 and _one_run_said(text, h))
               and not re.match(r"\s*(?:'s|’s|of (?:the|our|them|these))", text[h.end:h.end + 12])
               # (cnt '两台机器中有一台特别慢', '4 台机器里有一台': one of the job's machines, picked out of them)
               and not re.search(r"one of (?:the|our)\s*$|其中|其中的?\s*$|(?:中|里|之中|当中)\s*(?:的|有|就有)?\s*$",
                                 text[max(0, h.start - 10):h.start])
               and not _listed_one_by_one(text, h.start)
               and not any(r.start <= h.start < r.end for r in roles)]
    if smaller:
        base = min(smaller, key=lambda h: (h.value, h.start))
        stated["job.baseline_nodes"] = Understood("job.baseline_nodes", base.value, base.text, base.start, base.end)


# With no word of comparison in the question, a single machine counted beside the job is its baseline only when
# its clause says something of a run on it ('单节点 8 卡训练时', 'runs at normal speed', '95% on a single node'),
# or its sentence grows the run from it ('On one server, going from …'): a bare shape ('单机八卡 A800，…，8 机')
# describes each of the job's machines.
_SHAPE_WORDS = re.compile(r"[\sＧ·▪,，、:：;；.。()（）\d]|[一二两三四五六七八九十]|[张块个台卡每共有]|"
                          r"(?<![A-Za-z])(?:with|of|each|per|and|a|an|the|GPUs?|cards?|x)(?![A-Za-z])", re.IGNORECASE)
_GROWN = re.compile(r"(?<![A-Za-z])(?:going|went|moving|scal\w*|add(?:ing|ed)?|from)(?![A-Za-z])|"
                    r"扩|换成|变成|加了|增加|第二台", re.IGNORECASE)


def _one_run_said(text: str, one: Understood) -> bool:
    a, b = tx.clause_bounds(text, one.start)
    rest = text[a:one.start] + text[one.end:b]
    return bool(_SHAPE_WORDS.sub("", rest)) or bool(_GROWN.search(tx.sentence(text, one.start)))


# The machines of the job listed one by one ('一台 4 张 3090，一台 4 张 A6000', 'one node has 8 V100, the other
# 8 A100'): each 'one' is a machine of the job, no smaller run.
_ONE_AND_THE_OTHER = re.compile(r"(?:一|1)\s*台[^，,。;；\n]{0,24}[，,、;；]\s*(?:另外?\s*)?(?:一|1)\s*台|"
                                r"(?:one|1)\s+(?:node|machine|server|box|host)[^.;。；\n]{0,48}?"
                                r"(?:the other|another)(?![A-Za-z])", re.IGNORECASE)
_THE_ONE_BEFORE = re.compile(r"(?:一|1)\s*台[^，,。;；\n]{0,24}[，,、;；]\s*(?:另外?\s*)?$|"
                             r"(?:one|1)\s+(?:node|machine|server|box|host)[^.;。；\n]{0,48}?,?\s*(?:and\s+)?$",
                             re.IGNORECASE)


def _listed_one_by_one(text: str, start: int) -> bool:
    """'一台 4 张 3090，一台 4 张 A6000': either 'one' of a list of the job's machines."""
    return bool(_ONE_AND_THE_OTHER.match(text, start) or (
        re.match(r"(?:另外?\s*)?(?:一|1)\s*台|(?:the other|another)(?![A-Za-z])", text[start:start + 8], re.IGNORECASE)
        and _THE_ONE_BEFORE.search(text, max(0, start - 60), start)))


# A measurement taken inside one machine, beside one between machines: the loopback side of the comparison.
_SAME_MACHINE = re.compile(r"同一台|同一个节点|同一节点|同机|本机|机内|节点内|loopback|localhost|intra-?node|"
                           r"(?:on|within|inside|in) (?:the same|one|a single) (?:machine|node|host|server|worker|box)|"
                           r"same (?:machine|node|host|server|worker|box)", re.IGNORECASE)
_CROSS_MACHINE = {"net.iperf3_gbps", "net.rdma_bw_gbps"}


def _measurement_of_the_job(stated: dict[str, Understood], hits: list[Understood], text: str) -> None:
    """'busbw 28 GB/s with all 8 GPUs; with 4 GPUs I get 35 GB/s': of two measurements by one tool, the one whose
    clause names a run of another size (or another GPU) than the job's describes that other run."""
    gpus, nodes, model = stated.get("job.gpus_per_node"), stated.get("job.nodes"), stated.get("gpu.model")
    total = gpus.value * nodes.value if gpus is not None and nodes is not None else None

    def other_run(h: Understood) -> bool:
        a, b = tx.clause_bounds(text, h.start)
        lead = max(tx.sentence_bounds(text, h.start)[0], a - 20)
        if h.fact in _CROSS_MACHINE and _SAME_MACHINE.search(text, lead, b):
            return True  # '同一台 worker 上的 host 之间大约 2.5Gbits/sec' beside the cross-machine figure
        if model is not None and any(g.fact == "gpu.model" and g.value != model.value and a <= g.start < b
                                     for g in hits):
            return True  # 'H100 的 NVLS busbw 能到 480 GB/s' beside an H800 job: another GPU's figure
        for n, _, kind, _, _ in run_sizes(text, a, b):
            job = gpus if kind == "gpus" else nodes
            if job is not None and n != job.value and not (kind == "gpus" and n == total):
                return True
        return False

    for fact in MEASUREMENTS:
        chosen = stated.get(fact)
        if chosen is None or chosen.source != "words":
            continue
        candidates = [h for h in hits if h.fact == fact and h.source == "words" and not h.hypothetical]
        if len({h.value for h in candidates}) >= 2 and other_run(chosen):
            mine = [h for h in candidates if not other_run(h)]
            if mine:
                stated[fact] = mine[-1]
            continue
        pairs = [h for h in candidates if not h.weak and _PAIR.search(text, *tx.clause_bounds(text, h.start))]
        if len({h.value for h in pairs}) >= 2 and len(pairs) == len([h for h in candidates if not h.weak]):
            # 'between node 1 and node 2 it gives 25 GB/s, between node 1 and node 3 39 GB/s': the same test on
            # several pairs of machines; the slow pair is the one asked about
            stated[fact] = min(pairs, key=lambda h: h.value)


# 'between node 1 and node 2', 'node1 ↔ node3', '节点 1 和节点 3 之间': a measurement of one pair of machines
_PAIR = re.compile(r"between\s+(?:node|host|server|machine)?\s*\w{1,12}\s+and\s+(?:node|host|server|machine)?\s*"
                   r"\w{1,12}|"
                   r"(?:节点|机器|node|host)\s*\w{0,8}\s*(?:和|与|跟|到|->|<->|↔)\s*(?:节点|机器|node|host)?\s*\w{1,8}\s*(?:之间)?",
                   re.IGNORECASE)


_IFACE = r"(?<![\w.-])(?:eth|eno|ens|enp|em|ib|bond|p\d+p)\w{0,14}(?![\w-])"
_IFACE_SPEED = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?:G|Gb|GbE|Gbps|Gbit|Gb/s|G\s*口)(?![A-Za-z/])|(?P<w>千兆|万兆)",
                          re.IGNORECASE)
_IN_USE = re.compile(rf"(?:走的是|走了|走|发送走的是|用的是|sends?(?: out)? (?:through|via|over|on)|"
                     rf"goes (?:through|out)|(?:is |are )?(?:using|used)|uses|picks|picked|chose|via|over)\s*"
                     rf"(?:the\s*)?"
                     rf"(?:千兆|万兆)?\s*"
                     rf"(?:口|port)?\s*(?P<iface>{_IFACE})", re.IGNORECASE)


# en-s10: 'NCCL picks eth0 (10G) instead of ib0', 'NCCL is using eno1 rather than the IB': an Ethernet port chosen over
# the fabric's is NCCL on its sockets (an assumption: a yes/no question says nothing)
_ETH_OVER_FABRIC = re.compile(r"(?<![?]\s)NCCL\s+(?:is\s+|was\s+|always\s+|still\s+)*(?:picks?|picked|picking|uses?|"
                              r"used|using|chooses|chose|selects?|selected|selecting|goes over|went over|binds? to|"
                              r"bound to)\s+(?:the\s+)?(?:eth|eno|ens|enp|em|bond)\w{0,14}"
                              r"(?:\s*[(（][^()（）\n]{0,12}[)）])?"
                              r"(?:\s+(?:interface|port|NIC))?\s+(?:instead of|rather than|not|over)\s+(?:the\s+)?"
                              r"(?:ib\d\w{0,6}|mlx5_\d+|IB|InfiniBand|RDMA|RoCE)(?![\w-])", re.IGNORECASE)
_ASKED_BEFORE = re.compile(r"(?:^|[.?!]\s*)(?:is|does|did|why|will|should|can)\s+$", re.IGNORECASE)  # en-s10


def _ethernet_over_the_fabric(stated: dict[str, Understood], question: str) -> None:  # en-s10
    m = _ETH_OVER_FABRIC.search(question)
    if m and "nccl.transport" not in stated and not _ASKED_BEFORE.search(question[max(0, m.start() - 12):m.start()]):
        stated["nccl.transport"] = Understood("nccl.transport", "socket", m.group(0), m.start(), m.end(), inferred=True,
                                              weak=True)


def _interface_in_use(stated: dict[str, Understood], question: str) -> None:
    """'eno1 是千兆口，enp37s0f0 是万兆口 … 发送走的是 eno1': NCCL's traffic rides the slower port, and that
    port's speed is the link the job has, whatever the faster one is rated."""
    speeds: dict[str, float] = {}
    for m in re.finditer(_IFACE, question, re.IGNORECASE):
        lo = max(0, m.start() - 24)
        before = question[lo:m.start()]
        ends = list(re.finditer(r"[.。!?！？;；](?:\s|$)", before))
        lo += ends[-1].end() if ends else 0  # a line break is no sentence end here: '… a 1G port\n(eno1, …)'
        after = re.split(r"[.。!?！？;；](?:\s|$)", question[m.end():m.end() + 24], maxsplit=1)[0]
        window = question[lo:m.end()] + after
        at = m.start() - lo  # (of two as near, the one after the port: 'eth0 is 1G and ib0 is 100G')
        near = sorted(_IFACE_SPEED.finditer(window), key=lambda s: (abs(s.start() - at), s.start() < at))
        # a speed in the port's own clause first: 'eth0 is 1G, ib0 is 100G' gives ib0 its 100G, not eth0's nearer 1G
        ca, cb = tx.clause_bounds(question, m.start())
        own = [s for s in near if ca <= lo + s.start() < cb]
        near = own or near
        if near:
            s = near[0]
            speeds.setdefault(m.group(0).lower(), 1.0 if s["w"] == "千兆" else 10.0 if s["w"] else float(s["num"]))
    if len(set(speeds.values())) < 2:
        return
    for m in _IN_USE.finditer(question):
        used = speeds.get(m["iface"].lower())
        if used is not None and used < max(speeds.values()):
            stated["nic.speed_gbps"] = Understood("nic.speed_gbps", used, m.group(0), m.start(), m.end(), inferred=True)
            return


# A block that launches a job or passes its options ('swift sft … --deepspeed zero2', '--tensor-model-parallel-size 4
# --micro-batch-size 4'): its arguments describe the job, as on a command line in a sentence.
_LAUNCHER = re.compile(r"#SBATCH\s+-|(?<![\w-])(?:mpirun|mpiexec|torchrun|deepspeed|srun|horovodrun|accelerate launch|"
                       r"swift (?:sft|pt|rlhf)|llamafactory-cli|ip link set|ifconfig|"
                       r"python3? -m torch\.distributed\.(?:launch|run)|\w+_perf(?:_mpi)?)(?![\w-])|"
                       r"(?<![\w-])--[a-z][\w-]+[ =][^\s-][^\n]*?\s--[a-z][\w-]+[ =][^\s-]")


# A code or config block's setting line: 'batch_size = 32', '"train_micro_batch_size_per_gpu": 4', 'cutoff_len: 2048'.
_SETTING_LINE = re.compile(r"(?m)^[ \t]*[\"']?[A-Za-z_][\w.]*[\"']?[ \t]*[:=][ \t]*[\"']?[\w.\-]+|"
                           r"(?<=[ \t])[A-Za-z_]\w{0,40}(?:\.\w{1,40}){1,6}=\S")  # hydra-style 'actor.strategy=fsdp2'



# Words that put a question on more than one machine, or on the network between machines.
_MACHINES_NAMED = re.compile(
    r"(?<![A-Za-z])(?:nodes?|machines?|servers?|hosts?|box(?:es)?|instances?|VMs?|workers?|clusters?|pods?|rigs?|"
    r"workstations?|computers?|PCs?|multi-?node|inter-?node|cross-?node|MASTER_ADDR|node_rank|nnodes|"
    r"InfiniBand|IB|RoCE|RDMA|EFA|NICs?|HCAs?|ethernet|GbE|iperf3?|ib_\w+_bw|mpirun|horovodrun|srun|slurm|k8s|"
    r"kubernetes|DGX|HGX|p\d\w*\.\w+|a\d-\w+)(?![A-Za-z])|集群|多机|多节点|跨机|跨节点|机器|节点|台|机间|网卡|交换机|万兆|千兆",
    re.IGNORECASE)


def _one_machine_when_none_is_named(stated: dict[str, Understood], question: str) -> None:
    """'two T4 GPUs on Kaggle', '8 张 3090 跑 DDP': GPUs counted and no machine, network or launcher across machines
    named anywhere — one machine, as an expert would read it."""
    gpus = stated.get("job.gpus_per_node")
    if "job.nodes" in stated or gpus is None or gpus.weak or _MACHINES_NAMED.search(question):
        return
    stated["job.nodes"] = Understood("job.nodes", 1, gpus.text, gpus.start, gpus.end, gpus.source, inferred=True)


_ONE_SERVER = re.compile(r"(?<![A-Za-z])(?:our|my|this|the|a|one)\s+"
                         r"(?!(?:more|extra|additional|new|added|second|per)\b)"  # (s13 'one per node': none)
                         r"(?:[\w.-]+\s+){0,3}?(?:server|machine|box|workstation|"
                         r"node)(?![A-Za-z-])(?!\s*(?:\d|[A-Z]\b))|"
                         r"(?:我们|我)的?(?:这台|那台)?(?:服务器|机器|工作站)(?![间之])|"
                         # '服务器是 Tyan B7079 主板，双路 E5…': a sentence that describes the machine
                         r"(?:^|(?<=[，。；！？\n]))\s*(?:这台|该|本)?(?:服务器|机器|工作站|主机)(?:是|为|配置(?:是|为)?|[:：])",
                         re.IGNORECASE)
_MORE_THAN_ONE = re.compile(r"(?<![A-Za-z])(?:servers|machines|boxes|workstations|nodes|hosts|instances|pods|other|"
                            r"another|"
                            r"second|peers?|remote|inter-?node|multi-?node|cluster|iperf3?|"
                            r"add(?:s|ed|ing)?|more|ib_\w+_bw|NET/|MASTER_ADDR|nnodes|node_rank|hostfile|"
                            # one among several: 'the slowest node', 'a straggler', 'one node has a degraded NIC'
                            r"slowest|fastest|straggl\w*|lagging|the others|the rest|"
                            r"one\s+(?:node|machine|server|host|box)\s+(?:has|had|shows|showed|is|was))(?![A-Za-z])|"
                            r"多机|多台|多节点|跨机|跨节点|机间|节点间|集群|另一台|两台|其他|每台|各台|分布式|"
                            # s11 all of them: '我们的机器都在同一个机房', '所有机器', a zone or room shared
                            r"(?:机器|节点|服务器|主机)\s*(?:也)?都|所有|全部|可用区|机房",
                            re.IGNORECASE)


def _our_one_server(stated: dict[str, Understood], text: str) -> None:
    """'Why is nccl-tests so low on our RTX 4090 server?': one machine named in the singular, and nothing in the
    question about a second one or the network between machines — the job runs on that one machine."""
    if any(k in stated for k in ("job.nodes", "job.baseline_nodes", "net.iperf3_gbps", "net.rdma_bw_gbps")):
        return
    m = _ONE_SERVER.search(text)
    if m is None or _MORE_THAN_ONE.search(text):
        return
    stated["job.nodes"] = Understood("job.nodes", 1, m.group(0), m.start(), m.end(), inferred=True, weak=True)


# Measurements pasted output gives, with the factor to Gb/s.
_PASTED_RATES = {"net.iperf3_gbps": 1.0, "net.rdma_bw_gbps": 1.0, "nccl.allreduce_busbw_gbytes_per_s": 8.0}


def _setting_the_log_overrules(stated: dict[str, Understood], pasted: Pasted) -> None:
    """'设了 NCCL_IB_DISABLE=1，结果 NCCL 还是走了 IB' with a log of NET/IB: what NCCL did outranks what was set — the
    variable never reached the ranks, or a net plugin (IBext) ignores it — so IB is not disabled in effect."""
    said = stated.get("nccl.ib_disabled")
    if (said is None or said.value is not True or said.source.startswith("pasted")
            or pasted.facts.get("nccl.transport") != "ib" or pasted.sources.get("nccl.transport") != "nccl-log"):
        return
    stated["nccl.ib_disabled"] = Understood("nccl.ib_disabled", False, said.text, said.start, said.end,
                                            "pasted:nccl-log", inferred=True)


# NVIDIA's DGX systems ship with ConnectX NICs for the compute fabric (DGX-1: 4x EDR, DGX-2: 8x EDR, DGX A100: 8x
# ConnectX-6 HDR, DGX H100/H200: 8x ConnectX-7 NDR, DGX B200: 8x ConnectX-7, DGX Spark: one ConnectX-7); the DGX Station
# is a workstation without one.
# Mellanox/NVIDIA ConnectX devices (mlx5_0, mlx4_1) and their driver stack (MLNX_OFED) are RDMA hardware too.
_RDMA_HARDWARE = re.compile(r"(?<![A-Za-z])DGX[- ]?(?:A100|H100|H200|B200|B300|GB200|GB300|1|2|Spark)s?(?![A-Za-z0-9])|"
                            r"(?<![A-Za-z])DGX (?:SuperPOD|BasePOD)|(?<![\w])mlx[45]_\d{1,2}(?![\w])|MLNX_OFED|"
                            r"(?<![A-Za-z])MOFED(?![A-Za-z])|ConnectX[- ]?[3-8]", re.IGNORECASE)


def _rdma_hardware_named(stated: dict[str, Understood], question: str) -> None:
    """'2x DGX A100', 'mlx5_0', 'MLNX_OFED 5.2': the machines have RDMA NICs (InfiniBand, or RoCE on the same ConnectX
    cards) unless the question says otherwise; whether NCCL uses them is another matter."""
    if "nic.rdma" in stated:
        return
    m = next((m for m in _RDMA_HARDWARE.finditer(question)
              if not said_by_others(question, m.start()) and not is_negated(question, m.start(), m.end())), None)
    if m:
        stated["nic.rdma"] = Understood("nic.rdma", True, m.group(0), m.start(), m.end(), inferred=True, weak=True)


# Tools and parts that exist on one fabric only: InfiniBand's subnet manager and diagnostics (opensm, ibdiagnet, UFM,
# ibnetdiscover) and its switches; GCP's GPUDirect-TCPX(O) runs over plain Ethernet NICs, and so does TCP on ethN.
_IB_ONLY = re.compile(r"(?<![\w-])(?:opensm|ibdiagnet\d?|ibnetdiscover|UFM|subnet manager|"
                      r"(?:IB|InfiniBand) switch(?:es)?|子网管理器|IB\s*交换机)(?![\w-])", re.IGNORECASE)
_ETHERNET_ONLY = re.compile(r"(?<![\w-])(?:GPUDirect[- ]TCPXO?|TCPXO?|tcp/eth\d+|(?:TCP|tcp) (?:on|over|via) eth\d+)"
                            r"(?![\w-])", re.IGNORECASE)


def _fabric_from_its_tools(stated: dict[str, Understood], question: str) -> None:
    """'ibdiagnet says AdaptiveRouting is enabled on 0 switches' → InfiniBand; 'nodes with GPUDirect-TCPX', 'UCX picked
    tcp/eth1' → Ethernet; 'no RDMA' with no fabric named → Ethernet (TCP over it). Each an assumption."""
    if "nic.kind" in stated:
        return
    for pattern, kind in ((_IB_ONLY, "infiniband"), (_ETHERNET_ONLY, "ethernet")):
        m = next((m for m in pattern.finditer(question)
                  if not said_by_others(question, m.start()) and not is_negated(question, m.start(), m.end())), None)
        if m:
            stated["nic.kind"] = Understood("nic.kind", kind, m.group(0), m.start(), m.end(), inferred=True, weak=True)
            return
    rdma = stated.get("nic.rdma")
    if rdma is not None and rdma.value is False and rdma.source == "words" and not rdma.inferred:
        stated["nic.kind"] = Understood("nic.kind", "ethernet", rdma.text, rdma.start, rdma.end, inferred=True,
                                        weak=True)
        return
    _roce_from_a_gid_index(stated)


def _roce_from_a_gid_index(stated: dict[str, Understood]) -> None:
    """s35 a GID index set ('-x NCCL_IB_GID_INDEX=3', 'GID index 用的 3') with no fabric named: NCCL's GID index is
    'the Global ID index used in RoCE mode' (its docs), so the NICs are RoCE; an assumption, and none where the IB
    transport is switched off or no RDMA is said."""
    gid = stated.get("nic.gid_index")
    off = stated.get("nccl.ib_disabled")
    rdma = stated.get("nic.rdma")
    if gid is None or "nic.kind" in stated or (off is not None and off.value is True) \
            or (rdma is not None and rdma.value is False):
        return
    stated["nic.kind"] = Understood("nic.kind", "roce", gid.text, gid.start, gid.end, inferred=True, weak=True)


_UNSUPPORTED = re.compile(r"不支持|用不了|不能用|无法|support|lack", re.IGNORECASE)


def _moe_from_expert_parallel(stated: dict[str, Understood]) -> None:
    """'EP16 on H800': expert parallelism exists only for a mixture-of-experts model."""
    ep = stated.get("job.ep_degree")
    if "job.moe" not in stated and ep is not None and isinstance(ep.value, int) and ep.value > 1:
        stated["job.moe"] = Understood("job.moe", True, ep.text, ep.start, ep.end, ep.source, inferred=True)


def _rdma_from_gpudirect(stated: dict[str, Understood], question: str) -> None:
    """'GDR was off; with GPUDirect RDMA turned on every rank is fine': GPUDirect RDMA is a path of an RDMA NIC, so
    the question about it is about a machine that has one (an assumption; 'no RDMA' said outranks it). A NIC said
    not to support GPUDirect says nothing of the kind."""
    gdr = stated.get("nccl.gdr_disabled")
    if "nic.rdma" in stated or gdr is None or gdr.source != "words":
        return
    if _UNSUPPORTED.search(question, *tx.clause_bounds(question, gdr.start)):
        return
    stated["nic.rdma"] = Understood("nic.rdma", True, gdr.text, gdr.start, gdr.end, inferred=True, weak=True)


def _rdma_from_the_transport(stated: dict[str, Understood]) -> None:
    """'the channels go over NET/IB but never with /GDRDMA': NCCL's IB transport runs only on an RDMA device
    (InfiniBand or RoCE), so the node has RDMA, as a pasted log of that transport says."""
    transport = stated.get("nccl.transport")
    if transport is None or transport.value != "ib" or "nic.rdma" in stated:
        return
    stated["nic.rdma"] = Understood("nic.rdma", True, transport.text, transport.start, transport.end,
                                    transport.source, inferred=True)


def _all_reduce_of_data_parallel(stated: dict[str, Understood]) -> None:
    """DDP, Horovod, FSDP and ZeRO exchange gradients with NCCL collectives (all-reduce, or its halves reduce-scatter
    and all-gather), never through parameter servers: the data-parallel strategy named says how gradients move."""
    strategy = stated.get("job.parallelism")
    if strategy is None or strategy.value not in {"data", "fsdp"} or "job.comm_pattern" in stated:
        return
    stated["job.comm_pattern"] = Understood("job.comm_pattern", "allreduce", strategy.text, strategy.start,
                                            strategy.end, strategy.source, inferred=True, weak=True)


def _gpus_the_machine_has(stated: dict[str, Understood]) -> None:
    """'单机 8 卡 H800', 'one server with 8x RTX 4090': on one machine, the GPUs the job runs on are the GPUs it has
    (gpu.count, what a probe would see), unless the question said otherwise ('每台 6 张，各用 1 张')."""
    gpus, nodes = stated.get("job.gpus_per_node"), stated.get("job.nodes")
    if gpus is None or "gpu.count" in stated or gpus.weak or nodes is None or nodes.value != 1:
        return
    stated["gpu.count"] = Understood("gpu.count", gpus.value, gpus.text, gpus.start, gpus.end, gpus.source,
                                     inferred=True)


# cnt a NIC for each GPU: 'one 400G NIC per GPU', 'each GPU has its own 200G NIC', '一卡一网卡', '每张 GPU 对应一张 200G
# 网卡', 'GPU 和网卡 1:1': as many NICs a machine as GPUs (never asked about, denied, or wished for)
_NIC_EACH_GPU = re.compile(
    r"(?<![A-Za-z])(?:one|a|1)\s+(?:\d+\s?G\w*\s+)?(?:NIC|HCA|rail|IB\s+(?:NIC|card|port))\s+"
    r"(?:per|for each|for every)\s+GPU(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:each|every)\s+GPU\s+(?:has|gets)\s+(?:its\s+own|a\s+dedicated|one)\s+(?:\d+\s?G\w*\s+)?"
    r"(?:NIC|HCA|rail)|一卡一网卡|一张卡一张网卡"
    r"|每(?:张|块)\s*(?:GPU|卡|显卡)\s*(?:都)?\s*(?:对应|配|配了|搭配)\s*(?:一|1)\s*(?:张|块|个)\s*"
    r"(?:\d+\s?G\w*\s*)?(?:的\s*)?(?:IB\s*|RoCE\s*|RDMA\s*)?网卡"
    r"|GPU\s*(?:和|与|:|/)\s*(?:网卡|NIC)\s*(?:是\s*)?1\s*[:：]\s*1", re.IGNORECASE)
_NOT_SO = re.compile(r"(?:not|n't|no|without|instead of|rather than|没有|不是|并非|没|不|如果|if|should|want|希望|想)"
                     r"\W{0,3}(?:\w+\W+){0,2}$", re.IGNORECASE)


def _a_nic_for_each_gpu(stated: dict[str, Understood], text: str) -> None:
    gpus = stated.get("job.gpus_per_node")
    if "nic.count" in stated or gpus is None or gpus.weak or not 2 <= gpus.value <= 16:
        return
    for m in _NIC_EACH_GPU.finditer(text):
        sentence = tx.sentence(text, m.start())
        if _NOT_SO.search(text, max(0, m.start() - 24), m.start()) or re.search(r"[?？]|吗|么", sentence):
            continue
        stated["nic.count"] = Understood("nic.count", gpus.value, m.group(0), m.start(), m.end(), inferred=True)
        return


def _machines_counted_by_the_launcher(said: Understood | None, launched: dict[str, Any], question: str) -> bool:
    """s30 '2*h200 … --actor-num-nodes 2 --actor-num-gpus-per-node 8': the launcher gives the whole shape, and the
    words' bare 'N*GPU' (no word for GPUs or cards) is its node count — two H200 machines, not two GPUs a machine."""
    nodes, per_node = launched.get("job.nodes"), launched.get("job.gpus_per_node")
    if said is None or said.fact != "job.gpus_per_node" or said.source != "words" or not nodes or not per_node:
        return False
    bare = re.fullmatch(r"\s*\d{1,3}\s*[*x×]\s*[A-Za-z]{1,4}\d{2,4}[A-Za-z]*\s*", question[said.start:said.end])
    return bool(bare) and said.value == nodes != per_node


def _launcher_picks_a_run(said: Understood, launched: Any, hits: list[Understood]) -> bool:
    """s14 'With 4 GPUs I only get 50 % … with 2 GPUs it is not much higher' beside '--num_gpus=4': where the words
    name runs of one machine on several GPU counts, the one the launcher was given is the job (the others are tried
    beside it)."""
    if said.fact != "job.gpus_per_node" or said.source != "words" or said.value == launched or any(
            h.fact == "job.nodes" and h.value > 1 and not h.weak for h in hits):
        return False  # (one machine's runs only: a test of one node beside a job of two is a side test)
    sizes = {h.value for h in hits if h.fact == said.fact and h.source == "words" and not h.hypothetical and not h.weak}
    # (the largest of them: a smaller one set before a change, 'CUDA_VISIBLE_DEVICES=0 改成 0,1', is the baseline)
    return len(sizes) > 1 and launched == max(sizes)


def _gpus_said_with_the_nodes(stated: dict[str, Understood], hits: list[Understood], text: str) -> None:
    """'2 台 A100-80GB:8 … 在 A10G:1 上同样的测试直接失败': of GPU counts that disagree, the one said in the clause
    that counts the machines describes the job; the others are other systems tried beside it."""
    nodes, gpus = stated.get("job.nodes"), stated.get("job.gpus_per_node")
    if nodes is None or gpus is None or nodes.source != "words" or gpus.source != "words":
        return
    counts = [h for h in hits if h.fact == "job.gpus_per_node" and h.source == "words" and not h.hypothetical]
    if len({h.value for h in counts}) < 2:
        return
    a, b = tx.clause_bounds(text, nodes.start)
    with_nodes = [h for h in counts if a <= h.start < b and not h.weak]
    each = re.search(r"每|各|per|each", gpus.text, re.IGNORECASE)  # '每台 16 张 V100' is said of every machine
    if with_nodes and with_nodes[0].value != gpus.value and not each:
        stated["job.gpus_per_node"] = with_nodes[0]


_SERVER_CLASS = {"A100", "A800", "H100", "H200", "H800", "H20", "B200", "B300"}
_NODE_AFTER = re.compile(r"\s*(?:-?SXM\d?\s*|\d{2,3}\s*G[Bi]?B?\s*)?"
                         r"(?:nodes?|servers?|machines?|boxes|hosts|节点|服务器|机器|主机)", re.IGNORECASE)


def _gpus_of_a_server_class_node(stated: dict[str, Understood], text: str, unmasked: str) -> None:
    """'Six H100 nodes, each with eight 400Gb NICs': a node named by its SXM-class GPU is an eight-GPU HGX machine,
    as an expert assumes (said as an assumption, and any count the question gives outranks it)."""
    model = stated.get("gpu.model")
    if "job.gpus_per_node" in stated or model is None or model.value not in _SERVER_CLASS or model.source != "words":
        return
    for m in re.finditer(re.escape(str(model.value)), unmasked):
        after = _NODE_AFTER.match(unmasked, m.end())
        # '32 台 A800', '4 台 H100': machines counted, then named by their GPU
        counted = re.search(r"\d+\s*台\s*$", unmasked[max(0, m.start() - 8):m.start()]) and not re.match(
            r"\s*(?:GPU|卡|显卡|x|×|\*)", unmasked[m.end():m.end() + 4], re.IGNORECASE)
        if after or counted:
            end = after.end() if after else m.end()
            stated["job.gpus_per_node"] = Understood("job.gpus_per_node", 8, unmasked[m.start():end], m.start(), end,
                                                     inferred=True, weak=True)
            return


_GOAL = re.compile(r"(?<![A-Za-z])(?:goal|target|aim|plan(?:s|ned|ning)?|want|hope|eventually|scale (?:up )?to)"
                   r"(?![A-Za-z])|目标|计划|希望|打算|想要?|将来|以后", re.IGNORECASE)


def _gpu_of_a_dgx_spark(stated: dict[str, Understood], question: str) -> None:
    """'two stacked DGX Sparks': a DGX Spark is one GB10 superchip."""
    m = re.search(r"(?<![A-Za-z])DGX[- ]?Sparks?(?![A-Za-z])", question, re.IGNORECASE)
    if m and "gpu.model" not in stated:
        stated["gpu.model"] = Understood("gpu.model", "GB10", m.group(0), m.start(), m.end(), inferred=True, weak=True)


_TOTAL_LABELLED = re.compile(r"[:：=]|total|in all|总|共|数", re.IGNORECASE)


def _total_over_the_machines(stated: dict[str, Understood]) -> None:
    """s14 a form's lines apart ('num_nodes: 2' … 'GPUs: 16', 'Nodes：2\nGPUs：16'): the GPUs in all, said under a
    label or as a total, over the machines said by another reader are the GPUs of each."""
    total, nodes = stated.get("job.total_gpus"), stated.get("job.nodes")
    if total is None or nodes is None or "job.gpus_per_node" in stated or nodes.hypothetical \
            or not _TOTAL_LABELLED.search(total.text):
        return
    n, t = int(nodes.value), int(total.value)
    if n > 1 and t % n == 0 and 1 <= t // n <= 16:
        stated["job.gpus_per_node"] = Understood("job.gpus_per_node", t // n, total.text, total.start, total.end,
                                                 inferred=True)


def _total_said_for_the_job(stated: dict[str, Understood], text: str) -> None:
    """A total of GPUs stands only for a job whose machines and their GPUs are not both said (those multiply to the
    total), and never when it is the goal ('Goal is 90% scaling past 160 GPUs', '目标是扩到 512 卡')."""
    total = stated.get("job.total_gpus")
    if total is None:
        return
    both = "job.nodes" in stated and "job.gpus_per_node" in stated
    if both or _GOAL.search(text, *tx.clause_bounds(text, total.start)):
        del stated["job.total_gpus"]


def _gpu_of_the_job(stated: dict[str, Understood], hits: list[Understood], text: str) -> None:
    """Of several GPU models named, the job's is the one its counts are said with ('2 台 8×H800 … H100 的 NVLS busbw
    480 GB/s'), failing that the first named (a setup is described before what it is compared with)."""
    chosen = stated.get("gpu.model")
    models = [h for h in hits if h.fact == "gpu.model" and not h.hypothetical]
    if chosen is None or chosen.source != "words" or len({h.value for h in models}) < 2:
        return
    # s13 a model left behind or said to work ('moved from V100 to A100', '以前是 V100，现在换成了 A800', 'works on A100
    # but is slow on our H20 nodes', 'A800 上正常，H20 上很慢') is not the one the job runs on, where another is named
    kept = [h for h in models if not _gpu_left_or_fine(text, h)]
    if kept and {h.value for h in kept} != {h.value for h in models}:
        models = kept
    counts = [stated[k] for k in ("job.gpus_per_node", "job.nodes") if k in stated and stated[k].source == "words"]
    with_counts = [h for h in models if any(c.start <= h.start < c.end for c in counts)]
    stated["gpu.model"] = with_counts[0] if with_counts else min(models, key=lambda h: h.start)


_GPU_FROM = re.compile(r"(?:(?<![A-Za-z])from|从|由)\s*(?:the\s+|our\s+|an?\s+)?$", re.IGNORECASE)
_GPU_TO_AFTER = re.compile(r"\s*(?:GPUs?|cards?|nodes?|machines?|servers?|卡|机器)?\s*"
                           r"(?:(?<![A-Za-z])to(?![A-Za-z])|→|->|换到|换成|升级到|迁移?到|切到|到)",
                           re.IGNORECASE)
_GPU_PAST = re.compile(r"(?:以前|之前|原来|原先|过去|旧的?|老的?|"
                       r"(?<![A-Za-z])(?:previously|used to|before|earlier|formerly|old|older))[^，,。.;；]{0,20}$",
                       re.IGNORECASE)
_GPU_NOW = re.compile(r"现在|如今|目前|换成|新的?(?:集群|机器|服务器|节点)|(?<![A-Za-z])(?:now|new|newer)(?![A-Za-z])",
                      re.IGNORECASE)
# 'we replaced the V100s with A100s', 'swapped our T4s for L4s', '把 V100 换成了 A100': the one replaced is left behind
_GPU_REPLACED = re.compile(r"(?:(?<![A-Za-z])(?:replac\w*|swap\w*|trad\w*)|把|将)\s*"
                           r"(?:the\s+|our\s+|my\s+|all\s+(?:the\s+)?)?"
                           r"(?:\d+\s*[x×*]?\s*)?$", re.IGNORECASE)
_GPU_REPLACED_BY = re.compile(r"\s*(?:GPUs?|cards?|nodes?|machines?|servers?|卡|机器)?\s*"
                              r"(?:(?<![A-Za-z])(?:with|for|by)(?![A-Za-z])|全?(?:都)?(?:换成|替换成|替换为|改成|升级成|升级到)了?)",
                              re.IGNORECASE)
_GPU_FINE_BEFORE = re.compile(r"(?<![A-Za-z])(?:works?|worked|working|runs?|ran|is fine|was fine|fine|"
                              r"scales? (?:well|fine))\s+(?:\w+\s+){0,3}?(?:on|with)\s+(?:the\s+|an?\s+|our\s+)?$",
                              re.IGNORECASE)
_GPU_FINE_AFTER = re.compile(r"\s*(?:上面|上|机器上|集群上|的机器上?|nodes?|cluster|machines?|boxes|"
                             r"GPUs?|cards?)?"
                             r"\s*(?:都|也|就)?\s*(?:(?:是|跑得?|训练)?\s*(?:很)?正常|没问题|很快|"
                             r"(?:is|was|are|were|works?|worked|runs?|ran)\s+"
                             r"(?:fine|ok|okay|well|normally|as expected))",
                             re.IGNORECASE)


def _gpu_left_or_fine(text: str, h: Understood) -> bool:
    a = tx.clause_bounds(text, h.start)[0]
    before = text[max(a, h.start - 40):h.start]
    return bool((_GPU_FROM.search(before) and _GPU_TO_AFTER.match(text, h.end))
                or (_GPU_REPLACED.search(before) and _GPU_REPLACED_BY.match(text, h.end))
                or (_GPU_PAST.search(before) and _GPU_NOW.search(text, h.end, h.end + 60))
                or _GPU_FINE_BEFORE.search(before) or _GPU_FINE_AFTER.match(text, h.end))


def _only_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with everything outside `spans` blanked (line breaks kept), so offsets stay the question's."""
    keep = bytearray(len(text))
    for a, b in spans:
        keep[a:b] = b"\x01" * (b - a)
    return "".join(ch if keep[i] or ch == "\n" else " " for i, ch in enumerate(text))


_NEGOTIATED = re.compile(r"协商|negotiat\w*|ethtool|ibstat\w*|ibv_devinfo|(?<![A-Za-z])(?:Speed|Rate)\s*:|linked at|"
                         r"link(?:s)? (?:is |came )?up at|link is at|"
                         r"instead of|而不是", re.IGNORECASE)


_INSTEAD_OF = re.compile(r"(?:instead of|rather than|而不是|而非)\s*(?:the\s+|its\s+)?(?:rated\s+|full\s+)?$",
                         re.IGNORECASE)


def _rated_and_negotiated(stated: dict[str, Understood], hits: list[Understood], text: str) -> None:
    """'ConnectX-6 200Gb 网卡，ethtool 看协商速率只有 100000Mb/s', 'negotiated at 25000Mb/s instead of 100G': the lower
    speed said as negotiated is the link's (nic.speed_gbps); the higher one is the NIC's rating (nic.max_speed_gbps)."""
    speeds = [h for h in hits if h.fact == "nic.speed_gbps" and h.source == "words" and not h.hypothetical]
    if len({h.value for h in speeds}) < 2:
        return
    for h in speeds:  # 'running at 100G instead of 200G', '跑在 25G 而不是 100G': the figure before the cue is the link

        if _INSTEAD_OF.search(text, max(0, h.start - 20), h.start):
            before = [s for s in speeds if s.end <= h.start and s.value < h.value
                      and tx.clause_bounds(text, s.start) == tx.clause_bounds(text, h.start)]
            if before:
                stated["nic.speed_gbps"] = before[-1]
                if "nic.max_speed_gbps" not in stated or stated["nic.max_speed_gbps"].weak:
                    stated["nic.max_speed_gbps"] = Understood("nic.max_speed_gbps", h.value, h.text, h.start, h.end)
                return
    said = [h for h in speeds if not h.weak and _NEGOTIATED.search(text, max(0, h.start - 30), h.start)
            and not _INSTEAD_OF.search(text, max(0, h.start - 20), h.start)]
    if not said:
        return
    low = min(said, key=lambda h: h.value)
    high = max(speeds, key=lambda h: h.value)
    if high.value > low.value:
        stated["nic.speed_gbps"] = low
        if "nic.max_speed_gbps" not in stated or stated["nic.max_speed_gbps"].weak:
            stated["nic.max_speed_gbps"] = Understood("nic.max_speed_gbps", high.value, high.text, high.start, high.end)


# s14 nodes set against each other: 'one node has 100G, the other 25G', 'node A … node B', '一台是 100G，另一台是 25G'
_NODE_AGAINST_NODE = re.compile(
    r"(?<![A-Za-z])(?:one|the first)\s+(?:of the\s+)?(?:nodes?|machines?|servers?|hosts?|boxes)(?![A-Za-z])"
    r"[^.;。；]{0,60}?"
    r"(?<![A-Za-z])the (?:other|second)(?![A-Za-z])|(?<![A-Za-z])(?:node|machine|server|host)\s*(?:A|1)(?![A-Za-z0-9])"
    r"[^.;。；]{0,60}?(?:node|machine|server|host)\s*(?:B|2)(?![A-Za-z0-9])|(?:一|其中一)台[^。；;]{0,30}?另(?:外)?(?:一|那)台|"
    r"(?<![A-Za-z])some (?:nodes|machines|servers|hosts)(?![A-Za-z])[^.;。；]{0,60}?(?<![A-Za-z])others?(?![A-Za-z])|"
    r"(?:部分|有的|有些)(?:机器|节点|服务器)[^。；;]{0,30}?(?:另一部分|其他|其余|有的|有些)", re.IGNORECASE)


def _slowest_node_link(stated: dict[str, Understood], hits: list[Understood], text: str) -> None:
    """Two link speeds said of different nodes ('one node has 100G, the other 25G'): the job's link is the slowest one
    (the cluster's aggregate of nic.speed_gbps is its minimum), not the one said first."""
    speeds = [h for h in hits if h.fact == "nic.speed_gbps" and h.source == "words" and not h.weak
              and not h.hypothetical]
    if len({h.value for h in speeds}) < 2:
        return
    for m in _NODE_AGAINST_NODE.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        inside = [h for h in speeds if a <= h.start < max(b, m.end() + 24)]
        if len({h.value for h in inside}) >= 2:
            stated["nic.speed_gbps"] = min(inside, key=lambda h: h.value)
            return


_LINE_RATE = re.compile(r"line[- ]rate|wire[- ]speed|full (?:link )?speed|线速|满速|跑满|打满", re.IGNORECASE)


def _wanted_line_rate(stated: dict[str, Understood], proposed: dict[str, Understood], text: str) -> None:
    """'How do I get 100 Gb/s out of a ConnectX-5? iperf3 stays at two thirds of the line rate': the figure wanted,
    when the words call what is missing the line rate, is the link's speed, not a throughput to weigh."""
    if "nic.speed_gbps" in stated or not _LINE_RATE.search(text):
        return
    for key in ("net.iperf3_gbps", "nic.speed_gbps"):
        wanted = proposed.get(key)
        if wanted is not None and wanted.source == "words":
            stated["nic.speed_gbps"] = Understood("nic.speed_gbps", wanted.value, wanted.text, wanted.start,
                                                  wanted.end, inferred=True)
            del proposed[key]
            return


# 'all_reduce_perf reaches only 40% of line rate on our 100GbE NICs', 'iperf3 只有线速的 30%': a test's figure said as a
# share of the link's rate
_SHARE_OF_LINE = re.compile(r"(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s*of\s+(?:the\s+)?(?:NIC'?s?\s+|link'?s?\s+|port'?s?\s+)?"
                            r"(?:line[- ]?rate|wire[- ]?speed|link speed|rated speed|"
                            r"theoretical(?: max(?:imum)?| peak| bandwidth)?|nominal(?: speed| bandwidth)?)|"
                            r"(?:线速|理论带宽|理论值|标称带宽)(?:的)?\s*(?:只有|仅|才)?\s*"
                            r"(?P<pct2>\d{1,2}(?:\.\d+)?)\s*%", re.IGNORECASE)
_SHARE_TOOLS = {
    "nccl.allreduce_busbw_gbytes_per_s": re.compile(r"busbw|all_?reduce_perf|nccl[-_ ]tests?|all[-_ ]?reduce", re.I),
    "net.rdma_bw_gbps": re.compile(r"ib_(?:write|read|send)_bw|perftest", re.I),
    "net.iperf3_gbps": re.compile(r"iperf", re.I),
}


def _share_of_line_rate(stated: dict[str, Understood], text: str) -> None:
    speed = stated.get("nic.speed_gbps")
    if speed is None or speed.weak:
        return
    for m in _SHARE_OF_LINE.finditer(text):
        share = float(m["pct"] or m["pct2"]) / 100
        sentence = tx.sentence(text, m.start())
        for key, tool in _SHARE_TOOLS.items():
            if tool.search(sentence):
                if key not in stated and share > 0:
                    gbps = float(speed.value) * share
                    if key.startswith("nccl."):  # the bus bandwidth against all the node's NICs, in GB/s
                        count = stated.get("nic.count")
                        nics = int(count.value) if count is not None and isinstance(count.value, int) else 1
                        gbps = gbps * nics / 8
                    stated[key] = Understood(key, round(gbps, 4), m.group(0), m.start(), m.end(), inferred=True)
                break


def _per_nic_speed(stated: dict[str, Understood], hits: list[Understood]) -> None:
    """'两张 IB 卡，每张 100Gbps … 两张卡理论上是 200Gbps': of two speeds, the one that is the other times the NIC count
    is the node's sum; nic.speed_gbps is one NIC's."""
    speed, count = stated.get("nic.speed_gbps"), stated.get("nic.count")
    if speed is None or count is None or not isinstance(count.value, int) or count.value < 2:
        return
    for h in hits:
        if h.fact == "nic.speed_gbps" and not h.hypothetical and abs(h.value * count.value - speed.value) < 1e-6:
            stated["nic.speed_gbps"] = h
            return


def _baseline_machine_gpus(stated: dict[str, Understood], hits: list[Understood]) -> None:
    """'a single machine with 8 GPUs runs fine': the baseline run is that machine's 8 GPUs."""
    base = stated.get("job.baseline_nodes")
    if base is None or base.value != 1 or "job.baseline_gpus" in stated:
        return
    counts = [h for h in hits if h.fact == "job.gpus_per_node" and not h.hypothetical and h.value > 1]
    same = [h for h in counts if h.start < base.end and base.start < h.end] or [
        h for h in counts if 0 <= h.start - base.end <= 3]  # '1 node 4 GPUs: …': the count just after the machine
    if same:
        h = same[0]
        stated["job.baseline_gpus"] = Understood("job.baseline_gpus", h.value, h.text, h.start, h.end)
        job = stated.get("job.nodes")
        if "job.gpus_per_node" not in stated and job is not None and job.value > 1:
            # '2 nodes are much slower than 1 node with 8 GPUs': the same machines, eight GPUs each
            stated["job.gpus_per_node"] = Understood("job.gpus_per_node", h.value, h.text, h.start, h.end,
                                                     inferred=True, weak=True)


def _job_total_of_machines_like_the_baseline(stated: dict[str, Understood]) -> None:
    """'single machine 4 cards: 1.17 steps/s; 2 machines, 8 cards: 0.655': one machine of the baseline holds 4 GPUs, so
    the job's 8 cards over 2 machines are its total, not 8 in each — unless the words say 'each'."""
    base_nodes, base_gpus = stated.get("job.baseline_nodes"), stated.get("job.baseline_gpus")
    nodes, gpus = stated.get("job.nodes"), stated.get("job.gpus_per_node")
    if None in (base_nodes, base_gpus, nodes, gpus) or base_nodes.value != 1 or nodes.value <= 1:  # type: ignore[union-attr]
        return
    assert base_gpus is not None and nodes is not None and gpus is not None
    if gpus.value == nodes.value * base_gpus.value and gpus.value != base_gpus.value \
            and not re.search(r"每|各|per|each|apiece|x|×|\*", gpus.text, re.IGNORECASE):
        stated["job.gpus_per_node"] = Understood("job.gpus_per_node", base_gpus.value, gpus.text, gpus.start, gpus.end,
                                                 inferred=True)


_INSTANCE_WORDS = re.compile(r"instance|实例|specification|spec sheet|规格|云主机|cloud", re.IGNORECASE)
_MEASURING = re.compile(r"iperf|perf|实测|测|跑|打到|能到|达到|measur|shows?|showed|report|getting|got|achiev|reach|"
                        r"throughput|吞吐|observ|看到|显示|tops out|maxes out|peak|nload|iftop", re.IGNORECASE)


_OF_AN_INSTANCE = ("node.instance_bandwidth_gbps", "job.gpus_per_node", "gpu.model")


def _instance_figures_of_the_job(stated: dict[str, Understood], hits: list[Understood]) -> None:
    """What a cloud instance type implies (its bandwidth cap, GPUs, GPU model) holds for the type the job runs on, not
    for another named beside it ('on a single g5.8xlarge …; it works on a single p4d.24xlarge too')."""
    job = stated.get("node.instance_type")
    if job is None:
        return
    named = {(h.start, h.end) for h in hits if h.fact == "node.instance_type"} - {(job.start, job.end)}
    for key in _OF_AN_INSTANCE:
        u = stated.get(key)
        if u is not None and u.inferred and u.weak and (u.start, u.end) in named:
            del stated[key]


def _instance_caps(text: str, hits: list[Understood], entities: list[Entity]) -> list[Understood]:
    """'p3dn.24xlarge (8x V100, bandwidth 100Gbps)', 'the instance specification lists 25Gbps': a figure the cloud
    publishes for the instance, not a measurement."""
    out = []
    for h in hits:
        if h.fact == "net.iperf3_gbps" and h.source == "words":
            a, b = tx.sentence_bounds(text, h.start)
            ca, cb = tx.clause_bounds(text, h.start)
            named = any(e.kind == "instance" and a <= e.start < b for e in entities)
            if (named or _INSTANCE_WORDS.search(text, ca, cb)) and not _MEASURING.search(text, ca, cb) \
                    and not SHARE_OF_THE_RATE.match(text, h.end):  # s11 share of the rate: a figure, not the cap
                out.append(Understood("node.instance_bandwidth_gbps", h.value, h.text, h.start, h.end))
                continue
        out.append(h)
    return out


_NO_PLUGIN = re.compile(r"No plugin found \(libnccl-net\.so\)|Could not find:? libnccl-net|"
                        r"libnccl-net\.so[^\n]{0,40}(?:not found|cannot open)", re.IGNORECASE)
_EFA_CONTEXT = re.compile(r"(?<![A-Za-z])EFA(?![A-Za-z])|aws-ofi-nccl|libfabric|FI_PROVIDER", re.IGNORECASE)


def _plugin_matters_on_efa(stated: dict[str, Understood], question: str) -> None:
    """NCCL's 'No plugin found (libnccl-net.so)' matters where a plugin carries the traffic (EFA through aws-ofi-nccl);
    on InfiniBand/RoCE or plain Ethernet it is a harmless line."""
    efa = _EFA_CONTEXT.search(question) or (stated.get("nic.efa") and stated["nic.efa"].value is True)
    missing = _NO_PLUGIN.search(question)
    if efa and missing and "nccl.net_plugin_missing" not in stated:
        stated["nccl.net_plugin_missing"] = Understood("nccl.net_plugin_missing", True, missing.group(0),
                                                       missing.start(), missing.end(), source="pasted")
    elif not efa and "nccl.net_plugin_missing" in stated:
        stated.pop("nccl.net_plugin_missing")


# NCCL's IB transport giving up on a peer, pasted or quoted: 'NET/IB : Got completion from peer 10.0.0.2<…> with
# error 12, opcode 0, len 0, vendor err 129', 'transport retry counter exceeded', 'IBV_WC_RETRY_EXC_ERR'
_RETRY_EXCEEDED = re.compile(r"Got completion (?:from peer \S+ )?with error 12(?!\d)|(?:completion|wc) error 12(?!\d)|"
                             r"transport retry counter exceeded|IBV_WC_RETRY_EXC_ERR|RETRY_EXC_ERR", re.IGNORECASE)


def _ib_retries_exceeded(stated: dict[str, Understood], question: str) -> None:
    m = _RETRY_EXCEEDED.search(question)
    if m and "nccl.ib_retry_exceeded" not in stated:
        source = "pasted" if "Got completion" in m.group(0) else "words"
        stated["nccl.ib_retry_exceeded"] = Understood("nccl.ib_retry_exceeded", True, m.group(0)[:80], m.start(),
                                                      m.end(), source=source)


# NCCL's socket layer failing to open a connection to another rank (misc/socket.cc, bootstrap.cc), or the words for it
_CONNECT_FAILED = re.compile(r"Connect to \S+ failed|connect returned (?:Connection )?(?:timed out|refused)|"
                             r"socketStartConnect|(?:NCCL|NET/Socket|bootstrap|socket)[^\n]{0,100}?"
                             r"(?:Connection (?:timed out|refused)|No route to host)|"
                             r"(?:Connection (?:timed out|refused)|No route to host)[^\n]{0,60}?"
                             r"(?:NCCL|NET/Socket|bootstrap|unhandled system error)", re.IGNORECASE)


def _peer_unreachable(stated: dict[str, Understood], question: str) -> None:
    m = _CONNECT_FAILED.search(question)
    if m and "nccl.connect_failed" not in stated:
        stated["nccl.connect_failed"] = Understood("nccl.connect_failed", True, m.group(0)[:80], m.start(), m.end(),
                                                   source="pasted" if "NCCL WARN" in question else "words")


_ADAPTERS = re.compile(r"(?<![A-Za-z])(?:q?lora|peft|adapters?|p-?tuning|prefix[- ]tuning|prompt[- ]tuning)"
                       r"(?![A-Za-z])", re.IGNORECASE)


def _precision_of_a_large_model(stated: dict[str, Understood], question: str) -> None:
    """A model of a billion parameters or more trains in mixed precision: its gradients are assumed to travel in 16 bits
    (the lower bound of the traffic), so the communication model can say what the network costs — as an assumption.
    Not for adapter tuning (LoRA, P-tuning): only the adapters' small gradients travel, not the model's."""
    size = stated.get("job.model_params_b")
    if size is None or "job.precision" in stated or not isinstance(size.value, int | float) or size.value < 1 \
            or _ADAPTERS.search(question):
        return
    stated["job.precision"] = Understood("job.precision", "bf16", size.text, size.start, size.end, inferred=True,
                                         weak=True)


def _speedup_from_step_times(stated: dict[str, Understood]) -> None:
    """Two step times and the two run sizes give the speed-up: a step on more GPUs does more work (same per-GPU
    batch), so throughput ratio = (baseline step ÷ job step) × (job size ÷ baseline size). With a global batch
    size stated, a step is that batch on any size ('data.train_batch_size=256, 其他配置完全一样'): the ratio of step
    times."""
    if "job.step_time_s" not in stated or "job.step_time_baseline_s" not in stated:
        return
    job, base = stated["job.step_time_s"], stated["job.step_time_baseline_s"]
    if "job.global_batch_size" in stated and job.value > 0:
        said = stated.get("job.speedup")
        if said is None or said.inferred or said.source == "words" and said.start <= job.start < said.end:
            speedup = round(base.value / job.value, 4)
            a, b = min(job.start, base.start), max(job.end, base.end)
            stated["job.speedup"] = Understood("job.speedup", speedup, f"{base.text} → {job.text}", a, b, inferred=True)
            if speedup < 1:
                stated.setdefault("job.negative_scaling", Understood("job.negative_scaling", True, job.text, a, b,
                                                                     inferred=True))
        return
    if "job.speedup" in stated:
        return
    nodes = stated.get("job.nodes")
    gpus = stated.get("job.gpus_per_node")
    if nodes is not None and nodes.value > 1:
        ratio = nodes.value / (stated["job.baseline_nodes"].value if "job.baseline_nodes" in stated else 1)
    elif gpus is not None and gpus.value > 1 and (nodes is None or nodes.value == 1):
        ratio = gpus.value / (stated["job.baseline_gpus"].value if "job.baseline_gpus" in stated else 1)
    else:
        return
    if ratio <= 1 or job.value <= 0:
        return
    speedup = round(base.value / job.value * ratio, 4)
    a, b = min(job.start, base.start), max(job.end, base.end)
    baseline = "job.baseline_nodes" if nodes is not None and nodes.value > 1 else "job.baseline_gpus"
    stated.setdefault(baseline, Understood(baseline, 1, base.text, base.start, base.end, inferred=True))
    stated["job.speedup"] = Understood("job.speedup", speedup, f"{base.text} → {job.text}", a, b, inferred=True)
    if speedup < 1:
        negative = Understood("job.negative_scaling", True, job.text, a, b, inferred=True)
        stated.setdefault("job.negative_scaling", negative)


# What a step time's ends give, where the step time is said to swing between them
_FROM_STEP_ENDS = {"job.step_time_s", "job.step_time_baseline_s", "job.speedup", "job.negative_scaling",
                   "job.scaling_efficiency_pct", "job.step_time_cv"}


def _steps_that_swing(text: str, hits: list[Understood]) -> list[Understood]:
    """'step time varies between 1.2 s and 3.5 s on 4 nodes': the middle and the spread, not an end of the range read as
    the step (nor a speed-up computed from that end against the single-node step)."""
    swings = step_time_swings(text)
    if not swings:
        return hits
    spans = [(h.start, h.end) for h in swings]
    kept = [h for h in hits if not (h.fact in _FROM_STEP_ENDS and any(h.start < b and a < h.end for a, b in spans))]
    return kept + swings


# What a comparison of runs reads, which a straggler's sentence is not: one machine against the rest of the same job
_RUN_COMPARISON = {"job.speedup", "job.negative_scaling", "job.baseline_nodes", "job.baseline_gpus",
                   "job.step_time_baseline_s"}


def _one_machine_against_the_rest(text: str, hits: list[Understood]) -> list[Understood]:
    """'其中一台的 step time 比其他慢 3 倍', 'one node shows 3.2 s per step while the other nodes take 1.1 s': a machine
    behind the others of the same job, not a smaller run beside a larger one; nor is its 'one node' the job's size."""
    # (the straggler's own words and their clause: '多机训练比单机慢，两台机器中有一台特别慢' keeps the runs compared
    # before it)
    sentences = {(tx.clause_bounds(text, h.start)[0], max(h.end, tx.clause_bounds(text, h.start)[1])) for h in hits
                 if h.fact == "job.straggler_suspected" and h.value is True and not h.source.startswith("pasted")}
    if not sentences:
        return hits

    def in_straggler_sentence(h: Understood) -> bool:
        return any(a <= h.start < b for a, b in sentences)

    # cmp-s10 two machines: a load inside two machines' figures set side by side ('一台 GPU 利用率 95%，另一台只有
    # 30%') is one machine's, neither the job's load
    pair = [(h.start, h.end) for h in hits if h.fact == "job.straggler_suspected" and h.value is True and h.inferred]
    return [h for h in hits if not (in_straggler_sentence(h) and not h.source.startswith("pasted") and (
        h.fact in _RUN_COMPARISON or (h.fact == "job.nodes" and h.value == 1)
        or h.fact == "gpu.util_pct" and any(a <= h.start < b for a, b in pair)))]


# s12 tested pair: 'We have 4 nodes … nccl-tests between two nodes gives 370 GB/s', '两台机器之间 iperf3 测了一下': the
# machines a test ran between are its own, not the job's size when the job's is said elsewhere
_TEST_TOOL = re.compile(r"nccl[-_ ]?tests?|all_?(?:reduce|gather|to_?all)_perf|sendrecv_perf|iperf3?|qperf|perftest|"
                        r"ib_(?:write|read|send)_(?:bw|lat)|bandwidth test|busbw|algbw|带宽测试|"
                        r"(?<![A-Za-z])(?:test(?:ed|ing)?|benchmark(?:ed|ing)?|measured?)(?![A-Za-z])|测(?:试|了|出|得|下)?",
                        re.IGNORECASE)
_TESTED_BETWEEN = re.compile(r"(?:between|among|across)\s+(?:the\s+|any\s+|our\s+)?$", re.IGNORECASE)
_TESTED_BETWEEN_AFTER = re.compile(r"\s*(?:之间|间)")


def _tested_pairs_aside(text: str, hits: list[Understood]) -> list[Understood]:
    """Counts of the machines a test ran between (see above) are set aside when another count names the job."""
    nodes = [h for h in hits if h.fact == "job.nodes" and not h.weak and not h.hypothetical]
    if len({h.value for h in nodes}) < 2:
        return hits

    def tested(h: Understood) -> bool:
        a, b = tx.clause_bounds(text, h.start)
        between = (_TESTED_BETWEEN.search(text, max(a, h.start - 16), h.start)
                   or _TESTED_BETWEEN_AFTER.match(text, h.end))
        return bool(between) and bool(_TEST_TOOL.search(text, a, b))

    pairs = [h for h in nodes if tested(h)]
    if not pairs or len(pairs) == len(nodes) or {h.value for h in pairs} >= {h.value for h in nodes if h not in pairs}:
        return hits
    return [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
            if h in pairs else h for h in hits]


def _drop_baseline_counts(hits: list[Understood], baseline: list[tuple[int, int]]) -> list[Understood]:
    """Counts that describe the smaller run of a comparison never stand for the job asked about."""
    def inside(h: Understood) -> bool:
        return any(a <= h.start < b for a, b in baseline)

    keep = []
    for h in hits:
        if h.fact in {"job.nodes", "job.gpus_per_node", "job.total_gpus"} and inside(h):
            continue
        keep.append(h)
    return keep


def _pasted_label(pasted: Pasted) -> str:
    return "pasted " + ", ".join(pasted.kinds) if pasted.kinds else "pasted output"


_BARE = re.compile(r"(?<![A-Za-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>G|Gb|g|gb)?(?![A-Za-z0-9])")


def _bare_correction(prose: str, previous_facts: dict[str, Any]) -> dict[str, Understood]:
    """'不对，是25G' / 'no, 25G': a bare rate corrects the network fact the conversation already has."""
    m = _BARE.search(prose)
    if not m or not m["unit"]:
        return {}
    for fact in ("nic.speed_gbps", "net.iperf3_gbps", "node.instance_bandwidth_gbps"):
        if fact in previous_facts:
            return {fact: Understood(fact, float(m["num"]), m.group(0), m.start(), m.end())}
    return {}
