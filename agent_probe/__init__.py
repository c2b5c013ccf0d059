"""``agent-probe``: runs beside the training job on every GPU node and reports facts about it.

Light and harmless by design: stdlib plus httpx, pyyaml and nvidia-ml-py, each imported only
where needed; it speaks to the service only over HTTP in the fact vocabulary and never
imports the ``service`` package.
"""

__version__ = "0.1.0"
