/* The table's little script: chips onto boxes, keyboard moves, focus after a swap.
   Everything also works without it (plain forms); CSP allows no inline script. */
(function () {
  "use strict";

  // A chip worth more than the balance is disabled: it never counts, even if checked.
  function selectedChip(form) {
    var checked = form.querySelector('input[name="chip"]:checked:not(:disabled)');
    return checked ? parseInt(checked.value, 10) : 0;
  }

  // The chip the learner picked stays picked across swaps while the balance covers it (the
  // server checks the largest chip the balance covers).
  var pickedChip = null;
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches('input[name="chip"]')) {
      pickedChip = event.target.value;
    }
  });
  function restoreChip(round) {
    if (pickedChip === null) return;
    var input = round.querySelector('input[name="chip"][value="' + pickedChip + '"]');
    if (input && !input.disabled) input.checked = true;
  }

  // A page with a round in play must not come back from the back-forward cache as it was:
  // the round has moved on since.  (It is also sent with Cache-Control: no-store.)
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });

  // Click a chip, then a box: the chip's value is added to the box's bet.
  document.addEventListener("click", function (event) {
    var spot = event.target.closest(".bet-spot");
    if (!spot) return;
    var form = spot.closest("form");
    var input = form.querySelector("#bet-" + spot.dataset.box);
    var max = parseInt(input.max, 10) || Infinity;
    var next = (parseInt(input.value, 10) || 0) + selectedChip(form);
    input.value = Math.min(next, max);
    input.dispatchEvent(new Event("change", { bubbles: true }));
    // A mouse click (detail > 0) leaves the focus nowhere, so that Enter then deals as the
    // Deal button says, instead of pressing the box again and adding a chip unseen.  From
    // the keyboard (detail 0) the focus stays, to add more chips.
    if (event.detail > 0) spot.blur();
  });

  // "Clear bets" is a reset button (it works without script), but a reset brings back the
  // values the page came with: after a refused deal, the bets that were refused.  Clear them.
  document.addEventListener("reset", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.bets")) return;
    setTimeout(function () {  // after the browser's own reset
      form.querySelectorAll('input[type="number"]').forEach(function (input) {
        input.value = "";
      });
    });
  });

  function typing(target) {
    return target.closest("input, select, textarea, [contenteditable]") !== null;
  }

  // H S D P R Y N play the enabled move; C goes to the count; Enter deals when no other
  // control has the focus.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var round = document.getElementById("round");
    if (!round) return;
    if (event.key === "Enter") {
      if (event.target.closest("button, a, summary, select, textarea")) return;
      if (event.target.closest("form.count-ask")) return;  // Enter there checks the count
      var deal = round.querySelector("[data-deal]");
      if (deal && !deal.disabled) {
        event.preventDefault();
        deal.click();
      }
      return;
    }
    if (typing(event.target)) return;
    var key = event.key.toLowerCase();
    // C: "what is the count?" -- the cursor into the running count, to type it.
    var countInput = key === "c" && round.querySelector("[data-count-input]");
    if (countInput) {
      event.preventDefault();
      countInput.focus();
      return;
    }
    var button = round.querySelector('button[data-key="' + key + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // After a swap, put the focus on the first move that can be made; when a move has just ended
  // the round, on "Repeat last bet" (the bet fields start empty, so Enter on Deal would only
  // be refused); else on Deal.
  // An insurance offer puts the focus on its question, not on a button: a default would hint
  // at an answer (Tab reaches both, Y and N answer).
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var round = document.getElementById("round");
    if (!round || !round.contains(event.detail.elt)) return;
    restoreChip(round);
    var over = round.querySelector(".round-result") && !round.querySelector(".play-error");
    // Coach mode's warning takes the focus itself (read first, no button chosen for the learner).
    // The answer to "what is the count?" is read first too.
    var target = round.querySelector("[data-coach]") || round.querySelector("[data-count-answer]") ||
      round.querySelector("[data-question]") ||
      round.querySelector("button.move:not([disabled])") ||
      (over && round.querySelector("[data-repeat]")) || round.querySelector("[data-deal]");
    if (target) target.focus({ preventScroll: true });
    keepPlayInView(round);
  });

  // On a phone the dealt round is taller than the screen: bring the dealer's up card, the
  // hand to play and the move buttons into view together, else the buttons at least.
  function keepPlayInView(round) {
    var actions = round.querySelector(".actions");
    if (!actions) return;
    var dealer = round.querySelector(".dealer");
    var top = (dealer || actions).getBoundingClientRect().top;
    var bottom = actions.getBoundingClientRect().bottom;
    var reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (top >= 0 && bottom <= window.innerHeight) return;  // all of it is in view already
    var y = window.scrollY + (bottom - top <= window.innerHeight ? top : bottom - window.innerHeight);
    window.scrollTo({ top: Math.max(0, y - 4), behavior: reduce ? "auto" : "smooth" });
  }
})();
