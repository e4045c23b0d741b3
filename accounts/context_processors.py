from .models import display_name


def user_display_name(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"user_display_name": display_name(user)}
