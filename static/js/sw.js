/* tablescore's service worker: keeps the table page and its static files on the phone so
   the pad opens without a connection. It never answers a POST: deals entered offline are
   queued by the page itself (static/js/offline.js) and the server stays the only record.

   - pages (navigations): network first; a page the pad asked to keep is refreshed in the
     cache on every visit and served from it when the network is gone;
   - /static/ files: from the cache when there, refreshed in the background;
   - logging out empties the cache (the queue of unsent deals is in IndexedDB, not here). */
"use strict";
var CACHE = "tablescore-pad-v1";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; })
        .map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// The pad page sends {keep: [its own URL, its scripts and stylesheets]}.
self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.keep) || [];
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.filter(sameOrigin).map(function (u) {
      return fetch(u, { credentials: "same-origin" }).then(function (resp) {
        if (resp.ok && !resp.redirected) return cache.put(u, resp);
      }).catch(function () {});
    }));
  }));
});

function sameOrigin(u) {
  try { return new URL(u, self.location.href).origin === self.location.origin; }
  catch (e) { return false; }
}

function offlinePage() {
  return new Response(
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<p>Offline / Brak połączenia.</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function page(request) {
  return fetch(request).then(function (resp) {
    if (resp.ok && !resp.redirected) {
      var copy = resp.clone();
      caches.open(CACHE).then(function (cache) {
        return cache.match(request, { ignoreVary: true }).then(function (old) {
          if (old) return cache.put(request.url, copy);
        });
      });
    }
    return resp;
  }).catch(function () {
    return caches.match(request.url, { ignoreVary: true, ignoreSearch: false })
      .then(function (hit) { return hit || offlinePage(); });
  });
}

function asset(event) {
  var request = event.request;
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      var fresh = fetch(request).then(function (resp) {
        if (resp.ok) cache.put(request, resp.clone());
        return resp;
      });
      if (hit) { event.waitUntil(fresh.catch(function () {})); return hit; }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === "/accounts/logout/") {
    event.waitUntil(caches.delete(CACHE));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") { event.respondWith(page(request)); return; }
  if (url.pathname.indexOf("/static/") === 0) event.respondWith(asset(event));
});
