#!/bin/sh
# Container entry point. `docker run IMAGE check deploy/` runs `kubectl-wasdra check deploy/`, and so does any first
# argument that is not a program on PATH (the tool's commands and flags); `docker run IMAGE sh` (or any other program,
# kubectl-wasdra included) runs that program as given.
set -e
if [ "$#" -gt 0 ] && command -v -- "$1" >/dev/null 2>&1; then
    exec "$@"
fi
exec kubectl-wasdra "$@"
