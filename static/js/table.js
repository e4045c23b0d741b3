// The turn countdown: the deadline comes from the server (epoch seconds), corrected for clock skew.
(function () {
  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      if (!el.dataset.offset) {
        el.dataset.offset = String(Number(el.dataset.now) * 1000 - Date.now());
      }
      var left = Number(el.dataset.deadline) * 1000 - (Date.now() + Number(el.dataset.offset));
      var out = el.querySelector("b");
      if (out) out.textContent = Math.max(0, Math.ceil(left / 1000)) + "s";
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
})();
