#!/usr/bin/env bash
# Links a run-time image of Rill's modules, netty-tcnative's (classes + this platform's BoringSSL)
# and the module-path test program (testsuite/src/jpms/io.rill.jpmstest), runs the program from
# the image once (HTTP over NIO and epoll, plaintext and TLS over JDK and OPENSSL, WebSocket over
# HTTP/2), and prints the image's size. Uses the reactor's jars, so build first: mvn -B -q package -DskipTests
# Usage: testsuite/scripts/jlink.sh [IMAGE_DIR]   (default: testsuite/target/jlink-image)
# JAVA_HOME picks the JDK whose jlink and modules are used (default: the one javac belongs to).
set -euo pipefail
cd "$(dirname "$0")/../.."
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
image=${1:-testsuite/target/jlink-image}
work=testsuite/target/jlink-work

# RILL_MODULE_PATH (JlinkImageTest sets it) replaces the jars below: Rill's and tcnative's modules.
if [ -n "${RILL_MODULE_PATH:-}" ]; then
  module_path=$RILL_MODULE_PATH
else
  rill=()
  for m in common buffer transport codec handler codec-http codec-http2 transport-native-epoll; do
    jar=$(ls "$m"/target/rill-"$m"-*.jar 2>/dev/null | grep -v -e '-sources.jar' -e '-tests.jar' -e '-javadoc.jar' -e '-linux-' | head -n 1 || true)
    [ -n "$jar" ] || { echo "jlink.sh: no jar in $m/target; run mvn -B -q package -DskipTests first" >&2; exit 1; }
    rill+=("$jar")
  done
fi

# tcnative's version as handler/pom.xml has it, and this machine's classifier.
tcnative_version=$(grep -A1 '<artifactId>netty-tcnative-boringssl-static</artifactId>' handler/pom.xml \
  | sed -n 's:.*<version>\(.*\)</version>.*:\1:p' | head -n 1)
case "$(uname -m)" in
  x86_64) classifier=linux-x86_64 ;;
  aarch64) classifier=linux-aarch_64 ;;
  *) echo "jlink.sh: no netty-tcnative build for $(uname -m)" >&2; exit 1 ;;
esac
if [ -z "${RILL_MODULE_PATH:-}" ]; then
  repo=${MAVEN_REPO:-$HOME/.m2/repository}/io/netty
  tcnative=("$repo/netty-tcnative-classes/$tcnative_version/netty-tcnative-classes-$tcnative_version.jar"
    "$repo/netty-tcnative-boringssl-static/$tcnative_version/netty-tcnative-boringssl-static-$tcnative_version-$classifier.jar")
  for jar in "${tcnative[@]}"; do
    [ -f "$jar" ] || { echo "jlink.sh: $jar missing; mvn -B -q package -DskipTests downloads it" >&2; exit 1; }
  done
  module_path=$(IFS=:; echo "${rill[*]}:${tcnative[*]}")
fi

native_module="io.netty.internal.tcnative.openssl.${classifier//-/.}"

rm -rf "$work" "$image"
mkdir -p "$work/io.rill.jpmstest"
"$java_home/bin/javac" --release 17 -d "$work/io.rill.jpmstest" --module-path "$module_path" \
  $(find testsuite/src/jpms/io.rill.jpmstest -name '*.java')

# jlink takes an exploded module as well as a jar. The BoringSSL module is linked although nothing
# requires it: NativeLibraryLoader finds its library in the image unresolved. The classes module is
# only required statically by io.rill.handler, so the launcher adds it to the module graph.
# jlink links no service providers by itself: on JDK 17-21 the EC and XDH algorithms (TLS key
# exchange, SelfSignedCertificate's keys) live in the provider module jdk.crypto.ec.
modules=io.rill.jpmstest,io.netty.tcnative.classes.openssl,$native_module
"$java_home/bin/java" --list-modules | grep -q '^jdk.crypto.ec@' && modules=$modules,jdk.crypto.ec
# --add-options: the leading space keeps jlink from taking the value for an option of its own.
# --compress: JDK 21+ spells it zip-6, JDK 17 spells the same level 2.
compress=2
"$java_home/bin/jlink" --help 2>/dev/null | grep -q 'zip-\[0-9\]' && compress=zip-6
"$java_home/bin/jlink" --module-path "$module_path:$work" \
  --add-modules "$modules" \
  --add-options " --enable-native-access=io.rill.common,io.rill.transport.epoll --add-modules=io.netty.tcnative.classes.openssl" \
  --launcher rill-jpmstest=io.rill.jpmstest/io.rill.jpmstest.Main \
  --strip-debug --no-header-files --no-man-pages --compress="$compress" --output "$image"

echo "+ $image/bin/rill-jpmstest"
"$image/bin/rill-jpmstest"
echo "modules: $("$image/bin/java" --list-modules | tr '\n' ' ')"
echo "image size: $(du -sh "$image" | cut -f1) ($(du -sb "$image" | cut -f1) bytes) in $image"
