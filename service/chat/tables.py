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
_TIME_UNITS = {"ms": 0.001, "毫秒": 0.001, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "秒": 1.0,
               "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0, "分钟": 60.0, "h": 3600.0, "hr": 3600.0,
               "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0, "小时": 3600.0}
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
    if all(_CELL_SIZE.match(c) and _CELL_SIZE.match(c)["w"] for c in cells):
        w = _CELL_SIZE.match(cells[0])["w"]  # type: ignore[index]
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


def _in_seconds(value: float, measure: str, header: str, cell: str) -> float:
    """A step or run time in seconds (its unit in the cell, else in the header); steps per second inverted."""
    if measure not in ("step", "time"):
        return value
    if re.search(r"(?:it|iters?|steps?)\s*/\s*s", cell + " " + header, _IC) and not re.search(r"s\s*/\s*it", cell, _IC):
        return 1 / value if value else value
    unit = _TIME_UNIT.search(cell) or _TIME_UNIT.search(header)
    return value * _TIME_UNITS.get(unit.group(1).lower(), 1.0) if unit else value
