/* The hall display: poll the #display partial with the ETag of what is shown, so the
   server answers 304 and nothing is swapped until something changed; page through the
   standings (data-page-rows rows at a time) so a big field is shown whole, in turns. */
(function () {
  "use strict";
  var PAGE_SECONDS = 8;
  var page = 0;

  document.addEventListener("htmx:configRequest", function (e) {
    var el = e.detail.elt;
    if (el && el.id === "display" && el.dataset.etag) {
      e.detail.headers["If-None-Match"] = el.dataset.etag;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.xhr && e.detail.xhr.status === 304) e.detail.shouldSwap = false;
  });

  function showPage() {
    var table = document.querySelector("[data-page-rows]");
    if (!table) return;
    var size = parseInt(table.dataset.pageRows, 10) || 12;
    var rows = table.tBodies[0] ? table.tBodies[0].rows : [];
    var pages = Math.max(1, Math.ceil(rows.length / size));
    if (page >= pages) page = 0;
    Array.prototype.forEach.call(rows, function (r, i) {
      r.hidden = Math.floor(i / size) !== page;
    });
    var label = document.querySelector("[data-page-label]");
    if (label) label.textContent = pages > 1 ? (page + 1) + " / " + pages : "";
    table.dataset.page = String(page + 1);
  }
  function next() { page += 1; showPage(); }

  document.addEventListener("DOMContentLoaded", showPage);
  document.addEventListener("htmx:afterSettle", showPage);
  setInterval(next, PAGE_SECONDS * 1000);
})();
