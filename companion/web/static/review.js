// The review of a finished game's page, while the server works it out: the page shows a
// note (#review-pending) and asks /game/NAME/review again every few seconds; that
// answers 202 until the review is there, then 200 with the review section, which takes
// the note's place. No framework, no build step; served by `companion web` itself.
"use strict";
(function () {
  var pending = document.getElementById("review-pending");
  if (!pending || !window.fetch) { return; }
  var AGAIN = 3000;  // ms between two questions (a review takes minutes on a Pi)
  // The review in the page's own language (a ?lang= of the page is not in this URL).
  var url = pending.getAttribute("data-src") + "?lang="
    + encodeURIComponent(document.documentElement.lang);
  function ask() {
    fetch(url, { cache: "no-store" }).then(function (answer) {
      if (answer.status === 202) {
        window.setTimeout(ask, AGAIN);
      } else if (answer.ok) {
        return answer.text().then(function (html) { pending.outerHTML = html; });
      }  // anything else (the game is gone: 404): the note stays
      return null;
    }, function () {
      window.setTimeout(ask, 4 * AGAIN);  // the page is unreachable: later
    });
  }
  window.setTimeout(ask, AGAIN);
})();
