"""Staff pages for profiles, and Django's users and groups with their permissions in the page's
language.

Django stores a permission's name once, when `migrate` runs ("Can add 房间": English words around
the model's Chinese msgid), and shows that stored text. Here a model permission is worded when it is
shown, from its codename and the model's labels, in the language of the page."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, Permission
from django.utils.translation import gettext_lazy as _

from .models import Profile

admin.site.register(Profile)

# A model permission's action -> its words ({model}: the model's name in the page's language).
ACTIONS = {
    "add": _("可以添加{model}"),
    "change": _("可以修改{model}"),
    "delete": _("可以删除{model}"),
    "view": _("可以查看{model}"),
}


def permission_label(permission: Permission) -> str:
    """`app | model | action` in the active language; a permission of no model's default set (or of
    a model no longer installed) keeps its stored name."""
    model = permission.content_type.model_class()
    action, _sep, model_name = permission.codename.partition("_")
    if model is None or action not in ACTIONS or model_name != model._meta.model_name:
        return str(permission)
    opts = model._meta
    return f"{opts.app_config.verbose_name} | {opts.verbose_name} | {ACTIONS[action].format(model=opts.verbose_name)}"


class PermissionsInPageLanguage:
    """The permissions pickers of a user's or a group's form, worded by `permission_label`."""

    def formfield_for_manytomany(self, db_field, request=None, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if db_field.name in ("permissions", "user_permissions"):
            field.label_from_instance = permission_label
        return field


class UserWithPermissionsAdmin(PermissionsInPageLanguage, UserAdmin):
    pass


class GroupWithPermissionsAdmin(PermissionsInPageLanguage, GroupAdmin):
    pass


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), UserWithPermissionsAdmin)
admin.site.unregister(Group)
admin.site.register(Group, GroupWithPermissionsAdmin)
