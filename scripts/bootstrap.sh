#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine to build, run and test Warren:
#   - apt packages (GTK/WebKitGTK dev files, Xvfb, Debian's Chromium, ImageMagick…)
#   - the frontend's npm packages (frontend/node_modules)
#   - golangci-lint v2, pinned, built with the local Go
# Idempotent: everything already in place is skipped, so a second run takes
# seconds. Run as root or as a user with sudo. Needs Go >= 1.26 and Node.js
# >= 20.19 with npm already installed (it checks and says so).
set -euo pipefail

GOLANGCI_LINT_VERSION=v2.15.0
APT_PACKAGES=(
  make build-essential pkg-config git ca-certificates
  libgtk-3-dev libwebkit2gtk-4.1-dev
  xvfb xauth x11-utils xdotool imagemagick chromium fonts-dejavu-core dbus-daemon
  python3 python3-venv
  espeak-ng ffmpeg
)

cd "$(dirname "$0")/.."
say() { printf '\033[1mbootstrap:\033[0m %s\n' "$*"; }
die() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }
start=$(date +%s)

# Commands that change the system need root; everything else runs as the
# invoking user so node_modules and GOPATH are not left owned by root.
if [[ $(id -u) -eq 0 ]]; then
  as_root() { "$@"; }
  if [[ -n ${SUDO_USER:-} && ${SUDO_USER} != root ]]; then
    as_user() { sudo -u "$SUDO_USER" -H env "PATH=$PATH" "$@"; }
  else
    as_user() { "$@"; }
  fi
else
  command -v sudo >/dev/null || die "not root and sudo is missing: run this as root"
  as_root() { sudo DEBIAN_FRONTEND=noninteractive "$@"; }
  as_user() { "$@"; }
fi

# --- apt packages ----------------------------------------------------------
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ $status == installed ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
  command -v apt-get >/dev/null || die "apt-get not found; install by hand: ${missing[*]}"
  say "installing apt packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "apt packages: all ${#APT_PACKAGES[@]} present"
fi

# --- toolchains (provided by the machine; checked, not installed) ----------
command -v go >/dev/null || die "Go is not on PATH (need Go 1.26 or newer: /usr/local/go/bin?)"
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
[[ $go_minor =~ ^[0-9]+$ && $go_minor -ge 26 ]] || die "need Go >= 1.26, have $(go env GOVERSION)"
command -v node >/dev/null && command -v npm >/dev/null || die "Node.js and npm are not on PATH (need Node >= 20.19)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  die "need Node.js >= 20.19 (Vite 8), have $(node --version)"

# --- frontend npm packages ---------------------------------------------------
# npm records the installed tree in node_modules/.package-lock.json; when it is
# newer than package.json and package-lock.json, the install is current.
stamp=frontend/node_modules/.package-lock.json
if [[ -f $stamp && $stamp -nt frontend/package.json && $stamp -nt frontend/package-lock.json ]]; then
  say "npm packages: up to date"
else
  say "npm install (frontend/)"
  (cd frontend && as_user npm install --no-audit --no-fund)
  touch "$stamp"
fi

# --- real MCP servers the tests run against -----------------------------------
stamp=backend/mcp/testdata/servers/node_modules/.package-lock.json
if [[ -f $stamp && $stamp -nt backend/mcp/testdata/servers/package.json && $stamp -nt backend/mcp/testdata/servers/package-lock.json ]]; then
  say "MCP test servers: up to date"
else
  say "npm install (backend/mcp/testdata/servers: MCP test servers)"
  (cd backend/mcp/testdata/servers && as_user npm install --no-audit --no-fund)
  touch "$stamp"
fi

# --- the MCP Inspector CLI: a third-party client for the gateway tests ---------
stamp=backend/mcp/gateway/testdata/inspector/node_modules/.package-lock.json
if [[ -f $stamp && $stamp -nt backend/mcp/gateway/testdata/inspector/package.json && $stamp -nt backend/mcp/gateway/testdata/inspector/package-lock.json ]]; then
  say "MCP Inspector CLI: up to date"
else
  say "npm install (backend/mcp/gateway/testdata/inspector: MCP Inspector CLI)"
  (cd backend/mcp/gateway/testdata/inspector && as_user npm install --no-audit --no-fund)
  touch "$stamp"
fi

# --- golangci-lint -------------------------------------------------------------
gobin=$(as_user go env GOBIN)
[[ -n $gobin ]] || gobin="$(as_user go env GOPATH)/bin"
lint="$gobin/golangci-lint"
if [[ -x $lint ]] && "$lint" version 2>/dev/null | grep -q "version ${GOLANGCI_LINT_VERSION#v} "; then
  say "golangci-lint ${GOLANGCI_LINT_VERSION}: present ($lint)"
else
  say "go install golangci-lint ${GOLANGCI_LINT_VERSION} (about 2 minutes on 2 cores)"
  as_user go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@${GOLANGCI_LINT_VERSION}"
fi
case ":$PATH:" in
  *":$gobin:"*) ;;
  *) say "note: $gobin is not on PATH; the Makefile finds golangci-lint there anyway" ;;
esac

# --- rootless Podman for the sandbox ------------------------------------------
# Installs podman/runc/uidmap/busybox-static, an unprivileged sandbox user
# with its rootless Podman service, and the offline sandbox image; the
# integration tests and a root-run Warren use that service.
say "podman sandbox setup"
as_root ./scripts/podman-setup.sh

# --- Go modules ------------------------------------------------------------------
say "go mod download"
as_user go mod download

# --- prove the sandbox works --------------------------------------------------------
# Every check the sandbox depends on, with real containers (one with the
# network opt-in), run as root the way the tests use it. A step above that
# did not take makes the set-up fail here, with the fix.
say "sandbox doctor (real containers, network opt-in included)"
tools_dir=$(as_user mktemp -d)
trap 'rm -rf "$tools_dir"' EXIT
as_user env CGO_ENABLED=0 go build -o "$tools_dir/warren-runner" ./sandbox/cmd/warren-runner
as_user go build -o "$tools_dir/warren-sandbox" ./sandbox/cmd/warren-sandbox
chmod 0755 "$tools_dir"
as_root env WARREN_RUNNER="$tools_dir/warren-runner" "$tools_dir/warren-sandbox" doctor ||
  die "the sandbox does not work after set-up (see FAIL above); fix it and run ./scripts/bootstrap.sh again"

say "done in $(($(date +%s) - start)) s"
