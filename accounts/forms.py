from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import DELETED_NAME, Profile


def _clean_display_name(value: str) -> str:
    value = value.strip()
    if value == DELETED_NAME:
        raise forms.ValidationError("这个昵称留给已注销的账户 This name is kept for deleted accounts.")
    return value


EMAIL_HELP = "可不填；忘记密码时用来重设 Optional: where a password reset link is sent if you forget it."


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(label="昵称 Display name", max_length=24, required=False)
    email = forms.EmailField(label="邮箱 E-mail", required=False, help_text=EMAIL_HELP)

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(label="邮箱 E-mail", required=False, help_text=EMAIL_HELP)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].initial = self.instance.user.email

    class Meta:
        model = Profile
        fields = ("display_name",)
        labels = {"display_name": "昵称 Display name"}

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="密码 Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label="我明白账户无法恢复 I understand the account cannot be restored", required=True
    )
