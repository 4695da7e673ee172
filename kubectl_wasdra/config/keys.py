"""The keys of `.wasdra.yaml`: which flag each one sets, what values it takes, and where it may appear.

schemas/wasdra-config.json describes the same keys for editors; a test keeps the two in step.
"""

from __future__ import annotations

from typing import Final


class Key:
    """One config key. `param` is the click parameter it gives a default to; `kind` says how values are checked and
    turned into flag syntax; `check_only` keys apply to `check` only; `cluster` keys may also appear under
    `clusters.NAME`. (A plain class: `check` builds this table at start-up, where a NamedTuple costs more.)"""

    __slots__ = ("check_only", "choices", "cluster", "flag", "kind", "name", "param")

    def __init__(self, name: str, param: str, kind: str, flag: str, choices: tuple[str, ...] = (), *,
                 check_only: bool = False, cluster: bool = False) -> None:
        self.name, self.param, self.kind, self.flag = name, param, kind, flag
        self.choices, self.check_only, self.cluster = choices, check_only, cluster


# The values of the choice flags, which the config file takes too (cli_options declares the flags with them).
OUTPUT_FORMATS: Final = ("text", "json", "sarif", "junit", "github")
FAIL_ON: Final = ("error", "warning", "info", "never")
PROFILES: Final = ("default", "production", "experimental")

KEYS: Final[tuple[Key, ...]] = (
    Key("k8sVersion", "k8s_version", "releases", "--k8s-version", cluster=True),
    Key("featureGates", "feature_gates", "gates", "--feature-gates", cluster=True),
    Key("runtimeConfig", "runtime_config", "runtime", "--runtime-config", cluster=True),
    Key("profile", "profile", "choice", "--profile", PROFILES, cluster=True),
    Key("select", "select", "rules", "--select", check_only=True),
    Key("ignore", "ignore", "rules", "--ignore", check_only=True),
    Key("failOn", "fail_on", "choice", "--fail-on", FAIL_ON, check_only=True),
    Key("schemaLocations", "schema_location", "paths", "--schema-location", cluster=True),
    Key("snapshot", "snapshot", "paths", "--snapshot", cluster=True),
    Key("output", "output", "choice", "-o", OUTPUT_FORMATS, check_only=True),
    Key("exclude", "config_exclude", "globs", "--config-exclude", check_only=True),   # --exclude adds to it
    Key("perFileIgnores", "per_file_ignores", "globmap", "--per-file-ignores", check_only=True),
    Key("baseline", "baseline", "path", "--baseline", check_only=True),
)
BY_NAME: Final = {key.name: key for key in KEYS}
BY_PARAM: Final = {key.param: key for key in KEYS}
TOP_LEVEL: Final = (*BY_NAME, "clusters")
# The flags that choose the configuration itself, with their environment variables.
CONFIG_ENV: Final = "WASDRA_CONFIG"
CLUSTER_ENV: Final = "WASDRA_CONFIG_CLUSTER"  # --config-cluster
OLD_CLUSTER_ENV: Final = "WASDRA_CLUSTER"  # its former name, still read (with a warning)
ENV_PREFIX: Final = "WASDRA_"


def env_var(param: str) -> str:
    """The environment variable of a flag: WASDRA_ + its parameter name upper-cased (WASDRA_K8S_VERSION)."""
    return ENV_PREFIX + param.upper()
