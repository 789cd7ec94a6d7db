#!/usr/bin/env bash
# Sets up rootless Podman for Warren's sandbox on Debian/Ubuntu, run as root
# (bootstrap and CI call it):
#   - apt packages: podman, runc (crun fails on cgroup v1 hosts), uidmap
#     (newuidmap/newgidmap for rootless), catatonit (the container init),
#     slirp4netns (network for agents that opt in), busybox-static (the
#     default image's userland)
#   - an unprivileged user (default warren-sandbox) with /etc/subuid and
#     /etc/subgid ranges, its XDG_RUNTIME_DIR (/run/user/UID) and a
#     containers.conf/storage.conf (runc, cgroupfs, overlay)
#   - /dev/net/tun with its usual mode 0666, so slirp4netns (run as that user)
#     can open it
#   - that user's `podman system service` on /run/user/UID/podman/podman.sock,
#     started in the background when it is not answering
#   - the default sandbox image (localhost/warren-sandbox:latest), built
#     offline from busybox-static by the same Go code as
#     `warren sandbox image build`, when missing
# It writes the socket to use to $WARREN_SANDBOX_ENV (default
# /run/warren-sandbox.env) as CONTAINER_HOST=unix://…; Warren's socket
# discovery reads that file when it runs as root, so tests run as root use
# the unprivileged user's rootless service. Idempotent: a second run only
# checks (about a second).
#
# Usage: sudo ./scripts/podman-setup.sh          # set up / start
#        ./scripts/podman-setup.sh --print-env   # just print the env file
# Environment: WARREN_SANDBOX_USER, WARREN_SANDBOX_ENV, WARREN_SANDBOX_IMAGE.
set -euo pipefail
cd "$(dirname "$0")/.."

USER_NAME=${WARREN_SANDBOX_USER:-warren-sandbox}
ENV_FILE=${WARREN_SANDBOX_ENV:-/run/warren-sandbox.env}
IMAGE=${WARREN_SANDBOX_IMAGE:-localhost/warren-sandbox:latest}
APT_PACKAGES=(podman runc uidmap catatonit slirp4netns busybox-static)

say() { printf '\033[1mpodman-setup:\033[0m %s\n' "$*"; }
die() { printf 'podman-setup: error: %s\n' "$*" >&2; exit 1; }

if [[ ${1:-} == --print-env ]]; then
  cat "$ENV_FILE"
  exit 0
fi
[[ $(id -u) -eq 0 ]] || die "run as root (it installs packages and creates the user $USER_NAME)"
start=$(date +%s)

