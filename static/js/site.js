// Site-wide behaviour, kept out of the markup so the Content-Security-Policy can forbid inline script:
// a <select data-autosubmit> submits its form when it changes.
document.addEventListener("change", function (event) {
  var select = event.target.closest("select[data-autosubmit]");
  if (select && select.form) select.form.submit();
});
