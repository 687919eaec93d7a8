/* A finished match's replay played in the browser: the server put every step on the page once, each already
 * cut down to what this viewer may see (the step shown, the others in <template data-replay-step>), so playing,
 * pausing, changing speed, dragging the slider and jumping never ask the server again (the address stays put:
 * Chromium fetches the icon again on every change of it). Without JavaScript the page's links and the jump form
 * load ?step=N instead. Keys: left and right arrows step, space plays or pauses. */
(function () {
  "use strict";
  const root = document.querySelector("[data-replay]");
  if (!root) return;
  const stage = root.querySelector("[data-replay-stage]");
  const slider = root.querySelector("[data-replay-slider]");
  const jump = root.querySelector("[data-replay-jump]");
  const number = jump.querySelector("input[name=step]");
  const play = root.querySelector("[data-replay-play]");
  const speed = root.querySelector("[data-replay-speed]");
  const status = root.querySelector("[data-replay-status]");
  const steps = [];
  root.querySelectorAll("template[data-replay-step]").forEach((t) => { steps[Number(t.dataset.replayStep)] = t; });
  let at = Number(stage.dataset.step);
  const shown = document.createElement("template");
  shown.content.append(...stage.childNodes);
  steps[at] = shown;
  const last = steps.length - 1;
  let timer = null;

  function show(step) {
    at = Math.max(0, Math.min(last, step));
    stage.replaceChildren(steps[at].content.cloneNode(true));
    stage.querySelectorAll("[data-testid=replay-nav]").forEach((nav) => nav.remove());  // the controls do its work
    stage.dataset.step = String(at);
    slider.value = String(at);
    number.value = String(at);
    status.textContent = `Step ${at} of ${last}`;
  }

  function pause() {
    window.clearTimeout(timer);
    timer = null;
    play.textContent = "Play";
  }

  function tick() {
    if (at >= last) { pause(); return; }
    show(at + 1);
    timer = window.setTimeout(tick, 1000 / Number(speed.value));
  }

  function start() {
    if (at >= last) show(0);
    play.textContent = "Pause";
    timer = window.setTimeout(tick, 1000 / Number(speed.value));
  }

  function toggle() { if (timer === null) start(); else pause(); }

  root.querySelectorAll("[data-replay-buttons]").forEach((el) => { el.hidden = false; });
  play.addEventListener("click", toggle);
  root.querySelector("[data-replay-back]").addEventListener("click", () => { pause(); show(at - 1); });
  root.querySelector("[data-replay-forward]").addEventListener("click", () => { pause(); show(at + 1); });
  speed.addEventListener("change", () => { if (timer !== null) { pause(); start(); } });
  slider.addEventListener("input", () => { pause(); show(Number(slider.value)); });
  jump.addEventListener("submit", (event) => {
    event.preventDefault();
    pause();
    const step = Number.parseInt(number.value, 10);
    if (Number.isNaN(step)) { status.textContent = `Type a step from 0 to ${last}.`; return; }
    show(step);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, select, textarea, button, a, summary")) return;
    if (event.key === "ArrowLeft") { pause(); show(at - 1); } else if (event.key === "ArrowRight") { pause(); show(at + 1); } else if (event.key === " ") toggle(); else return;
    event.preventDefault();
  });
  show(at);
})();
