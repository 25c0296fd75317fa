// The live part of the spectator page: replaced by each "board" server-sent event.
// No framework, no build step; served by `companion web` itself.
"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  // The stream in the page's own language (a ?lang= of the page is not in the stream's URL).
  var source = new EventSource("/events?lang=" + encodeURIComponent(document.documentElement.lang));
  source.addEventListener("board", function (event) {
    live.innerHTML = JSON.parse(event.data).html;
    document.body.classList.remove("offline");
  });
  source.addEventListener("error", function () {
    document.body.classList.add("offline");  // EventSource reconnects by itself
  });
})();
