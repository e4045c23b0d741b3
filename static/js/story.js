// What just happened at the table, told with motion and sound (issue 26). The pushed markup is
// compared with what the page showed before, seat by seat, all of it public:
//   a river one tile longer        the tile sound (the tile slides in by CSS: table.css .river .last)
//   a new meld                      a large callout (吃 / 碰 / 杠, the meld's own title) over that seat, the claim sound
//   a new 敲 badge                   a callout with the badge's word
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

  function compare() {
    queued = false;
    syncStake();
    var now = snapshot();
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

  new MutationObserver(function () {
    if (!queued) { queued = true; requestAnimationFrame(compare); }
  }).observe(root, { childList: true, subtree: true });
  compare();
})();
