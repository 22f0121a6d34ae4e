// datapages serve: live reload and the error overlay. Injected by `serve` only, never by `build`.
(function () {
  "use strict";
  var generation = window.__datapagesGeneration;
  var overlayId = "datapages-error-overlay";

  function showErrors(errors) {
    var overlay = document.getElementById(overlayId);
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = overlayId;
      overlay.setAttribute("role", "alert");
      overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;" +
        "background:rgba(20,20,24,.94);color:#f3f3f3;padding:2rem;" +
        "font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;";
      document.body.appendChild(overlay);
    }
    overlay.textContent = "";
    var title = document.createElement("h2");
    title.textContent = "The last rebuild failed; this page shows the last good version.";
    title.style.cssText = "font:600 18px system-ui,sans-serif;color:#ff8a80;margin:0 0 1rem;";
    overlay.appendChild(title);
    errors.forEach(function (error) {
      var block = document.createElement("pre");
      block.className = "datapages-error";
      block.textContent = error.text;
      block.style.cssText = "white-space:pre-wrap;margin:0 0 1rem;";
      overlay.appendChild(block);
    });
  }

  function refreshStylesheets(paths) {
    var links = document.querySelectorAll('link[rel="stylesheet"]');
    Array.prototype.forEach.call(links, function (link) {
      var url = new URL(link.getAttribute("href"), location.href);
      if (paths.indexOf(url.pathname) >= 0) {
        url.searchParams.set("v", String(generation));
        link.href = url.pathname + url.search;
      }
    });
  }

  var first = true;

  function poll() {
    var url = window.__datapagesPoll + "?since=" + generation + "&path=" + encodeURIComponent(location.pathname) +
      (first ? "&first=1" : "");
    first = false;
    fetch(url, { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        var hadOverlay = !!document.getElementById(overlayId);
        generation = answer.generation;
        if (answer.errors.length > 0) {
          showErrors(answer.errors);
        } else if (hadOverlay || answer.reload) {
          location.reload();
          return;
        } else if (answer.css.length > 0) {
          refreshStylesheets(answer.css);
        }
        poll();
      })
      .catch(function () { setTimeout(poll, 1000); });
  }

  poll();
})();
