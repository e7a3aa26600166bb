#!/usr/bin/env bash
# The soak (issue 17): every example server in a JVM of its own under mixed load and faults for
# MINUTES (default 2), then checked for lost or doubled answers, leaks, memory and descriptors.
# Builds what it needs itself (the reactor up to the example jar, no tests but the soak); extra
# Maven flags come from SOAK_MAVEN_FLAGS (say -o offline). Server logs: testsuite/target/soak/.
# Exit status: 0 if the soak passed.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-2}
case "$minutes" in
  ''|*[!0-9]*|0) echo "usage: scripts/soak.sh [MINUTES] (a whole number of minutes, at least 1)" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086 # SOAK_MAVEN_FLAGS is a list of flags
exec mvn -B ${SOAK_MAVEN_FLAGS:-} verify -Psoak -pl testsuite -am -Dmaven.javadoc.skip=true \
  -Dtest=SoakRun -Dsurefire.failIfNoSpecifiedTests=false -Dsoak.minutes="$minutes"
