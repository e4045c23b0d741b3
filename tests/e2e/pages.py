"""Steps the browser tests share."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# A browser as the tests' players use it: reading the site in Chinese, its default language.
VISITOR = {"locale": "zh-CN"}


def other_browser(page: Page) -> Page:
    """A page in a new browser context (another person, no shared cookies) set up like `page`'s."""
    return page.context.browser.new_context(**VISITOR).new_page()


def sign_up(page: Page, server_url: str, name: str) -> None:
    """Make an account through the sign-up form and land on the lobby."""
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", "tile-pass-77")
    page.fill("input[name=password2]", "tile-pass-77")
    page.click("button[type=submit]")
    expect(page.locator("[data-testid=create-table]").first).to_be_visible()
