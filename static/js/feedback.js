// Feedback where the eye is (#17 items 1 and 6), for every page that swaps content in with htmx:
// - the text of each [data-announce] element in new content is read out through one persistent polite live
//   region (#announcer in base.html): a live region that is itself replaced is not announced reliably;
// - an element marked [data-focus] in new content (an action's result) takes the focus and is scrolled into
//   view, so the message and the new purse appear where the tap was, not off screen.
document.addEventListener("htmx:afterSettle", (event) => {
  const swapped = event.detail.elt;
  const announcer = document.getElementById("announcer");
  const said = [...swapped.querySelectorAll("[data-announce]")]
    .map((element) => element.textContent.trim().replace(/\s+/g, " "))
    .filter(Boolean).join(" ");
  if (announcer && said && said !== announcer.dataset.said) {
    announcer.dataset.said = said;
    announcer.textContent = said;
  }
  const result = swapped.querySelector("[data-focus]") || (swapped.matches("[data-focus]") ? swapped : null);
  if (result) {
    if (!result.hasAttribute("tabindex")) result.setAttribute("tabindex", "-1");
    result.focus({preventScroll: true});
    result.scrollIntoView({block: "nearest"});
  }
});
