#!/usr/bin/env bash
# Screenshot of the REAL production window (WebKitGTK, not a browser) under a
# private Xvfb: starts build/bin/warren with a fresh data dir, waits for the
# "Warren" window, gives the page ~3 s to render the inventory, then grabs
# the screen with ImageMagick's `import`. Writes the path given, by default
# docs/screenshots/window.png. Expects build/bin/warren (make screenshot
# builds it first, then also takes docs/screenshots/schedules-form.png with
# ACTIONS like the example below).
#
# FIRST_RUN=1 keeps the first-run setup open (a fresh data dir shows it).
# ACTIONS drives the window before the shot, one xdotool step a line:
#   key KEYS…   press keys (xdotool names: alt+7, Tab, Return, ctrl+Return)
#   type TEXT   type text
#   sleep S     wait S seconds
# e.g. the Schedules screen with its form filled in:
#   ACTIONS=$'key alt+7\nkey Tab Tab Return\ntype Morning digest\nkey Tab Tab\ntype 0 9 * * 1-5' \
#     ./scripts/screenshot.sh build/screenshots/schedules-form.png
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${WARREN_BIN:-build/bin/warren}
out=${1:-docs/screenshots/window.png}
size=${SCREEN_SIZE:-1280x860}
for cmd in Xvfb import xdotool; do
  command -v "$cmd" >/dev/null || { echo "screenshot: $cmd not found; run ./scripts/bootstrap.sh" >&2; exit 1; }
done
[[ -x $bin ]] || { echo "screenshot: $bin missing; run make build" >&2; exit 1; }

tmp=$(mktemp -d)
xvfb_pid='' app_pid=''
cleanup() {
  # Only the two process groups started here.
  [[ -n $app_pid ]] && kill -TERM -- "-$app_pid" 2>/dev/null || true
  [[ -n $xvfb_pid ]] && kill -TERM -- "-$xvfb_pid" 2>/dev/null || true
  sleep 0.5
  [[ -n $app_pid ]] && kill -KILL -- "-$app_pid" 2>/dev/null || true
  [[ -n $xvfb_pid ]] && kill -KILL -- "-$xvfb_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Xvfb picks a free display itself and writes its number to fd 3.
setsid Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do [[ -s $tmp/display ]] && break; sleep 0.1; done
[[ -s $tmp/display ]] || { echo "screenshot: Xvfb did not start:" >&2; cat "$tmp/xvfb.log" >&2; exit 1; }
export DISPLAY=":$(head -1 "$tmp/display")"

mkdir -p "$tmp/home"
# A fresh data dir opens the first-run setup; FIRST_RUN=1 keeps it (the
# first-run shot), otherwise it is marked done so the shot shows the window.
if [[ -z ${FIRST_RUN:-} ]]; then
  WARREN_HOME="$tmp/home" "$bin" settings set ui.first_run_done true >/dev/null
fi
WARREN_HOME="$tmp/home" GDK_BACKEND=x11 NO_AT_BRIDGE=1 setsid "$bin" >"$tmp/app.log" 2>&1 &
app_pid=$!
start=$(date +%s.%N)
win=''
for _ in $(seq 150); do
  win=$(xdotool search --onlyvisible --name '^Warren$' 2>/dev/null | head -1 || true)
  [[ -n $win ]] && break
  kill -0 "$app_pid" 2>/dev/null || { echo "screenshot: the app exited:" >&2; cat "$tmp/app.log" >&2; exit 1; }
  sleep 0.1
done
[[ -n $win ]] || { echo "screenshot: no 'Warren' window within 15 s:" >&2; cat "$tmp/app.log" >&2; exit 1; }
awk -v w="$win" -v s="$start" -v e="$(date +%s.%N)" -v d="$DISPLAY" 'BEGIN { printf "screenshot: window %s mapped after %.1f s on %s\n", w, e - s, d }'
# Fill the screen so the shot shows the window, not a black margin.
xdotool windowmove "$win" 0 0 windowsize "$win" "${size%x*}" "${size#*x}" 2>/dev/null || true
sleep "${SETTLE:-3}"
if [[ -n ${ACTIONS:-} ]]; then
  # No window manager runs here: give the window the keyboard focus
  # ourselves, then send real (XTEST) input to it.
  xdotool windowfocus --sync "$win" 2>/dev/null || true
  while IFS= read -r step; do
    case $step in
      key\ *) read -ra keys <<<"${step#key }"; xdotool key --delay 60 "${keys[@]}" ;;
      type\ *) xdotool type --delay 25 "${step#type }" ;;
      sleep\ *) sleep "${step#sleep }" ;;
      '') ;;
      *) echo "screenshot: unknown ACTIONS step: $step" >&2; exit 1 ;;
    esac
    sleep 0.3
  done <<<"$ACTIONS"
  # Focusing may have let GTK place the window again.
  xdotool windowmove "$win" 0 0 2>/dev/null || true
  sleep 1
fi

mkdir -p "$(dirname "$out")"
import -window root -define png:exclude-chunks=date,time "$out"
# Memory of the app and its WebKit helper processes: PSS shares common pages fairly.
pss=0
for pid in "$app_pid" $(ps -o pid= --ppid "$app_pid" 2>/dev/null); do
  kb=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
  pss=$((pss + ${kb:-0}))
done
echo "screenshot: wrote $out (app + WebKit processes: PSS ≈ $((pss / 1024)) MB)"
