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
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
})();
