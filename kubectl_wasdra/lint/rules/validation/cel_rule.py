"""VALID031: every device selector compiles in the DRA CEL environment of the target release.

CEL is imported only when a document has an expression. Upstream: kubernetes/kubernetes
pkg/apis/resource/validation/validation.go (validateCELExpression) and staging/src/k8s.io/dynamic-resource-allocation/cel.
"""

from __future__ import annotations

from collections.abc import Iterator

from kubectl_wasdra.catalog.releases import Release
from kubectl_wasdra.errors import CelCompileError
from kubectl_wasdra.lint import codes
from kubectl_wasdra.lint.context import CheckContext
from kubectl_wasdra.lint.problem import Problem
from kubectl_wasdra.lint.registry import rule
from kubectl_wasdra.lint.rules.validation._base import Path
from kubectl_wasdra.lint.rules.validation.cel import (
    deepest_comprehension,
    expression_offset,
    selector_paths,
    source_position,
)
from kubectl_wasdra.load import Document

HINT = "fix the expression; see https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/"


def compile_errors(doc: Document, release: Release, consumable_capacity: bool | None = None
                   ) -> Iterator[tuple[Path, str, CelCompileError]]:
    """(path, expression, error) for every selector of `doc` that does not compile; `consumable_capacity` says
    whether DRAConsumableCapacity is on (it adds `device.allowMultipleAllocations`), None = the release default."""
    expressions = list(selector_paths(doc.data, doc.group, doc.version, doc.kind or ""))
    if not expressions:
        return
    from kubectl_wasdra.dra.cel import COST_LIMIT, compile_selector

    for path, expression in expressions:
        try:
            compiled = compile_selector(expression, release, consumable_capacity=consumable_capacity)
        except CelCompileError as error:
            yield path, expression, error
            continue
        if compiled.cost > COST_LIMIT:
            yield path, expression, cost_error(compiled.cost, COST_LIMIT, expression)


def cost_error(cost: int, limit: int, expression: str) -> CelCompileError:
    """kube-apiserver's "too complex, exceeds cost limit" for a selector whose worst-case cost (dra/cel.py's static
    bound) is above `limit`, positioned at the innermost comprehension that makes it so.
    Upstream: pkg/apis/resource/validation/validation.go (validateCELSelector: result.MaxCost >
    resource.CELSelectorExpressionMaxCost -> field.Forbidden "too complex, exceeds cost limit")."""
    depth, line, column = deepest_comprehension(expression)
    nested = f"{depth} nested comprehensions, " if depth > 1 else ""
    return CelCompileError(f"too complex, exceeds cost limit: {nested}estimated worst-case cost {cost:,} is above "
                           f"the limit of {limit:,}", line, column,
                           hint="avoid nesting comprehensions (all, exists, map, filter) over device.attributes or "
                                'device.capacity; index the attribute directly, e.g. device.attributes["dom"].name')


def error_position(doc: Document, path: Path, expression: str, error: CelCompileError) -> tuple[int, int]:
    """1-based (line, column) in the file of the CEL error inside the expression value at `path`."""
    line, column = doc.position(path, "value")
    if doc.source is None:
        return line, column
    return source_position(doc.source.text, line, column, expression_offset(expression, error.line, error.column))


def error_context(expression: str, error: CelCompileError) -> str:
    """The expression line the error is on (the last non-empty one for an error at end of input), stripped."""
    lines = expression.split("\n")
    index = min(max(error.line, 1), len(lines)) - 1
    while index > 0 and not lines[index].strip():
        index -= 1
    return lines[index].strip()


@rule(codes.VALID_CEL_COMPILE)
def cel_compile_error(doc: Document, ctx: CheckContext) -> Iterator[Problem]:
    """
    ## What it does
    Compiles every device selector (`selectors[].cel.expression` of ResourceClaims, ResourceClaimTemplates and
    DeviceClasses) in the Kubernetes DRA CEL environment of the target release (`device.driver`,
    `device.attributes`, `device.capacity`, `quantity()`, `semver()`, ...) and reports the compile error at its line
    and column inside the YAML, with the CEL message. A selector whose worst-case cost is above the API server's
    limit (1,000,000; nested comprehensions over `device.attributes` are the usual cause) is reported at its innermost
    comprehension as "too complex, exceeds cost limit".

    ## Why is this bad?
    kube-apiserver rejects the object; a selector that does not compile can never match a device.

    ## Example
        selectors:
        - cel:
            expression: device.driver == "gpu.example.com" &&

    ## Fix
    Complete or correct the expression; attributes are `device.attributes["domain"].name`.

    ## References
    kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go,
    pkg/apis/resource/validation/validation.go (validateCELSelector, CELSelectorExpressionMaxCost)
    """
    for path, expression, error in compile_errors(doc, ctx.release, ctx.gates.enabled("DRAConsumableCapacity")):
        yield Problem(path, f'{error.message} (in "{error_context(expression, error)}")', error.hint or HINT, "value",
                      error_position(doc, path, expression, error))
