#!/usr/bin/env bash
# Coverage-guided fuzzing of Rill's parsers with Jazzer: scripts/fuzz.sh [SECONDS] [TARGET]
#
# Every @FuzzTest method in codec, codec-http, codec-http2, handler, resolver-dns, codec-socks, codec-haproxy, codec-protobuf, codec-smtp, codec-redis, codec-memcache, codec-stomp and codec-mqtt is a target, named
# Class#method: a TARGET of that form selects that target alone (lengthField, not
# lengthFieldAdjusted too), any other TARGET every target whose Class#method contains it. Each target runs
# for SECONDS (default 60) in a JVM of its own, started from the test class path with Jazzer's
# command line, so libFuzzer's own flags apply: -max_total_time is ours to set (jazzer-junit's
# fuzzing mode takes it from the annotation only). Seeds come from the committed corpus
# (src/test/resources/<package>/<Class>Inputs/<method>/); what the fuzzer adds goes to
# target/fuzz-corpus/ and is not committed. A crash is written into the committed corpus
# directory as crash-<sha1>: rename it after what it caught and commit it with the fix, and
# `mvn verify` replays it from then on.
#
# Prints per target: executions, coverage (libFuzzer's final "cov:" edges and "ft:" features),
# executions per second and the crash found, if any. Exit status 1 if any target crashed.
# Environment: MVN (default "mvn -B"), FUZZ_SKIP_BUILD=1 to reuse the last build, FUZZ_TIMEOUT
# (default 30: seconds one input may take before it counts as a hang; raise it on a crowded machine),
# FUZZ_JOBS (default 1: targets run one after another; N runs N at a time, one JVM and core each),
# FUZZ_SHARD (I/N: only the targets whose index modulo N is I),
# FUZZ_JAVA_OPTS (default "-Xmx1g -XX:+UseSerialGC": one core each, for a shared machine),
# FUZZ_LEAK_LEVEL (default SIMPLE, one buffer in 8 tracked: PARANOID, as the tests use, costs 4 to 6
# times the executions; a leak shows up within a few inputs either way, every input's own buffers
# are checked by the targets, and replaying the crash with `mvn test` gives PARANOID's report).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
# FUZZ_CPU_SECONDS=N: each target runs until its JVM has used N seconds of CPU instead (a campaign's
# budget that a crowded machine cannot shorten); SECONDS is then ignored.
cpu_budget=${FUZZ_CPU_SECONDS:-0}
max_time=$seconds
[ "$cpu_budget" -gt 0 ] && max_time=$((cpu_budget * 1000))
ticks=$(getconf CLK_TCK)
filter=${2:-}
modules=(codec codec-http codec-http2 handler resolver-dns codec-socks codec-haproxy codec-protobuf codec-smtp codec-redis codec-memcache codec-stomp codec-mqtt)
MVN=${MVN:-mvn -B}
java_opts=${FUZZ_JAVA_OPTS:--Xmx1g -XX:+UseSerialGC}
leak_level=${FUZZ_LEAK_LEVEL:-SIMPLE}

if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  # package, not test-compile: the modules' tests read rill-common's test-jar, which only a
  # package of this reactor makes (a stale one may sit in ~/.m2).
  $MVN -q -pl "$(IFS=,; echo "${modules[*]}")" -am package -DskipTests -Dmaven.javadoc.skip=true \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.outputFile=target/fuzz.classpath -Dmdep.includeScope=test
fi

