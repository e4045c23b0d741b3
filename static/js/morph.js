// The table's socket frames are morphed into the page (idiomorph, hx-swap-oob="morph"): the elements
// stay, so focus stays. What the browser adds to the markup on its own (a raised tile, the tiles chosen
// to bury, a countdown's seconds, the sound switch) is carried over to the new markup of the same
// element before it is morphed: each script registers what it keeps with `window.shmjMorph.keep`.
(function () {
  var keepers = [];
  window.shmjMorph = {
    keep: function (carry) { keepers.push(carry); }
  };
  if (!window.Idiomorph) return;
  Idiomorph.defaults.callbacks.beforeNodeMorphed = function (oldNode, newNode) {
    if (oldNode.nodeType === 1 && newNode.nodeType === 1) {
      keepers.forEach(function (carry) { carry(oldNode, newNode); });
    }
    return true;
  };
})();
