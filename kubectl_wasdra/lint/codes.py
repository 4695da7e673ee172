"""Every rule ID and name: the only place a rule ID is spelled.

IDs are FAMILY + 3 digits, families in check-pipeline order: LOAD, API, SCHEMA, GATE, VALID, REF, GANG, FIT.
Numbers are never reused; a retired rule stays here with status="removed" so old --ignore lists keep working.
Names are kebab-case and name the problem. The documentation lives on the implementing function (lint/rules/*).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Severity(StrEnum):
    """How bad a finding is; `--fail-on` compares against it."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """2 for error, 1 for warning, 0 for info."""
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True)
class RuleInfo:
    """A rule's identity: stable ID, kebab-case name, default severity, one-line summary, status."""

    id: str
    name: str
    severity: Severity
    summary: str
    status: str = "stable"

    @property
    def family(self) -> str:
        """The ID without its digits, e.g. "GATE"."""
        return self.id.rstrip("0123456789")


# LOAD: the input could not be read as Kubernetes objects
LOAD_SYNTAX_ERROR: Final = RuleInfo(
    id="LOAD001", name="syntax-error", severity=Severity.ERROR,
    summary="the file is not valid YAML or JSON at this place")
LOAD_DUPLICATE_KEY: Final = RuleInfo(
    id="LOAD002", name="duplicate-key", severity=Severity.ERROR,
    summary="a mapping key appears twice in the same object")
LOAD_MISSING_API_VERSION: Final = RuleInfo(
    id="LOAD003", name="missing-api-version", severity=Severity.ERROR,
    summary="a document has no apiVersion")
LOAD_MISSING_KIND: Final = RuleInfo(
    id="LOAD004", name="missing-kind", severity=Severity.ERROR,
    summary="a document has no kind")
LOAD_NOT_AN_OBJECT: Final = RuleInfo(
    id="LOAD005", name="document-not-object", severity=Severity.ERROR,
    summary="a document (or List item) is a scalar or list instead of an object")
LOAD_EMPTY_FILE: Final = RuleInfo(
    id="LOAD006", name="empty-file", severity=Severity.WARNING,
    summary="a file holds no Kubernetes objects at all")
LOAD_NOT_UTF8: Final = RuleInfo(
    id="LOAD007", name="not-utf8", severity=Severity.ERROR,
    summary="a file is not UTF-8 text")
LOAD_BINARY_FILE: Final = RuleInfo(
    id="LOAD008", name="binary-file", severity=Severity.ERROR,
    summary="a binary file was given as a manifest")
LOAD_FILE_TOO_LARGE: Final = RuleInfo(
    id="LOAD009", name="file-too-large", severity=Severity.ERROR,
    summary="a file is larger than the size limit and was skipped")
LOAD_EXCESSIVE_ALIASING: Final = RuleInfo(
    id="LOAD010", name="excessive-aliasing", severity=Severity.ERROR,
    summary="a document expands YAML aliases beyond Kubernetes' limit (alias bomb)")
LOAD_UNREADABLE_PATH: Final = RuleInfo(
    id="LOAD011", name="unreadable-path", severity=Severity.ERROR,
    summary="a path does not exist or cannot be read")
LOAD_EMPTY_DOCUMENT: Final = RuleInfo(
    id="LOAD012", name="empty-document", severity=Severity.INFO,
    summary="an empty YAML document between two others (two `---` in a row)")
LOAD_NOT_A_MANIFEST: Final = RuleInfo(
    id="LOAD013", name="not-a-manifest", severity=Severity.INFO,
    summary="a file is not Kubernetes manifests (Helm template, kustomization, CI config ...) and was skipped")

# API: is the apiVersion/kind served by the target release?
API_NOT_SERVED: Final = RuleInfo(
    id="API001", name="api-not-served", severity=Severity.ERROR,
    summary="the apiVersion/kind is not served by the target Kubernetes release")
API_NOT_ENABLED: Final = RuleInfo(
    id="API002", name="api-not-enabled", severity=Severity.ERROR,
    summary="the apiVersion is served only when enabled with --runtime-config (and its feature gates)")
API_DEPRECATED: Final = RuleInfo(
    id="API003", name="api-deprecated", severity=Severity.WARNING,
    summary="the apiVersion is deprecated in the target release and will be removed")

