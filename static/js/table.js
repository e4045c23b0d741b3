// The turn countdown: the deadline comes from the server (epoch seconds), corrected for clock skew.
// A countdown with data-total (the timer's full length) is drawn as a ring that empties (--left, 1 to
// 0) and turns red (.urgent) in its last 5 seconds.
(function () {
  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      if (!el.dataset.offset) {
        el.dataset.offset = String(Number(el.dataset.now) * 1000 - Date.now());
      }
      var left = Number(el.dataset.deadline) * 1000 - (Date.now() + Number(el.dataset.offset));
      var seconds = Math.max(0, Math.ceil(left / 1000));
      var out = el.querySelector("b");
      if (out) out.textContent = el.dataset.total ? String(seconds) : seconds + "s";
      if (el.dataset.total) {
        var fraction = Math.min(1, Math.max(0, left / (Number(el.dataset.total) * 1000)));
        el.style.setProperty("--left", fraction.toFixed(3));
        el.classList.toggle("urgent", seconds <= 5);
      }
    });
  }
  // A frame morphs a countdown in place: the same deadline keeps its seconds, ring and clock skew.
  if (window.shmjMorph) {
    window.shmjMorph.keep(function (oldNode, newNode) {
      if (!oldNode.classList.contains("countdown") || oldNode.dataset.deadline !== newNode.dataset.deadline) return;
      if (oldNode.dataset.offset && oldNode.dataset.now === newNode.dataset.now) newNode.dataset.offset = oldNode.dataset.offset;
      var left = oldNode.style.getPropertyValue("--left");  // CSSOM: the CSP forbids style attributes
      if (left) newNode.style.setProperty("--left", left);
      if (oldNode.classList.contains("urgent")) newNode.classList.add("urgent");
      var shown = oldNode.querySelector("b");
      var fresh = newNode.querySelector("b");
      if (shown && fresh && !fresh.textContent) fresh.textContent = shown.textContent;
    });
  }
  setInterval(tick, 250);
  tick();
})();
