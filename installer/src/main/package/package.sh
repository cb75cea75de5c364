#!/usr/bin/env bash
# Builds Steward's packages from the jars Maven gathered in $target/lib (SPEC §9, issue 7):
#   1. unpacks Playwright's driver for this platform only (the bundle carries five Node.js, ~200 MB)
#      into lib/playwright-driver, where the service finds it (no unpacking at its first visit);
#   2. jlink: a runtime with only the modules Steward needs (modules.txt);
#   3. jpackage: an app image with two launchers, steward (the window) and steward-service;
#   4. jpackage: the platform's installer from that image (deb here; dmg and msi on their OS).
# Usage: package.sh <target dir> <version> <deb|rpm|dmg|msi|app-image>
set -euo pipefail
target="$1"
version="${2%%-*}"          # jpackage wants 1.2.3, not 1.2.3-SNAPSHOT
type="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
jar="$java_home/bin/jar"; jlink="$java_home/bin/jlink"; jpackage="$java_home/bin/jpackage"
# The bundled runtime: the JDK that built Steward, or the one STEWARD_RUNTIME_JDK names. On 25 or
# later the service starts from an ahead-of-time cache trained here; measured against 17 with the
# idle warm-up it gained nothing clear yet, so it is not the default (ADR 29).
runtime_jdk="${STEWARD_RUNTIME_JDK:-$java_home}"
runtime_version="$("$runtime_jdk/bin/java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java.specification.version = //p')"
aot=false; [ "${runtime_version%%.*}" -ge 25 ] && aot=true
jlink="$runtime_jdk/bin/jlink"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-arm64) platform=mac-arm64 ;;
  Darwin-*) platform=mac ;;
  *) platform=win32_x64 ;;
esac

rm -rf "$target/runtime" "$target/image" "$target/bundle-trim" "$target"/*.deb "$target"/*.rpm \
  "$target/lib/playwright-driver" "$target"/lib/driver-bundle-*.jar
echo "package: Playwright driver for $platform, unpacked"
bundle="$(ls "$target"/bundle/driver-bundle-*.jar)"
mkdir -p "$target/bundle-trim" "$target/lib/playwright-driver"
(cd "$target/bundle-trim" && "$jar" xf "$bundle" "driver/$platform/" && "$jar" xf "$(ls "$target"/lib/driver-[0-9]*.jar)" driver/package)
mv "$target/bundle-trim/driver/$platform"/* "$target/bundle-trim/driver/package" "$target/lib/playwright-driver/"
node_exe=node; [ "$platform" = win32_x64 ] && node_exe=node.exe
chmod 755 "$target/lib/playwright-driver/$node_exe"
[ -f "$target/lib/playwright-driver/package/cli.js" ] || { echo "package: no driver/package/cli.js" >&2; exit 1; }

echo "package: runtime (jlink from $runtime_jdk, Java $runtime_version)"
# --generate-cds-archive: the runtime's own classes shared (and the base the app archives build on).
"$jlink" --add-modules "$(tr -d ' \n' < "$here/modules.txt")" --strip-debug --no-header-files --no-man-pages \
  --compress=2 --generate-cds-archive --output "$target/runtime"

echo "package: app image (jpackage)"
"$jpackage" @"$here/common.args" --type app-image --dest "$target/image" --input "$target/lib" \
  --runtime-image "$target/runtime" --app-version "$version" --icon "$here/steward.png" \
  --main-jar "$(basename "$(ls "$target"/lib/app-*.jar)")" \
  --add-launcher steward-service="$here/steward-service.properties"

image="$target/image/steward"
[ -d "$image" ] || image="$(ls -d "$target"/image/*/ | head -1)"

# jpackage's Linux launcher asks rpm and dpkg which package owns it, at every start, to find its
# helper library: 0.1–0.3 s before Java even starts (docs/decisions/0010). On Linux each launcher
# becomes a shell script that starts the bundled runtime with exactly its .cfg's options, class
# path and main class, and sets jpackage.app-path as the native launcher does.
write_shell_launcher() {
  local cfg="$1" out="$2" opt
  {
    echo '#!/bin/sh'
    echo "# Starts Steward's $(basename "$out"); written by package.sh from lib/app/$(basename "$cfg")."
    echo 'bin="$(cd "$(dirname "$(readlink -f "$0")")" && pwd)"'
    echo 'app="$(cd "$bin/../lib/app" && pwd)"'
    printf '%s' 'exec "$bin/../lib/runtime/bin/java"'
    grep '^java-options=' "$cfg" | sed 's/^java-options=//' | while IFS= read -r opt; do
      printf ' "%s"' "$(printf '%s' "$opt" | sed 's/\$APPDIR/${app}/g')"
    done
    printf ' "%s"' "-Djpackage.app-path=\$bin/$(basename "$out")"
    printf ' -cp "%s"' "$(grep '^app.classpath=' "$cfg" | sed 's/^app.classpath=//; s/\$APPDIR/${app}/g' | paste -sd: -)"
    printf ' %s "$@"\n' "$(grep '^app.mainclass=' "$cfg" | sed 's/^app.mainclass=//')"
  } > "$out.sh"
  chmod 755 "$out.sh"
  mv "$out.sh" "$out"
}
# On 25 and later the service starts from an ahead-of-time cache (classes loaded and linked,
# method profiles; made below) instead of a class-data-sharing archive made at install.
if $aot; then
  cfg="$image/lib/app/steward-service.cfg"
  sed -i '/^java-options=-Xshare:auto$/d; s#^java-options=-XX:SharedArchiveFile=\$APPDIR/steward-service.jsa$#java-options=-XX:AOTCache=$APPDIR/steward-service.aot#' "$cfg"
  grep -q 'AOTCache=' "$cfg" || { echo "package: no AOTCache option in $cfg" >&2; exit 1; }
  # JavaFX 21 loads its native libraries and uses sun.misc.Unsafe, which 25 warns of at every
  # start; both are allowed for the window by name.
  printf 'java-options=%s\n' --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    >> "$image/lib/app/steward.cfg"
