/* The web chat: posts questions to /api/v1/ask, keeps the conversation id in localStorage and
 * re-renders a stored conversation on load.
 *
 * Safety rule of this file: user text and every string from the server reach the page only through
 * textContent, createTextNode and setAttribute on fixed attribute names — never innerHTML — so a
 * pasted <script> or onerror= stays text. The page's CSP forbids inline script as a second wall.
 * The chart under an answer is the server's (/charts/allreduce.svg, the engine's own arithmetic),
 * copied element by element through an allow-list of SVG elements and attributes. */
(function () {
  "use strict";

  var STORAGE_KEY = "bwdoctor.conversation_id";
  var ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
  var T = JSON.parse(document.getElementById("ui-strings").textContent);
  var FACTS = JSON.parse(document.getElementById("fact-labels").textContent);
  var SEVERITIES = {
    critical: { icon: "✖", label: T.critical },
    warning: { icon: "⚠", label: T.warning },
    info: { icon: "ℹ", label: T.info }
  };
  var COUNT_UNITS = { "": 1, share: 1, "%": 1, "×": 1, "Gb/s": 1, "GB/s": 1, GB: 1, s: 1, ms: 1 };

  var form = document.getElementById("ask-form");
  var input = document.getElementById("question");
  var sendButton = document.getElementById("send");
  var newButton = document.getElementById("new-conversation");
  var log = document.getElementById("log");
  var empty = document.getElementById("empty");
  var statusLine = document.getElementById("status");
  var busy = false;
  var idCounter = 0;

  /* ---------- small DOM helpers (text only) ---------- */

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function append(parent) {
    for (var i = 1; i < arguments.length; i++) {
      if (arguments[i]) { parent.appendChild(arguments[i]); }
    }
    return parent;
  }

  function nextId(prefix) { idCounter += 1; return prefix + "-" + idCounter; }

  function htmlLang(lang) { return lang === "zh" ? "zh-CN" : "en"; }

  /* Inline `code` spans become <code> elements; everything else is a text node. */
  function inlineText(parent, text) {
    String(text).split(/(`[^`\n]+`)/).forEach(function (part) {
      if (part.length > 2 && part.charAt(0) === "`" && part.charAt(part.length - 1) === "`") {
        parent.appendChild(el("code", null, part.slice(1, -1)));
      } else if (part) {
        parent.appendChild(document.createTextNode(part));
      }
    });
    return parent;
  }

  /* The answer's plain text as paragraphs and lists ("- " and "1. " lines), built node by node.
     So that an answer fits a screen, its first block (the verdict) is shown and every later block
     that starts with a heading line ("Numbers:", "怎么办：") is folded under that heading; the block
     that asks the follow-up questions stays open (`openIf`), since it is what the user answers. */
  function formatAnswer(text, openIf) {
    var box = el("div", "answer");
    String(text || "").split(/\n\s*\n/).forEach(function (block, index) {
      var lines = block.split("\n");
      var heading = /^(.+?)\s*[:：]\s*$/.exec(lines[0] || "");
      if (index === 0 || !heading || lines.length < 2) {
        formatBlock(box, block);
        return;
      }
      var fold = el("details", "answer-section");
      if (openIf && openIf(block)) { fold.open = true; }
      fold.appendChild(inlineText(el("summary"), heading[1]));
      box.appendChild(formatBlock(fold, lines.slice(1).join("\n")));
    });
    return box;
  }

  function formatBlock(box, text) {
    var list = null;
    var paragraph = null;
    String(text || "").split("\n").forEach(function (line) {
      var bullet = /^\s*[-•*]\s+(.*)$/.exec(line);
      var numbered = /^\s*(\d{1,3})[.)]\s+(.*)$/.exec(line);
      if (bullet || numbered) {
        var kind = bullet ? "UL" : "OL";
        paragraph = null;
        if (!list || list.tagName !== kind) {
          list = box.appendChild(el(kind.toLowerCase()));
          if (numbered && numbered[1] !== "1") { list.setAttribute("start", numbered[1]); }
        }
        list.appendChild(inlineText(el("li"), bullet ? bullet[1] : numbered[2]));
      } else if (!line.trim()) {
        list = null;
        paragraph = null;
      } else {
        list = null;
        if (paragraph) {
          paragraph.appendChild(el("br"));
        } else {
          paragraph = box.appendChild(el("p"));
        }
        inlineText(paragraph, line);
      }
    });
    return box;
  }

  /* ---------- numbers and fact names ---------- */

  function formatNumber(value) {
    if (typeof value !== "number" || !isFinite(value)) { return String(value); }
    var abs = Math.abs(value);
    var digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
    return value.toLocaleString(document.documentElement.lang, { maximumFractionDigits: digits });
  }

  function factName(key) {
    var entry = FACTS[key];
    return entry && entry.name ? entry.name : key;
  }

  function factValue(key, value) {
    if (typeof value === "boolean" || typeof value === "string" || value === null) { return String(value); }
    if (Array.isArray(value)) { return value.map(String).join(", "); }
    var unit = (FACTS[key] && FACTS[key].unit) || "";
    if (unit === "share") { return formatNumber(value * 100) + " %"; }
    if (!(unit in COUNT_UNITS)) { unit = ""; }
    if (unit === "×") { return formatNumber(value) + "×"; }
    return formatNumber(value) + (unit ? " " + unit : "");
  }

  /* ---------- findings ---------- */

  function severityBadge(severity) {
    var info = SEVERITIES[severity] || SEVERITIES.info;
    var badge = el("span", "badge badge-" + (SEVERITIES[severity] ? severity : "info"));
    append(badge, el("span", "badge-icon", info.icon), document.createTextNode(" " + info.label));
    badge.firstChild.setAttribute("aria-hidden", "true");
    return badge;
  }

  function evidenceList(evidence) {
    var list = el("ul", "evidence");
    (evidence || []).forEach(function (item) {
      var li = el("li");
      if (factName(item.fact) !== item.fact) {
        append(li, el("span", "fact-name", factName(item.fact)), document.createTextNode(" "));
      }
      append(li, el("code", "fact-key", item.fact), document.createTextNode(" = "),
        el("strong", "fact-value", factValue(item.fact, item.value)));
      if (item.condition) {
        var cond = el("span", "condition");
        append(cond, document.createTextNode(" — "), el("code", null, item.condition));
        li.appendChild(cond);
      }
      list.appendChild(li);
    });
    return list;
  }

  function whatIfItem(whatIf) {
    var li = el("li");
    append(li, el("span", "what-if-label", T.what_if + ": " + whatIf.label));
    var values = whatIf.values || {};
    var before = whatIf.before || {};
    var figures = el("ul", "figures");
    Object.keys(values).forEach(function (key) {
      var row = el("li");
      append(row, el("span", "fact-name", factName(key) + " "));
      if (typeof before[key] === "number") {
        append(row, el("s", "before", factValue(key, before[key])), document.createTextNode(" → "));
      }
      append(row, el("strong", "after", factValue(key, values[key])));
      if (typeof before[key] === "number" && typeof values[key] === "number" && before[key] !== 0) {
        var change = Math.round((values[key] - before[key]) / Math.abs(before[key]) * 100);
        append(row, el("span", "change", " (" + (change > 0 ? "+" : "") + change + " %)"));
      }
      figures.appendChild(row);
    });
    li.appendChild(figures);
    return li;
  }

  function recommendationList(recommendations) {
    var list = el("ol", "recommendations");
    (recommendations || []).forEach(function (rec) {
      var li = el("li", "recommendation");
      li.appendChild(inlineText(el("p"), rec.text || rec.id || ""));
      var whatIfs = rec.what_if || [];
      if (whatIfs.length) {
        var ul = el("ul", "what-ifs");
        whatIfs.forEach(function (w) { ul.appendChild(whatIfItem(w)); });
        li.appendChild(ul);
      } else if (rec.estimate && Object.keys(rec.estimate).length) {
        li.appendChild(el("ul", "what-ifs")).appendChild(whatIfItem({ label: rec.id, values: rec.estimate }));
      }
      list.appendChild(li);
    });
    return list;
  }

  function findingCard(finding) {
    var severity = SEVERITIES[finding.severity] ? finding.severity : "info";
    var card = el("article", "card sev-" + severity);
    var titleId = nextId("finding");
    card.setAttribute("aria-labelledby", titleId);
    var head = el("header", "card-head");
    var title = el("h4", "card-title", finding.title || finding.rule);
    title.id = titleId;
    append(head, severityBadge(severity), title);
    card.appendChild(head);
    var meta = [];
    if (finding.category) { meta.push(T.category + ": " + finding.category); }
    if (typeof finding.confidence === "number") {
      meta.push(T.confidence + " " + Math.round(finding.confidence * 100) + " %");
    }
    if (meta.length) { card.appendChild(el("p", "card-meta", meta.join(" · "))); }
    if (finding.explanation) { card.appendChild(inlineText(el("p", "explanation"), finding.explanation)); }
    if (finding.evidence && finding.evidence.length) {
      append(card, el("h5", null, T.evidence), evidenceList(finding.evidence));
    }
    if (finding.recommendations && finding.recommendations.length) {
      append(card, el("h5", null, T.recommendations), recommendationList(finding.recommendations));
    }
    var sources = (finding.source || []).join(", ");
    card.appendChild(el("p", "sources", T.sources + ": " + (sources ? sources + " · " : "") + finding.rule));
    return card;
  }

  function understoodFacts(facts) {
    var keys = Object.keys(facts || {});
    if (!keys.length) { return null; }
    var details = el("details", "understood");
    details.appendChild(el("summary", null, T.understood + " (" + keys.length + ")"));
    var dl = el("dl");
    keys.sort().forEach(function (key) {
      var dt = el("dt", null, factName(key));
      dt.setAttribute("title", key);
      append(dl, dt, el("dd", null, factValue(key, facts[key])));
    });
    details.appendChild(dl);
    return details;
  }

  function missingQuestions(missing) {
    var questions = (missing || []).filter(function (m) { return m && m.question; }).slice(0, 3);
    if (!questions.length) { return null; }
    var box = el("section", "missing");
    box.appendChild(el("h3", null, T.missing));
    var ul = el("ul");
    questions.forEach(function (m) { ul.appendChild(el("li", null, m.question)); });
    box.appendChild(ul);
    return box;
  }

  /* ---------- turns ---------- */

  function userMessage(question) {
    var box = el("div", "msg msg-user");
    append(box, el("h2", "who", T.you), el("p", "user-text", question));
    return box;
  }

  /* One answer: the text (verdict shown, the rest folded by heading), then the finding cards and the
     chart folded. The text already asks the follow-up questions and lists what was understood, so
     those are not repeated below it; they are shown apart only when the text does not hold them. */
  function doctorMessage(result, chart) {
    var box = el("article", "msg msg-doctor");
    if (result.language) { box.setAttribute("lang", htmlLang(result.language)); }
    box.appendChild(el("h2", "who", T.doctor));
    var answer = String(result.answer || "");
    var questions = (result.missing || []).map(function (m) { return m && m.question; }).filter(Boolean);
    var asks = function (block) { return questions.some(function (q) { return block.indexOf(q) >= 0; }); };
    box.appendChild(formatAnswer(answer, asks));
    var findings = result.findings || [];
    if (findings.length) {
      var section = el("details", "findings");
      section.appendChild(el("summary", null, T.findings + " (" + findings.length + ")"));
      findings.forEach(function (f) { section.appendChild(findingCard(f)); });
      box.appendChild(section);
    }
    if (chart) {
      var fold = el("details", "chart-fold");
      var caption = chart.querySelector("figcaption strong");
      fold.appendChild(el("summary", null, caption ? caption.textContent : T.chart_title));
      fold.appendChild(chart);
      box.appendChild(fold);
    }
    if (!questions.some(function (q) { return answer.indexOf(q) >= 0; })) {
      append(box, missingQuestions(result.missing));
    }
    if (!(result.understood && result.understood.length)) {  // the text lists what it understood
      append(box, understoodFacts(result.facts));
    }
    return box;
  }

  function addTurn(question) {
    empty.hidden = true;
    var li = el("li", "turn");
    li.appendChild(userMessage(question));
    log.appendChild(li);
    return li;
  }

  function errorMessage(text) {
    var box = el("div", "msg msg-error");
    box.setAttribute("role", "alert");
    append(box, el("strong", null, T.error + ": "), document.createTextNode(text));
    return box;
  }

  /* ---------- the server's chart ---------- */

  var SVG_NS = "http://www.w3.org/2000/svg";
  var SVG_ELEMENTS = { svg: 1, title: 1, desc: 1, g: 1, text: 1, rect: 1 };
  var SVG_ATTRIBUTES = ["viewBox", "width", "height", "role", "class", "focusable", "aria-labelledby", "id",
    "x", "y", "rx", "text-anchor"];

  /* A copy of a parsed SVG element with allowed elements and attributes only; text as textContent. */
  function copySvg(source) {
    var name = source.localName;
    if (!SVG_ELEMENTS[name]) { return null; }
    var node = document.createElementNS(SVG_NS, name);
    SVG_ATTRIBUTES.forEach(function (attribute) {
      if (source.hasAttribute(attribute)) { node.setAttribute(attribute, source.getAttribute(attribute)); }
    });
    if (name === "title" || name === "desc" || name === "text") {
      node.textContent = source.textContent;
      return node;
    }
    Array.prototype.forEach.call(source.children, function (child) {
      var copy = copySvg(child);
      if (copy) { node.appendChild(copy); }
    });
    return node;
  }

  /* The chart of a turn's facts as a <figure>, or null (no chart for these facts, or offline). */
  function chartFor(facts) {
    var query = new URLSearchParams();
    Object.keys(facts || {}).forEach(function (key) {
      var value = facts[key];
      if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
        query.append(key, String(value));
      }
    });
    if (!query.toString()) { return Promise.resolve(null); }
    query.append("lang", document.documentElement.lang.slice(0, 2) === "zh" ? "zh" : "en");
    return fetch("/charts/allreduce.svg?" + query.toString(), { credentials: "same-origin" })
      .then(function (response) { return response.status === 200 ? response.text() : null; })
      .then(function (text) {
        if (!text) { return null; }
        var parsed = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
        var drawing = parsed && parsed.localName === "svg" ? copySvg(parsed) : null;
        if (!drawing) { return null; }
        var figure = el("figure", "chart");
        var caption = el("figcaption");
        var title = drawing.querySelector("title");
        var desc = drawing.querySelector("desc");
        caption.appendChild(el("strong", null, title ? title.textContent : ""));
        caption.appendChild(document.createElement("br"));
        caption.appendChild(document.createTextNode(desc ? desc.textContent : ""));
        figure.appendChild(caption);
        figure.appendChild(drawing);
        return figure;
      })
      .catch(function () { return null; });
  }

  /* ---------- talking to the service ---------- */

  function storedId() {
    try {
      var id = window.localStorage.getItem(STORAGE_KEY);
      return id && ID_PATTERN.test(id) ? id : null;
    } catch (e) { return null; }
  }

  function storeId(id) {
    try {
      if (id) { window.localStorage.setItem(STORAGE_KEY, id); } else { window.localStorage.removeItem(STORAGE_KEY); }
    } catch (e) { /* private mode: the conversation lasts as long as the page */ }
  }

  function readError(response) {
    return response.json().then(function (body) {
      var err = body && body.error ? body.error : {};
      return { code: err.code || "http_" + response.status, message: err.message || response.statusText };
    }, function () { return { code: "http_" + response.status, message: response.statusText }; });
  }

  function postQuestion(question, conversationId) {
    var body = { question: question };
    if (conversationId) { body.conversation_id = conversationId; }
    return fetch("/api/v1/ask", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin"
    }).then(function (response) {
      if (response.ok) { return response.json(); }
      return readError(response).then(function (err) { throw err; });
    });
  }

  function setBusy(value) {
    busy = value;
    sendButton.disabled = value;
    log.setAttribute("aria-busy", value ? "true" : "false");
    statusLine.textContent = value ? T.thinking : "";
  }

  function reveal(node) {
    var smooth = !window.matchMedia || !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    node.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
  }

  function ask(question) {
    if (busy || !question.trim()) { return; }
    var turn = addTurn(question);
    input.value = "";
    setBusy(true);
    var conversationId = storedId();
    postQuestion(question, conversationId).catch(function (err) {
      if (err && err.code === "conversation_not_found") {  // forgotten by the server: start afresh
        storeId(null);
        return postQuestion(question, null);
      }
      throw err;
    }).then(function (result) {
      return chartFor(result.facts).then(function (chart) { return { result: result, chart: chart }; });
    }).then(function (answered) {
      var result = answered.result;
      storeId(result.conversation_id);
      turn.appendChild(doctorMessage(result, answered.chart));
      setBusy(false);
      statusLine.textContent = T.answered;
      reveal(turn);
    }).catch(function (err) {
      setBusy(false);
      var message = err && err.message ? err.message : T.network_error;
      if (err instanceof TypeError) { message = T.network_error; }
      turn.appendChild(errorMessage(message));
      statusLine.textContent = T.error + ": " + message;
      if (!input.value) { input.value = question; }  // nothing typed is lost
    }).then(function () { input.focus(); });
  }

  function restore() {
    var id = storedId();
    if (!id) { return; }
    fetch("/api/v1/conversations/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 404) { storeId(null); return null; }
        return response.ok ? response.json() : null;
      })
      .then(function (conversation) {
        if (!conversation || !conversation.turns || !conversation.turns.length) { return null; }
        return Promise.all(conversation.turns.map(function (t) { return chartFor(t.facts); }))
          .then(function (charts) { return { turns: conversation.turns, charts: charts }; });
      })
      .then(function (restored) {
        if (!restored) { return; }
        restored.turns.forEach(function (t, i) {
          var turn = addTurn(t.question);
          turn.appendChild(doctorMessage(t, restored.charts[i]));
        });
        statusLine.textContent = T.restored;
        log.lastChild.scrollIntoView({ block: "start" });
      })
      .catch(function () { /* offline: start with an empty page */ });
  }

  /* ---------- events ---------- */

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    ask(input.value);
  });

  input.addEventListener("keydown", function (event) {
    // Enter sends; Shift+Enter is a new line; Enter that confirms an IME (Chinese input) does neither.
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      ask(input.value);
    }
  });

  newButton.addEventListener("click", function () {
    storeId(null);
    while (log.firstChild) { log.removeChild(log.firstChild); }
    empty.hidden = false;
    statusLine.textContent = "";
    input.value = "";
    input.focus();
  });

  Array.prototype.forEach.call(document.querySelectorAll("button.example"), function (button) {
    button.addEventListener("click", function () { ask(button.getAttribute("data-example") || ""); });
  });

  restore();
})();
