// The pages area's screens: brand colour swatches painted from their data-color (the console's
// CSP allows no inline style attribute; a style set through the DOM is allowed).
(function () {
  "use strict";
  function paint(root) {
    var swatches = root.querySelectorAll(".swatch[data-color]");
    for (var i = 0; i < swatches.length; i++) {
      var color = swatches[i].getAttribute("data-color");
      if (/^#[0-9a-fA-F]{6}$/.test(color)) swatches[i].style.backgroundColor = color;
    }
  }
  document.addEventListener("DOMContentLoaded", function () { paint(document); });
  document.addEventListener("htmx:afterSwap", function (event) { paint(event.target); });
})();
