# Sourced by scripts/setup.sh and scripts/test.sh: install_missing PACKAGE... installs the
# Debian packages that are not installed yet (apt-get, as root or through sudo); quiet
# when all are there. WARPLINT_PACKAGES_LOG, when set, gets one line per call: the
# packages asked for, those missing, and the seconds apt took.
install_missing() {
  local missing=() p start
  for p in "$@"; do
    grep -q 'install ok installed' <<< "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || missing+=("$p")
  done
  start=$(date +%s)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "warplint: installing ${missing[*]}" >&2
    local sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq >/dev/null
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  [ -z "${WARPLINT_PACKAGES_LOG:-}" ] ||
    echo "asked $# missing ${#missing[@]} seconds $(( $(date +%s) - start ))" >> "$WARPLINT_PACKAGES_LOG"
}
