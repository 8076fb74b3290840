/* A save's answer, for every game's pad (Kop and Vint).
   A short answer (X-Pad-Answer: short, views._saved_answer) has swapped in by id only what
   the deal changed (totals, the next deal's number, key and revision, the newest row, an
   empty preview): the form, drawn empty, is emptied again here in the same task as the
   swap (no moment shows "Deal 7 saved." over the deal's values), and the game's pad script
   hears "pad:reset" to redo what it shows beside the fields.
   Then the pad comes back at its top (the message, the new totals and the first choices in
   view for the next deal); after a refusal the first error is brought into view.
   A double tap stores one deal and says "saved": the form drops a second send while the
   first is on its way (hx-sync), and for a moment after a saved answer a send of the form
   the answer emptied, untouched since, is not made (it would only be refused as empty). */
(function () {
  "use strict";
  // Once per answer: htmx also tells each element swapped in by id.
  function answer(e) {
    var pad = document.getElementById("pad");
    var xhr = e.detail && e.detail.xhr;
    if (!pad || e.target !== pad || !xhr) return null;
    var outcome = xhr.getResponseHeader("X-Deal-Outcome");
    return outcome ? { pad: pad, xhr: xhr, outcome: outcome } : null;
  }

  var DOUBLE_TAP_MS = 2000;
  var savedAt = 0;  // when the last answer said "saved" (0: the form was touched since)

  document.addEventListener("htmx:afterSwap", function (e) {
    var a = answer(e);
    if (a && (a.outcome === "saved" || a.outcome === "replayed")) savedAt = Date.now();
    if (!a || a.outcome !== "saved" || a.xhr.getResponseHeader("X-Pad-Answer") !== "short") return;
    var f = document.getElementById("deal-form");
    if (!f) return;
    f.reset();
    f.querySelectorAll("details[open]").forEach(function (d) { d.open = false; });
    f.dispatchEvent(new CustomEvent("pad:reset", { bubbles: true }));
    // The new deal's row went on top: the pad shows no more rows than it was drawn with.
    var rows = document.getElementById("recent-rows");
    var keep = rows ? parseInt(rows.dataset.keep, 10) : NaN;
    while (!isNaN(keep) && rows.rows.length > keep) rows.deleteRow(-1);
  });

  function touched(e) {
    if (e.target && e.target.closest && e.target.closest("#deal-form")) savedAt = 0;
  }
  document.addEventListener("input", touched, true);
  document.addEventListener("change", touched, true);
  document.addEventListener("click", function (e) {
    // A tap on anything of the form but its save button is the next deal's first tap.
    var t = e.target;
    if (t && t.closest && t.closest("#deal-form") && !t.closest("#save-deal")) savedAt = 0;
  }, true);
  document.addEventListener("submit", function (e) {
    if (!e.target || e.target.id !== "deal-form" || !savedAt) return;
    if (Date.now() - savedAt > DOUBLE_TAP_MS) return;
    e.preventDefault();  // the second tap of a double tap: the deal is saved already
    e.stopImmediatePropagation();
  }, true);

  document.addEventListener("htmx:afterSettle", function (e) {
    var a = answer(e);
    if (!a) return;
    if (a.outcome === "saved" || a.outcome === "replayed") {
      a.pad.scrollIntoView({ block: "start" });
    } else {
      var err = a.pad.querySelector(".error, .warning, #entry-conflict");
      if (err) err.scrollIntoView({ block: "center" });
    }
  });
})();
