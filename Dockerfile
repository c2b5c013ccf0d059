# Bandwidth Doctor service (and the probe, from the same package: import names bwdoctor, bwdoctor_probe).
# Build: docker build -t bandwidth-doctor .   Run: see docker-compose.yml and docs/deployment.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends iperf3 ethtool \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md hatch_build.py ./
COPY service ./service
COPY agent_probe ./agent_probe
COPY tool_parsers ./tool_parsers
COPY rules ./rules
# /var/lib/bwdoctor: where compose keeps the probe token (a named volume takes this folder's owner).
# No CJK font is installed: nothing is rasterised here (charts are SVG text the browser draws with
# the pages' font stack), so the reader's fonts decide how Chinese looks.
RUN pip install . && useradd --create-home --uid 10001 bwdoctor \
    && mkdir -p /var/lib/bwdoctor && chown bwdoctor:bwdoctor /var/lib/bwdoctor
USER bwdoctor
WORKDIR /home/bwdoctor

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# Waits for the database, migrates it, then serves (BWDOCTOR_DATABASE_URL; default an SQLite file).
CMD ["bwdoctor", "serve", "--host", "0.0.0.0", "--port", "8000"]
