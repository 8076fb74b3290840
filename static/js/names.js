/* Full names on a touch screen. A name shortened to fit the pad ("Aleksandra P.") keeps
   the full one in its title attribute, which a mouse shows on hover but a finger never
   does: holding a finger on it (half a second) shows the full name in a bubble beside it,
   and that long press does not count as a tap (a seat is not chosen by it). The bubble
   is a status region, so a screen reader says the name too. Loaded by both pads. */
(function () {
  "use strict";
  var HOLD_MS = 500;
  var SLOP_PX = 10;
  var NAMED = "#pad [title], form.pad [title]";
  var timer = null;
  var start = null;
  var held = false;
  var tip = null;

  function bubble() {
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "name-tip";
      tip.className = "name-tip";
      tip.setAttribute("role", "status");
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }
  function hide() {
    if (tip) tip.hidden = true;
  }
  function show(el) {
    var t = bubble();
    t.textContent = el.getAttribute("title");
    t.hidden = false;
    var r = el.getBoundingClientRect();
    var room = document.documentElement.clientWidth - t.offsetWidth - 8;
    t.style.top = window.scrollY + r.bottom + 6 + "px";
    t.style.left = window.scrollX + Math.max(8, Math.min(r.left, room)) + "px";
  }
  function cancel() {
    clearTimeout(timer);
    timer = null;
    start = null;
  }

  document.addEventListener("pointerdown", function (e) {
    hide();
    held = false;
    cancel();
    if (e.pointerType === "mouse") return;
    var el = e.target.closest && e.target.closest(NAMED);
    if (!el || !el.getAttribute("title")) return;
    start = { x: e.clientX, y: e.clientY };
    timer = setTimeout(function () {
      held = true;
      show(el);
    }, HOLD_MS);
  });
  document.addEventListener("pointermove", function (e) {
    if (start && Math.abs(e.clientX - start.x) + Math.abs(e.clientY - start.y) > SLOP_PX) cancel();
  });
  document.addEventListener("pointerup", cancel);
  document.addEventListener("pointercancel", cancel);
  document.addEventListener("scroll", hide, { passive: true });
  // The tap that ends a long press is not a tap on the seat.
  document.addEventListener(
    "click",
    function (e) {
      if (!held) return;
      held = false;
      e.preventDefault();
      e.stopPropagation();
    },
    true
  );
  // Nor does it open the browser's menu for the text under the finger.
  document.addEventListener("contextmenu", function (e) {
    if (held || (e.target.closest && e.target.closest(NAMED))) e.preventDefault();
  });
})();
