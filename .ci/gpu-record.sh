#!/usr/bin/env bash
# GPU runner on a lent machine with CUDA and torch but no network: record, then verify, the gpu
# recordings with the machine's own torch, and pack them for review. Needs only torch, numpy and
# PyYAML there (the engine's dependencies); the site itself is not built on that machine.
#   usage: bash .ci/gpu-record.sh [OUTDIR]   (RUNNER=cpu to rehearse it on a machine without GPU)
set -euo pipefail
cd "$(dirname "$0")/.."
runner="${RUNNER:-gpu}"
out="${1:-${OUT:-/tmp/docverify-gpu}}"
mkdir -p "$out"
export PYTHONPATH="$PWD/hooks${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
python3 -c 'import platform, torch; print("python", platform.python_version(), "torch", torch.__version__, "cuda", torch.cuda.is_available())'
python3 -m docverify.cli.main record --runner "$runner" 2>&1 | tee "$out/record.log"
python3 -m docverify.cli.main check --runner "$runner" 2>&1 | tee "$out/check.log"
find snippets -name "*.$runner.txt" -print0 | tar --null -czf "$out/recordings-$runner.tgz" -T -
echo "grabaciones empaquetadas en $out/recordings-$runner.tgz"
