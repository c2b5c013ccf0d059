"""The probe's errors. The CLI maps ``ConfigError`` to one line on stderr and exit status 2.

    ProbeError
    ├── ConfigError      bad config file, environment variable or flag
    └── DeliveryError    the service did not accept a report (``retryable`` says whether to try again)
"""

from __future__ import annotations


class ProbeError(Exception):
    """Base of everything the probe raises on purpose."""


class ConfigError(ProbeError):
    """Invalid configuration; the message names the source, the key and what was expected."""


class DeliveryError(ProbeError):
    """A report was not accepted; ``retryable`` is False when sending it again cannot help."""

    def __init__(self, message: str, *, retryable: bool, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after_s = retry_after_s
