/* Round clocks: count down to the end of the round. The page carries the server's
   time (data-now, Unix seconds) so a phone with a wrong clock still shows the right
   time left; the end is data-end, or data-start plus data-minutes. */
(function () {
  "use strict";
  var loaded = Date.now();

  function pad2(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var clocks = document.querySelectorAll("[data-round-clock]");
    Array.prototype.forEach.call(clocks, function (c) {
      var now = parseInt(c.dataset.now, 10) + (Date.now() - loaded) / 1000;
      var end = c.dataset.end ? parseInt(c.dataset.end, 10)
        : parseInt(c.dataset.start, 10) + 60 * parseInt(c.dataset.minutes, 10);
      var left = Math.max(0, Math.round(end - now));
      var out = c.querySelector(".left");
      if (!out) return;
      if (left <= 0) {
        c.textContent = c.dataset.over || "0:00";
        c.classList.add("over");
      } else {
        var h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
        out.textContent = (h ? h + ":" + pad2(m) : String(m)) + ":" + pad2(s);
      }
    });
  }
  // The pad is swapped by htmx after a save: the next tick finds the new clock.
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
