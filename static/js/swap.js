// 换牌 (swap.html): tap tiles of the hand to choose the five to bury. Each tap toggles a tile; the
// counter shows how many are chosen, the hidden `tiles` field carries them to the server, and the
// confirm button is enabled only at exactly five. The server checks the choice again.
// Others' swaps re-render the controls during the window: the choice is kept across those frames
// (the hand itself does not change until this seat swaps).
(function () {
  var kept = null; // {hand: "1m 2m ...", chosen: [indices]}

  function tiles(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".swap-tile"));
  }

  function handOf(form) {
    return tiles(form).map(function (b) { return b.getAttribute("data-choice"); }).join(" ");
  }

  function update(form) {
    var all = tiles(form);
    var chosen = all.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; });
    var need = Number(form.closest("[data-count]").getAttribute("data-count"));
    form.querySelector("[data-swap-tiles]").value = chosen.map(function (b) { return b.getAttribute("data-choice"); }).join(" ");
    form.querySelector("[data-swap-chosen]").textContent = String(chosen.length);
    form.querySelector('[data-testid="swap-confirm"]').disabled = chosen.length !== need;
    kept = { hand: handOf(form), chosen: chosen.map(function (b) { return all.indexOf(b); }) };
  }

  document.addEventListener("click", function (event) {
    var tile = event.target.closest(".swap-form .swap-tile");
    if (!tile) return;
    event.preventDefault();
    var form = tile.closest(".swap-form");
    var need = Number(form.closest("[data-count]").getAttribute("data-count"));
    var on = tile.getAttribute("aria-pressed") === "true";
    if (!on && form.querySelectorAll('.swap-tile[aria-pressed="true"]').length >= need) return;
    tile.setAttribute("aria-pressed", on ? "false" : "true");
    update(form);
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    var form = document.querySelector("#controls .swap-form");
    if (!form || !kept || handOf(form) !== kept.hand) return;
    var all = tiles(form);
    kept.chosen.forEach(function (i) { if (all[i]) all[i].setAttribute("aria-pressed", "true"); });
    update(form);
  });
})();
