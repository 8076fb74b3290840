/* A save's answer, for every game's pad (Kop and Vint).
   A short answer (X-Pad-Answer: short, views._saved_answer) has swapped in by id only what
   the deal changed (totals, the next deal's number, key and revision, the newest row, an
   empty preview): the form, drawn empty, is emptied again here in the same task as the
   swap (no moment shows "Deal 7 saved." over the deal's values), and the game's pad script
   hears "pad:reset" to redo what it shows beside the fields.
   Then the pad comes back at its top (the message, the new totals and the first choices in
   view for the next deal); after a refusal the first error is brought into view. */
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

  document.addEventListener("htmx:afterSwap", function (e) {
    var a = answer(e);
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
