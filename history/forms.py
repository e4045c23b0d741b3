"""The hand-import upload form (the file's content is checked by `games.engine.verify`)."""

from __future__ import annotations

from django import forms


class ImportForm(forms.Form):
    max_bytes = 200_000

    file = forms.FileField(label="牌局文件 Hand export (.json)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.max_bytes:
            raise forms.ValidationError(f"文件太大 The file is larger than {self.max_bytes} bytes.")
        return upload
