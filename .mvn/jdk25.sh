# Sourced by ./mvnw and ./tidings: points JAVA_HOME at a JDK 25 or newer.
# Order: JAVA_HOME as given, then `java` on PATH, then any JDK under /usr/lib/jvm.
tidings_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}
tidings_pick_jdk() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" \
      "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")" \
      /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(tidings_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 25 ]; then
      export JAVA_HOME="$candidate"
      return 0
    fi
  done
  echo "Tidings needs a JDK 25 or newer, and none was found (JAVA_HOME, java on PATH, /usr/lib/jvm)." >&2
  echo "Install one, e.g. Temurin 25 (apt: temurin-25-jdk) or any OpenJDK 25, then set JAVA_HOME to it." >&2
  return 1
}
tidings_pick_jdk || exit 1
