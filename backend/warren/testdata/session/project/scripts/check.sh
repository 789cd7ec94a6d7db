#!/bin/sh
# check.sh: the checks to run before a commit.
set -e
for f in *.go; do
	grep -q '^package ' "$f" || { echo "$f: no package clause"; exit 1; }
done
echo "check: ok"
