/* Refreshes the cluster and node pages without a full reload: every N seconds it re-fetches the
 * page's server-rendered fragment, parses it with DOMParser (inert: no script runs, nothing is
 * assigned to innerHTML) and moves the parsed nodes in. Status text is set with textContent. */
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
    say("Updated " + timeOf(fresh.getAttribute("data-generated")), false);
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
        say("Refresh failed (" + String(error.message || error) + "); retrying in " + periodS + " s", true);
      })
      .then(function () { inFlight = false; });
  }

  function start() { if (timer === null) { timer = window.setInterval(refresh, periodS * 1000); } }
  function stop() { if (timer !== null) { window.clearInterval(timer); timer = null; } }

  if (pauseButton) {
    pauseButton.addEventListener("click", function () {
      paused = !paused;
      pauseButton.setAttribute("aria-pressed", String(paused));
      pauseButton.textContent = paused ? "Resume" : "Pause";
      if (paused) { stop(); } else { refresh(); start(); }
    });
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden && !paused) { refresh(); } });
  window.bwdClustersRefresh = refresh;  // lets tests and impatient people refresh now
  start();
}());
