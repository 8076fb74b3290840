/* The Vint pad: the trick steppers, the other side's tricks, and a first guess
   at the tricks when a contract is chosen (the contract made exactly).
   Event delegation on document, so it keeps working after htmx swaps the pad.
   Which fields a contract needs is pure CSS (:has on the checked contract). */
(function () {
  "use strict";

  function form() { return document.getElementById("deal-form"); }

  function field(name) {
    var f = form();
    return f ? f.querySelector("[name=" + name + "]") : null;
  }

  function updateOthers() {
    var outs = document.querySelectorAll("output[data-of]");
    Array.prototype.forEach.call(outs, function (out) {
      var input = field(out.dataset.of);
      if (!input) return;
      var v = parseInt(input.value, 10);
      out.textContent = isNaN(v) ? "\u2014" : String(13 - v);
    });
  }

  // Tricks the declaring side needs: L + 6, or at most 7 - L in misère.
  function target() {
    var c = form() && form().querySelector("[name=contract]:checked");
    if (!c || c.value === "pass") return 6;
    var level = parseInt(c.value.charAt(0), 10);
    return c.value.charAt(1) === "M" ? 7 - level : level + 6;
  }

  function set(input, value) {
    input.value = String(Math.max(0, Math.min(13, value)));
    updateOthers();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (e) {
    var step = e.target.closest("[data-step]");
    if (!step || !form() || !form().contains(step)) return;
    var input = field(step.dataset.for);
    if (!input) return;
    var v = parseInt(input.value, 10);
    delete input.dataset.auto;
    set(input, isNaN(v) ? target() : v + parseInt(step.dataset.step, 10));
  });

  document.addEventListener("change", function (e) {
    var f = form();
    if (!f || !f.contains(e.target) || e.target.name !== "contract") return;
    var name = e.target.value === "pass" ? "ns_tricks" : "declarer_tricks";
    var input = field(name);
    // Guess "made exactly" while the scorer has not set the tricks themselves.
    if (input && (input.value === "" || input.dataset.auto)) {
      input.dataset.auto = "1";
      set(input, target());
    }
  });

  // A short answer to a save left the form as drawn, emptied (saved.js).
  document.addEventListener("pad:reset", updateOthers);

  document.addEventListener("input", function (e) {
    if (e.target.name === "declarer_tricks" || e.target.name === "ns_tricks") {
      delete e.target.dataset.auto;
      updateOthers();
    }
  });
})();
