"""Whose batch a bare 'batch size' is: the framework decides.

In DDP scripts, the Hugging Face Trainer and Horovod each process loads its own batch, so a bare 'batch size 32' is the
per-GPU (micro) batch. Some frameworks take one batch for the whole step and split it across the GPUs: Ultralytics'
YOLO trainers and YOLOX (`--batch-size` is 'total batch size for all GPUs'), MXNet's Module and Gluon (the batch is
sliced over the `ctx` list), `nn.DataParallel`, Keras' `multi_gpu_model` and `tf.distribute.MirroredStrategy` (the
global batch). Under those, the same words name the global batch.
"""

from __future__ import annotations

import re

_WHOLE_BATCH_FRAMEWORK = re.compile(
    r"(?<![\w-])(?:YOLO(?:v?\d{1,2}|X)|ultralytics|mxnet|gluon|split_and_load|multi_gpu_model|MirroredStrategy|"
    r"DataParallel)(?![\w-])|(?<![\w.])mx\.gpu\s*\(|accelerator\s*=\s*['\"]dp['\"]|"
    r"(?<![\w.-])yolov\d{1,2}\w*\.(?:pt|ya?ml)", re.IGNORECASE)


def splits_the_batch(text: str) -> bool:
    """The question names a framework that splits one batch across the GPUs (see above)."""
    return _WHOLE_BATCH_FRAMEWORK.search(text) is not None
