// Table sounds, made with Web Audio (no sound files): your turn, a claim prompt, a win, a tick in
// the last 5 s of your own timer, and (played by static/js/story.js) every seat's discards and claims.
// The server marks what happened in the pushed markup:
//   #controls[data-prompt="turn"|"claim"|"swap"|""]   what this viewer is asked now
//   #settlement[data-result="win"|"draw"|""]    how the hand just ended
//   .countdown[data-mine]                       the viewer's own timer
// The mute toggle (#sound-toggle) is remembered per browser in localStorage; a spectator starts muted.
(function () {
  var KEY = "shmj-sound";
  var ctx = null;
  var last = { prompt: "", result: "", tick: null };

  function isPlayer() {
    var controls = document.getElementById("controls");
    return !!controls && controls.dataset.seated === "yes";
  }

  function enabled() {
    var saved = null;
    try { saved = window.localStorage.getItem(KEY); } catch (e) { saved = null; }
    if (saved === "on") return true;
    if (saved === "off") return false;
    return isPlayer();
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function audio() {
    if (!ctx) {
      var Ctor = window.AudioContext || window.webkitAudioContext;
      if (!Ctor) return null;
      ctx = new Ctor();
    }
    if (ctx.state === "suspended") ctx.resume();
    return ctx;
  }

  // One note: a sine (or triangle) with a short attack and an exponential fall.
  function note(freq, start, length, type, volume) {
    var a = audio();
    if (!a) return;
    var t = a.currentTime + start;
    var osc = a.createOscillator();
    var gain = a.createGain();
    osc.type = type || "sine";
    osc.frequency.setValueAtTime(freq, t);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(volume || 0.2, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain).connect(a.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }

  var SOUNDS = {
    turn: function () { note(660, 0, 0.14); note(880, 0.12, 0.2); },
    swap: function () { SOUNDS.turn(); },
    claim: function () { note(988, 0, 0.08, "triangle"); note(988, 0.11, 0.08, "triangle"); note(1319, 0.22, 0.16, "triangle"); },
    win: function () { [523, 659, 784, 1047].forEach(function (f, i) { note(f, i * 0.11, 0.3, "triangle", 0.18); }); },
    tick: function () { note(1200, 0, 0.05, "square", 0.06); },
    tile: function () { note(180, 0, 0.06, "triangle", 0.12); note(420, 0.01, 0.04, "square", 0.03); }
  };

  function play(name) {
    document.documentElement.dataset.lastSound = name; // what played last (read by the browser tests)
    if (enabled() && SOUNDS[name]) SOUNDS[name]();
  }

  function showToggle() {
    var button = document.getElementById("sound-toggle");
    if (!button) return;
    var on = enabled();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    // The words are the template's, in the page's language (board.html: data-on, data-off).
    button.textContent = on ? button.dataset.on : button.dataset.off;
  }

  function onUpdate() {
    var controls = document.getElementById("controls");
    var prompt = controls ? controls.dataset.prompt || "" : "";
    if (prompt && prompt !== last.prompt) play(prompt);
    last.prompt = prompt;
    var settlement = document.getElementById("settlement");
    var result = settlement ? settlement.dataset.result || "" : "";
    if (result === "win" && last.result !== "win") play("win");
    last.result = result;
    showToggle();
  }

  function tick() {
    var mine = document.querySelector(".countdown[data-mine] b");
    if (!mine) { last.tick = null; return; }
    var left = parseInt(mine.textContent, 10);
    if (left > 0 && left <= 5 && left !== last.tick) play("tick");
    last.tick = left;
  }

  window.shmjSound = play; // static/js/story.js: every seat's tiles and claims

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#sound-toggle");
    if (!button) return;
    remember(!enabled());
    if (enabled()) audio();
    showToggle();
  });
  // A frame morphs the page in place: a new prompt or result is an attribute that changed, and the
  // sound switch keeps its state (static/js/morph.js).
  if (window.shmjMorph) {
    window.shmjMorph.keep(function (oldNode, newNode) {
      if (oldNode.id !== "sound-toggle") return;
      newNode.setAttribute("aria-pressed", oldNode.getAttribute("aria-pressed") || "false");
      newNode.textContent = oldNode.textContent;
    });
  }
  new MutationObserver(onUpdate).observe(document.documentElement, {
    subtree: true,
    attributes: true,
    attributeFilter: ["data-prompt", "data-result"]
  });
  document.addEventListener("DOMContentLoaded", onUpdate);
  setInterval(tick, 250);
})();
