"""Sign up, log in / out and the password views (Django's own), the account page, account deletion.

A player's public page (rating, recent matches, statistics) is history's `/history/players/<key>/`;
the account page here is what only the owner sees: the display name, the e-mail, the balance, the
password and deletion.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.throttle import attempt_allowed
from ledger.services import balance_of

from . import services
from .forms import DeleteAccountForm, ProfileForm, SignUpForm


def _throttled(request, template: str, form):
    """The form again, empty, with the throttle's message (accounts/_form.html) and HTTP 429."""
    minutes = int(settings.SIGNUP_WINDOW.total_seconds() // 60)
    return render(request, template, {"form": form, "throttled_minutes": minutes}, status=429)


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("games:lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        if not attempt_allowed(request, "signup"):
            return _throttled(request, "accounts/signup.html", SignUpForm())
        if form.is_valid():
            try:
                user = services.create_account(
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                    display_name=form.cleaned_data.get("display_name", ""),
                    email=form.cleaned_data.get("email", ""),
                )
            except services.AccountError as exc:
                form.add_error("username", str(exc))
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect("games:lobby")
    return render(request, "accounts/signup.html", {"form": form})


class PasswordChangeView(auth_views.PasswordChangeView):
    success_url = reverse_lazy("accounts:password_change_done")

    def form_valid(self, form):
        response = super().form_valid(form)
        services.password_changed(user=form.user)
        return response


class PasswordResetView(auth_views.PasswordResetView):
    success_url = reverse_lazy("accounts:password_reset_done")
    email_template_name = "registration/password_reset_email.txt"

    def post(self, request, *args, **kwargs):
        if not attempt_allowed(request, "password_reset"):
            return _throttled(request, self.template_name, self.form_class())
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        services.password_changed(user=form.user)
        return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=services.profile_for(request.user))
    if request.method == "POST" and form.is_valid():
        services.update_profile(
            user=request.user,
            display_name=form.cleaned_data["display_name"],
            email=form.cleaned_data["email"],
        )
        messages.success(request, _("已保存"))
        return redirect("accounts:profile")
    ctx = {"form": form, "balance": balance_of(request.user), "player_key": f"u{request.user.pk}"}
    return render(request, "accounts/profile.html", ctx)


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request):
    form = DeleteAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            deleted = services.delete_account(user=request.user, password=form.cleaned_data["password"])
        except services.AccountError as exc:
            form.add_error(None, str(exc))
        else:
            # The deletion closed the account's sockets once; logging the inactive account out
            # ends this session without telling the sockets a second time (games.live.users).
            request.user = deleted
            logout(request)
            messages.success(request, _("账户已注销。"))
            return redirect("games:lobby")
    return render(request, "accounts/delete.html", {"form": form}, status=400 if form.errors else 200)
