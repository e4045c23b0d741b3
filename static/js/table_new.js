// The new-table form (templates/games/table_new.html): the options the rules use only in 上海清混碰
// (RULES.md §11: payment, 九张包, …) are shown, and sent, only while that preset is chosen. Without
// this script they stay visible and the server leaves them out for the other presets, with a note.
(function () {
  var form = document.querySelector('[data-testid="table-new-form"]');
  var preset = form && form.querySelector('select[name="preset"]');
  if (!preset) return;
  function sync() {
    var standard = preset.value === "standard";
    form.querySelectorAll("[data-standard-only]").forEach(function (row) {
      row.hidden = !standard;
      row.querySelectorAll("input, select").forEach(function (field) { field.disabled = !standard; });
    });
  }
  preset.addEventListener("change", sync);
  sync();
})();
