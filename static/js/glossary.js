// The rules glossary filters as one types (#17 item 4), with the server's own test for ?q=: every word typed is
// in a term's word, its text or its source. The page holds every term (those the server's filter left out are
// hidden), so the filter works from the whole glossary; the address keeps ?q= for a reload or a shared link.
// Without JavaScript the form's Find button asks the server the same.
(function () {
  "use strict";
  const form = document.querySelector("[data-glossary-filter]");
  if (!form) { return; }
  const input = form.querySelector("input[name=q]");
  const count = document.querySelector("[data-glossary-count]");
  const total = count.getAttribute("data-total");
  const terms = [...document.querySelectorAll("[data-glossary-term]")].map((element) => (
    { element: element, words: element.textContent.toLowerCase() }));

  function some(selector, within) {
    return within.querySelector(selector + ":not([hidden])") !== null;
  }

  function filter() {
    const typed = input.value.trim();
    const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    terms.forEach((term) => {
      term.element.hidden = !words.every((word) => term.words.includes(word));
      shown += term.element.hidden ? 0 : 1;
    });
    document.querySelectorAll("[data-glossary-group]").forEach((group) => {
      group.hidden = !some("[data-glossary-term]", group);
    });
    document.querySelectorAll("[data-glossary-section]").forEach((section) => {
      section.hidden = !some("[data-glossary-group]", section);
      document.querySelector(`[data-glossary-nav="${section.id}"]`).hidden = section.hidden;
    });
    count.textContent = words.length
      ? shown + " of " + total + " terms match “" + typed + "”." + (shown ? "" : " Try a shorter word.")
      : total + " terms.";
    const url = new URL(window.location.href);
    if (words.length) { url.searchParams.set("q", typed); } else { url.searchParams.delete("q"); }
    window.history.replaceState(null, "", url);
  }

  input.addEventListener("input", filter);
})();
