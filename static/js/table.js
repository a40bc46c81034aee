/* The table's little script: chips onto boxes, keyboard moves, focus after a swap.
   Everything also works without it (plain forms); CSP allows no inline script. */
(function () {
  "use strict";

  function selectedChip(form) {
    var checked = form.querySelector('input[name="chip"]:checked');
    return checked ? parseInt(checked.value, 10) : 0;
  }

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

  // H S D P R Y N play the enabled move; Enter deals when no other control has the focus.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var round = document.getElementById("round");
    if (!round) return;
    if (event.key === "Enter") {
      if (event.target.closest("button, a, summary, select, textarea")) return;
      var deal = round.querySelector("[data-deal]");
      if (deal && !deal.disabled) {
        event.preventDefault();
        deal.click();
      }
      return;
    }
    if (typing(event.target)) return;
    var key = event.key.toLowerCase();
    var button = round.querySelector('button[data-key="' + key + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // After a swap, put the focus on the first move that can be made; when a move has just ended
  // the round, on "Repeat last bet" (the bet fields start empty, so Enter on Deal would only
  // be refused); else on Deal.
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var round = document.getElementById("round");
    if (!round || !round.contains(event.detail.elt)) return;
    var over = round.querySelector(".round-result") && !round.querySelector(".play-error");
    var target = round.querySelector("button.move:not([disabled])") ||
      (over && round.querySelector("[data-repeat]")) || round.querySelector("[data-deal]");
    if (target) target.focus({ preventScroll: true });
  });
})();
