"""Tables of runs a person typed: one row per run, the columns named by a header or by their own units.

    | nodes | step time (s) | tokens/s |      节点数 | 吞吐 (tokens/s)      8 Gpus   750.3/gpu   6001.19/total   100%
    |-------|---------------|----------|      1 | 3000                 16 Gpus  693.3/gpu   11090.10/total  92.4%
    | 1     | 0.50          | 3000     |      2 | 3500                 32 Gpus  584.3/gpu   18695.00/total  77.88%
    | 4     | 0.90          | 6700     |      4 | 3600

Each column gets a role from its header ('nodes', 'GPUs', 'step time', 'throughput', 'per GPU', 'efficiency', '节点数',
'吞吐', '每步耗时', '扩展效率'), or, without a header, from what its cells say ('8 Gpus', '750.3/gpu', '6001.19/total',
'77.88%' in a column that starts at 100 %). The rows become runs, and the runs a comparison of the largest (the job)
with the smallest (its baseline), as a series said in words is (`comparisons`).
"""

from __future__ import annotations

import re

from bwdoctor.chat.comparisons import _quantities as quantities

_IC = re.IGNORECASE

# Header words, by the role of their column (the first that matches names it).
_ROLES: list[tuple[str, re.Pattern[str]]] = [
    ("efficiency", re.compile(r"efficien|scaling\s*(?:%|eff)|扩展效率|并行效率|效率", _IC)),
    ("rate-per-gpu", re.compile(r"per[ _-]?(?:GPU|card|device)|/\s*(?:GPU|card)|每卡|单卡(?:吞吐|速度)", _IC)),
    ("step", re.compile(r"step[ _]?time|s\s*/\s*it|sec\s*/\s*it|iter(?:ation)?[ _]?time|"
                        r"time\s*(?:per|/)\s*(?:step|iter)|it\s*/\s*s|iters?\s*/\s*s|steps?\s*/\s*s|"
                        r"每步|单步|step\s*(?:耗时|时间)|迭代(?:耗时|时间)", _IC)),
    ("rate", re.compile(r"throughput|tok(?:ens)?\s*/\s*s|samples?\s*/\s*s|img\s*/\s*s|images?\s*/\s*s|吞吐|速度|speed|"
                        r"/\s*total", _IC)),
    ("time", re.compile(r"epoch[ _]?time|training[ _]?time|wall[ _-]?(?:clock|time)|duration|runtime|(?<![a-z])time|"
                        r"耗时|时间|用时", _IC)),
    ("gpus", re.compile(r"GPUs?|cards?|world[ _]?size|ranks?|devices?|卡数|显卡|卡", _IC)),
    ("nodes", re.compile(r"nodes?|machines?|servers?|hosts?|instances?|节点|机器|台数|机数|服务器", _IC)),
]
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([kK](?![A-Za-z]))?")
# A header that counts ('nodes', '#GPUs', 'num_gpus', '节点数'), not one naming an item ('node', 'GPU', 'rank')
_COUNTED = re.compile(r"[A-Za-z]s\b|#|num|count|number|world|数|total", _IC)
_JOINED_RULE = re.compile(r"(?<=\|)[ \t]+(?=\|\s*:?-{2,})")
_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CELL_SIZE = re.compile(r"^\s*(?P<n>\d{1,4})\s*(?:x\s*)?"
                        r"(?P<w>nodes?|machines?|servers?|hosts?|GPUs?|cards?|台|机|节点|卡)?\s*$", _IC)
