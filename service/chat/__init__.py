"""The conversational core: words -> facts and intents, facts -> a reply. Pure: no database, no HTTP.

The service stores conversations and calls `answer_turn`; the CLI prints `format_text`.
"""

from bwdoctor.chat import host_side, memory_share, symptoms, timings  # noqa: F401  (they register their word readers with extract_facts)
from bwdoctor.chat.answer import answer_turn, format_text
from bwdoctor.chat.understanding import Understanding, understand

__all__ = ["Understanding", "answer_turn", "format_text", "understand"]
