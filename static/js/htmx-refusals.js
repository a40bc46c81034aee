/* Every page: the app answers a refused form or move with 400, and a move already made with
   409, together with the part of the page that says why.  htmx does not swap error responses
   by default; these two are meant to be shown, so swap them like a success.  With DEBUG on,
   django-htmx's helper would also put such a response in place of the whole document (to show
   Django's error page): keep these two from reaching it (it listens on the document). */
(function () {
  "use strict";

  function refusal(event) {
    var status = event.detail.xhr.status;
    return status === 400 || status === 409;
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
