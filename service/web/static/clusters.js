/* Refreshes the cluster and node pages without a full reload: every N seconds it re-fetches the
 * page's server-rendered fragment, parses it with DOMParser (inert: no script runs, nothing is
 * assigned to innerHTML) and moves the parsed nodes in. Status text is set with textContent.
 * The fragment URL carries the page's ?lang=, so a refresh stays in the page's language; the words
 * this script writes come in that language from the #cv-strings JSON island. */
(function () {
  "use strict";

  var live = document.getElementById("cv-live");
  if (!live) { return; }
  var url = live.getAttribute("data-fragment-url");
  var periodS = Math.max(5, parseInt(live.getAttribute("data-refresh-s"), 10) || 15);
  var status = document.getElementById("cv-updated");
  var pauseButton = document.getElementById("cv-pause");
  var paused = false;
  var timer = null;
  var inFlight = false;
  var T = strings();

  /* The page's words for this script; English ones if the island is missing or broken. */
  function strings() {
    var fallback = {
      updated: "Updated {time}", pause: "Pause", resume: "Resume",
      refresh_failed: "Refresh failed ({error}); retrying in {s} s"
    };
    var island = document.getElementById("cv-strings");
    try {
      var parsed = island ? JSON.parse(island.textContent) : {};
      Object.keys(fallback).forEach(function (key) {
        if (typeof parsed[key] !== "string") { parsed[key] = fallback[key]; }
      });
      return parsed;
    } catch (e) {
      return fallback;
    }
  }

  /* A sentence with its {name} placeholders filled (plain text: it only ever goes to textContent). */
  function fill(template, values) {
    return template.replace(/\{([a-z]+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function say(text, failed) {
    if (!status) { return; }
    status.textContent = text;
    var line = status.parentNode;
    if (line && line.classList) { line.classList.toggle("cv-error", Boolean(failed)); }
  }

  function timeOf(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? "" : d.toISOString().slice(11, 19) + " UTC";
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var body = doc.querySelector(".cv-body");
    if (!body) { throw new Error("unexpected response"); }
    var fresh = document.importNode(body, true);
    var old = live.querySelector(".cv-body");
    if (old) { live.replaceChild(fresh, old); } else { live.appendChild(fresh); }
    live.setAttribute("data-refreshes", String((parseInt(live.getAttribute("data-refreshes"), 10) || 0) + 1));
    say(fill(T.updated, { time: timeOf(fresh.getAttribute("data-generated")) }), false);
  }

  function refresh() {
    if (paused || inFlight || document.hidden) { return; }
    inFlight = true;
    fetch(url, { headers: { "Accept": "text/html" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(swap)
      .catch(function (error) {
        say(fill(T.refresh_failed, { error: String(error.message || error), s: periodS }), true);
      })
      .then(function () { inFlight = false; });
  }

  function start() { if (timer === null) { timer = window.setInterval(refresh, periodS * 1000); } }
  function stop() { if (timer !== null) { window.clearInterval(timer); timer = null; } }

  if (pauseButton) {
    pauseButton.addEventListener("click", function () {
      paused = !paused;
      pauseButton.setAttribute("aria-pressed", String(paused));
      pauseButton.textContent = paused ? T.resume : T.pause;
      if (paused) { stop(); } else { refresh(); start(); }
    });
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden && !paused) { refresh(); } });
  window.bwdClustersRefresh = refresh;  // lets tests and impatient people refresh now
  start();
}());
