// 换牌 (swap.html): tap tiles of the hand to choose the five to bury. Each tap toggles a tile; the
// counter shows how many are chosen, the hidden `tiles` field carries them to the server, and the
// confirm button is enabled only at exactly five. The server checks the choice again.
// Others' swaps change the controls during the window: a frame morphs them in place and the choice is
// carried over (static/js/morph.js) while the hand is the same (it does not change until this seat swaps).
(function () {
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

  if (window.shmjMorph) {
    window.shmjMorph.keep(function (oldNode, newNode) {
      if (!oldNode.classList.contains("swap-form") || !newNode.classList.contains("swap-form")) return;
      if (handOf(oldNode) !== handOf(newNode)) return;
      var before = tiles(oldNode);
      var after = tiles(newNode);
      before.forEach(function (b, i) {
        if (after[i]) after[i].setAttribute("aria-pressed", b.getAttribute("aria-pressed") || "false");
      });
      var chosen = after.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; });
      var need = Number(oldNode.closest("[data-count]").getAttribute("data-count"));
      newNode.querySelector("[data-swap-tiles]").setAttribute("value", chosen.map(function (b) { return b.getAttribute("data-choice"); }).join(" "));
      newNode.querySelector("[data-swap-chosen]").textContent = String(chosen.length);
      var confirm = newNode.querySelector('[data-testid="swap-confirm"]');
      if (chosen.length === need) confirm.removeAttribute("disabled"); else confirm.setAttribute("disabled", "");
    });
  }
})();
