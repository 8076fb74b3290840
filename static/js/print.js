// Print buttons ([data-print]) and pages that print themselves ([data-print-on-load]).
// A static file, not inline handlers: the Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) {
      event.preventDefault();
      window.print();
    }
  });
  if (document.querySelector("[data-print-on-load]")) {
    window.addEventListener("load", function () { window.print(); });
  }
})();