# SCHEMA: does the object match the release's OpenAPI schema?
SCHEMA_WRONG_TYPE: Final = RuleInfo(
    id="SCHEMA001", name="wrong-type", severity=Severity.ERROR,
    summary="a field has the wrong type (string for number, list for object ...)")
SCHEMA_UNKNOWN_FIELD: Final = RuleInfo(
    id="SCHEMA002", name="unknown-field", severity=Severity.ERROR,
    summary="a field that the schema does not know (often a typo)")
SCHEMA_MISSING_REQUIRED: Final = RuleInfo(
    id="SCHEMA003", name="missing-required-field", severity=Severity.ERROR,
    summary="a required field is missing")
SCHEMA_INVALID_ENUM: Final = RuleInfo(
    id="SCHEMA004", name="invalid-enum-value", severity=Severity.ERROR,
    summary="a field holds a value outside its allowed set")
SCHEMA_VIOLATION: Final = RuleInfo(
    id="SCHEMA005", name="schema-violation", severity=Severity.ERROR,
    summary="a value breaks another schema constraint (format, pattern, bounds)")
SCHEMA_UNAVAILABLE: Final = RuleInfo(
    id="SCHEMA006", name="schema-unavailable", severity=Severity.INFO,
    summary="no schema for this kind (a CRD?): schema validation skipped")

# GATE: fields whose feature gate is off (or pre-release) in the target release.  (lint/rules/gates.py)
GATE_FIELD_OFF: Final = RuleInfo(
    id="GATE001", name="gated-field-off", severity=Severity.ERROR,
    summary="a field is set whose feature gate is off in the target release (dropped on create, ignored or rejected)")
GATE_FIELD_ALPHA: Final = RuleInfo(
    id="GATE002", name="gated-field-alpha", severity=Severity.ERROR,
    summary="a field needs an alpha feature gate (production profile)")
GATE_FIELD_BETA_OFF: Final = RuleInfo(
    id="GATE003", name="gated-field-beta-off-by-default", severity=Severity.ERROR,
    summary="a field needs a beta feature gate that is off by default (production profile)")
GATE_FIELD_PRERELEASE: Final = RuleInfo(
    id="GATE004", name="gated-field-prerelease", severity=Severity.INFO,
    summary="a field relies on an alpha or beta feature gate (experimental profile: stage for information)")

# VALID: what the target release's kube-apiserver validation rejects.  (lint/rules/validation/)
VALID_ONE_OF: Final = RuleInfo(
    id="VALID001", name="one-of-violated", severity=Severity.ERROR,
    summary="none or several members of a one-of union are set (exactly/firstAvailable, basic/gang, ...)")
VALID_LIMIT: Final = RuleInfo(
    id="VALID002", name="limit-exceeded", severity=Severity.ERROR,
    summary="a list, map or string is longer than the API allows")
VALID_MINIMUM: Final = RuleInfo(
    id="VALID003", name="value-below-minimum", severity=Severity.ERROR,
    summary="a number is below its minimum (count, minCount, resourceSliceCount ...)")
VALID_NAME: Final = RuleInfo(
    id="VALID004", name="invalid-name", severity=Severity.ERROR,
    summary="a name is not a valid DNS label, DNS subdomain, driver name or label key")
VALID_QUALIFIED_NAME: Final = RuleInfo(
    id="VALID005", name="invalid-qualified-name", severity=Severity.ERROR,
    summary="a device attribute or capacity name is not a valid (fully) qualified name")
VALID_REQUEST_REFERENCE: Final = RuleInfo(
    id="VALID006", name="unknown-request-reference", severity=Severity.ERROR,
    summary="a constraint, config or container names a request or claim that does not exist")
VALID_ALLOCATION_MODE: Final = RuleInfo(
    id="VALID007", name="allocation-mode-conflict", severity=Severity.ERROR,
    summary="count is set with allocationMode All, or is not an integer")
VALID_CAPACITY_POLICY: Final = RuleInfo(
    id="VALID008", name="invalid-capacity-request-policy", severity=Severity.ERROR,
    summary="a capacity requestPolicy is inconsistent (default outside validValues/validRange, unsorted, both set ...)")
