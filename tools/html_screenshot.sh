#!/usr/bin/env bash
# Renders the legality-matrix page (`gisel rules -mtriple=T --html OUT`) of
# aarch64 and riscv32 in headless Chromium: a screenshot of each, and a
# check on the DOM Chromium parsed (the matrix table, its rows, coloured
# cells with a rule trail in their tooltip). Exits non-zero on a failed
# check or when Chromium is missing.
#
#   tools/html_screenshot.sh [GISEL] [OUT_DIR]
#
# GISEL defaults to target/release/gisel, OUT_DIR to target/test-output.
set -euo pipefail
cd "$(dirname "$0")/.."

gisel=${1:-target/release/gisel}
out=${2:-target/test-output}
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
  echo "html_screenshot: chromium not found (Debian: apt-get install -y chromium)" >&2
  exit 1
fi
if [[ ! -x $gisel ]]; then
  echo "html_screenshot: no gisel binary at '$gisel' (cargo build --release -p gisel-cli)" >&2
  exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Fails with a message naming the page when `count` is below `min`.
expect_at_least() {
  local page=$1 what=$2 count=$3 min=$4
  if ((count < min)); then
    echo "html_screenshot: $page: expected at least $min $what, found $count" >&2
    exit 1
  fi
}

for triple in aarch64 riscv32; do
  page="$out/matrix-$triple.html"
  "$gisel" rules -mtriple="$triple" --html "$page" >/dev/null
  flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars)
  "$chromium" "${flags[@]}" --window-size=1400,1000 --screenshot="$out/matrix-$triple.png" \
    "file://$page" 2>/dev/null
  "$chromium" "${flags[@]}" --dump-dom "file://$page" 2>/dev/null >"$out/matrix-$triple.dom.html"
  dom="$out/matrix-$triple.dom.html"

  [[ -s "$out/matrix-$triple.png" ]] || { echo "html_screenshot: no screenshot for $triple" >&2; exit 1; }
  grep -q '<table id="matrix">' "$dom" || { echo "html_screenshot: $triple: no matrix table in the DOM" >&2; exit 1; }
  expect_at_least "$triple" "opcode rows" "$(grep -o '<tr><th class="op">G_' "$dom" | wc -l)" 50
  expect_at_least "$triple" "legal cells" "$(grep -o '<td class="legal" title="' "$dom" | wc -l)" 20
  expect_at_least "$triple" "widening cells" "$(grep -o '<td class="widen-scalar" title="' "$dom" | wc -l)" 20
  expect_at_least "$triple" "G_ADD cells with a rule trail" \
    "$(grep -o 'title="G_ADD(s[0-9]*): rule [0-9]' "$dom" | wc -l)" 6
  echo "html_screenshot: $triple: $out/matrix-$triple.png"
done
