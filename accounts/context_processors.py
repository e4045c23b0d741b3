from .avatar import avatar
from .models import display_name


def user_display_name(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    name = display_name(user)
    return {"user_display_name": name, "user_avatar": avatar(name, f"u{user.pk}")}
