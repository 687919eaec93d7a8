// Help stays open while the page redraws (#17 item 4): a table redraws itself after every move, and the rules help
// a player opened there ("What now?", the moves explained) would snap shut under their eyes. Before htmx swaps new
// content in, the ids of the open <details> it replaces are noted; once it is in, the same ids are opened again.
(function () {
  "use strict";
  let open = [];
  document.addEventListener("htmx:beforeSwap", (event) => {
    open = [...event.detail.target.querySelectorAll("details[id][open]")].map((details) => details.id);
  });
  document.addEventListener("htmx:afterSwap", () => {
    open.forEach((id) => {
      const details = document.getElementById(id);
      if (details) { details.open = true; }
    });
    open = [];
  });
})();