# (the Chinese keys are what the reader reads, so raw strings like its patterns: it says nothing with them)
_TIME_UNITS = {"ms": 0.001, r"毫秒": 0.001, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
               r"秒": 1.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0, r"分钟": 60.0, "h": 3600.0,
               "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0, r"小时": 3600.0}
_TIME_UNIT = re.compile(r"(?<![A-Za-z])(ms|毫秒|secs?|seconds?|s|秒|mins?|minutes?|分钟|hrs?|hours?|h|小时)"
                        r"(?![A-Za-z])", _IC)


def _cells(line: str) -> list[tuple[str, int]] | None:
    """The cells of one table row with where each starts: '|'-separated, else two spaces or a tab apart."""
    if "|" in line:
        parts, pos = [], 0
        for piece in line.split("|"):
            parts.append((piece, pos))
            pos += len(piece) + 1
        if line.strip().startswith("|"):
            parts = parts[1:]
        if line.strip().endswith("|"):
            parts = parts[:-1]
        return parts if len(parts) >= 2 else None
    cells = [(m.group(0), m.start()) for m in re.finditer(r"\S+(?: \S+)*", line)]
    return cells if len(cells) >= 3 and ("  " in line.strip() or "\t" in line) else None


def table_blocks(text: str, start: int = 0, end: int | None = None) -> list[list[tuple[int, list[tuple[str, int]]]]]:
    """Runs of two lines or more that split into the same number of cells: (line start, cells) for each line."""
    end = len(text) if end is None else end
    blocks: list[list[tuple[int, list[tuple[str, int]]]]] = []
    current: list[tuple[int, list[tuple[str, int]]]] = []
    pos = start
    # a header run into its '|---|' rule by a wrapped line ('| nodes | tok/s | |---|---|'): the rule starts a line
    region = _JOINED_RULE.sub(lambda m: "\n" * len(m.group(0)), text[start:end])
    for line in region.split("\n"):
        cells = None if _RULE.match(line) else _cells(line)
        if _RULE.match(line) and current:
            pos += len(line) + 1
            continue
        if cells is not None and (not current or len(cells) == len(current[-1][1])):
            current.append((pos, [(c, pos + a) for c, a in cells]))
        else:
            if len(current) >= 2:
                blocks.append(current)
            current = [(pos, [(c, pos + a) for c, a in cells])] if cells is not None else []
        pos += len(line) + 1
    if len(current) >= 2:
        blocks.append(current)
    return blocks


def _role(header: str) -> str | None:
    for role, pattern in _ROLES:
        if pattern.search(header):
            return role
    return None


def _own_role(cells: list[str]) -> str | None:
    """A column without a header, named by what its cells say."""
    sizes = [_CELL_SIZE.match(c) for c in cells]
    if sizes and all(s is not None and s["w"] for s in sizes):
        w = sizes[0]["w"]  # type: ignore[index]
        return "gpus" if re.match(r"GPU|card|卡", w, _IC) else "nodes"
    if all(re.search(r"\d\s*/\s*(?:gpu|card|device)\b", c, _IC) for c in cells):
        return "rate-per-gpu"
    if all(re.search(r"\d\s*/\s*total\b|\d\s*(?:tok(?:ens)?|samples?|img|images?)\s*/\s*s", c, _IC) for c in cells):
        return "rate"
    if all(re.search(r"\d\s*(?:s|sec)\s*/\s*it", c, _IC) for c in cells):
        return "step"
    percents = [re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*%\s*", c) for c in cells]
    if all(percents) and abs(float(percents[0][1]) - 100) < 0.5:  # type: ignore[index]
        return "efficiency"  # a column of shares that starts at 100 % at the smallest run
    return None


Row = tuple[int, str, tuple[int, int], str, float, tuple[int, int], float | None]


def read_table_runs(text: str, start: int = 0, end: int | None = None) -> list[list[Row]]:
    """Each table of runs in text[start:end] as rows (size, 'nodes'|'gpus', size span, measure, value, row span,
    efficiency), or nothing for a table whose columns say no size and no figure."""
    out: list[list[Row]] = []
    for block in table_blocks(text, start, end):
        header = block[0][1]
        has_header = sum(bool(re.search(r"\d", c)) for c, _ in header) <= len(header) // 2
        rows = block[1:] if has_header else block
        if len(rows) < 2:
            continue
        roles: list[str | None] = []
        units: list[str] = []
        for i in range(len(header)):
            column = [r[1][i][0] for r in rows]
            role = _role(header[i][0]) if has_header else None
            role = role or _own_role(column)
            roles.append(role)
            units.append((header[i][0] if has_header else "") + " " + column[0])
        size_col = next((i for i, r in enumerate(roles) if r == "nodes"), None)
        size_col = size_col if size_col is not None else next((i for i, r in enumerate(roles) if r == "gpus"), None)
        measure_col = next((i for kind in ("rate", "rate-per-gpu", "step", "time") for i, r in enumerate(roles)
                            if r == kind), None)
        if size_col is None or measure_col is None:
            continue
        kind, measure = roles[size_col], roles[measure_col]
        eff_col = next((i for i, r in enumerate(roles) if r == "efficiency"), None)
        table: list[Row] = []
        for line_start, cells in rows:
            size = _NUMBER.search(cells[size_col][0])
            figure = _NUMBER.search(cells[measure_col][0])
            if not size or not figure or "." in size.group(1):
                table = []
                break
            value = float(figure.group(1)) * (1000 if figure.group(2) else 1)
            value = _in_seconds(value, measure or "", units[measure_col], cells[measure_col][0])
            cell, at = cells[measure_col]
            said = [q for q in quantities(text, at, at + len(cell))[0] if q[0] in ("time", "step")]
            if measure in ("time", "step") and len(said) == 1:
                value = said[0][1]  # '1h 20 mins', '450 ms', '2 it/s': the cell's own unit
            eff = _NUMBER.search(cells[eff_col][0]) if eff_col is not None else None
            row_end = cells[-1][1] + len(cells[-1][0])
            a = cells[size_col][1] + size.start()
            table.append((int(size.group(1)), str(kind), (a, a + len(size.group(0).rstrip())), str(measure), value,
                          (line_start, row_end), float(eff.group(1)) if eff else None))
        sizes = sorted(n for n, *_ in table)
        named_one = has_header and not _COUNTED.search(header[size_col][0])
        ids = 0 in sizes or (named_one and sizes == list(range(sizes[0], sizes[0] + len(sizes))) if sizes else False)
        if table and not ids and all(v > 0 for _, _, _, _, v, _, _ in table):
            out.append(table)  # a column of 0, 1, 2 … or of 'node' 1, 2, 3 numbers machines, it does not count them
    return out


def table_gpus_per_node(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, int]]:
    """s14 a table of runs with a column of machines and one of GPUs ('| nodes | GPUs | samples/s |', '| 1 | 8 |',
    '| 2 | 16 |'): the GPUs of each machine (value, span of the largest run's GPUs), where every row gives the same."""
    out: list[tuple[int, int, int]] = []
    for block in table_blocks(text, start, end):
        header, rows = block[0][1], block[1:]
        if len(rows) < 2 or any(re.search(r"\d", c) for c, _ in header):
            continue
        roles = [_role(c) for c, _ in header]
        if "nodes" not in roles or "gpus" not in roles or not _COUNTED.search(header[roles.index("gpus")][0]):
            continue
        at_n, at_g = roles.index("nodes"), roles.index("gpus")
        sizes: list[tuple[int, int, int]] = []
        for _, cells in rows:
            nodes, gpus = _NUMBER.fullmatch(cells[at_n][0].strip()), _NUMBER.fullmatch(cells[at_g][0].strip())
            if not nodes or not gpus or "." in nodes.group(0) + gpus.group(0) or int(nodes.group(1)) < 1:
                sizes = []
                break
            cell, at = cells[at_g]
            sizes.append((int(nodes.group(1)), int(gpus.group(1)), at + cell.index(gpus.group(1))))
        shares = {g // n if g % n == 0 else 0 for n, g, _ in sizes}
        if sizes and len(shares) == 1 and 1 <= (share := shares.pop()) <= 16:
            _, most, at = max(sizes)
            out.append((share, at, at + len(str(most))))
    return out


def _in_seconds(value: float, measure: str, header: str, cell: str) -> float:
    """A step or run time in seconds (its unit in the cell, else in the header); steps per second inverted."""
    if measure not in ("step", "time"):
        return value
    if re.search(r"(?:it|iters?|steps?)\s*/\s*s", cell + " " + header, _IC) and not re.search(r"s\s*/\s*it", cell, _IC):
        return 1 / value if value else value
    unit = _TIME_UNIT.search(cell) or _TIME_UNIT.search(header)
    return value * _TIME_UNITS.get(unit.group(1).lower(), 1.0) if unit else value


# ------------------------------------------------------------------------------------------------ tables of links
# '| link | spec | iperf3 |', '| test | pair | result | per NIC |', '节点对 | 带宽': one row per link or per test, a
# rated column (the NIC's speed) and a measured one (what the tool the header or the words before the table name got).
_RATED_HEAD = re.compile(r"spec|rated|rating|nominal|line[ _]?rate|link[ _]?speed|port[ _]?speed|"
                         r"标称|规格|额定|理论|速率", _IC)
_PER_NIC_HEAD = re.compile(r"per[ _-]?(?:NIC|HCA|port|link|rail)|/\s*(?:NIC|HCA|port)|每(?:张)?网卡|单网卡|每口", _IC)
_MEASURED_HEAD = re.compile(r"iperf|ib_(?:write|read|send)_bw|perftest|busbw|all[_-]?reduce|measured|result|"
                            r"bandwidth|throughput|实测|结果|带宽|吞吐", _IC)
_TOOLS: list[tuple[str, re.Pattern[str]]] = [
    ("nccl.allreduce_busbw_gbytes_per_s", re.compile(r"all[_ -]?reduce|busbw|nccl[_ -]?tests?|NCCL", _IC)),
    ("net.rdma_bw_gbps", re.compile(r"ib_(?:write|read|send)_bw|perftest|RDMA (?:bandwidth|test)", _IC)),
    ("net.iperf3_gbps", re.compile(r"iperf3?(?![\w])", _IC)),
]
_BANDWIDTH = re.compile(r"(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*"
                        r"(?P<unit>GB/s|GBps|Gb/s|Gbps|Gbit/s|Gbits/sec|Gbit|G(?![A-Za-z])|MB/s|Mb/s|Mbps|Mbits/sec)?"
                        r"(?![\w%.])", _IC)
_CROSS_ROW = re.compile(r"cross|inter[ _-]?node|\d+[ -]?nodes?|multi[ -]?node|two[ -]nodes|"
                        r"跨(?:机|节点)|多机|两机|双机|<->|↔|-->|\b\w+\d+\s*-\s*\w+\d+\b", _IC)
_SINGLE_ROW = re.compile(r"single[ -]?node|one node|intra[ _-]?node|same node|1[ -]node|"
                         r"单机|单节点|机内|本机", _IC)
_AGGREGATE_ROW = re.compile(r"\ball\b|\[\d+\s*-\s*\d+\]|total|aggregate|sum|合计|总|全部", _IC)
_COMPLAINT = re.compile(r"asking about|slow|worse|low|only|why|problem|issue|bottleneck|问|慢|低|差|为什么|瓶颈", _IC)
_TOOL_BEFORE = 240  # how far before a table its words may name the tool
_MAX_LINK_ROWS = 16  # a table of links or tests is short; a longer one is a log, and reading it row by row is no time


def _gbps(num: str, unit: str | None, fact: str) -> float:
    """A cell's figure in the fact's unit: Gb/s for links, GB/s for NCCL's bus bandwidth; a bare 'G' is Gb/s."""
    value = float(num.replace(",", ""))
    u = (unit or "").lower()
    if u.startswith("m"):
        value /= 1000
    byte = bool(unit) and "B" in (unit or "") and "bit" not in u
    if fact.startswith("nccl."):
        return value if (byte or not unit) else value / 8
    return value * 8 if byte else value


def _rate_cell(cell: str) -> bool:
    """A cell that says a rate with its unit ('395.08 Gb/s'), as a column without a header must."""
    m = _BANDWIDTH.search(cell)
    return bool(m and re.search(r"/s|ps|/sec", m["unit"] or "") and "%" not in cell)


def _tool_of(header: str, before: str) -> str | None:
    for fact, pattern in _TOOLS:
        if pattern.search(header):
            return fact
    named = [(m.start(), fact) for fact, pattern in _TOOLS for m in pattern.finditer(before)]
    return max(named)[1] if named else None


def _label_words(cells: list[str]) -> set[str]:
    return {w.lower() for c in cells for w in re.findall(r"[A-Za-z]{3,}|[\u4e00-\u9fff]{2,}", c)}


def read_link_tables(text: str, start: int = 0, end: int | None = None,
                     prose: str | None = None) -> list[tuple[str, object, int, int]]:
    """(fact, value, start, end) for each table of links or measurements in text[start:end].

    The row that stands for the job, in this order:
    1. the one whose own words the question's complaint names ('I'm asking about the Thunderbolt link', 'why is it
       slower on …'): of several links measured, the one asked about;
    2. else the cross-node rows over single-node ones ('| Single node | 474 GB/s |' against '| 2-node | 155 GB/s |'):
       the job crosses machines, a single node's figure is NVLink's;
    3. among those, a per-NIC row over an aggregate of every NIC ('ALL 8 NICs', 'mlx5_[0-7]'): the measurement facts
       are per link (the aggregate gives the NIC count instead);
    4. the worst of the like rows left: the slowest link limits the job.
    `prose`: the question's words around the table, to find the complaint in (the text itself when not given).
    """
    end = len(text) if end is None else end
    out: list[tuple[str, object, int, int]] = []
    for block in table_blocks(text, start, end):
        header = [c for c, _ in block[0][1]]
        has_header = not any((b := _BANDWIDTH.search(c)) is not None and b["unit"] for c in header) and not any(
            re.fullmatch(r"\s*\d+(?:\.\d+)?\s*G?\s*", c) for c in header)
        rows = block[1:] if has_header else block
        if not rows or len(rows) > _MAX_LINK_ROWS:
            continue
        width = len(header)
        if has_header and any(_role(h) in ("nodes", "gpus", "step", "rate", "time") and not _MEASURED_HEAD.search(h)
                              and not _RATED_HEAD.search(h) and not _names_only(rows, i)
                              for i, h in enumerate(header) if i):
            continue  # a table of runs (a 'device' column of names, 'rocep1s0f1', counts nothing: it labels a link)
        rated = next((i for i, h in enumerate(header) if has_header and _RATED_HEAD.search(h)), None)
        measured = [i for i in range(width) if i != rated and (
            (has_header and (_MEASURED_HEAD.search(header[i]) or _PER_NIC_HEAD.search(header[i])))
            or (not has_header and all(_rate_cell(r[1][i][0]) for r in rows)))]
        measured = [i for i in measured if all(_BANDWIDTH.search(r[1][i][0]) for r in rows)]
        if not measured:
            continue
        per_nic = next((i for i in measured if has_header and _PER_NIC_HEAD.search(header[i])), measured[0])
        table_start = block[0][0]
        before = text[max(0, table_start - _TOOL_BEFORE):table_start]
        tool = _tool_of(header[per_nic] if has_header else "", before)
        if tool is None:
            continue
        labels = [i for i in range(width) if i not in measured and i != rated]
        row_text = [" ".join(r[1][i][0] for i in labels) for r in rows]
        chosen = _job_row(rows, row_text, labels, text, prose, rated, per_nic)
        if chosen is None:
            continue
        _, cells = rows[chosen]
        cell, at = cells[per_nic]
        m = _BANDWIDTH.search(cell)
        if m is None:
            continue
        unit = m["unit"] or (header[per_nic] if has_header else "")
        unit_m = re.search(r"GB/s|Gb/s|Gbps|MB/s|Mb/s|\bG\b", unit) if not m["unit"] else None
        value = _gbps(m["num"], m["unit"] or (unit_m.group(0) if unit_m else None), tool)
        if value > 0:
            out.append((tool, round(value, 3), at + m.start("num"), at + m.end()))
        if rated is not None:
            cell, at = cells[rated]
            r = _BANDWIDTH.search(cell)
            if r and r["unit"] not in (None, "") and float(r["num"].replace(",", "")) > 0:
                out.append(("nic.speed_gbps", _gbps(r["num"], r["unit"], "nic.speed_gbps"), at + r.start("num"),
                            at + r.end()))
        out.extend(_row_sizes(rows, chosen, labels, text))
    return out


def _names_only(rows: list[tuple[int, list[tuple[str, int]]]], i: int) -> bool:
    """Column `i` holds names ('mlx5_0', 'rocep1s0f1', blank), no figure: the column labels its rows."""
    cells = [r[1][i][0].strip() for r in rows if i < len(r[1])]
    return bool(cells) and not any(re.match(r"\d", c) for c in cells)


def _job_row(rows: list[tuple[int, list[tuple[str, int]]]], row_text: list[str], labels: list[int], text: str,
             prose: str | None, rated: int | None, measured: int) -> int | None:
    """Which row stands for the job (see read_link_tables); None when none can be told."""
    if len(rows) == 1:
        return 0
    words = prose if prose is not None else text[:rows[0][0]] + " " + text[rows[-1][0]:]
    own = [_label_words([r[1][i][0] for i in labels]) for r in rows]
    scores = []
    for k, mine in enumerate(own):
        distinct = mine - set().union(*(o for j, o in enumerate(own) if j != k))
        said = 0
        for w in distinct:
            for m in re.finditer(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", words, _IC):
                a = max(0, m.start() - 60)
                if _COMPLAINT.search(words, a, m.end() + 60):
                    said += 1
        scores.append(said)
    best = max(scores)
    if best > 0 and scores.count(best) == 1:
        return scores.index(best)
    left = list(range(len(rows)))
    cross = [k for k in left if _CROSS_ROW.search(row_text[k]) and not _SINGLE_ROW.search(row_text[k])]
    if cross and len(cross) < len(left) and all(_SINGLE_ROW.search(row_text[k]) for k in left if k not in cross):
        left = cross
    single_nic = [k for k in left if not _AGGREGATE_ROW.search(row_text[k])]
    if single_nic and len(single_nic) < len(left):
        left = single_nic
    if rated is not None and len({rows[k][1][rated][0].strip().lower() for k in left}) > 1:
        return None  # links of several ratings, none asked about: which one the job uses is not said
    values = [_BANDWIDTH.search(rows[k][1][measured][0]) for k in left]
    # several like rows (node pairs, NICs): the slowest limits the job
    return min(left, key=lambda k: float(values[left.index(k)]["num"].replace(",", "")))  # type: ignore[index]


_ROW_NODES = re.compile(r"(?<![\w.])(?P<n>\d{1,3})[ -]?nodes?\b|(?P<m>\d{1,3})\s*(?:台|机)(?!器)", _IC)
_ROW_GPUS = re.compile(r"(?<![\w.])(?P<n>\d{1,4})\s*(?:GPUs?|cards?|卡)", _IC)
_ROW_NICS = re.compile(r"(?<![\w.])(?P<n>\d{1,2})\s*(?:NICs?|HCAs?|网卡)", _IC)
_ROW_IB = re.compile(r"(?<![A-Za-z])(?:IB|InfiniBand)(?![A-Za-z])", _IC)


def _row_sizes(rows: list[tuple[int, list[tuple[str, int]]]], chosen: int, labels: list[int],
               text: str) -> list[tuple[str, object, int, int]]:
    """What the job's row says of the job ('2-node (16 GPUs)', 'NVLink + IB fabric') and an aggregate row of the
    NICs ('ALL 8 NICs')."""
    out: list[tuple[str, object, int, int]] = []
    _, cells = rows[chosen]
    for cell, at in cells:
        nodes, gpus = _ROW_NODES.search(cell), _ROW_GPUS.search(cell)
        if nodes:
            n = int(nodes["n"] or nodes["m"])
            out.append(("job.nodes", n, at + nodes.start(), at + nodes.end()))
            if gpus and n > 1 and int(gpus["n"]) % n == 0:
                out.append(("job.gpus_per_node", int(gpus["n"]) // n, at + gpus.start(), at + gpus.end()))
        ib = _ROW_IB.search(cell)
        if ib:
            out.append(("nic.kind", "infiniband", at + ib.start(), at + ib.end()))
    for k, (_, cells) in enumerate(rows):
        if k == chosen:
            continue
        for cell, at in cells:
            nics = _ROW_NICS.search(cell)
            if nics and _AGGREGATE_ROW.search(cell) and int(nics["n"]) > 1:
                out.append(("nic.count", int(nics["n"]), at + nics.start(), at + nics.end()))
    return out
