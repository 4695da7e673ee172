# kubectl-wasdra in a container: the tool in a virtual environment on Python 3.11, run as an unprivileged user in /work.
#   docker build -t kubectl-wasdra .
#   docker run --rm -v "$PWD:/work" kubectl-wasdra check deploy/
#   docker run --rm -v "$HOME/.kube:/home/wasdra/.kube:ro" kubectl-wasdra snapshot -o json > cluster.json
FROM python:3.11-slim
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
COPY . /src
RUN python -m venv /opt/wasdra \
    && /opt/wasdra/bin/pip install /src \
    && install -m 0755 /src/docker/entrypoint.sh /usr/local/bin/wasdra-entrypoint \
    && rm -rf /src \
    && useradd --create-home --uid 10001 wasdra
ENV PATH=/opt/wasdra/bin:$PATH
USER wasdra
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/wasdra-entrypoint"]
CMD ["--help"]
