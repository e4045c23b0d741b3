// Discarding from your hand: tap a tile to raise it, tap it again (or double-click it) to discard;
// with the keyboard, the arrow keys move the raised tile and Enter discards it. Each discardable tile
// is a submit button (.tile-btn, name "action", its discard the value) of the hand's one <form ws-send>:
// a click on a raised tile lets the form submit, and htmx sends the button's name and value.
(function () {
  // The action a button sends (its value: "0:discard:5p", "0:declare:5p"), null for anything else.
  function actionOf(node) {
    return node.getAttribute("name") === "action" ? node.getAttribute("value") : null;
  }

  function buttons() {
    return Array.prototype.slice.call(document.querySelectorAll('#controls [data-zone="hand"] .tile-btn'));
  }

  // 敲: the declare button that discards the raised tile is marked beside it in the action bar.
  function tileOf(button) {
    return button ? (actionOf(button) || "").split(":").pop() : "";
  }

  function raise(button) {
    buttons().forEach(function (b) {
      var on = b === button;
      b.classList.toggle("raised", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var tile = tileOf(button);
    document.querySelectorAll("#controls .choice-declare").forEach(function (d) {
      var action = actionOf(d);
      d.classList.toggle("for-raised", !!tile && !!action && action.split(":").pop() === tile);
    });
  }

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest('#controls [data-zone="hand"] .tile-btn');
      if (!button || button.classList.contains("raised")) return; // a raised tile: discard it
      event.preventDefault();
      event.stopPropagation();
      raise(button);
      button.focus();
    },
    true
  );

  document.addEventListener("keydown", function (event) {
    var list = buttons();
    if (!list.length || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    var at = list.findIndex(function (b) { return b.classList.contains("raised"); });
    if (at < 0) at = list.indexOf(document.activeElement);
    var next = at < 0 ? (event.key === "ArrowLeft" ? list.length - 1 : 0)
      : (at + (event.key === "ArrowLeft" ? -1 : 1) + list.length) % list.length;
    raise(list[next]);
    list[next].focus();
    event.preventDefault();
  });

  // A frame morphs the hand in place: a raised tile stays raised while it is still the same tile
  // (static/js/morph.js); after a move of yours the hand is new and nothing is raised.
  if (window.shmjMorph) {
    window.shmjMorph.keep(function (oldNode, newNode) {
      var raised = oldNode.classList.contains("raised") || oldNode.classList.contains("for-raised");
      if (!raised || actionOf(oldNode) === null || actionOf(oldNode) !== actionOf(newNode)) return;
      if (oldNode.classList.contains("raised")) {
        newNode.classList.add("raised");
        newNode.setAttribute("aria-pressed", "true");
      }
      if (oldNode.classList.contains("for-raised")) newNode.classList.add("for-raised");
    });
  }
})();
