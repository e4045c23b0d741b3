from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import Profile


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(label="昵称 Display name", max_length=24, required=False)

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name",)
        labels = {"display_name": "昵称 Display name"}

    def clean_display_name(self) -> str:
        return self.cleaned_data["display_name"].strip()
