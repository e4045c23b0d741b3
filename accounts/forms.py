from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Profile
from .names import is_reserved, normalise_display_name

RESERVED_MESSAGE = _("这个昵称留给已注销的账户。")


def _clean_display_name(value: str) -> str:
    value = normalise_display_name(value)
    if is_reserved(value):
        raise forms.ValidationError(RESERVED_MESSAGE)
    return value


EMAIL_HELP = _("可不填；忘记密码时用来寄重设链接。")


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(label=_("昵称"), max_length=24, required=False)
    email = forms.EmailField(label=_("邮箱"), required=False, help_text=EMAIL_HELP)

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def clean_username(self) -> str:
        """The username is the name shown while no display name is set: it may not pass for a
        deleted account either."""
        username = super().clean_username()
        if username and is_reserved(username):
            raise forms.ValidationError(RESERVED_MESSAGE)
        return username

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(label=_("邮箱"), required=False, help_text=EMAIL_HELP)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].initial = self.instance.user.email

    class Meta:
        model = Profile
        fields = ("display_name",)
        labels = {"display_name": _("昵称")}

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("密码"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(label=_("我明白账户无法恢复"), required=True)
