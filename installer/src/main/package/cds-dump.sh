#!/bin/sh
# Makes the class-data-sharing archives of an installed Steward (issue 7: a fast start). An
# archive records the class path it was made for, so it is made where Steward is installed: by
# the package's postinst, or by the start-up benchmark for the app image it measures. The class
# lists come from a training start at build time. Without an archive Steward starts anyway
# (-Xshare:auto), only slower.
set -e
lib="$(cd "$(dirname "$0")" && pwd)"
for launcher in steward steward-service; do
  cfg="$lib/app/$launcher.cfg"
  list="$lib/app/$launcher.classlist"
  [ -f "$cfg" ] && [ -f "$list" ] || continue
  cp="$(grep '^app.classpath=' "$cfg" | sed "s#^app.classpath=##; s#\$APPDIR#$lib/app#" | paste -sd: -)"
  # The launcher's module options (--enable-native-access, …) must be the dump's too, or the
  # JVM refuses the archive's module handling at every start.
  modules="$(grep '^java-options=--' "$cfg" | sed 's/^java-options=//' | paste -sd' ' -)"
  rm -f "$lib/app/$launcher.jsa"
  # shellcheck disable=SC2086 # one word per option
  if ! "$lib/runtime/bin/java" $modules -Xshare:dump -XX:SharedClassListFile="$list" -XX:SharedArchiveFile="$lib/app/$launcher.jsa" \
      -cp "$cp" >"$lib/app/$launcher.cds.log" 2>&1; then
    echo "steward: no class-data-sharing archive for $launcher (see $lib/app/$launcher.cds.log)" >&2
  fi
done
