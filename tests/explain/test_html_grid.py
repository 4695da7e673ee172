"""The HTML report's grid states (explain/grid.py) and the page's colours: a device counts once, in the first state
of the allocator's order, and every colour the page writes text or glyphs in meets WCAG AA contrast (4.5:1) in the
light and the dark scheme."""

from __future__ import annotations

import re

import pytest

from kubectl_wasdra.explain import html_page
from kubectl_wasdra.explain.grid import STATES, _device_state

KEY = ("gpu.example.com", "node-a", "gpu-0")
TAINTED = {"name": "gpu-0", "taints": [{"key": "broken", "effect": "NoSchedule"}]}
PREFER = {"name": "gpu-0", "taints": [{"key": "slow", "effect": "PreferNoSchedule"}]}


@pytest.mark.parametrize(("device", "node_tainted", "selected", "mine", "used", "want"), [
    ({"name": "gpu-0"}, False, True, set(), set(), "free"),
    ({"name": "gpu-0"}, False, True, {KEY}, {KEY}, "this"),  # ours even though the ledger holds it
    (TAINTED, True, False, set(), {KEY}, "used"),  # held by another claim comes before any taint
    (TAINTED, True, False, set(), set(), "nodeTainted"),  # the node filter runs before DRA
    (TAINTED, False, False, set(), set(), "excluded"),  # selectors before device taints (the funnel's order)
    (TAINTED, False, True, set(), set(), "deviceTainted"),
    (PREFER, False, True, set(), set(), "free"),  # PreferNoSchedule does not keep a device from allocation
], ids=["free", "this", "used", "node-tainted", "excluded", "device-tainted", "prefer-no-schedule"])
def test_a_device_is_in_the_first_state_that_applies(device, node_tainted, selected, mine, used, want):
    assert _device_state(KEY, device, node_tainted, selected, mine, used) == want
    assert want in STATES


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_and_state_colour_meets_aa_contrast(scheme):
    css = html_page._CSS
    block = css.split("@media (prefers-color-scheme:dark)")[1] if scheme == "dark" else css.split("}")[0]
    colours = dict(re.findall(r"--([a-z]+):(#[0-9a-f]{6})", block))
    assert {"bg", "fg", "this", "used", "free", "ntaint", "excl", "dtaint"} <= set(colours)
    for name, colour in colours.items():
        if name in ("bg", "line", "head"):
            continue
        for background in (colours["bg"], colours["head"]):  # body cells and header cells
            assert _contrast(colour, background) >= 4.5, (scheme, name)
