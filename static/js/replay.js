// The replay and review pages: arrow keys step through the hand; the browser checks the fairness commitment.
(function () {
  document.addEventListener("keydown", function (event) {
    if (event.target.closest("input, textarea, select")) return;
    var id = event.key === "ArrowRight" ? "replay-next" : event.key === "ArrowLeft" ? "replay-prev" : null;
    var link = id && document.getElementById(id);
    if (link && !link.classList.contains("disabled")) { event.preventDefault(); link.click(); }
  });
  var out = document.getElementById("fair-browser");
  if (!out) return; // the review page steps with the same keys and has no fairness check
  // The words are the template's, in the page's language (replay.html: data-ok, data-mismatch, data-unavailable).
  if (!window.crypto || !crypto.subtle) { out.textContent = out.dataset.unavailable; return; }
  var text = document.getElementById("fair-seed").textContent + ":" + document.getElementById("fair-wall").textContent;
  crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (buf) {
    var hex = Array.from(new Uint8Array(buf)).map(function (b) { return b.toString(16).padStart(2, "0"); }).join("");
    var ok = hex === document.getElementById("fair-commitment").textContent;
    out.className = ok ? "ok" : "bad";
    out.dataset.result = ok ? "ok" : "mismatch";
    out.textContent = ok ? "✓ " + out.dataset.ok : "✗ " + out.dataset.mismatch + ": " + hex;
  });
})();