# --- packages -----------------------------------------------------------------
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ $status == installed ]] || missing+=("$pkg")
done
if ((${#missing[@]})); then
  say "installing apt packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "apt packages: all ${#APT_PACKAGES[@]} present"
fi

# --- /dev/net/tun for slirp4netns --------------------------------------------------
# A rootless container's network (the per-agent opt-in) comes from slirp4netns,
# which runs as the sandbox user and opens /dev/net/tun. Desktop distributions
# give the device mode 0666 (udev's default rule); fresh servers and container
# hosts often leave it 0600 root, so set the usual mode, now and at boot.
if [[ ! -e /dev/net/tun ]]; then
  modprobe tun 2>/dev/null || true
fi
if [[ ! -e /dev/net/tun ]]; then
  say "creating /dev/net/tun (char 10:200)"
  mkdir -p /dev/net
  mknod -m 0666 /dev/net/tun c 10 200
fi
if [[ $(stat -c %a /dev/net/tun) != 666 ]]; then
  say "chmod 0666 /dev/net/tun (was $(stat -c %A /dev/net/tun)): slirp4netns runs as $USER_NAME"
  chmod 0666 /dev/net/tun
fi
if [[ -d /etc/udev/rules.d && ! -f /etc/udev/rules.d/60-warren-tun.rules ]]; then
  echo 'KERNEL=="tun", MODE="0666"' >/etc/udev/rules.d/60-warren-tun.rules
  say "wrote /etc/udev/rules.d/60-warren-tun.rules (keeps the mode after a reboot)"
fi

# --- the unprivileged user ------------------------------------------------------
if ! id -u "$USER_NAME" >/dev/null 2>&1; then
  say "creating user $USER_NAME"
  useradd --create-home --shell /usr/sbin/nologin --comment "Warren sandbox (rootless Podman)" "$USER_NAME"
fi
uid=$(id -u "$USER_NAME")
gid=$(id -g "$USER_NAME")
home=$(getent passwd "$USER_NAME" | cut -d: -f6)

# A subordinate range that overlaps nobody else's: 65536 ids after the
# highest range already handed out (at least 100000).
add_subids() { # file usermod-flag
  local file=$1 flag=$2 next
  touch "$file"
  grep -q "^${USER_NAME}:" "$file" && return 0
  next=$(awk -F: 'BEGIN{m=100000} {e=$2+$3; if (e>m) m=e} END{print m}' "$file")
  say "adding $file range ${next}-$((next + 65535)) for $USER_NAME"
  usermod "$flag" "${next}-$((next + 65535))" "$USER_NAME"
}
add_subids /etc/subuid --add-subuids
add_subids /etc/subgid --add-subgids

# --- per-user Podman configuration ------------------------------------------
# User-level files only: the machine's own Podman settings stay untouched.
# cgroupfs and file events because there is no systemd user session to talk
# to; runc because crun cannot run on cgroup v1; overlay is the kernel's
# native rootless overlay (Linux >= 5.13), no fuse-overlayfs needed.
conf_dir=$home/.config/containers
install -d -o "$uid" -g "$gid" -m 0755 "$home/.config" "$conf_dir"
write_conf() { # path content
  if [[ ! -f $1 ]] || [[ $(cat "$1") != "$2" ]]; then
    printf '%s\n' "$2" >"$1"
    chown "$uid:$gid" "$1"
    say "wrote $1"
  fi
}
write_conf "$conf_dir/containers.conf" '[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"'
write_conf "$conf_dir/storage.conf" '[storage]
driver = "overlay"'

runtime_dir=/run/user/$uid
install -d -o "$uid" -g "$gid" -m 0700 "$runtime_dir" "$runtime_dir/podman"
sock=$runtime_dir/podman/podman.sock
host="unix://$sock"

as_user() {
  setpriv --reuid="$uid" --regid="$gid" --init-groups \
    env -i HOME="$home" USER="$USER_NAME" LOGNAME="$USER_NAME" XDG_RUNTIME_DIR="$runtime_dir" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
answers() { podman --url "$host" version >/dev/null 2>&1; }

# --- the Podman service ------------------------------------------------------------
# A service whose working directory was deleted (it was started from a
# clone that is gone) still answers, but conmon cannot start a container
# ("Failed to get working directory"): stop it so it starts again below.
for pid in $(pgrep -u "$uid" -f "podman system service" || true); do
  if [[ $(readlink "/proc/$pid/cwd" 2>/dev/null) == *"(deleted)" ]]; then
    say "podman service (pid $pid) runs in a deleted directory; restarting it"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$sock"
  fi
done
if answers; then
  say "podman service: answering on $sock"
else
  log=$home/podman-service.log
  say "starting $USER_NAME's podman system service on $sock (log: $log)"
  # From the user's home, never the caller's directory (which may go away).
  (cd "$home" && as_user setsid podman system service --time=0 "$host" </dev/null >>"$log" 2>&1 &)
  for _ in $(seq 100); do # the socket file appears once it listens
    [[ -S $sock ]] && break
    sleep 0.1
  done
  answers || { tail -20 "$log" >&2; die "the podman service did not answer on $sock within 10 s"; }
fi

tmp_env=$(mktemp)
printf 'CONTAINER_HOST=%s\nWARREN_SANDBOX_USER=%s\nWARREN_SANDBOX_UID=%s\n' "$host" "$USER_NAME" "$uid" >"$tmp_env"
chmod 0644 "$tmp_env"
mv "$tmp_env" "$ENV_FILE"

# --- the default image -----------------------------------------------------------
if podman --url "$host" image exists "$IMAGE"; then
  say "image $IMAGE: present"
else
  say "building $IMAGE offline from busybox-static"
  command -v go >/dev/null || die "Go is not on PATH (needed to build the image with sandbox/cmd/warren-sandbox)"
  CONTAINER_HOST=$host go run ./sandbox/cmd/warren-sandbox image build --image "$IMAGE"
fi

say "ready in $(($(date +%s) - start)) s: export CONTAINER_HOST=$host   (also in $ENV_FILE)"