VALID_COUNTER_REFERENCE: Final = RuleInfo(
    id="VALID009", name="unknown-counter-reference", severity=Severity.ERROR,
    summary="a device consumes a counter set or counter that the slice does not define")
VALID_QUANTITY: Final = RuleInfo(
    id="VALID010", name="invalid-quantity", severity=Severity.ERROR,
    summary="a value is not a Kubernetes Quantity")
VALID_REQUIRED: Final = RuleInfo(
    id="VALID011", name="required-value-missing", severity=Severity.ERROR,
    summary="a value the API server requires is missing or empty")
VALID_DUPLICATE: Final = RuleInfo(
    id="VALID012", name="duplicate-entry", severity=Severity.ERROR,
    summary="two list entries share a name that must be unique")
VALID_ENUM: Final = RuleInfo(
    id="VALID013", name="unsupported-value", severity=Severity.ERROR,
    summary="a value outside the set the API server accepts (allocationMode, effect, operator ...)")
VALID_ATTRIBUTE_VALUE: Final = RuleInfo(
    id="VALID014", name="invalid-attribute-value", severity=Severity.ERROR,
    summary="a device attribute value is malformed (not semver, too long, not an integer)")
VALID_CEL_COMPILE: Final = RuleInfo(
    id="VALID031", name="cel-compile-error", severity=Severity.ERROR,
    summary="a CEL selector does not compile in the DRA CEL environment of the target release")
VALID_COUNTER_SET_NOT_IN_POOL: Final = RuleInfo(
    id="VALID015", name="counter-set-not-in-pool", severity=Severity.ERROR,
    summary="a device consumes a counter set or counter that no ResourceSlice of its pool defines (1.35+)")
VALID_ADMIN_ACCESS_NAMESPACE: Final = RuleInfo(
    id="VALID016", name="admin-access-namespace-not-labelled", severity=Severity.ERROR,
    summary="a request asks for adminAccess in a namespace without the resource.kubernetes.io/admin-access label")

# ---- cross-object rules: REF, GANG, FIT and the HPA rule (lint/rules/references.py, gang.py, fit.py, autoscaling.py) ----
# REF: references between objects of the manifest set (and the snapshot when given).
REF_CLAIM_TEMPLATE_NOT_FOUND: Final = RuleInfo(
    id="REF001", name="claim-template-not-found", severity=Severity.WARNING,
    summary="a resourceClaimTemplateName names no ResourceClaimTemplate of the manifests (it may exist in the cluster)")
REF_CLAIM_NOT_FOUND: Final = RuleInfo(
    id="REF002", name="claim-not-found", severity=Severity.WARNING,
    summary="a resourceClaimName names no ResourceClaim of the manifests (it may exist in the cluster)")
REF_DEVICE_CLASS_NOT_FOUND: Final = RuleInfo(
    id="REF003", name="device-class-not-found", severity=Severity.WARNING,
    summary="a request's deviceClassName names no DeviceClass of the manifests (it may exist in the cluster)")
REF_POD_GROUP_NOT_FOUND: Final = RuleInfo(
    id="REF004", name="pod-group-not-found", severity=Severity.WARNING,
    summary="a pod's schedulingGroup.podGroupName (or 1.35 workloadRef) names no PodGroup/Workload of the manifests")
REF_WORKLOAD_NOT_FOUND: Final = RuleInfo(
    id="REF005", name="workload-not-found", severity=Severity.WARNING,
    summary="a PodGroup's workloadRef names no Workload of the manifests (it may exist in the cluster)")
REF_POD_GROUP_TEMPLATE_NOT_FOUND: Final = RuleInfo(
    id="REF006", name="pod-group-template-not-found", severity=Severity.ERROR,
    summary="a PodGroup's workloadRef names a template that its Workload does not have")
REF_UNUSED_POD_CLAIM: Final = RuleInfo(
    id="REF007", name="unused-pod-claim", severity=Severity.INFO,
    summary="a pod resourceClaims entry that no container names (fine for pod-level devices such as network interfaces)")
REF_GROUP_CLAIM_MISMATCH: Final = RuleInfo(
    id="REF008", name="group-claim-mismatch", severity=Severity.ERROR,
    summary="a pod claim almost matches its PodGroup's claim (same name or same source): it silently becomes per-pod")
