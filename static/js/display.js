/* The hall display: poll the #display partial with the ETag of what is shown, so the
   server answers 304 and nothing is swapped until something changed. Everything stays on
   the screen, never scrolled: the standings show as many rows as fit their half of the
   screen and page through the rest (the page size is measured, not fixed, so a 720p
   projector and a 1080p TV both show whole pages); a list of tables ([data-fit]) shows
   as many of its tables as fit, newest first, and says "and N more" for the rest. */
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

  // The bottom edge nothing may cross: the element's own box (a list is given its share
  // of the screen by the style sheet), its section's or the screen's.
  function limit(el, box) {
    return Math.min(box.getBoundingClientRect().bottom, window.innerHeight);
  }

  function fitList(list) {
    var items = Array.prototype.filter.call(list.children, function (li) {
      return !li.hasAttribute("data-more-line");
    });
    var more = list.querySelector("[data-more-line]");
    items.forEach(function (li) { li.hidden = false; });
    if (more) more.hidden = true;
    var bottom = limit(list, list);
    var shown = items.length;
    function overflows() {
      var last = more && !more.hidden ? more : items[shown - 1];
      return last && last.getBoundingClientRect().bottom > bottom + 0.5;
    }
    while (shown > 0 && overflows()) {
      shown -= 1;
      items[shown].hidden = true;
      if (more) {
        more.textContent = items[shown].dataset.more || "";
        more.hidden = false;
      }
    }
    list.dataset.shown = String(shown);
  }

  function pageSize(table, rows) {
    Array.prototype.forEach.call(rows, function (r, i) { r.hidden = i !== 0; });
    var first = rows[0];
    var rowHeight = first.getBoundingClientRect().height || 1;
    var room = limit(table, table.closest("section") || document.body) - first.getBoundingClientRect().top;
    return Math.max(1, Math.floor(room / rowHeight));
  }

  function showPage() {
    var table = document.querySelector("[data-page-rows]");
    if (table && table.tBodies[0] && table.tBodies[0].rows.length) {
      var rows = table.tBodies[0].rows;
      var size = pageSize(table, rows);
      var pages = Math.max(1, Math.ceil(rows.length / size));
      if (page >= pages) page = 0;
      Array.prototype.forEach.call(rows, function (r, i) {
        r.hidden = Math.floor(i / size) !== page;
      });
      var label = document.querySelector("[data-page-label]");
      if (label) label.textContent = pages > 1 ? (page + 1) + " / " + pages : "";
      table.dataset.page = String(page + 1);
      table.dataset.pageRows = String(size);
    }
    document.querySelectorAll("[data-fit]").forEach(fitList);
  }
  function next() { page += 1; showPage(); }

  document.addEventListener("DOMContentLoaded", showPage);
  document.addEventListener("htmx:afterSettle", showPage);
  window.addEventListener("resize", showPage);
  setInterval(next, PAGE_SECONDS * 1000);
})();
