"""Staff pages for the ledger: read-only books, penalties issued by hand and reversed.

Player bans are in `games.admin`: banning stands the player up, which is a game service's work.
Every write goes through `ledger.services` and is recorded in Django's admin log
(`LogEntry`) — additions by the admin itself, custom actions with `log_change`.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .errors import LedgerError
from .models import Account, Journal, LedgerEntry, Penalty
from .services import balance_of, issue_penalty, journal_total, match_seat_users, reverse_penalty


class ReadOnlyAdmin(admin.ModelAdmin):
    """The books are append-only: staff may look, never add, edit or delete here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "user", "balance", "created")
    list_filter = ("kind",)
    search_fields = ("user__username",)

    @admin.display(description=gettext_lazy("余额"))
    def balance(self, obj: Account):
        return balance_of(obj)


class EntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ("account", "seat", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Journal)
class JournalAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "hand", "penalty", "reverses", "note", "total", "created_by", "created")
    list_select_related = ("hand",)
    list_filter = ("kind",)
    exclude = ("memo",)
    readonly_fields = ("note",)
    inlines = [EntryInline]

    @admin.display(description=gettext_lazy("备注"))
    def note(self, obj: Journal) -> str:
        """A hand's settlement is worded in the page's language; a penalty's or a reversal's memo is
        the reason staff wrote."""
        if obj.kind == Journal.Kind.HAND and obj.hand is not None:
            return _("第 {match} 场第 {number} 局").format(match=obj.hand.match_id, number=obj.hand.number)
        return obj.memo

    @admin.display(description=gettext_lazy("合计"))
    def total(self, obj: Journal):
        return journal_total(obj)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "journal", "account", "seat", "amount", "created")
    list_filter = ("journal__kind", "account__kind")
    search_fields = ("account__user__username",)


class PenaltyIssueForm(forms.ModelForm):
    """Issue a penalty by hand: the hand, the seat charged, and a reason (required)."""

    seat = forms.IntegerField(min_value=0, max_value=3, label=gettext_lazy("座位"))
    reason = forms.CharField(max_length=200, required=True, strip=True, label=gettext_lazy("原因"))

    class Meta:
        model = Penalty
        fields = ("hand", "seat", "reason")

    def clean(self):
        data = super().clean()
        hand, seat = data.get("hand"), data.get("seat")
        if hand is not None and seat is not None and match_seat_users(hand)[seat] is None:
            raise forms.ValidationError(_("这个座位是机器人打的；只能罚真人。"))
        return data


class ReverseForm(forms.Form):
    reason = forms.CharField(max_length=200, required=True, strip=True, label=gettext_lazy("原因"))


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "hand",
        "seat",
        "user",
        "kind",
        "amount",
        "reason",
        "issued_by",
        "reversed",
        "created",
    )
    list_filter = ("kind",)
    search_fields = ("user__username", "reason")
    raw_id_fields = ("hand",)
    readonly_fields = (
        "hand",
        "seat",
        "user",
        "kind",
        "amount",
        "reason",
        "issued_by",
        "created",
        "reverse_link",
    )

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = PenaltyIssueForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else ()

    def get_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else ("hand", "seat", "reason")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        if change:
            raise PermissionDenied(_("罚分不能修改；请冲正。"))
        penalty = issue_penalty(
            hand=form.cleaned_data["hand"],
            seat=form.cleaned_data["seat"],
            reason=form.cleaned_data["reason"],
            issued_by=request.user,
        )
        obj.__dict__.update(penalty.__dict__)

    @admin.display(boolean=True, description=gettext_lazy("已冲正"))
    def reversed(self, obj: Penalty) -> bool:
        return obj.is_reversed

    @admin.display(description=gettext_lazy("冲正"))
    def reverse_link(self, obj: Penalty):
        if obj.pk is None or obj.is_reversed:
            return "—"
        url = reverse("admin:ledger_penalty_reverse", args=[obj.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, _("冲正这笔罚分"))

    def get_urls(self):
        view = self.admin_site.admin_view(self.reverse_view)
        return [path("<int:penalty_id>/reverse/", view, name="ledger_penalty_reverse"), *super().get_urls()]

    def reverse_view(self, request, penalty_id: int):
        penalty = get_object_or_404(Penalty, pk=penalty_id)
        if not self.has_change_permission(request, penalty):
            raise PermissionDenied
        form = ReverseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                journal = reverse_penalty(
                    penalty=penalty, reason=form.cleaned_data["reason"], by=request.user
                )
            except LedgerError as error:
                messages.error(request, error.message)
            else:
                self.log_change(
                    request,
                    penalty,
                    _("已由分录 #{journal} 冲正：{reason}").format(
                        journal=journal.pk, reason=form.cleaned_data["reason"]
                    ),
                )
                messages.success(request, _("已冲正：分录 #{journal}").format(journal=journal.pk))
                return redirect("admin:ledger_penalty_change", penalty.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("冲正罚分 #{penalty}").format(penalty=penalty.pk),
            "penalty": penalty,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/ledger/penalty/reverse.html", context)
