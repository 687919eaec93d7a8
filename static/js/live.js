// Pushed updates: one socket per page joins the topics its elements name (data-live-topics="match.5 ...");
// a message says only "topic changed, version N", and each element naming that topic gets a "live" event,
// which its hx-trigger turns into its usual fetch over HTTP (the fog of war and hidden hands apply there).
// While the socket is open, window.musterLive.connected stops the polls ("every Ns [!musterLive.connected]"),
// when the server says every change is pushed (body[data-live-everywhere]: Redis joins the web processes and the
// Celery worker); when it drops, they poll again until it reconnects, and on reconnecting every element fetches once.
(function () {
  "use strict";
  var live = window.musterLive = { connected: false, received: 0 };
  var HEARTBEAT_MS = 25000, MAX_WAIT_MS = 30000;
  var socket = null, wait = 1000, heartbeat = null;

  function topicsOnPage() {
    var seen = {};
    document.querySelectorAll("[data-live-topics]").forEach(function (el) {
      el.getAttribute("data-live-topics").split(/\s+/).forEach(function (t) { if (t) { seen[t] = true; } });
    });
    return Object.keys(seen).sort();
  }

  // An element already showing the announced version (the table after one's own move) fetches nothing.
  function poke(topic, version) {
    document.querySelectorAll("[data-live-topics]").forEach(function (el) {
      var topics = el.getAttribute("data-live-topics").split(/\s+/);
      if (topic !== null && topics.indexOf(topic) < 0) { return; }
      if (topic !== null && el.getAttribute("data-version") === String(version)) { return; }
      window.htmx.trigger(el, "live");
    });
  }

  function connect(topics) {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + "/ws/live/?topics=" + encodeURIComponent(topics.join(",")));
    var reconnecting = wait > 1000;
    socket.onopen = function () {
      live.connected = document.body.hasAttribute("data-live-everywhere");
      wait = 1000;
      document.body.setAttribute("data-live", "open");
      heartbeat = window.setInterval(function () { socket.send('{"type":"ping"}'); }, HEARTBEAT_MS);
      if (reconnecting) { poke(null, null); }  // whatever changed while the socket was down
    };
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      live.received += 1;
      poke(data.topic, data.version);
    };
    socket.onclose = function (closed) {
      live.connected = false;
      document.body.setAttribute("data-live", "closed");
      window.clearInterval(heartbeat);
      if (closed.code === 4403) { return; }  // refused: the polls carry on alone
      window.setTimeout(function () { connect(topics); }, wait);
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    var topics = topicsOnPage();
    if (topics.length && window.WebSocket && window.htmx) { connect(topics); }
  });
})();
