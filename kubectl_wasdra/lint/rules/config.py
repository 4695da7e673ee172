"""CONF rules: suppressions written in the checked files that name no rule, match nothing, or are malformed.

lint/suppress.py finds the directives and their problems; each rule here owns one kind of problem, and its
docstring is the user documentation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.registry import rule

if TYPE_CHECKING:  # lint/suppress.py loads only when a run has suppressions
    from kubectl_wasdra.lint.suppress import SuppressionProblem


@rule(codes.CONF_UNKNOWN_RULE_IN_SUPPRESSION, scope="suppression")
def unknown_rule_in_suppression(problem: SuppressionProblem) -> bool:
    """
    ## What it does
    Flags a `wasdra.dev/ignore` annotation or `# wasdra: ignore[...]` comment naming something that is not a rule
    ID, rule name or family.
    ## Why is this bad?
    A misspelt suppression silences nothing: the finding it was written for still fails the run, or a later one
    of the intended rule is not silenced as the author believed.
    ## Example
        metadata:
          annotations:
            wasdra.dev/ignore: "REF03"     # REF003 was meant
    ## Fix
    Use the ID that `kubectl wasdra rules` prints (e.g. REF003), its name or its family.
    """
    return problem.kind == "unknown-rule"


@rule(codes.CONF_UNUSED_SUPPRESSION, scope="suppression")
def unused_suppression(problem: SuppressionProblem) -> bool:
    """
    ## What it does
    With `--report-unused-ignores`, flags each rule of a suppression that matched no finding.
    ## Why is this bad?
    A stale suppression hides the next real problem of that rule on that object or line.
    ## Example
        deviceClassName: gpu.example.com   # wasdra: ignore[REF003] defined in the cluster
    (the DeviceClass is now part of the manifests, so REF003 no longer fires)
    ## Fix
    Remove the suppression, or the rule from its list.
    """
    return problem.kind == "unused"


@rule(codes.CONF_MALFORMED_SUPPRESSION, scope="suppression")
def malformed_suppression(problem: SuppressionProblem) -> bool:
    """
    ## What it does
    Flags a `# wasdra:` comment that is not `# wasdra: ignore[RULE,...] reason`, and a `wasdra.dev/ignore`
    annotation that is empty or not a string.
    ## Why is this bad?
    The author meant to silence something, and nothing is silenced.
    ## Example
        count: 9   # wasdra: ignore REF003
    ## Fix
    Write the rules in brackets: `# wasdra: ignore[REF003] reason`; annotations as
    `wasdra.dev/ignore: "REF003,GANG001: reason"`.
    """
    return problem.kind == "malformed"
