"""check --snapshot names a CEL runtime error as such, at the expression (what explain shows), instead of "matches no
device"; a selector on an attribute no device publishes keeps its did-you-mean. The selectors here guard with has(),
so the static type check (test_cel_type_errors.py) leaves them to evaluation."""

from __future__ import annotations

from pathlib import Path

from fixture_runner import CLUSTERS, snapshot_at

from kubectl_wasdra.lint.pipeline import CheckOptions, run_check

CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu-index}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
  - cel:
      expression: EXPRESSION
"""
TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel: {expression: EXPRESSION}
"""


def _findings(text: str, tmp_path: Path) -> list[tuple[str, int, str, str, str]]:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    report = run_check(CheckOptions(paths=(str(path),), snapshot=snapshot_at(str(CLUSTERS / "dra-basic")),
                                    select=("FIT",)))
    return [(f.rule, f.line, f.path, f.message, f.hint or "") for f in report.findings]


def test_a_type_error_in_a_device_class_is_reported_at_the_expression(tmp_path: Path) -> None:
    guarded = 'has(device.attributes["gpu.example.com"].index) && device.attributes["gpu.example.com"].index > "2"'
    text = CLASS.replace("EXPRESSION", f"'{guarded}'")
    ((rule, line, path, message, _),) = _findings(text, tmp_path)
    assert (rule, line, path) == ("FIT002", 8, "spec.selectors[1].cel.expression")
    assert message.startswith("CEL runtime error on 2 of 2 device(s)") and "no such overload: _>_(int64, string)" in message
    assert "matches no device" not in message


def test_a_type_error_in_a_claim_selector_is_reported_at_the_expression(tmp_path: Path) -> None:
    guarded = 'has(device.attributes["gpu.example.com"].model) && device.attributes["gpu.example.com"].model > 2'
    text = TEMPLATE.replace("EXPRESSION", f"'{guarded}'")
    ((rule, line, path, message, _),) = _findings(text, tmp_path)
    assert (rule, line, path) == ("FIT001", 12, "spec.spec.devices.requests[0].exactly.selectors[0].cel.expression")
    assert "no such overload: _>_(string, int64)" in message


def test_a_missing_attribute_keeps_its_did_you_mean(tmp_path: Path) -> None:
    text = TEMPLATE.replace("EXPRESSION", """'device.attributes["gpu.example.com"].modle == "X100"'""")
    ((rule, _, _, message, hint),) = _findings(text, tmp_path)
    assert rule == "FIT001" and "runtime error" not in message and 'did you mean' in hint
