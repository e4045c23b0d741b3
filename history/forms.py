"""The hand-import upload form (the file's content is checked by `games.engine.verify`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class ImportForm(forms.Form):
    max_bytes = 200_000

    file = forms.FileField(label=gettext_lazy("牌局文件（JSON）"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.max_bytes:
            raise forms.ValidationError(_("文件太大：超过 {limit} 字节。").format(limit=self.max_bytes))
        return upload