# module <TAB> fully qualified class <TAB> method, for every @FuzzTest.
list_targets() {
  for module in "${modules[@]}"; do
    grep -rl --include='*FuzzTest.java' '@FuzzTest' "$module/src/test/java" 2>/dev/null | sort | while read -r file; do
      class=${file#"$module/src/test/java/"}
      class=${class%.java}
      class=${class//\//.}
      awk '/@FuzzTest/ {want = 1; next} want && /void [a-zA-Z0-9_]+\(/ {
             sub(/.*void /, ""); sub(/\(.*/, ""); print; want = 0 }' "$file" |
        while read -r method; do printf '%s\t%s\t%s\n' "$module" "$class" "$method"; done
    done
  done
}

mapfile -t targets < <(list_targets | awk -F'\t' -v f="$filter" '
  { simple = $2; sub(/.*\./, "", simple) }
  f ~ /#/ ? (simple "#" $3 == f || $2 "#" $3 == f) : (f == "" || index(simple "#" $3, f) || simple == f)')
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz target matches '$filter'" >&2; exit 2; }
# FUZZ_SHARD=I/N: only every Nth target, starting at the Ith (0-based), so that successive short
# runs (CI's) cover every target in turn instead of each paying every target's JVM start.
if [ -n "${FUZZ_SHARD:-}" ]; then
  shard=${FUZZ_SHARD%/*}; shards=${FUZZ_SHARD#*/}
  picked=()
  for i in "${!targets[@]}"; do
    [ $((i % shards)) -eq "$shard" ] && picked+=("${targets[$i]}")
  done
  echo "fuzz: shard $FUZZ_SHARD, ${#picked[@]} of ${#targets[@]} targets"
  targets=("${picked[@]}")
fi

mkdir -p target/fuzz-logs
rm -f target/fuzz-logs/*.line
started=$(date +%s)
# FUZZ_JOBS=N: N targets at a time, each in its own single-core JVM (CI uses both of its cores).
jobs_max=${FUZZ_JOBS:-1}

# Runs one target and writes its summary line to target/fuzz-logs/<target>.line; status 1 if it crashed.
fuzz_one() {
  local module=$1 class=$2 method=$3
  local simple=${class##*.}
  local package_dir; package_dir=$(dirname "${class//.//}")
  local seeds="$module/src/test/resources/$package_dir/${simple}Inputs/$method"
  local corpus="$module/target/fuzz-corpus/$simple/$method"
  local log="target/fuzz-logs/$simple#$method.log"
  mkdir -p "$seeds" "$corpus"
  local cp="$module/target/test-classes:$module/target/classes:$(cat "$module/target/fuzz.classpath")"
  echo "== $simple#$method ($module, $([ "$cpu_budget" -gt 0 ] && echo "${cpu_budget} CPU-s" || echo "${seconds}s"))"
  set +e
  # shellcheck disable=SC2086 # java_opts is a list of options
  java $java_opts --enable-native-access=ALL-UNNAMED -Drill.leakDetection.level="$leak_level" \
    -Drill.leakDetection.samplingInterval=8 -cp "$cp" \
    com.code_intelligence.jazzer.Jazzer --target_class="$class" --target_method="$method" \
    --instrumentation_includes='io.rill.**' \
    -max_total_time="$max_time" -timeout="${FUZZ_TIMEOUT:-30}" -print_final_stats=1 \
    -artifact_prefix="$seeds/" "$corpus" "$seeds" >"$log" 2>&1 &
  local jvm=$!
  local used=
  if [ "$cpu_budget" -gt 0 ]; then
    # Stop the JVM once it has had its CPU time, however long a crowded machine made that take.
    while kill -0 "$jvm" 2>/dev/null; do
      sleep 5
      used=$(sed 's/^.*) //' "/proc/$jvm/stat" 2>/dev/null | awk -v t="$ticks" '{print int(($12 + $13) / t)}' || echo 0)
      if [ "${used:-0}" -ge "$cpu_budget" ]; then kill "$jvm" 2>/dev/null; break; fi
    done
  fi
  wait "$jvm"
  local status=$?
  set -e
  if [ "${used:-0}" -ge "$cpu_budget" ] && [ "$cpu_budget" -gt 0 ]; then
    if grep -q 'ERROR: libFuzzer: fuzz target exited' "$log"; then
      # Our own stop: libFuzzer saved the input it was running when the JVM went; that is no finding.
      rm -f "$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -1 | sed 's/Test unit written to //')"
      status=0
    elif [ "$status" -eq 143 ] && ! grep -qE '^== Java Exception:|^==[0-9]+== ERROR' "$log"; then
      status=0 # our SIGTERM ended the JVM before libFuzzer could say so: no finding either
    fi
  fi
  # The last status line ("#N DONE cov: C ft: F ... exec/s: E") has the final figures.
  local last execs cov ft rate crash="-" written cause line
  last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#' || true)
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo "?")
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo "?")
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  if [ $status -ne 0 ]; then
    written=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -1 | sed 's/Test unit written to //' || true)
    cause=$(grep -m1 -E '^== Java Exception:|^==[0-9]+== ERROR' "$log" | cut -c1-120 || true)
    crash="${written:-exit $status} ${cause}"
  fi
  line=$(printf '%-48s execs %9s  cov %5s  ft %6s  exec/s %6s  cpu-s %5s  crash %s' \
    "$simple#$method" "${execs:-?}" "$cov" "$ft" "${rate:-?}" "${used:--}" "$crash")
  echo "$line"
  echo "$line" >"target/fuzz-logs/$simple#$method.line"
  [ $status -eq 0 ]
}

crashed=0
running=0
for t in "${targets[@]}"; do
  IFS=$'\t' read -r module class method <<<"$t"
  if [ "$running" -ge "$jobs_max" ]; then
    wait -n || crashed=1
    running=$((running - 1))
  fi
  fuzz_one "$module" "$class" "$method" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || crashed=1
  running=$((running - 1))
done

echo
echo "== fuzzing summary: ${#targets[@]} target(s), $([ "$cpu_budget" -gt 0 ] && echo "${cpu_budget} CPU-s" || echo "${seconds}s") each, $(( $(date +%s) - started ))s in all (logs in target/fuzz-logs/)"
cat target/fuzz-logs/*.line
exit $crashed
