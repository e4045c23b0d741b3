"""复盘 in a real browser: open a finished hand's replay, run a seat's review (computed in the
background while the page polls), step through its decisions with the replay's keys and buttons,
in Chinese and in English, at the four screen sizes; axe finds nothing on the review page."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .pages import resize
from .test_axe import _violations

SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "390x844": (390, 844), "844x390": (844, 390)}
WAIT_MS = 20_000
STORED_HAND = (
    "from games.models import Room; from history.simulation import seated_table, play_stored_hands; "
    "table, match = seated_table(Room.objects.order_by('id').first(), [None, None, None, None]); "
    "print(play_stored_hands(table, match, 1, seed='e2e-review')[0].pk)"
)


def test_a_finished_hand_is_reviewed_and_stepped_through(page: Page, server_url: str, manage, results_dir):
    hand = int(manage("shell", "-c", STORED_HAND).strip().splitlines()[-1])
    page.goto(f"{server_url}/history/hands/{hand}/")
    expect(page.locator("[data-testid=review-buttons] button")).to_have_count(4)  # a public table: every seat
    resize(page, {"width": 390, "height": 844})
    page.screenshot(path=str(results_dir / "review-replay-buttons-390x844.png"))
    page.click("[data-testid=review-seat-1]")
    # The work runs in the background; the waiting page polls and then loads the review.
    expect(page.locator("[data-testid=review-summary]")).to_be_visible(timeout=WAIT_MS)
    expect(page).to_have_url(f"{server_url}/history/hands/{hand}/review/1/")
    count = int(page.locator("[data-testid=review-board]").get_attribute("data-count"))
    assert count >= 3
    expect(page.locator("[data-testid=decision-number]")).to_have_text("1")
    expect(page.locator("[data-testid=options] tr[data-best]")).to_have_count(1)
    expect(page.locator("[data-testid=options] tr[data-played]")).to_have_count(1)
    expect(page.locator("[data-testid=threshold]")).to_contain_text("0.5")
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=decision-number]")).to_have_text("2")
    expect(page).to_have_url(f"{server_url}/history/hands/{hand}/review/1/?d=1")
    page.click("#replay-next")
    expect(page.locator("[data-testid=decision-number]")).to_have_text("3")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-testid=decision-number]")).to_have_text("2")
    page.click("#replay-last")
    expect(page.locator("[data-testid=decision-number]")).to_have_text(str(count))
    page.locator(".review-marks a").nth(2).click()
    expect(page.locator("[data-testid=decision-number]")).to_have_text("3")
    for size, (width, height) in SIZES.items():
        resize(page, {"width": width, "height": height})
        page.screenshot(path=str(results_dir / f"review-{size}.png"), full_page=True)
    assert _violations(page, "the review") == []
    claims = page.locator(".review-marks a[data-kind=claim]")
    if claims.count():  # a claim: the bot's choice and why, in one line
        claims.first.click()
        expect(page.locator("[data-testid=decision]")).to_have_attribute("data-kind", "claim")
        expect(page.locator("[data-testid=why]")).to_be_visible()
        resize(page, {"width": 390, "height": 844})
        page.screenshot(path=str(results_dir / "review-claim-390x844.png"), full_page=True)
    # The decision's own step opens the replay there; the replay now marks the seat as reviewed.
    step = page.locator("[data-testid=decision-step]").get_attribute("href").split("step=")[1]
    page.click("[data-testid=decision-step]")
    expect(page.locator("[data-testid=step]")).to_have_text(step)
    expect(page.locator("[data-testid=review-seat-1]")).to_contain_text("✓")


def test_the_review_page_in_english(page: Page, server_url: str, manage, results_dir):
    hand = int(
        manage("shell", "-c", STORED_HAND.replace("e2e-review", "e2e-review-en")).strip().splitlines()[-1]
    )
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": server_url}])
    page.goto(f"{server_url}/history/hands/{hand}/")
    page.click("[data-testid=review-seat-0]")
    expect(page.locator("[data-testid=review-summary]")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("[data-testid=review-summary]")).to_contain_text("Agrees with the bot")
    expect(page.locator("[data-testid=played]")).to_contain_text("Your choice")
    resize(page, {"width": 390, "height": 844})
    page.screenshot(path=str(results_dir / "review-en-390x844.png"), full_page=True)
