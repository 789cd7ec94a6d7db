#!/usr/bin/env bash
# End-to-end tests: builds the Wails dev binary and drives its UI with
# headless Chromium against the real Go backend, each script with its own
# Xvfb, app and WARREN_HOME:
#   e2e/inventory.e2e.mjs   the tool inventory
#   e2e/approvals.e2e.mjs   Try it, the approvals queue, the native GTK
#                           dialog (answered with xdotool), sandbox and
#                           custom tools
#   e2e/inline-approval.e2e.mjs  approvals on the chat's tool cards (scripted
#                           model, e2e/cassettes/inline-approval.json); the
#                           native dialog only for a background window, and
#                           closed once the card answered
#   e2e/chat.e2e.mjs        providers, agents and Chat against a scripted
#                           model (llmserve replaying e2e/cassettes/chat.json)
#   e2e/schedules.e2e.mjs   Schedules (create, validation, run now, pause,
#                           delete), a message from the agent as a toast and
#                           a chat notice, and a subagent in the Chat strip
#                           (e2e/cassettes/schedules.json)
#   e2e/mcp.e2e.mjs         the MCP tab against the real server-everything
#                           over stdio: add, test, tools, kill → reconnect
#   e2e/firstrun.e2e.mjs    the first-run wizard on a fresh data dir: a
#                           detected local model server (llmserve replaying
#                           e2e/cassettes/firstrun.json), the sandbox check,
#                           the MCP step, then the first answer in Chat
#   e2e/teams.e2e.mjs       the Teams tab: a team from the editor, tasks with
#                           blocked_by, agents acting through team_tasks (in
#                           the app and from the CLI), cards moving live
#   e2e/teams-live.e2e.mjs  a team at work with the loop running and a scripted
#                           model per agent: the lead plans, members start by
#                           themselves, a message shows in the activity feed,
#                           and the window is killed (SIGKILL) mid-turn and
#                           started again: the orphan runs again, nothing stuck
#   e2e/knowledge.e2e.mjs   skills on disk, imported, granted and removed, and the
#                           knowledge graph edited and searched, through the
#                           bindings, the CLI and the Memory tab's two views
#   e2e/memory.e2e.mjs      the Memory tab: documents from the bindings, the UI
#                           and an agent's write_file (CLI, shown live), the
#                           builtin embedder's vectors filling, a
#                           hybrid search with each channel's rank, edit with
#                           Ctrl+S, a version restored, an embedder refused,
#                           a delete, 900×600 in dark mode
#   e2e/web-media.e2e.mjs   a page server trusted in the Agents tab's Web
#                           section, web_fetch (hidden text dropped),
#                           create_image in Chat, the picture shown inline,
#                           the browser tool's screenshot of the same page too
# Screenshots and logs go to build/e2e (E2E_OUT), never to the tracked
# docs/screenshots: only with E2E_DOCS=1 (make screenshot) does a script that
# passes copy its documentation shots there (see suite.docShot in e2e/lib.mjs).
# Expects frontend/dist to be built (make e2e does that first). Runs every
# script even when one fails; exits non-zero if any failed. The node scripts
# always stop the processes they started.
set -euo pipefail
cd "$(dirname "$0")/.."

for cmd in go node Xvfb xdotool import; do
  command -v "$cmd" >/dev/null || { echo "e2e: $cmd not found; run ./scripts/bootstrap.sh" >&2; exit 1; }
done
[[ -f frontend/dist/index.html ]] || { echo "e2e: frontend/dist missing; run make frontend" >&2; exit 1; }

mkdir -p build/bin
start=$(date +%s)
echo "e2e: go build -tags dev,webkit2_41 -o build/bin/warren-dev ."
go build -tags dev,webkit2_41 -o build/bin/warren-dev .
echo "e2e: go build -o build/bin/llmserve ./backend/llm/llmtest/cmd/llmserve"
go build -o build/bin/llmserve ./backend/llm/llmtest/cmd/llmserve
echo "e2e: built in $(( $(date +%s) - start )) s"

scripts=(e2e/inventory.e2e.mjs e2e/approvals.e2e.mjs e2e/inline-approval.e2e.mjs e2e/chat.e2e.mjs e2e/schedules.e2e.mjs e2e/mcp.e2e.mjs e2e/firstrun.e2e.mjs e2e/teams.e2e.mjs e2e/teams-live.e2e.mjs e2e/memory.e2e.mjs e2e/knowledge.e2e.mjs e2e/web-media.e2e.mjs)
failed=()
for script in "${scripts[@]}"; do
  t0=$(date +%s)
  echo "e2e: node $script"
  if node "$script"; then
    echo "e2e: $script passed in $(( $(date +%s) - t0 )) s"
  else
    echo "e2e: $script FAILED after $(( $(date +%s) - t0 )) s" >&2
    failed+=("$script")
  fi
done
if (( ${#failed[@]} )); then
  echo "e2e: failed: ${failed[*]}" >&2
  exit 1
fi
echo "e2e: all ${#scripts[@]} scripts passed in $(( $(date +%s) - start )) s"
