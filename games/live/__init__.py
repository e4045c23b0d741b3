"""The socket edge (ARCHITECTURE.md): `consumers` (table and lobby sockets), `messages` (the closed set
of inbound messages, parsed once), `hub` (this process's fan-out of table updates), `limits`
(messages per socket, sockets per address, spectators per table), `users` (a person's sockets as a
group). Other apps call `close_user_sockets(user_id)` after a password change or a ban."""

from games.live.users import close_user_sockets

__all__ = ["close_user_sockets"]
