// What just happened at the table, told with motion and sound (issue 26). The pushed markup is
// compared with what the page showed before, seat by seat, all of it public:
//   a river one tile longer        the tile sound (the tile slides in by CSS: table.css .river .last,
//                                  marked here from the centre's data-last-discard)
//   a new meld                      a large callout (吃 / 碰 / 杠, the meld's own title) over that seat, the claim sound
//   a new 敲 badge                   a callout with the badge's word
//   a timer discard (centre badge)  a callout 超时自动出牌 over the seat the timer discarded for
//   the settlement opening on a win the winners' seats lit and a 胡 callout (#settlement[data-win-word]), the win sound
// A MutationObserver watches the table, so this works whatever swaps the regions in. Callouts last
// about a second; with prefers-reduced-motion they only fade (table.css).
(function () {
  var root = document.getElementById("table-root");
  if (!root) return;
  var before = null;
  var settled = false;
  var queued = false;

  function snapshot() {
    var seats = {};
    document.querySelectorAll("#board .seat[data-seat]").forEach(function (seat) {
      seats[seat.dataset.seat] = {
        river: seat.querySelectorAll('[data-zone="river"] svg.tile').length,
        melds: seat.querySelectorAll('[data-zone="melds"] .meld').length,
        declared: !!seat.querySelector('[data-testid="declared"]')
      };
    });
    return seats;
  }

  function sound(name) {
    if (window.shmjSound) window.shmjSound(name);
  }

  function callout(seatIndex, word, kind) {
    var seat = document.querySelector('#board .seat[data-seat="' + seatIndex + '"]');
    if (!seat || !word) return;
    var box = seat.getBoundingClientRect();
    var el = document.createElement("div");
    el.className = "callout callout-" + kind;
    el.setAttribute("aria-hidden", "true");
    el.textContent = word;
    el.style.left = box.left + box.width / 2 + "px";
    el.style.top = box.top + box.height / 2 + "px";
    document.body.appendChild(el);
    setTimeout(function () { el.remove(); }, 1200);
  }

  // The rules drawer (table.html) is drawn with the page: once the owner sets the stake, the
  // waiting room shows it (data-stake) and the drawer follows.
  function syncStake() {
    var stake = document.querySelector("#board [data-stake]");
    if (!stake || !stake.dataset.stake) return;
    document.querySelectorAll('#table-drawer [data-choice="stake"]').forEach(function (dd) {
      dd.textContent = stake.dataset.stake;
    });
  }

  // The centre's badge when the turn timer made the newest discard: which seat, and at which river size
  // (a second timeout of the same seat is a new story).
  function timerDiscard() {
    var badge = document.querySelector('#table-centre [data-testid="timer-discard"]');
    if (!badge) return null;
    var seat = document.querySelector('#board .seat[data-seat="' + badge.dataset.seat + '"]');
    var river = seat ? seat.querySelectorAll('[data-zone="river"] svg.tile').length : 0;
    return { seat: badge.dataset.seat, key: badge.dataset.seat + ":" + river, word: badge.textContent.trim() };
  }
  var lastTimer = null;

  function compare() {
    queued = false;
    syncStake();
    var now = snapshot();
    var timer = timerDiscard();
    if (before) {
      var played = false;
      Object.keys(now).forEach(function (i) {
        var was = before[i];
        var is = now[i];
        if (!was) return;
        if (is.melds > was.melds) {
          var metas = document.querySelectorAll('#board .seat[data-seat="' + i + '"] [data-zone="melds"] .meld');
          var meld = metas[metas.length - 1];
          callout(i, meld && meld.getAttribute("title"), "claim");
          sound("claim");
          played = true;
        } else if (is.declared && !was.declared) {
          var badge = document.querySelector('#board .seat[data-seat="' + i + '"] [data-testid="declared"]');
          callout(i, badge && badge.textContent.trim(), "declare");
          sound("claim");
          played = true;
        }
        if (is.river > was.river && !played) {
          sound("tile");
          played = true;
        }
      });
    }
    if (timer && before && (!lastTimer || lastTimer.key !== timer.key)) {
      callout(timer.seat, timer.word, "timer");
    }
    lastTimer = timer;
    var settlement = document.getElementById("settlement");
    var won = !!settlement && settlement.dataset.result === "win";
    if (won && !settled) {
      settlement.querySelectorAll(".tanpai-row").forEach(function (row) {
        if (!row.querySelector(".winning")) return;
        var seat = document.querySelector('#board .seat[data-seat="' + row.dataset.seat + '"]');
        if (seat) seat.classList.add("is-winner");
        callout(row.dataset.seat, settlement.dataset.winWord, "win");
      });
    }
    settled = won;
    before = now;
  }

  // The newest discard, while it is open to claims, is marked (table.css .river .last: it slides in
  // and glows). The centre says whose it is (data-last-discard); the rivers do not carry the mark, so
  // a river is not sent again when it moves on. Run from the observer, before the page is painted.
  function markLast() {
    var centre = document.getElementById("table-centre");
    var seatIndex = centre ? centre.dataset.lastDiscard : "";
    var want = null;
    if (seatIndex) {
      var tiles = document.querySelectorAll('#board .seat[data-seat="' + seatIndex + '"] [data-zone="river"] svg.tile');
      want = tiles[tiles.length - 1] || null;
    }
    document.querySelectorAll("#board .river .last").forEach(function (el) {
      if (el !== want) el.classList.remove("last");
    });
    if (want && !want.classList.contains("last")) want.classList.add("last");
  }

  new MutationObserver(function () {
    markLast();
    if (!queued) { queued = true; requestAnimationFrame(compare); }
  }).observe(root, { childList: true, subtree: true });
  markLast();
  compare();
})();
