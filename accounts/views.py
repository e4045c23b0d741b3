"""Sign up, log in / out (Django's views), and the profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from ledger.services import balance_of

from .forms import ProfileForm, SignUpForm
from .models import Profile


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("games:lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            Profile.objects.create(user=user, display_name=form.cleaned_data.get("display_name", "").strip())
        login(request, user)
        return redirect("games:lobby")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    instance, _ = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "已保存 Saved")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form, "balance": balance_of(request.user)})
