"""Round-trip migrations with ruamel.yaml: API version conversions per group (`kubectl wasdra convert`) and the fixes
that rules offer (`check --fix`). Every edit keeps comments, key order, quoting, layout, CRLF and BOM."""