REF_GROUP_PRIORITY_MISMATCH: Final = RuleInfo(
    id="REF009", name="group-priority-mismatch", severity=Severity.ERROR,
    summary="a pod's priority differs from its PodGroup's: the 1.37 scheduler rejects the whole group")
REF_NOT_IN_CLUSTER: Final = RuleInfo(
    id="REF010", name="reference-not-in-cluster", severity=Severity.ERROR,
    summary="a referenced object exists neither in the manifests nor in the snapshot (--snapshot/--live)")
REF_SCALE_TARGET_NOT_FOUND: Final = RuleInfo(
    id="REF011", name="scale-target-not-found", severity=Severity.WARNING,
    summary="an HPA's scaleTargetRef names no object of the manifests (it may exist in the cluster)")
REF_DUPLICATE_OBJECT: Final = RuleInfo(
    id="REF012", name="object-defined-twice", severity=Severity.WARNING,
    summary="the same object (group, kind, namespace, name) is defined in several folders (overlays?)")
REF_DUPLICATE_OBJECT_IN_FOLDER: Final = RuleInfo(
    id="REF013", name="object-defined-twice-in-folder", severity=Severity.ERROR,
    summary="the same object is defined twice in one folder: one `kubectl apply` would send both, the last wins")

# GANG: gang groups that cannot assemble, or whose placement upstream does not guarantee.
GANG_MIN_COUNT_EXCEEDS_PODS: Final = RuleInfo(
    id="GANG001", name="min-count-exceeds-pods", severity=Severity.ERROR,
    summary="gang minCount is larger than the number of pods the owning controllers will create")
GANG_HETEROGENEOUS_PODS: Final = RuleInfo(
    id="GANG002", name="heterogeneous-gang", severity=Severity.WARNING,
    summary="pods of one gang differ in what the scheduler filters on: placement is only guaranteed for homogeneous gangs")
GANG_INTER_POD_CONSTRAINTS: Final = RuleInfo(
    id="GANG003", name="gang-inter-pod-constraints", severity=Severity.WARNING,
    summary="gang pods use inter-pod affinity or topology spread: the group cycle does not backtrack, a fit may be missed")
GANG_TOPOLOGY_KEY_UNKNOWN: Final = RuleInfo(
    id="GANG004", name="topology-key-not-on-nodes", severity=Severity.ERROR,
    summary="a schedulingConstraints.topology key that no node of the snapshot carries: no placement exists")
GANG_SCHEDULER_NAME_MISMATCH: Final = RuleInfo(
    id="GANG005", name="group-scheduler-name-mismatch", severity=Severity.ERROR,
    summary="pods of one group name different schedulerNames: the 1.37 scheduler rejects the whole group")
GANG_POLICY_DIFFERS_FROM_TEMPLATE: Final = RuleInfo(
    id="GANG006", name="group-policy-differs-from-template", severity=Severity.WARNING,
    summary="a PodGroup's scheduling policy differs from its Workload template's, which PodGroups copy")

# FIT: the manifests against the cluster of --snapshot/--live.
FIT_SELECTOR_MATCHES_NOTHING: Final = RuleInfo(
    id="FIT001", name="selector-matches-no-device", severity=Severity.ERROR,
    summary="a request's class and selectors match no device any driver publishes in the cluster")
FIT_DEVICE_CLASS_UNSATISFIABLE: Final = RuleInfo(
    id="FIT002", name="device-class-matches-no-device", severity=Severity.ERROR,
    summary="a DeviceClass's selectors match no device any driver publishes in the cluster")
FIT_NEVER_FITS: Final = RuleInfo(
    id="FIT003", name="can-never-fit", severity=Severity.ERROR,
    summary="a request larger than any node (or topology domain) provides even when empty: it can never fit")
FIT_DOES_NOT_FIT_NOW: Final = RuleInfo(
    id="FIT004", name="does-not-fit-now", severity=Severity.ERROR,
    summary="the simulation (--simulate) leaves the group pending in the cluster as it is now")
FIT_API_NOT_SERVED_BY_CLUSTER: Final = RuleInfo(
    id="FIT005", name="api-not-served-by-cluster", severity=Severity.ERROR,
    summary="the object's apiVersion is not among the group/versions the snapshot's server serves")
