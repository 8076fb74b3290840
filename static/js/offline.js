/* The offline pad, for every game's pad (Kop and Vint): deals entered without a connection
   are kept on the phone (IndexedDB) with the submission key and the slot they expect (the
   rubber the scorer saw, 0 without rubbers, and the deal number), shown as "3 deals waiting
   to send", and sent in order when the connection returns. The server answers each with
   X-Deal-Outcome (saved, replayed, conflict, rejected); a conflict is shown with both
   versions and the scorer chooses. Registers the service worker that keeps the page.

   The phone never works out where a rubber ends (that would be the rules twice): each
   deal sent expects the slot after the one the server has just stored for the deal
   before it (X-Deal-Number). If the server's next deal is in another rubber, the rubber
   ended before this deal: its seats meant the old partnerships, so it is put back on the
   new rubber's pad for the scorer to check and save again (or drop), never moved over
   silently. Another phone's deal in the expected slot is a conflict with a choice. */
(function () {
  "use strict";
  var box = document.getElementById("offline-box");
  if (!box) return;
  var STORE = "deals";
  var waiting = JSON.parse(box.dataset.waiting || "{}");
  var queue = [];          // this table's entries, oldest first (a copy of IndexedDB)
  var paused = false;      // a conflict or a refusal waits for the scorer
  var fixing = null;       // the entry the scorer corrects after a refusal
  var sending = false;
  var problem = "";

  function form() { return document.getElementById("deal-form"); }
  function intOf(el) { var v = el ? parseInt(el.value, 10) : NaN; return isNaN(v) ? 0 : v; }
  // "7" (Kop) or "2.7" (deal 7 of rubber 2), as the server writes a slot.
  function slotOf(label) {
    var parts = String(label || "").split(".");
    var n = parts.map(function (p) { return parseInt(p, 10); });
    if (parts.length === 2 && !isNaN(n[0]) && !isNaN(n[1])) return { rubber: n[0], number: n[1] };
    return isNaN(n[0]) ? null : { rubber: 0, number: n[0] };
  }
  function say(text, n) { return String(text || "").replace("{n}", n); }
  function sessionUrl() {
    var f = form();
    return f ? (f.getAttribute("hx-post") || f.getAttribute("action")) : "";
  }

  // --- IndexedDB -----------------------------------------------------------------------
  function open() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open("tablescore-pad", 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }
  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }
  function load() {
    var url = sessionUrl();
    return run("readonly", function (s) { return s.getAll(); }).then(function (all) {
      queue = (all || []).filter(function (e) { return e.url === url; })
        .sort(function (a, b) { return a.id - b.id; });
      queue.forEach(function (e) { e.rubber = e.rubber || 0; });  // kept before rubbers
      return queue;
    });
  }
  function put(entry) { return run("readwrite", function (s) { return s.put(entry); }); }
  function remove(id) { return run("readwrite", function (s) { return s.delete(id); }); }

  // --- the form ------------------------------------------------------------------------
  function newKey() {
    var bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function labelOf(input) {
    var label = input.closest("label") || document.querySelector("label[for='" + input.id + "']");
    return label ? label.textContent.replace(/\s+/g, " ").trim() : input.value;
  }
  function summary(f) {
    var parts = [];
    var contract = f.querySelector("[name=contract]:checked");
    if (contract) parts.push(labelOf(contract));
    var seats = Array.prototype.map.call(
      f.querySelectorAll("[name=declarers]:checked, [name=declarer]:checked"), labelOf);
    if (seats.length) parts.push(seats.join(", "));
    var points = f.querySelector("[name=declarer_points]");
    if (points && points.value) parts.push(box.dataset.points + ": " + points.value);  // "Card points: 91" (no plural)
    // Vint: the tricks field the chosen contract shows, named as the pad names it.
    f.querySelectorAll("[name=declarer_tricks], [name=ns_tricks]").forEach(function (input) {
      if (input.value && input.offsetParent !== null) {
        parts.push(input.getAttribute("aria-label") + ": " + input.value);
      }
    });
    return parts.join(" · ");
  }
  // The pad shows the next deal: its number in the heading and the save button (the last
  // number in both, after the rubber's in "Rubber 1 · deal 9"), a new key.
  function setNext(number) {
    var f = form(); if (!f) return;
    f.querySelector("[name=expected_number]").value = String(number);
    f.querySelector("[name=submission_key]").value = newKey();
    var head = document.querySelector("#pad .deal-head strong");
    var save = document.getElementById("save-deal");
    [head, save].forEach(function (el) {
      if (el) el.textContent = el.textContent.replace(/\d+(?=\D*$)/, String(number));
    });
    // Its dealer, as the server named the dealers of the deals after the one it drew.
    var dealer = document.querySelector("#pad [data-dealer]");
    var theirs = document.querySelector("#pad [data-dealer-for='" + number + "']");
    if (dealer && theirs) dealer.replaceChildren(theirs.content.cloneNode(true));
  }
  function nextAfterQueue() {
    return queue.length ? queue[queue.length - 1].expected + 1 : null;
  }

  function enqueue(f) {
    var fields = [];
    new FormData(f).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    var expected = parseInt(f.querySelector("[name=expected_number]").value, 10);
    var entry = {
      url: sessionUrl(), rubber: intOf(f.querySelector("[name=rubber]")), expected: expected,
      key: f.querySelector("[name=submission_key]").value,
      fields: fields, summary: summary(f), created: Date.now()
    };
    if (fixing !== null) { entry.id = fixing; fixing = null; paused = false; problem = ""; }
    var flash = say(box.dataset.kept, expected);
    return put(entry).then(load).then(function () {
      f.reset();
      var other = document.getElementById("other-points");
      if (other) other.textContent = "—";
      var saved = document.getElementById("saved-msg");  // kept: a save's answer fills it
      if (saved) { saved.hidden = true; saved.textContent = ""; }
      var conflict = document.getElementById("entry-conflict");
      if (conflict) conflict.remove();
      f.querySelectorAll(".error").forEach(function (el) { el.remove(); });
      setNext(nextAfterQueue());
      previewWaits();
      show(flash);
      send();
    });
  }

  // Submitting while offline, or while deals still wait (they go first), queues the deal.
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!f || f.id !== "deal-form") return;
    if (navigator.onLine && !queue.length && fixing === null) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    enqueue(f);
  }, true);

  // A save that never reached the server (Wi-Fi up but no route) is queued too; its
  // submission key makes the later send harmless if it did arrive after all.
  document.addEventListener("htmx:sendError", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt) return;
    if (elt.id === "deal-form") enqueue(elt);
    if (elt.id === "preview") previewWaits();
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (elt && elt.id === "preview" && !navigator.onLine) { e.preventDefault(); previewWaits(); }
  });
  function previewWaits() {
    var p = document.getElementById("preview");
    if (!p || navigator.onLine) return;
    p.classList.remove("stale");
    var line = document.createElement("p");
    line.className = "muted";
    line.id = "preview-offline";
    line.textContent = box.dataset.preview;
    p.replaceChildren(line);
  }

  // --- sending -------------------------------------------------------------------------
  function csrf() {
    var input = document.querySelector("[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? m[1] : "";
  }
  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }

  function post(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      var value = pair[1];
      if (pair[0] === "expected_number") value = String(entry.expected);
      if (pair[0] === "submission_key") value = entry.key;
      body.append(pair[0], value);
    });
    return fetch(entry.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() }
    });
  }

  function swapPad(html) {
    var fresh = parse(html).getElementById("pad");
    var pad = document.getElementById("pad");
    if (!fresh || !pad) return;
    var node = document.importNode(fresh, true);
    pad.replaceWith(node);
    if (window.htmx) window.htmx.process(node);
  }

  // Has the scorer started on the next deal (anything changed from the pad as rendered)?
  function started(f) {
    return Array.prototype.some.call(f.elements, function (el) {
      if (el.type === "hidden" || el.type === "button" || el.type === "submit") return false;
      if (el.type === "radio" || el.type === "checkbox") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) {
          return o.selected !== o.defaultSelected;
        });
      }
      return el.value !== el.defaultValue;
    });
  }

  // After the queue is empty the pad shows the server's table, unless the scorer is
  // halfway through the next deal: then only its number and key follow the server.
  function settle(html) {
    var f = form();
    if (!f || !started(f)) { swapPad(html); return; }
    var next = parse(html).querySelector("#deal-form [name=expected_number]");
    if (next) setNext(parseInt(next.value, 10));
  }

  // The deal after one the server has stored in `slot` expects the next number of the
  // same rubber; the server answers with a conflict if that slot is not the next one.
  function follow(slot) {
    var entry = queue[1];
    if (!slot || !entry || entry.rubber !== slot.rubber) return Promise.resolve();
    entry.expected = slot.number + 1;
    return put(entry);
  }

  function sendAll() {
    var last = null;
    function step() {
      return load().then(function () {
        var entry = queue[0];
        if (!entry || paused || !navigator.onLine) return null;
        show(box.dataset.sending);
        return post(entry).then(function (resp) {
          var outcome = resp.headers.get("X-Deal-Outcome");
          return resp.text().then(function (html) {
            if (outcome === "saved" || outcome === "replayed") {
              last = html;
              return follow(slotOf(resp.headers.get("X-Deal-Number")))
                .then(function () { return remove(entry.id); }).then(step);
            }
            if (outcome === "conflict") { paused = true; conflict(entry, html); return null; }
            if (outcome === "rejected") {
              paused = true; fixing = entry.id; swapPad(html); offerDrop(entry);
              problem = say(box.dataset.refused, entry.expected);
              return null;
            }
            problem = box.dataset.failed.replace("{status}", resp.status);
            return null;
          });
        });
      });
    }
    return step().catch(function () { /* the network went away again: retry later */ })
      .then(load).then(function () {
        if (!queue.length && last && fixing === null) settle(last);
      });
  }

  // A call while a round of sending is on its way runs another round after it (a deal
  // queued meanwhile does not wait for the next tick).
  var again = false;
  function send() {
    if (sending) { again = true; return; }
    if (paused || !navigator.onLine || !queue.length) { render(); return; }
    sending = true; again = false; problem = "";
    var work = navigator.locks
      ? navigator.locks.request("tablescore-pad-queue", sendAll) : sendAll();
    function done() {
      sending = false; render();
      if (again) { again = false; send(); }
    }
    Promise.resolve(work).then(done, done);
  }

  // --- a deal the pad must show again --------------------------------------------------
  // The server's pad (the next rubber's, when the rubber ended before this deal) with the
  // deal's values put back: the scorer checks the seats and saves it again, or drops it.
  // The seen rubber, the slot, the key and the first dealer stay the new pad's.
  var OWN = ["rubber", "expected_number", "submission_key", "first_dealer"];
  function refit(entry, html, text) {
    swapPad(html);
    var stale = document.getElementById("entry-conflict");
    if (stale) stale.remove();
    var f = form();
    paused = true;
    problem = text;
    fixing = entry.id;
    if (!f) { offerDrop(entry); render(); return; }
    entry.fields.forEach(function (pair) {
      if (OWN.indexOf(pair[0]) >= 0) return;
      f.querySelectorAll("[name='" + pair[0] + "']").forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.value === pair[1]) el.checked = true;
        } else {
          el.value = pair[1];
          if (pair[1] && el.closest("details")) el.closest("details").open = true;
          el.dispatchEvent(new Event("input", { bubbles: true }));
        }
      });
    });
    f.dispatchEvent(new Event("change", { bubbles: true }));
    offerDrop(entry);
    render();
  }
  // Dropping it: the page opens again with the server's pad (the one shown holds the
  // dropped deal's values) and goes on with the deals after it.
  function offerDrop(entry) {
    document.getElementById("offline-drop-fix").onclick = function () {
      remove(entry.id).then(function () { location.reload(); });
    };
  }

  // --- a conflict: both versions and a choice ------------------------------------------
  function conflict(entry, html) {
    var theirs = parse(html).getElementById("entry-conflict");
    var offered = slotOf(theirs ? theirs.dataset.offered : "");
    var stored = theirs ? theirs.dataset.stored : "";
    if (!stored && offered && offered.rubber === entry.rubber) {
      // Nothing stored in its slot and the next one is in its rubber, lower (a deal before
      // it was dropped): it moves down, the order kept.
      choose(entry, offered.number);
      return;
    }
    if (!stored) {
      // Nothing stored where this deal expected to go and the next deal is in another
      // rubber (or none): the rubber ended before it, so its seats belong to partnerships
      // no longer playing.
      refit(entry, html, say(box.dataset.over, entry.expected));
      return;
    }
    var panel = document.getElementById("offline-conflict");
    var title = document.getElementById("offline-conflict-title");
    title.textContent = say(title.dataset.text, entry.expected);
    document.getElementById("offline-theirs").textContent = stored;
    document.getElementById("offline-mine").textContent = entry.summary;
    var keep = document.getElementById("offline-keep");
    keep.hidden = !offered;
    keep.textContent = say(keep.dataset.text, offered ? offered.number : "");
    keep.onclick = function () {
      panel.hidden = true;
      if (offered.rubber !== entry.rubber) {
        refit(entry, html, say(box.dataset.over, entry.expected));
      } else {
        choose(entry, offered.number);
      }
    };
    document.getElementById("offline-drop").onclick = function () {
      panel.hidden = true;
      choose(entry, null);
    };
    panel.hidden = false;
    render();
  }

  // Keep mine: it becomes the offered deal and the ones after it follow (+1 each).
  // Drop mine: it is deleted; the ones after it keep their numbers.
  function choose(entry, offered) {
    var done;
    if (offered === null) {
      done = remove(entry.id);
    } else {
      var at = offered;
      done = load().then(function () {
        return Promise.all(queue.map(function (e) {
          if (e.rubber === entry.rubber) e.expected = at++;
          return put(e);
        }));
      });
    }
    done.then(load).then(function () {
      paused = false;
      var next = nextAfterQueue();
      if (next !== null) setNext(next);
      send();
    });
  }

  // --- what the scorer sees ------------------------------------------------------------
  var note = "";
  function show(text) { note = text; render(); }
  function render() {
    var n = queue.length;
    var status = problem || (!navigator.onLine ? box.dataset.offline : note);
    box.hidden = !n && navigator.onLine && !problem;
    document.getElementById("offline-status").textContent = status;
    document.getElementById("offline-status").hidden = !status;
    document.getElementById("offline-drop-fix").hidden = fixing === null;
    document.getElementById("offline-count").textContent =
      n ? (waiting[n] || waiting[99].replace("99", String(n))) : "";
    var list = document.getElementById("offline-list");
    list.replaceChildren.apply(list, queue.map(function (e) {
      var li = document.createElement("li");
      li.value = e.expected;
      li.textContent = e.summary;
      return li;
    }));
  }

  window.addEventListener("online", function () { note = ""; send(); });
  window.addEventListener("offline", function () { render(); previewWaits(); });
  setInterval(send, 20000);

  load().then(function () {
    var next = nextAfterQueue();
    if (next !== null) setNext(next);
    previewWaits();
    send();
  });

  // The service worker keeps this page and its files for a reload without a connection.
  if ("serviceWorker" in navigator && box.dataset.sw) {
    navigator.serviceWorker.register(box.dataset.sw, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      var keep = [location.href];
      document.querySelectorAll("script[src], link[rel=stylesheet][href]").forEach(function (el) {
        keep.push(el.src || el.href);
      });
      if (reg.active) reg.active.postMessage({ keep: keep });
    }).catch(function () { /* no worker: the queue still works while the page is open */ });
  }
})();
