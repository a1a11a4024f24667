# Sourced by scripts/test and scripts/play: Debian packages the two commands need, installed
# with apt-get when missing (with sudo when not root), so a machine with only Python is enough.

apt_install() {  # apt_install PACKAGE...
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_npm() {  # Node.js >= 18 and npm build the front end (js/)
  if ! command -v npm >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "npm not found and no apt-get to install it: install Node.js >= 18 and npm" >&2
      return 1
    fi
    echo "npm not found: installing Debian's nodejs and npm"
    apt_install nodejs npm
    if ! command -v npm >/dev/null 2>&1; then
      echo "npm is still missing after apt-get install nodejs npm" >&2
      return 1
    fi
  fi
  if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
    echo "Node.js $(node --version) is too old: the front-end build needs Node.js >= 18" >&2
    return 1
  fi
  echo "node $(node --version), npm $(npm --version)"
}

ensure_chromium() {  # Debian's chromium drives the browser tests
  if [[ -x /usr/bin/chromium ]]; then
    echo "/usr/bin/chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo '?')"
  elif command -v apt-get >/dev/null 2>&1; then
    apt_install chromium
    /usr/bin/chromium --version
  else
    echo "WARNING: no apt-get and no /usr/bin/chromium: browser tests will be skipped" \
         "(fail under CI=true)"
  fi
}

ensure_cc() {  # a C compiler lets pip compile the engine with mypyc (else: pure Python)
  if command -v cc >/dev/null 2>&1; then
    echo "C compiler present: $(cc --version | head -n 1)"
  elif command -v apt-get >/dev/null 2>&1; then
    apt_install gcc libc6-dev
    cc --version | head -n 1
  else
    echo "WARNING: no C compiler and no apt-get: the pure-Python engine will be installed"
  fi
}
