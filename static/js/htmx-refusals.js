/* Every page: the app answers a refused form or move with 400, a move already made with
   409, too many requests of one visitor with 429 and a full line of work (the calculator, the
   chart) with 503, together with the part of the page that says why.  htmx does not swap
   error responses by default; these are meant to be shown, so swap them like a success.  A
   503 that is a whole document is the "database away" page: not put inside a part of the
   page, so that a polling part keeps polling until the database is back.  With DEBUG on,
   django-htmx's helper would also put such a response in place of the whole document (to show
   Django's error page): keep these from reaching it (it listens on the document). */
(function () {
  "use strict";

  function refusal(event) {
    var xhr = event.detail.xhr;
    var status = xhr.status;
    if (status === 503) return !/^\s*<!doctype/i.test(xhr.responseText);
    return status === 400 || status === 409 || status === 429;
  }

  document.body.addEventListener("htmx:beforeOnLoad", function (event) {
    if (refusal(event)) event.stopPropagation();
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (refusal(event)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
