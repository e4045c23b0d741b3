"""django-axes' lockout, counted per username at one address and per address (issue 24 item 5).

Locking a username from every address let anyone lock anyone out with five wrong guesses. Now
AXES_FAILURE_LIMIT failures for one username from one address lock that pair only (the owner still
logs in from elsewhere), and AXES_ADDRESS_FAILURE_LIMIT failures from one address, whatever the
usernames, lock the address (a higher count: many people may share one address).

Axes compares one count with one limit (`AXES_LOCKOUT_PARAMETERS` only chooses what is counted), so
this handler states the per-address count in units of AXES_FAILURE_LIMIT: the address is locked
exactly when its failures reach AXES_ADDRESS_FAILURE_LIMIT.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from django.conf import settings
from django.db.models import Sum


class PairAndAddressHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        counts = []
        parameters = get_lockout_parameters(request, credentials)
        for parameter, attempts in zip(parameters, self.get_user_attempts(request, credentials), strict=True):
            failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            if parameter == "ip_address":
                failures = failures * settings.AXES_FAILURE_LIMIT // settings.AXES_ADDRESS_FAILURE_LIMIT
            counts.append(failures)
        return max(counts, default=0)
