/* The scorer's pad: keypad, the other side's points, declarer taps, doubling seats.
   Event delegation on document, so it keeps working after htmx swaps the pad. */
(function () {
  "use strict";
  var tapOrder = [];

  function form() { return document.getElementById("deal-form"); }
  function fire(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }

  function updateOther() {
    var f = form(); if (!f) return;
    var input = f.querySelector("[name=declarer_points]");
    var out = document.getElementById("other-points");
    if (!input || !out) return;
    // Only a number that can be a share of the pack has an other side: "610" is a
    // typing slip, not "other side: -506".
    var total = parseInt(input.max, 10) || 104;
    var v = /^\d+$/.test(input.value) ? parseInt(input.value, 10) : NaN;
    out.textContent = isNaN(v) || v > total ? "—" : String(total - v);
  }

  function allowedDeclarers() {
    var f = form(); if (!f) return 2;
    var c = f.querySelector("[name=contract]:checked");
    return c ? parseInt(c.dataset.declarers, 10) || 2 : 2;
  }

  function trimDeclarers(keep) {
    var f = form(); if (!f) return;
    var boxes = Array.prototype.slice.call(f.querySelectorAll("[name=declarers]"));
    var checked = boxes.filter(function (b) { return b.checked; });
    var limit = allowedDeclarers();
    // Drop the earliest taps beyond the limit, so one tap is enough to change a soloist.
    // Taps on a pad since swapped out (a refused save draws it again) are not this pad's.
    tapOrder = tapOrder.filter(function (b) { return b.checked && b.isConnected; });
    checked.forEach(function (b) { if (tapOrder.indexOf(b) < 0) tapOrder.unshift(b); });
    while (tapOrder.length > limit) {
      var drop = tapOrder.shift();
      if (drop !== keep) { drop.checked = false; } else { tapOrder.push(drop); }
    }
  }

  document.addEventListener("click", function (e) {
    var key = e.target.closest("[data-key]");
    if (key && form()) {
      var input = form().querySelector("[name=declarer_points]");
      var k = key.dataset.key;
      if (k === "clear") input.value = "";
      else if (k === "back") input.value = input.value.slice(0, -1);
      else if (input.value.length < 3) input.value = (input.value === "0" ? "" : input.value) + k;
      updateOther(); fire(input);
      return;
    }
    var dseat = e.target.closest("[data-dseat]");
    if (dseat && form()) {
      var seats = form().querySelector("[name=doubling_seats]");
      var mode = form().querySelector("[name=doubling_mode]");
      seats.value = (seats.value + " " + dseat.dataset.dseat).trim();
      if (mode) mode.checked = true;
      clearCount();
      fire(seats);
    }
  });

  // Doublings come either as a count or as the seats that doubled: entering seats
  // clears the count buttons (so "0" no longer looks chosen), choosing a count clears the seats.
  function clearCount() {
    var f = form(); if (!f) return;
    f.querySelectorAll("[name=doublings]").forEach(function (r) { r.checked = false; });
  }
  function clearSeats() {
    var f = form(); if (!f) return;
    var seats = f.querySelector("[name=doubling_seats]");
    var mode = f.querySelector("[name=doubling_mode]");
    if (seats) seats.value = "";
    if (mode) mode.checked = false;
  }

  // The preview answers the latest input only: a tap aborts the request still on its
  // way (htmx would otherwise swap its older answer in) and greys the box until the
  // answer for this input arrives.
  function previewStale() {
    var p = document.getElementById("preview");
    if (!p || !form() || !form().contains(p)) return;
    if (window.htmx) window.htmx.trigger(p, "htmx:abort");
    p.classList.add("stale");
  }
  document.addEventListener("htmx:afterSwap", function (e) {
    var t = e.detail && e.detail.target;
    if (t && t.id === "preview") t.classList.remove("stale");
  });

  // A short answer to a save left the form as drawn, emptied (saved.js): the other
  // side's points and the declarers' hint follow the emptied fields.
  document.addEventListener("pad:reset", function () {
    tapOrder = [];
    recordOrder();  // a hidden field: the form's reset keeps its value
    updateOther();
    var f = form();
    var c = f && f.querySelector("[name=contract]:checked");
    var hints = f ? JSON.parse(f.dataset.hints || "{}") : {};
    var hint = document.getElementById("declarer-hint");
    if (c && hint && hints[c.value]) hint.textContent = hints[c.value];
  });

  function recordOrder() {
    var f = form(); if (!f) return;
    var order = f.querySelector("[name=declarer_order]");
    if (order) order.value = tapOrder.filter(function (b) { return b.checked; })
      .map(function (b) { return b.value; }).join(" ");
  }

  document.addEventListener("change", function (e) {
    var f = form(); if (!f || !f.contains(e.target)) return;
    if (e.target.name === "declarers") {
      if (e.target.checked) { tapOrder.push(e.target); trimDeclarers(e.target); }
      recordOrder();
    }
    if (e.target.name === "doublings" && e.target.checked) clearSeats();
    if (e.target.name === "doubling_mode" && e.target.checked) clearCount();
    if (e.target.name === "contract") {
      var hints = JSON.parse(f.dataset.hints || "{}");
      var hint = document.getElementById("declarer-hint");
      if (hint && hints[e.target.value]) hint.textContent = hints[e.target.value];
      trimDeclarers(null);
      recordOrder();
    }
  });

  document.addEventListener("input", function (e) {
    var f = form(); if (!f || !f.contains(e.target)) return;
    previewStale();
    if (e.target.name === "declarer_points") updateOther();
    if (e.target.name === "doubling_seats") {
      var mode = f.querySelector("[name=doubling_mode]");
      if (mode) mode.checked = e.target.value.trim() !== "";
      if (e.target.value.trim() !== "") clearCount();
    }
  });
})();
