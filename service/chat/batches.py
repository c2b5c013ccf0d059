"""Whose batch a bare 'batch size' is: the framework decides.

In DDP scripts, the Hugging Face Trainer and Horovod each process loads its own batch, so a bare 'batch size 32' is the
per-GPU (micro) batch. Some frameworks take one batch for the whole step and split it across the GPUs: Ultralytics'
YOLO trainers and YOLOX (`--batch-size` is 'total batch size for all GPUs'), MXNet's Module and Gluon (the batch is
sliced over the `ctx` list), `nn.DataParallel`, Keras' `multi_gpu_model` and `tf.distribute.MirroredStrategy` (the
global batch), and the scripts grown from PyTorch's ImageNet example, known by its `--multiprocessing-distributed` flag
(MoCo, MoCo v3, SimSiam: `-b` is 'the total batch size of all GPUs', divided by the GPUs per node in the script).
Under those, the same words name the global batch.
"""

from __future__ import annotations

import re

_WHOLE_BATCH_FRAMEWORK = re.compile(
    r"(?<![\w-])(?:YOLO(?:v?\d{1,2}|X)|ultralytics|mxnet|gluon|split_and_load|multi_gpu_model|MirroredStrategy|"
    r"DataParallel)(?![\w-])|(?<![\w.])mx\.gpu\s*\(|accelerator\s*=\s*['\"]dp['\"]|"
    r"(?<![\w.-])yolov\d{1,2}\w*\.(?:pt|ya?ml)|(?<![\w-])--multiprocessing[-_]distributed(?![\w-])", re.IGNORECASE)


def splits_the_batch(text: str) -> bool:
    """The question names a framework that splits one batch across the GPUs (see above)."""
    return _WHOLE_BATCH_FRAMEWORK.search(text) is not None


# s34 the total said after a batch, as the sum of the GPUs' batches: '每个卡 batch_size = 16，共 64', 'batch size 8 per
# GPU, 64 in total', 'bs 32 每卡（总共 256）'. Read on the whole question: the batch may sit in a command line's
# setting that the prose has blanked. A count of GPUs, machines or tokens after the total is no batch.
_TOTAL_AFTER = re.compile(
    r"(?:batch[_ ]?size|(?<![\w.])batch|(?<![A-Za-z])bs)\s*(?:is|of|=|:|：|为|是)?\s*(?P<each>\d{1,5})"
    r"(?:\s*(?:per (?:GPU|device|card|rank)|/\s*(?:GPU|卡|card)|on each GPU|每卡|每张卡))?\s*[，,]?\s*[(（]?\s*"
    r"(?:(?P<zh>共|总共|一共|合计|总计)|(?:for\s+)?a\s+total\s+of|total(?:ling)?|in\s+total)\s*(?:是|为|of|=|:|：)?\s*"
    r"(?P<total>\d{1,6})(?![\d.])(?!\s*(?:张|块|个|台|卡|GPU|cards?|nodes?|machines?|ranks?|workers?|steps?|tokens?|样本|"
    r"samples?|images?|epochs?|[%倍x×]|[KMGT]?B\b))"
    r"|(?:batch[_ ]?size|(?<![\w.])batch|(?<![A-Za-z])bs)\s*(?:is|of|=|:|：|为|是)?\s*(?P<each2>\d{1,5})\s*"
    r"(?:per (?:GPU|device|card|rank)|on each GPU)\s*[，,]\s*(?P<total2>\d{1,6})\s*in\s+total(?![A-Za-z])",
    re.IGNORECASE)


def batch_totals(text: str) -> list[tuple[int, int, int]]:
    """(total, start, end) for each whole-step batch said as the total of per-GPU batches (see above); the total is a
    whole multiple of the batch before it, or it is no such sum."""
    out = []
    for m in _TOTAL_AFTER.finditer(text):
        each, total = int(m["each"] or m["each2"]), int(m["total"] or m["total2"])
        group = "total" if m["total"] else "total2"
        if total > each and total % each == 0:
            out.append((total, m.start(group), m.end(group)))
    return out


# s34 each GPU's share of the batch said apart from it: '每个 GPU 只分到 16', 'each GPU only gets 16 samples': a bare
# batch that is a whole multiple of the share was the whole step's, split over the GPUs (UER-py's DataParallel)
_SHARE_EACH = re.compile(
    r"(?:每个|每张|每块|每)\s*(?:GPU|卡|显卡)\s*(?:上)?\s*(?:就|只|仅)?\s*(?:能)?\s*(?:分到|分得|分配到|拿到)(?:了)?\s*"
    r"(?P<n>\d{1,5})(?!\d|\.\d)|(?<![A-Za-z])each\s+(?:GPU|card|device|rank)\s+(?:only\s+)?(?:gets|receives|sees)\s+"
    r"(?:only\s+)?(?P<n2>\d{1,5})(?!\d|\.\d)", re.IGNORECASE)


def batch_shares(text: str) -> list[int]:
    """Each GPU's share of a split batch, as said (see above)."""
    return [int(m["n"] or m["n2"]) for m in _SHARE_EACH.finditer(text)]
