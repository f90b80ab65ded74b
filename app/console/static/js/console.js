// Herald console: the little behaviour pages need, hooked on data-* attributes only (no inline
// script, no eval: the CSP refuses both).
(function () {
  "use strict";
  // htmx requests carry the page's CSRF token (forms carry it as a field too).
  document.addEventListener("htmx:configRequest", function (event) {
    var token = document.body.getAttribute("data-csrf");
    if (token) { event.detail.headers["X-CSRF-Token"] = token; }
  });
  // Copy buttons: data-copy names the element whose text is copied.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) { return; }
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      var label = button.textContent;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 2000);
    });
  });
  // Confirmations declared in markup: data-confirm on a form.
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute && event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); }
  }, true);
  // After a failed submit, focus moves to the error summary.
  document.addEventListener("DOMContentLoaded", function () {
    var summary = document.querySelector("[data-focus]");
    if (summary) { summary.focus(); }
    showCurrentSection();
  });
  window.addEventListener("resize", showCurrentSection);
  // The account's sections scroll sideways on a phone: the current one is brought into view
  // (the list's own scroll only: the page itself never moves).
  function showCurrentSection() {
    var current = document.querySelector(".account-nav [aria-current='page']");
    var strip = current && current.closest("ul");
    if (strip && strip.scrollWidth > strip.clientWidth) {
      strip.scrollLeft = current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2;
    }
  }
})();
