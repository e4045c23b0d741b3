"""In a real browser: import a hand export, step through it with the arrow keys, and see the page's own
SHA-256 check of the commitment agree (crypto.subtle; 127.0.0.1 is a secure context)."""

from __future__ import annotations

import hashlib
import json

from playwright.sync_api import Page, expect

from games.engine.bots import get_bot
from games.engine.rules import Rules
from games.engine.simulate import play_hand
from games.engine.state import GameState


def _export(tmp_path, *, tamper: bool = False):
    seed = hashlib.sha256(b"e2e-replay").hexdigest()
    state = GameState.new(Rules(), dealer=2, seed=seed)
    play_hand(state, [get_bot("easy") for _ in range(4)])
    reveal = state.reveal()
    data = {
        "seed": reveal["seed"],
        "rules": state.rules.to_json(),
        "dealer": 2,
        "huangfan": 0,
        "stake": 1,
        "actions": [str(a) for a in state.actions],
        "commitment": reveal["commitment"],
        "wall": reveal["wall"],
    }
    if tamper:
        data["commitment"] = "0" * 64
    path = tmp_path / ("tampered.json" if tamper else "hand.json")
    path.write_text(json.dumps(data))
    return path, state


def test_imported_hand_replays_with_keys_and_checks_its_hash(
    page: Page, server_url: str, tmp_path, results_dir
):
    path, state = _export(tmp_path)
    page.goto(f"{server_url}/history/replay/import/")
    page.set_input_files("input[name=file]", str(path))
    page.click("button[type=submit]")
    expect(page.locator("[data-testid=browser-check]")).to_have_attribute("data-result", "ok")
    expect(page.locator("[data-testid=server-check]")).to_have_text("✓ 一致")
    expect(page.locator("[data-testid=step]")).to_have_text("0")
    expect(page.locator("[data-zone=hand] .tile")).to_have_count(53)  # all four hands open
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=step]")).to_have_text("1")
    expect(page).to_have_url(f"{server_url}/history/replay/imported/?step=1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=step]")).to_have_text("2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-testid=step]")).to_have_text("1")
    page.click("#replay-last")
    expect(page.locator("[data-testid=step]")).to_have_text(str(len(state.actions)))
    expect(page.locator("[data-testid=settlement] [data-seat-payment]")).to_have_count(4)
    for seat, amount in enumerate(state.result.payments):
        expect(page.locator(f"[data-seat-payment='{seat}']")).to_have_text(f"{amount:+d}")
    page.screenshot(path=str(results_dir / "history-replay.png"), full_page=True)


def test_a_tampered_export_is_refused(page: Page, server_url: str, tmp_path):
    path, _ = _export(tmp_path, tamper=True)
    page.goto(f"{server_url}/history/replay/import/")
    page.set_input_files("input[name=file]", str(path))
    page.click("button[type=submit]")
    expect(page.locator("main form")).to_contain_text("校验失败")
