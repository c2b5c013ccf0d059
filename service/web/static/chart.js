/* All-reduce time per gradient sync by NIC speed, drawn as inline SVG with DOM APIs only.
 * time = 2(N−1)/N × GB ÷ (Gb/s ÷ 8)  — the ring all-reduce of the engine's comm.allreduce_time_s.
 * Every label is set with textContent, so no string can become markup. */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var SPEEDS_GBPS = [10, 25, 100, 200, 400];
  var BYTES_PER_ELEMENT = { fp32: 4, bf16: 2, fp16: 2, fp8: 1, int8: 1 };
  var counter = 0;

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, String(attrs[name])); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function allreduceSeconds(gradGb, nodes, gbps) {
    return (2 * (nodes - 1) / nodes) * gradGb / (gbps / 8);
  }

  function formatSeconds(value) {
    if (value >= 100) { return String(Math.round(value)); }
    if (value >= 10) { return value.toFixed(1).replace(/\.0$/, ""); }
    return value.toFixed(2).replace(/0$/, "").replace(/\.0?$/, "");
  }

  /* The gradient volume and node count of a turn: derived figures first, else from the facts. */
  function inputs(facts, derived) {
    facts = facts || {};
    derived = derived || {};
    var grad = Number(derived["comm.grad_gbytes"]);
    if (!(grad > 0)) {
      var params = Number(facts["job.model_params_b"]);
      var bytes = BYTES_PER_ELEMENT[String(facts["job.precision"] || "").toLowerCase()];
      grad = params > 0 && bytes ? params * bytes : NaN;
    }
    var nodes = Number(facts["job.nodes"]);
    if (!(grad > 0) || !(nodes >= 2) || !isFinite(grad) || !isFinite(nodes)) { return null; }
    var current = Number(facts["nic.speed_gbps"]);
    return { gradGb: grad, nodes: nodes, currentGbps: current > 0 ? current : null };
  }

  /* A <figure> with the chart, or null when the turn lacks the model size or node count. */
  function render(facts, derived, T) {
    var data = inputs(facts, derived);
    if (!data) { return null; }
    var speeds = SPEEDS_GBPS.slice();
    if (data.currentGbps && speeds.indexOf(data.currentGbps) < 0 && data.currentGbps <= 3200) {
      speeds.push(data.currentGbps);
      speeds.sort(function (a, b) { return a - b; });
    }
    var rows = speeds.map(function (gbps) {
      return { gbps: gbps, seconds: allreduceSeconds(data.gradGb, data.nodes, gbps) };
    });
    var max = rows[0].seconds;
    var id = "chart-" + (++counter);
    var gb = formatSeconds(data.gradGb);
    var description = T.chart_desc.replace("{gb}", gb).replace("{n}", String(data.nodes));

    var rowH = 30, labelW = 84, valueW = 130, barW = 300, top = 6;
    var width = labelW + barW + valueW, height = top + rows.length * rowH + 4;
    var root = svg("svg", {
      viewBox: "0 0 " + width + " " + height, width: "100%", role: "img",
      "aria-labelledby": id + "-title " + id + "-desc", "class": "chart-svg", focusable: "false"
    });
    root.appendChild(svg("title", { id: id + "-title" }, T.chart_title));
    var summary = rows.map(function (r) { return r.gbps + " Gb/s: " + formatSeconds(r.seconds) + " " + T.seconds; });
    root.appendChild(svg("desc", { id: id + "-desc" }, description + " " + summary.join("; ")));

    rows.forEach(function (r, i) {
      var y = top + i * rowH;
      var yours = data.currentGbps === r.gbps;
      var g = svg("g", { "class": yours ? "chart-row chart-yours" : "chart-row" });
      g.appendChild(svg("text", { x: labelW - 8, y: y + 19, "text-anchor": "end", "class": "chart-label" },
        r.gbps + " Gb/s"));
      var w = Math.max(2, (r.seconds / max) * barW);
      g.appendChild(svg("rect", { x: labelW, y: y + 5, width: w.toFixed(1), height: rowH - 10, rx: 3,
        "class": "chart-bar" }));
      var value = formatSeconds(r.seconds) + " " + T.seconds + (yours ? " ◀ " + T.chart_yours : "");
      g.appendChild(svg("text", { x: labelW + w + 6, y: y + 19, "class": "chart-value" }, value));
      root.appendChild(g);
    });

    var figure = document.createElement("figure");
    figure.className = "chart";
    var caption = document.createElement("figcaption");
    var strong = document.createElement("strong");
    strong.textContent = T.chart_title;
    caption.appendChild(strong);
    caption.appendChild(document.createElement("br"));
    caption.appendChild(document.createTextNode(description));
    figure.appendChild(caption);
    figure.appendChild(root);
    return figure;
  }

  window.BWDChart = { render: render, allreduceSeconds: allreduceSeconds, inputs: inputs };
})();