FIT_GATE_OFF_IN_CLUSTER: Final = RuleInfo(
    id="FIT006", name="gated-field-off-in-cluster", severity=Severity.ERROR,
    summary="a field's feature gate is off on the cluster's API server (its /metrics, or the snapshot header)")
FIT_NODE_AFFINITY_TERM_NEVER_MATCHES: Final = RuleInfo(
    id="FIT010", name="node-affinity-term-never-matches", severity=Severity.WARNING,
    summary="a required node affinity term with a requirement that does not parse: the scheduler matches no node with it")

# FIT (NUMA, lint/rules/numa.py): alignment that can never happen. IDs FIT020-FIT029 are reserved for NUMA rules.
FIT_DRIVER_NUMA_ATTRIBUTE_ACROSS_DRIVERS: Final = RuleInfo(
    id="FIT020", name="driver-numa-attribute-across-drivers", severity=Severity.WARNING,
    summary="matchAttribute on a driver-specific NUMA attribute across requests of different drivers: it never matches")

# VALID (autoscaling): API-server validation of HorizontalPodAutoscaler that the GATE rules do not cover.
VALID_SCALE_TO_ZERO_METRICS: Final = RuleInfo(
    id="VALID050", name="scale-to-zero-without-object-metrics", severity=Severity.ERROR,
    summary="HPA minReplicas 0 without an Object or External metric (resource metrics cannot scale from zero)")
# ---- end of cross-object rules ------------------------------------------------------------

# VALID: values checked as the upstream validation functions do
VALID_INVALID_VALUE: Final = RuleInfo(
    id="VALID017", name="invalid-field-value", severity=Severity.ERROR,
    summary="a value the API server rejects as Invalid that no narrower VALID rule covers")
VALID_UNINTENDED: Final = RuleInfo(
    id="VALID018", name="accepted-but-likely-unintended", severity=Severity.WARNING,
    summary="the API server accepts the object, but a value probably does not mean what was meant")

# CONF: suppressions and project configuration written in the checked files (annotations, `# wasdra:` comments).
CONF_UNKNOWN_RULE_IN_SUPPRESSION: Final = RuleInfo(
    id="CONF001", name="unknown-rule-in-suppression", severity=Severity.WARNING,
    summary="a suppression (wasdra.dev/ignore annotation or `# wasdra: ignore[...]` comment) names no known rule")
CONF_UNUSED_SUPPRESSION: Final = RuleInfo(
    id="CONF002", name="unused-suppression", severity=Severity.WARNING,
    summary="a suppression matched no finding (reported with --report-unused-ignores)")
CONF_MALFORMED_SUPPRESSION: Final = RuleInfo(
    id="CONF003", name="malformed-suppression", severity=Severity.WARNING,
    summary="a `# wasdra:` comment or wasdra.dev/ignore annotation is not in the suppression syntax")


# ---- fixes: what `check --fix` can repair, declared per rule as ruff does (kubectl_wasdra/convert/fixes.py) ----------
class Fixability(StrEnum):
    """none: no automatic fix; safe: applied by --fix (meaning kept); unsafe: only with --unsafe-fixes (review it).
    A rule's declared fixability is its best case: a finding whose fix would change more is offered as unsafe."""

    NONE = "none"
    SAFE = "safe"
    UNSAFE = "unsafe"


FIXABILITY: Final[dict[str, Fixability]] = {
    SCHEMA_WRONG_TYPE.id: Fixability.SAFE,      # unquoted yes/no/on/off in a string field: quote it
    SCHEMA_UNKNOWN_FIELD.id: Fixability.SAFE,   # a single close match (cuont -> count), or a DRA field above `exactly:`
    VALID_ONE_OF.id: Fixability.SAFE,           # a DRA request without its `exactly:` level
    API_DEPRECATED.id: Fixability.SAFE,         # the successor has the same shape; a shape change is unsafe
    API_NOT_SERVED.id: Fixability.UNSAFE,       # `kubectl wasdra convert`: fields move, objects may be added
    API_NOT_ENABLED.id: Fixability.UNSAFE,      # convert to the version served by default
}


def fixability(rule_id: str) -> Fixability:
    """The declared fixability of a rule (NONE for rules without a fix)."""
    return FIXABILITY.get(rule_id, Fixability.NONE)
# ---- end of fixes ----------------------------------------------------------------------------------------------------
