// The live part of the spectator page: replaced by each "board" server-sent event.
// No framework, no build step; served by `companion web` itself.
"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var source = new EventSource("/events");
  source.addEventListener("board", function (event) {
    live.innerHTML = JSON.parse(event.data).html;
    document.body.classList.remove("offline");
  });
  source.addEventListener("error", function () {
    document.body.classList.add("offline");  // EventSource reconnects by itself
  });
})();
