"""Slack request signatures (v0 HMAC-SHA256 of "v0:timestamp:body"), checked before anything is parsed.

A request that is unsigned, wrongly signed or older than five minutes (a replay) is refused with 401.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping

from slack_sdk.signature import SignatureVerifier

from bwdoctor.config import Settings
from bwdoctor.errors import ServiceUnavailable, Unauthorized

MAX_AGE_S = 5 * 60
# Unix seconds: ten digits until the year 2286. Anything longer is refused before int() and float
# arithmetic see it (a 400-digit "timestamp" cannot be subtracted from a float).
_TIMESTAMP = re.compile(r"[0-9]{1,12}")


def verify_slack_request(settings: Settings, headers: Mapping[str, str], body: bytes) -> None:
    """Raise Unauthorized unless Slack signed exactly this body within the last five minutes."""
    secret = settings.slack.signing_secret
    if secret is None or not secret.get_secret_value():
        raise ServiceUnavailable(
            "Slack is not configured: set BWDOCTOR_SLACK_SIGNING_SECRET", code="slack_not_configured"
        )
    timestamp = headers.get("x-slack-request-timestamp", "")
    signature = headers.get("x-slack-signature", "")
    if not timestamp or not signature:
        raise Unauthorized("missing Slack signature headers", code="invalid_signature")
    if not _TIMESTAMP.fullmatch(timestamp):
        raise Unauthorized("the Slack request timestamp is not a Unix time in seconds", code="invalid_signature")
    age = time.time() - int(timestamp)
    if age < -MAX_AGE_S:  # a clock ahead by more than the allowed skew, or a forged timestamp
        raise Unauthorized("the Slack request timestamp is in the future", code="stale_request")
    if age > MAX_AGE_S:
        raise Unauthorized("the Slack request is older than five minutes", code="stale_request")
    try:
        text = body.decode("utf-8")  # Slack always sends UTF-8; anything else cannot be a Slack request
    except UnicodeDecodeError:
        raise Unauthorized("the Slack request body is not UTF-8", code="invalid_signature") from None
    verifier = SignatureVerifier(secret.get_secret_value())
    if not verifier.is_valid(body=text, timestamp=timestamp, signature=signature):
        raise Unauthorized("the Slack signature does not match", code="invalid_signature")