fi
case "$platform" in
  linux*)
    for launcher in steward steward-service; do
      write_shell_launcher "$image/lib/app/$launcher.cfg" "$image/bin/$launcher"
    done ;;
esac

echo "package: class lists from a training start (for class-data sharing)"
cp "$here/cds-dump.sh" "$image/lib/cds-dump.sh"
train="$(mktemp -d)"
if $aot; then
  # The service's training run: its idle warm-up to the end on a throw-away home, under the
  # launcher's own options and class path (the cache records them), less the cache it makes.
  cfg="$image/lib/app/steward-service.cfg"
  app="$(cd "$image/lib/app" && pwd)"
  opts=()
  while IFS= read -r opt; do
    case "$opt" in -XX:AOTCache=*) ;; *) opts+=("${opt//\$APPDIR/$app}") ;; esac
  done < <(grep '^java-options=' "$cfg" | sed 's/^java-options=//')
  cp_app="$(grep '^app.classpath=' "$cfg" | sed "s#^app.classpath=##; s#\\\$APPDIR#$app#" | paste -sd: -)"
  STEWARD_HOME="$train/aot-home" "$image/lib/runtime/bin/java" "${opts[@]}" \
    -XX:AOTCacheOutput="$app/steward-service.aot" -cp "$cp_app" dev.steward.service.ServiceMain --train \
    >"$train/aot.log" 2>&1 || { cat "$train/aot.log"; echo "package: the AOT training run failed" >&2; exit 1; }
  [ -s "$app/steward-service.aot" ] || { cat "$train/aot.log"; echo "package: no AOT cache" >&2; exit 1; }
  echo "package: $(grep -o 'trained on [0-9]* warm-up calls' "$train/aot.log"), cache $(du -h "$app/steward-service.aot" | cut -f1)"
  STEWARD_HOME="$train" "$image/bin/steward-service" >"$train/service.log" 2>&1 &
else
  STEWARD_HOME="$train" JAVA_TOOL_OPTIONS="-XX:DumpLoadedClassList=$image/lib/app/steward-service.classlist" \
    "$image/bin/steward-service" >"$train/service.log" 2>&1 &
fi
service=$!
for _ in $(seq 1 300); do [ -f "$train/run/service.json" ] && break; sleep 0.1; done
[ -f "$train/run/service.json" ] || { cat "$train/service.log"; echo "package: the service did not start" >&2; exit 1; }
# The window connects to the running service (it starts none of its own) and quits once it has.
window=(env STEWARD_HOME="$train" STEWARD_OLLAMA_URL=http://127.0.0.1:9
  JAVA_TOOL_OPTIONS="-XX:DumpLoadedClassList=$image/lib/app/steward.classlist -Dsteward.exit-after-start-ms=1500" "$image/bin/steward")
if [ -n "${DISPLAY:-}" ]; then "${window[@]}" >"$train/app.log" 2>&1 || true
elif command -v xvfb-run >/dev/null; then xvfb-run -a "${window[@]}" >"$train/app.log" 2>&1 || true
else echo "package: no display and no xvfb-run: the window gets no class list" >&2; fi
kill "$service"; wait "$service" || true
rm -rf "$train"
echo "package: $(wc -l < "$image/lib/app/steward-service.classlist" 2>/dev/null || echo "an AOT cache, no") service classes, $(wc -l < "$image/lib/app/steward.classlist" 2>/dev/null || echo 0) window classes"

if [ "$type" != app-image ]; then
  echo "package: $type installer (jpackage)"
  os_dir=linux
  case "$type" in dmg|pkg) os_dir=mac ;; msi|exe) os_dir=windows ;; esac
  "$jpackage" @"$here/$os_dir/$type.args" --type "$type" --app-image "$target/image/steward" --dest "$target" \
    --app-version "$version" --resource-dir "$here/$os_dir/resources"
fi
ls -la "$target"/*."$type" 2>/dev/null || ls -la "$target/image"
