// The lobby's socket pushes <div id="lobby-go" data-go="/table/7/"> when quick start seated this
// browser's person (games/live/consumers.py, LobbyConsumer.lobby_seated): go to the table at once.
// A static file, not an inline script: the Content-Security-Policy forbids inline script.
(function () {
  var going = false;
  function follow() {
    var go = document.getElementById("lobby-go");
    if (!going && go && go.dataset.go) {
      going = true;
      window.location.assign(go.dataset.go);
    }
  }
  new MutationObserver(follow).observe(document.body, { childList: true, subtree: true });
  follow();
})();
