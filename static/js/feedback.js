// Feedback where the eye is (#17 items 1 and 6), for every page that swaps content in with htmx.
// - A form marked [data-result-here] posts with htmx and the page body is swapped in place (the page's own
//   hx-target and hx-select): the messages of the answer are shown right after the same form in the new body,
//   with the element marked [data-result-echo] (the purse) when it changed, and take the focus, so the result
//   of a tap appears where the tap was instead of at the top of the page.
// - An element marked [data-focus] in new content takes the focus and is scrolled into view.
// - The text of [data-announce] elements in new content (whose turn it is) and every result are read out
//   through one persistent polite live region, #announcer in base.html: a live region that is itself
//   replaced is not announced reliably.
let pending = null;

document.addEventListener("htmx:beforeSwap", (event) => {
  const form = event.detail.requestConfig.elt.closest("form[data-result-here]");
  if (!form) return;
  const answer = new DOMParser().parseFromString(event.detail.serverResponse, "text/html");
  const echo = document.querySelector("[data-result-echo]");
  pending = {
    action: form.getAttribute("action"),
    section: form.closest("section[id]")?.id,
    messages: answer.querySelector(".messages"),
    echoBefore: echo ? echo.textContent : null,
  };
});

function placeResult() {
  const said = pending;
  pending = null;
  const form = [...document.querySelectorAll("form[data-result-here]")]
    .find((candidate) => candidate.getAttribute("action") === said.action);
  const section = said.section && document.getElementById(said.section);
  if (!said.messages || !(form || section)) return null;
  const result = document.createElement("div");
  result.className = "result";
  result.dataset.testid = "result";
  result.setAttribute("tabindex", "-1");
  result.append(document.importNode(said.messages, true));
  const echo = document.querySelector("[data-result-echo]");
  if (echo && echo.textContent !== said.echoBefore) {
    const copy = echo.cloneNode(true);
    copy.removeAttribute("data-result-echo");
    copy.querySelectorAll("[data-testid]").forEach((element) => element.removeAttribute("data-testid"));
    result.append(copy);
  }
  if (form && !form.hidden) form.after(result);
  else (section.querySelector("h2") || section.firstElementChild).after(result);
  return result;
}

function announce(text) {
  const announcer = document.getElementById("announcer");
  const said = text.trim().replace(/\s+/g, " ");
  if (announcer && said && said !== announcer.dataset.said) {
    announcer.dataset.said = said;
    announcer.textContent = said;
  }
}

document.addEventListener("htmx:afterSettle", (event) => {
  const swapped = event.detail.elt;
  const result = pending ? placeResult() : null;
  const focus = result || swapped.querySelector("[data-focus]") || (swapped.matches("[data-focus]") ? swapped : null);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus({preventScroll: true});
    focus.scrollIntoView({block: "nearest"});
  }
  const turn = [...swapped.querySelectorAll("[data-announce]")].map((element) => element.textContent).join(" ");
  announce(result ? result.textContent : turn);
});
