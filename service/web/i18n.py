"""The web UI's own words in English and Chinese, and choosing between them from Accept-Language.

Answers come in the question's language from the chat core; these are only the page's labels.
"""

from __future__ import annotations

SUPPORTED = ("en", "zh")
LANG_COOKIE = "bwd_lang"

UI: dict[str, dict[str, str]] = {
    "en": {
        "app_name": "Bandwidth Doctor",
        "tagline": "Why is distributed training slow? The network, the storage, or something else — with the numbers.",
        "nav_label": "Main",
        "nav_chat": "Chat",
        "nav_clusters": "Clusters",
        "switch_lang": "中文",
        "switch_lang_label": "切换到中文",
        "skip": "Skip to the question box",
        "conversation_label": "Conversation",
        "empty": "Describe your training job: model size, number of machines, precision, network card, GPU "
        "utilisation — or paste iperf3, nccl-tests, NCCL_DEBUG or training-log output.",
        "examples_label": "Examples",
        "example_1": "We train a 100B model on 8 nodes with data parallelism, FP16, 10GbE NICs, GPU utilisation 40%",
        "example_2": "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%",
        "question_label": "Your question or pasted output",
        "question_hint": "Enter sends, Shift+Enter adds a line.",
        "send": "Send",
        "new_conversation": "New conversation",
        "thinking": "Thinking…",
        "answered": "Answer received.",
        "restored": "Earlier conversation restored.",
        "error": "Something went wrong",
        "network_error": "The service could not be reached. Check the connection and try again.",
        "you": "You",
        "doctor": "Bandwidth Doctor",
        "findings": "Findings",
        "evidence": "Evidence",
        "recommendations": "Recommendations",
        "what_if": "What if",
        "confidence": "confidence",
        "category": "category",
        "sources": "Sources",
        "understood": "What I understood",
        "missing": "To be more precise, tell me",
        "critical": "Critical",
        "warning": "Warning",
        "info": "Info",
        "chart_title": "All-reduce time per gradient sync by NIC speed",
        "chart_desc": "Ring all-reduce of {gb} GB over {n} nodes: 2(N−1)/N × size ÷ link rate.",
        "chart_yours": "your NIC",
        "seconds": "s",
        "turn": "Turn",
    },
    "zh": {
        "app_name": "带宽医生",
        "tagline": "分布式训练为什么慢？是网络、存储，还是别的——用数字说话。",
        "nav_label": "主导航",
        "nav_chat": "对话",
        "nav_clusters": "集群",
        "switch_lang": "English",
        "switch_lang_label": "Switch to English",
        "skip": "跳到提问框",
        "conversation_label": "对话记录",
        "empty": "描述你的训练任务：模型规模、机器数、精度、网卡、GPU 利用率——或者粘贴 iperf3、nccl-tests、"
        "NCCL_DEBUG 或训练日志的输出。",
        "examples_label": "示例",
        "example_1": "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%",
        "example_2": "We train a 100B model on 8 nodes with data parallelism, FP16, 10GbE NICs, GPU utilisation 40%",
        "question_label": "你的问题或粘贴的输出",
        "question_hint": "回车发送，Shift+回车换行。",
        "send": "发送",
        "new_conversation": "新对话",
        "thinking": "正在分析…",
        "answered": "已收到回答。",
        "restored": "已恢复之前的对话。",
        "error": "出错了",
        "network_error": "无法连接到服务，请检查网络后重试。",
        "you": "你",
        "doctor": "带宽医生",
        "findings": "诊断结果",
        "evidence": "依据",
        "recommendations": "建议",
        "what_if": "如果",
        "confidence": "置信度",
        "category": "类别",
        "sources": "出处",
        "understood": "我理解到的信息",
        "missing": "为了更准确，请告诉我",
        "critical": "严重",
        "warning": "警告",
        "info": "提示",
        "chart_title": "不同网卡速率下每次梯度同步的 all-reduce 耗时",
        "chart_desc": "{n} 台机器上 {gb} GB 的 ring all-reduce：2(N−1)/N × 数据量 ÷ 链路速率。",
        "chart_yours": "当前网卡",
        "seconds": "秒",
        "turn": "第几轮",
    },
}


def ui_strings(lang: str) -> dict[str, str]:
    """The page's labels in `lang` (English for anything unknown)."""
    return UI.get(lang, UI["en"])


def pick_language(accept_language: str) -> str:
    """The best supported language of an Accept-Language header by q-value; English by default."""
    best, best_q = "en", -1.0
    for part in accept_language.split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in SUPPORTED:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        # Strictly greater: on a tie the earlier entry (the preferred one) stays.
        if q > best_q:
            best, best_q = primary, q
    return best if best_q > 0 else "en"
