// Keyboard shortcuts of the drill: H, S, D, P, R (and Y / N for insurance) press the move
// buttons; Enter deals the next hand once the answer is shown. No inline script (CSP).
(function () {
  "use strict";

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (target && target.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    if (event.key === "Enter") {
      var tag = event.target && event.target.tagName;
      if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") {
        return; // the focused control handles Enter itself
      }
      var next = document.querySelector("#situation [data-trainer-next] button");
      if (next && !next.disabled) {
        event.preventDefault();
        next.click();
      }
      return;
    }
    var key = (event.key || "").toLowerCase();
    var button = document.querySelector('[data-trainer-moves] button[data-key="' + key + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // One answer per situation: disable the buttons while the answer is on its way.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("[data-trainer-moves], [data-trainer-next]");
    if (form) {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }
  });

  // Move the focus to what was just shown, so that screen readers read it and Enter works.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    if (!target) {
      return;
    }
    var result = document.querySelector("[data-trainer-result]");
    if (result && target.id === "answer-area") {
      result.focus();
    } else if (target.id === "situation") {
      // On a phone the new hand and its buttons fit one screen: show them together, from the
      // top of the hand, rather than wherever focusing the first button would scroll to.
      if (target.getBoundingClientRect().height <= window.innerHeight) {
        target.scrollIntoView({ block: "start" });
      }
      var first = document.querySelector("[data-trainer-moves] button");
      if (first) {
        first.focus({ preventScroll: true });
      }
    }
  });

  // The running-count drill: show the cards one step (a card or a round) at a time at the
  // pace chosen, each replacing the last, then ask for the count. Without JavaScript, or at
  // the pace "all at once", every card stays in view.
  function runCount() {
    var box = document.querySelector("#situation [data-count-pace]");
    if (!box || box.getAttribute("data-count-started")) {
      return;
    }
    box.setAttribute("data-count-started", "1");
    var pace = parseInt(box.getAttribute("data-count-pace"), 10) || 0;
    var input = document.getElementById("count-input");
    var steps = box.querySelectorAll(".count-step");
    if (pace <= 0 || !steps.length) {
      if (input) input.focus({ preventScroll: true });
      return;
    }
    box.classList.add("count-running");
    steps.forEach(function (s) { s.hidden = true; });
    var i = 0;
    function next() {
      if (i > 0) steps[i - 1].hidden = true;
      if (i >= steps.length) {
        var done = box.querySelector(".count-done");
        if (done) done.hidden = false;
        if (input) input.focus({ preventScroll: true });
        return;
      }
      steps[i].hidden = false;
      i += 1;
      window.setTimeout(next, pace);
    }
    next();
  }
  document.addEventListener("DOMContentLoaded", runCount);
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    if (target && target.id === "situation") runCount();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("[data-trainer-count]");
    if (form) {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }
  });

  // The up-card choice matters only to the "one dealer up card" focus: show it only then.
  // Without JavaScript it stays visible (and is ignored by the other focuses).
  function syncFocusFields() {
    var focus = document.querySelector('.drill-settings select[name="focus"]');
    if (!focus) {
      return;
    }
    document.querySelectorAll(".drill-settings [data-focus-only]").forEach(function (field) {
      field.hidden = field.getAttribute("data-focus-only").split(" ").indexOf(focus.value) < 0;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "focus") {
      syncFocusFields();
    }
  });
  document.addEventListener("DOMContentLoaded", syncFocusFields);

  // A hand in play must not come back from the back-forward cache as it was.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });
  document.addEventListener("htmx:afterSettle", syncFocusFields);
})();
