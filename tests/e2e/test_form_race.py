"""A table form clicked before htmx has taken it up (a frame has just put it in) is still sent over the
socket: the browser never loads the page anew with the move in its address (static/js/table.js)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .pages import WAIT_MS, board_version, my_turn, new_table, sign_up


def test_a_discard_from_a_form_htmx_has_not_taken_up_is_sent_over_the_socket(page: Page, server_url: str):
    sign_up(page, server_url, "form-race")
    table_id = new_table(page)
    my_turn(page)
    version = board_version(page)
    # The hand's form as a frame would have just put it in: a copy htmx has not processed.
    page.evaluate(
        """() => {
            const form = document.querySelector('#controls form[ws-send]');
            const copy = document.createElement('div');
            copy.innerHTML = form.outerHTML;
            form.replaceWith(copy.firstElementChild);
        }"""
    )
    page.locator("[data-testid=discard-drawn], [data-testid=discard]").last.dblclick()
    page.wait_for_function(
        "v => document.querySelector('#frame-stamp').dataset.version !== v", arg=version, timeout=WAIT_MS
    )
    expect(page).to_have_url(re.compile(rf"/table/{table_id}/$"))
    expect(page.locator("#table-error [data-error-code]")).to_have_count(0)
