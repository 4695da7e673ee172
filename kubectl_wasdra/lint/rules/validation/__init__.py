"""VALID family: API-server validation per release, one module per kind group (workload, podgroup, dra_claims,
dra_slices, dra_classes, taint_rules, pod, cel; pools and admin_access check across objects). The rule functions
are re-exported here for the registry."""

from kubectl_wasdra.lint.rules.validation.admin_access import admin_access_namespace_not_labelled
from kubectl_wasdra.lint.rules.validation.cel_rule import cel_compile_error
from kubectl_wasdra.lint.rules.validation.pools import counter_set_not_in_pool
from kubectl_wasdra.lint.rules.validation.rules import (
    allocation_mode_conflict,
    duplicate_entry,
    invalid_attribute_value,
    invalid_capacity_request_policy,
    invalid_name,
    invalid_qualified_name,
    invalid_quantity,
    limit_exceeded,
    one_of_violated,
    required_value_missing,
    unknown_counter_reference,
    unknown_request_reference,
    unsupported_value,
    validate,
    value_below_minimum,
)
from kubectl_wasdra.lint.rules.validation.value_rules import accepted_but_likely_unintended, invalid_field_value

__all__ = [
    "accepted_but_likely_unintended", "admin_access_namespace_not_labelled", "allocation_mode_conflict",
    "cel_compile_error", "counter_set_not_in_pool", "duplicate_entry", "invalid_attribute_value",
    "invalid_capacity_request_policy", "invalid_field_value", "invalid_name", "invalid_qualified_name",
    "invalid_quantity", "limit_exceeded", "one_of_violated", "required_value_missing", "unknown_counter_reference",
    "unknown_request_reference", "unsupported_value", "validate", "value_below_minimum",
]
