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

// What a click answers: every message the table's forms send (ws-send) carries the version of the view
// it was made on, the frame stamp's (#frame-stamp data-version, brought by every frame). The forms do
// not carry it themselves, so that a region changes only when what it shows changes, not with every
// version; the server refuses a click made on a view that is no longer current (services' policy).
(function () {
  document.addEventListener("htmx:wsConfigSend", function (event) {
    var stamp = document.getElementById("frame-stamp");
    var parameters = event.detail && event.detail.parameters;
    if (stamp && parameters && parameters.version === undefined) parameters.version = stamp.dataset.version;
    // The button that sent the form names the move (name="action"). htmx learns it from the button's
    // click, which it missed for a form it took up after the click (below): the submit event has it.
    var sent = event.detail && event.detail.triggeringEvent;
    var button = sent && sent.submitter;
    if (parameters && button && button.name && parameters[button.name] === undefined) {
      parameters[button.name] = button.value;
    }
  });
})();

// A table form is sent over the socket, never by the browser itself: htmx sends a ws-send form when
// it is submitted and then cancels the browser's own submit. A form a frame has just put in (the
// hand's buttons when the turn comes) may be clicked before htmx has taken it up; the browser would
// then load the page anew with the move in its address. Here that submit is stopped, the form is
// handed to htmx and submitted once more; should htmx still not take it (the socket reconnecting),
// the click is dropped and the player clicks again.
(function () {
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("ws-send") || event.defaultPrevented) return;
    event.preventDefault();
    if (form.dataset.resent || !window.htmx) return;
    form.dataset.resent = "1";
    htmx.process(form);
    var submitter = event.submitter && event.submitter.form === form ? event.submitter : null;
    setTimeout(function () {
      form.requestSubmit(submitter || undefined);
      delete form.dataset.resent;
    }, 0);
  });
})();
