/* Poor signal, nothing lost (the page side of static/js/sw.js).
 *
 * Every action a page sends carries a fresh idempotency key: htmx requests in the Idempotency-Key header, plain
 * forms in a hidden idempotency_key field, so a retry is never applied twice. The banner (role=status in
 * base.html) says when the phone is offline, how many actions wait to be sent, and what became of each one sent
 * after the signal returned.
 */
(function () {
  "use strict";

  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.verb !== "get") event.detail.headers["Idempotency-Key"] = newKey();
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    let field = form.querySelector("input[name=idempotency_key]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "idempotency_key";
      form.appendChild(field);
    }
    field.value = newKey();
  }, true);

  const banner = document.getElementById("offline-banner");
  if (!banner || !("serviceWorker" in navigator)) return;
  const state = banner.querySelector("[data-testid=offline-state]");
  const count = banner.querySelector("[data-testid=queue-count]");
  const results = banner.querySelector("[data-testid=queue-results]");
  let waiting = 0;

  function draw() {
    state.textContent = navigator.onLine ? "" : "You are offline: pages are as you last saw them, and what you " +
      "do waits on this phone until the signal returns.";
    count.textContent = waiting ? `${waiting} action${waiting === 1 ? "" : "s"} waiting to send` : "";
    banner.hidden = navigator.onLine && !waiting && !results.children.length;
  }

  function said(result) {
    const item = document.createElement("li");
    item.className = result.applied ? "sent-applied" : "sent-refused";
    item.textContent = `${result.label}: ${result.applied ? "sent and applied" : "not applied"}` +
      (result.sentence ? ` (${result.sentence})` : ".");
    results.appendChild(item);
  }

  function tell(message) {
    navigator.serviceWorker.ready.then((registration) => registration.active.postMessage(message));
  }

  navigator.serviceWorker.addEventListener("message", (event) => {
    if (!event.data || event.data.type !== "muster-queue") return;
    waiting = event.data.waiting;
    event.data.results.forEach(said);
    draw();
  });
  window.addEventListener("online", () => { draw(); tell({ type: "replay" }); });
  // The signal often returns in fits: while actions wait and the phone believes it is online, try again.
  setInterval(() => { if (waiting && navigator.onLine) tell({ type: "replay" }); }, 3000);
  window.addEventListener("offline", draw);

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => {
    if (!navigator.serviceWorker.controller) { // the first visit: keep this page once the worker takes over
      navigator.serviceWorker.addEventListener("controllerchange", () => tell({ type: "keep", url: location.href }),
        { once: true });
    }
    tell({ type: navigator.onLine ? "replay" : "status" });
  });
  draw();
})();
