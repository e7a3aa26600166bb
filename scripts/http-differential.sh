#!/usr/bin/env bash
# Differential HTTP/1.1 run (issue 17): COUNT generated and mutated requests (or responses) through
# Rill's decoders, llhttp (node) and h11 (python3), with counts per category and the first examples
# of each disagreement. Exits 1 if a disagreement is not explained by a known departure.
#
#   scripts/http-differential.sh [COUNT] [requests|responses] [SEED]     (1000000 requests, seed 1)
#   scripts/http-differential.sh show requests|responses SEED INDEX      (one entry, whole)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "node (llhttp) is needed" >&2; exit 2; }
python3 -c 'import h11' 2>/dev/null || { echo "python3 with h11 is needed (pip install h11)" >&2; exit 2; }

# -am builds the modules from this checkout (never stale snapshots from ~/.m2); the class path
# points at their target/classes.
mvn -B -q -o -pl testsuite -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/differential.classpath >&2
cp="testsuite/target/test-classes:$(cat testsuite/target/differential.classpath)"
if [ "${1:-}" = show ]; then
  exec java -cp "$cp" io.rill.testsuite.differential.HttpDifferential "$@"
fi
exec java -Xmx1g -cp "$cp" io.rill.testsuite.differential.HttpDifferential "${2:-requests}" "${1:-1000000}" "${3:-1}"
