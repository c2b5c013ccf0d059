"""Progress bars of several runs pasted together: one pace per run, never their average.

A person comparing two settings pastes a bar of each, each led by a label of its own:

    train 4 batch 8 gpu:  18/20000 [23:57<403:54:45, 72.77s/it, loss=0.0777]
    train 1 batch 8 gpu:  17/20000 [07:43<119:15:51, 21.49s/it, loss=0.118]

The training-log parser reads such lines as one run and gives the median of their rates, a pace neither run had. Labels
that differ once what one run's bars also vary by (the epoch, the rank, a timestamp, the bar itself) is taken out say
the lines are runs; the one a slowness question is about is the slowest, the others are what it is compared with.
"""

from __future__ import annotations

import re

_IC = re.IGNORECASE
_BAR = re.compile(r"(?P<label>[^\r\n]*?)(?<![\d/])(?P<n>\d+)/(?:\d+|\?)\s*\[[0-9:]+<[0-9:?]+,\s*"
                  r"(?P<rate>\d+(?:\.\d+)?)\s*(?P<unit>it/s|s/it)")
# what the bars of one run vary by: the bar and its percentage, the epoch, the rank or worker, a timestamp
_SAME_RUN = re.compile(r"\d{1,3}%\s*\|[^|\n]*\||(?<![A-Za-z])(?:epoch|rank|worker|process|proc|pid)\s*[:#=]?\s*\d+"
                       r"(?:\s*/\s*\d+)?|\[?\d{4}-\d\d-\d\d[ T][\d:.,]+\]?|\d\d:\d\d:\d\d(?:[.,]\d+)?|"
                       r"[\s:：|\-\[\]()]+", _IC)
_NOT_TRAINING = re.compile(r"valid|eval|test|predict|sanity|inference|generat", _IC)


def runs_of_bars(block: str) -> list[tuple[str, float]]:
    """Each labelled run's latest pace in seconds per step, in the order first shown; [] for the bars of one run."""
    runs: dict[str, float] = {}
    for line in re.split(r"[\r\n]+", block):
        m = _BAR.search(line)
        if not m or _NOT_TRAINING.search(m["label"]):
            continue
        rate = float(m["rate"])
        if rate <= 0:
            continue
        runs[_SAME_RUN.sub(" ", m["label"]).strip().lower()] = rate if m["unit"] == "s/it" else 1.0 / rate
    if len(runs) < 2 or not all(re.search(r"[A-Za-z\u4e00-\u9fff]", label) for label in runs):
        return []
    return list(runs.items())


def slowest_run_pace(block: str) -> float | None:
    """The pace of the slowest of several labelled runs' bars (see above), None when the bars are one run's."""
    runs = runs_of_bars(block)
    return max(pace for _, pace in runs) if runs else None
